import { dirname, isWithin, normalize } from './path.js';
import { AskingFileSystem, type Question } from './questions.js';
import type { FileSystem } from './filesystem.js';

/** What a {@link ConfinedFileSystem} answers for a path outside its directory: nothing is there. */
const NOTHING: Readonly<Partial<Record<Question, unknown>>> = { exists: false, isDirectory: false, entryType: undefined, isExecutable: false };

/**
 * A file system that holds only what is inside one directory, symlinks followed: a path
 * outside it, or one whose links lead outside it, is not there (questions about it answer
 * that nothing is there; reading it throws), and the file system it wraps is never asked about
 * it. Nothing is written through it. A server gives every build this, so no request reaches
 * past its root, whatever the kustomizations say and whatever the load restrictor allows.
 */
export class ConfinedFileSystem extends AskingFileSystem {
  /** `dir`: absolute, its own links resolved */
  constructor(
    inner: FileSystem,
    readonly dir: string,
  ) {
    super(inner);
  }

  /** Whether `path` (absolute) is inside the directory, once its links are followed. */
  holds(path: string): boolean {
    const p = normalize(path);
    if (!isWithin(this.dir, p)) return false;
    // what does not exist leads nowhere: its nearest existing parent decides
    for (let at = p; ; at = dirname(at)) {
      if (this.inner.entryType ? this.inner.entryType(at) !== undefined : this.inner.exists(at)) return isWithin(this.dir, this.realPathOf(at));
      if (at === this.dir) return true;
    }
  }

  /** `path`'s real path; a dangling link's is nowhere, so nothing is read through it. */
  private realPathOf(path: string): string {
    try {
      return this.inner.realPath(path);
    } catch {
      return '';
    }
  }

  protected ask(question: Question, path: string): unknown {
    if (this.holds(path)) return this.inner[question]!(path);
    if (Object.hasOwn(NOTHING, question)) return NOTHING[question];
    throw new Error(`ENOENT: '${path}' is outside '${this.dir}'`);
  }

  override writeFile(path: string): void {
    throw new Error(`EROFS: '${path}' is on a read-only file system`);
  }

  override mkdirAll(path: string): void {
    throw new Error(`EROFS: '${path}' is on a read-only file system`);
  }
}
