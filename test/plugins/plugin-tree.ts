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
