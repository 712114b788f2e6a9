import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { makeDirectories } from '../fs/disk.js';
import { basename, dirname, join, resolve } from 'node:path';
import { KustomizeError, messageOf } from '../errors.js';
import type { Resource } from '../model/resource.js';
import { resourceFiles } from './output-dir.js';

/**
 * `-o PATH`: into an existing directory, one file per resource; otherwise one file (its
 * directory created). Every file is written to a temporary file beside it and renamed into
 * place, so a failed write (a full disk) leaves what was there before; with a directory,
 * nothing is renamed until every file has been written.
 */
export function writeBuildOutput(output: string, result: { yaml: string; resources: readonly Resource[] }): void {
  if (isDirectory(output)) {
    writeAtomically(resourceFiles(result.resources).map((f) => ({ path: join(output, f.name), text: f.text })));
  } else {
    writeTextFile(output, result.yaml);
  }
}

/** Writes one file (its directory created) through a temporary file renamed into place: a failed write leaves what was there. */
export function writeTextFile(path: string, text: string): void {
  try {
    makeDirectories(dirname(resolve(path)));
  } catch (e) {
    throw failure(path, e);
  }
  writeAtomically([{ path, text }]);
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Writes every file to a temporary name, then renames them all; on any failure removes what it wrote. */
function writeAtomically(files: readonly { path: string; text: string }[]): void {
  const staged: { temp: string; path: string }[] = [];
  try {
    for (const f of files) {
      const temp = temporaryName(f.path);
      staged.push({ temp, path: f.path });
      try {
        writeFileSync(temp, f.text, { flag: 'wx' });
      } catch (e) {
        throw failure(f.path, e);
      }
    }
    for (const s of staged) {
      try {
        renameSync(s.temp, s.path);
      } catch (e) {
        throw failure(s.path, e);
      }
    }
  } catch (e) {
    for (const s of staged) rmSync(s.temp, { force: true });
    throw e;
  }
}

function temporaryName(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
}

function failure(path: string, e: unknown): KustomizeError {
  return new KustomizeError('OUTPUT_FAILED', `writing '${path}': ${messageOf(e)}`, { file: path, cause: e });
}
