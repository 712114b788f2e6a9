import { KustomizeError } from '../errors.js';
import type { EntryType } from './filesystem.js';
import { childOf, dirname, isWithin } from './path.js';

/** Linux's MAXSYMLINKS: how many links one path may pass through before it is taken for a loop. */
const MAX_SYMLINK_HOPS = 40;

/**
 * The reading half of a file system whose tree the subclass holds itself (in memory, in a git
 * revision) under `root`, symlinks included: it resolves the links as the kernel does, so that
 * it answers every query as the disk would for the same tree. The subclass says what each
 * path is, without following links; this class does the rest.
 */
export abstract class TreeFileSystem {
  constructor(
    /** where the tree is mounted: nothing outside it exists */
    protected readonly root: string,
  ) {}

  /** what is at `path`: absolute, normalised, inside the root, with no symlink above it */
  protected abstract typeOf(path: string): EntryType | undefined;
  /** the target of the symlink at `path`, as written: absolute, or relative to its directory */
  protected abstract readLink(path: string): string;
  /** the contents of the file at `path` (a real path) */
  protected abstract contentOf(path: string): Uint8Array;
  /** the entry names of the directory at `path` (a real path), sorted */
  protected abstract namesIn(path: string): string[];
  /** whether the file at `path` (a real path) is executable */
  protected abstract executableAt(path: string): boolean;

  readFile(path: string): Uint8Array {
    const real = this.resolve(path, true);
    if (real === undefined || this.typeOf(real) !== 'file') throw fileNotFound(path);
    return this.contentOf(real);
  }
  exists(path: string): boolean {
    return this.resolveQuietly(path, true) !== undefined;
  }
  isDirectory(path: string): boolean {
    const real = this.resolveQuietly(path, true);
    return real !== undefined && this.typeOf(real) === 'directory';
  }
  readDir(path: string): string[] {
    const real = this.resolve(path, true);
    if (real === undefined || this.typeOf(real) !== 'directory') throw fileNotFound(path);
    return this.namesIn(real);
  }
  realPath(path: string): string {
    const real = this.resolve(path, true);
    if (real === undefined) throw fileNotFound(path);
    return real;
  }
  entryType(path: string): EntryType | undefined {
    const at = this.resolveQuietly(path, false);
    return at === undefined ? undefined : this.typeOf(at);
  }
  isExecutable(path: string): boolean {
    const real = this.resolveQuietly(path, true);
    return real !== undefined && this.typeOf(real) === 'file' && this.executableAt(real);
  }

  /** {@link resolve}, a loop of links being nothing there, as the disk's exists and lstat say */
  private resolveQuietly(path: string, followLast: boolean): string | undefined {
    try {
      return this.resolve(path, followLast);
    } catch {
      return undefined;
    }
  }

  /**
   * The path of what `path` names, with every symlink on the way replaced by its target (the
   * last one too, when `followLast`); undefined when nothing is there. `..` goes up from where
   * a link led, and a trailing `/` asks for a directory, as in the kernel. Throws on a loop.
   */
  private resolve(path: string, followLast: boolean): string | undefined {
    // the parts still to walk, the next one last
    const parts = path.split('/').filter(Boolean).reverse();
    if (path.endsWith('/') && parts.length > 0) parts.unshift('.');
    let at = '/';
    let hops = 0;
    while (parts.length > 0) {
      const part = parts.pop()!;
      if (this.kindOf(at) !== 'directory') return undefined;
      if (part === '.') continue;
      if (part === '..') {
        at = dirname(at);
        continue;
      }
      const next = childOf(at, part);
      const kind = this.kindOf(next);
      if (kind === undefined) return undefined;
      if (kind === 'symlink' && (followLast || parts.length > 0)) {
        if (++hops > MAX_SYMLINK_HOPS) throw new KustomizeError('FILE_INVALID', `too many levels of symbolic links: ${path}`, { file: path });
        const target = this.readLink(next);
        if (target === '') return undefined;
        if (target.startsWith('/')) at = '/';
        if (target.endsWith('/')) parts.push('.');
        parts.push(...target.split('/').filter(Boolean).reverse());
        continue;
      }
      at = next;
    }
    return isWithin(this.root, at) ? at : undefined;
  }

  /** {@link typeOf}, the directories above the root holding only the way down to it */
  private kindOf(path: string): EntryType | undefined {
    if (isWithin(this.root, path)) return this.typeOf(path);
    return isWithin(path, this.root) ? 'directory' : undefined;
  }
}

export function fileNotFound(path: string): KustomizeError {
  return new KustomizeError('FILE_NOT_FOUND', `'${path}' doesn't exist`, { file: path });
}
