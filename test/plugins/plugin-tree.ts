import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A file to write: its text, executable when `exec` is set. */
export type TreeFile = string | { text: string; exec: true };

/** Writes a tree of files under a fresh temp directory and returns the directory. */
export function writeTree(files: Record<string, TreeFile>): string {
  const root = mkdtempSync(join(tmpdir(), 'kts-plugin-test-'));
  for (const [path, file] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, typeof file === 'string' ? file : file.text);
    if (typeof file !== 'string') chmodSync(abs, 0o755);
  }
  return root;
}

export const exec = (text: string): TreeFile => ({ text, exec: true });

/** The config of an exec KRM function of this kind, running the program at `path`. */
export const execFunctionConfig = (kind: string, path: string): string =>
  `apiVersion: example.com/v1\nkind: ${kind}\nmetadata:\n  name: ${kind.toLowerCase()}\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ${path}\n`;

/**
 * A program that starts a `sleep` (its pid in `child.pid`), says it is running (its own pid in
 * `ready.pid`, written aside and renamed, in the directory it runs in), and waits: a process
 * group for a test to stop.
 */
export const SLEEPER = exec('#!/bin/sh\nsleep 300 &\necho $! > child.pid\necho $$ > ready.tmp && mv ready.tmp ready.pid\nwait\n');
