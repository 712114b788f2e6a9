import { sameBytes } from '../encoding/bytes.js';
import type { EntryType, FileSystem } from './filesystem.js';

/** The questions a build asks a file system. */
export type Question = 'readFile' | 'exists' | 'isDirectory' | 'readDir' | 'realPath' | 'entryType' | 'isExecutable';

/** What one question to the file system answered: a value (a file's bytes, a list of names), or what it threw. */
export type Answer = { value: unknown } | { threw: unknown };

/** Asks `fs` a question; what it throws is an answer too. */
export function answerOf(fs: FileSystem, question: Question, path: string): Answer {
  try {
    return { value: fs[question]!(path) };
  } catch (e) {
    return { threw: e };
  }
}

/** Whether two answers are the same: the same value, or both threw (whatever they threw). */
export function sameAnswer(a: Answer, b: Answer): boolean {
  if ('threw' in a || 'threw' in b) return 'threw' in a && 'threw' in b;
  const [x, y] = [a.value, b.value];
  if (x instanceof Uint8Array) return y instanceof Uint8Array && sameBytes(x, y);
  if (Array.isArray(x)) return Array.isArray(y) && x.length === y.length && x.every((v, i) => v === y[i]);
  return x === y;
}

/**
 * A file system that answers every question through {@link ask}, over the one it wraps: the
 * shape of the file systems that watch or keep what a build asks. Writes go to the one it
 * wraps.
 */
export abstract class AskingFileSystem implements FileSystem {
  readonly entryType?: (path: string) => EntryType | undefined;
  readonly isExecutable?: (path: string) => boolean;
  readonly isTheDisk?: boolean;

  constructor(protected readonly inner: FileSystem) {
    if (inner.isTheDisk) this.isTheDisk = true;
    if (inner.entryType) this.entryType = (path) => this.ask('entryType', path) as EntryType | undefined;
    if (inner.isExecutable) this.isExecutable = (path) => this.ask('isExecutable', path) as boolean;
  }

  /** The answer to one question about `path`. */
  protected abstract ask(question: Question, path: string): unknown;

  readFile(path: string): Uint8Array {
    return this.ask('readFile', path) as Uint8Array;
  }
  exists(path: string): boolean {
    return this.ask('exists', path) as boolean;
  }
  isDirectory(path: string): boolean {
    return this.ask('isDirectory', path) as boolean;
  }
  readDir(path: string): string[] {
    return this.ask('readDir', path) as string[];
  }
  realPath(path: string): string {
    return this.ask('realPath', path) as string;
  }
  writeFile(path: string, data: Uint8Array | string): void {
    this.inner.writeFile(path, data);
  }
  mkdirAll(path: string): void {
    this.inner.mkdirAll(path);
  }
}
