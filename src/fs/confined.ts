import { dirname, isWithin, normalize } from './path.js';
import { AskingFileSystem, type Question } from './questions.js';
import type { FileSystem } from './filesystem.js';

/** What a {@link ConfinedFileSystem} answers for a path outside its directory: nothing is there. */
const NOTHING: Readonly<Partial<Record<Question, unknown>>> = { exists: false, isDirectory: false, entryType: undefined, isExecutable: false };

/**
 * A view of a file system that holds only what is inside one directory, symlinks followed: a
 * path outside it, or one whose links lead outside it, is not there (questions about it answer
 * that nothing is there; reading it throws), and the file system it wraps is never asked about
 * it. Nothing is written through it. A server gives every request's build one, so no request
 * reaches past its root, whatever the kustomizations say and whatever the load restrictor
 * allows. It resolves each directory's links once: make one for each run over a tree whose
 * links do not change while it runs (a request), and a link changed later is seen by the next.
 */
export class ConfinedFileSystem extends AskingFileSystem {
  /** directories with their links resolved; null for one that does not exist */
  private readonly realDirs = new Map<string, string | null>();

  /** `dir`: absolute, its own links resolved */
  constructor(
    inner: FileSystem,
    readonly dir: string,
  ) {
    super(inner);
    this.realDirs.set(dir, dir);
  }

  /** Answers as the file system it wraps for every path it holds. */
  get viewOf(): FileSystem {
    return this.inner;
  }

  /** Whether `path` (absolute) is inside the directory, once its links are followed. */
  holds(path: string): boolean {
    const p = normalize(path);
    if (!isWithin(this.dir, p)) return false;
    if (p === this.dir) return true;
    const parent = dirname(p);
    const realParent = this.realDir(parent);
    // a path whose directory does not exist leads nowhere: the nearest existing directory decides
    if (realParent === null) return this.holds(parent);
    if (!isWithin(this.dir, realParent)) return false;
    // the path itself: only a link (or, asked no lstat, anything) may lead elsewhere
    const type = this.inner.entryType ? this.inner.entryType(p) : 'unknown';
    if (type !== 'symlink' && type !== 'unknown') return true;
    const real = this.realPathOf(p);
    // a dangling link leads nowhere it may go
    if (real === undefined) return type === 'unknown';
    return isWithin(this.dir, real);
  }

  private realDir(dir: string): string | null {
    let real = this.realDirs.get(dir);
    if (real === undefined) this.realDirs.set(dir, (real = this.realPathOf(dir) ?? null));
    return real;
  }

  /** `path`'s real path; undefined when it does not exist (a dangling link leads nowhere). */
  private realPathOf(path: string): string | undefined {
    try {
      return this.inner.realPath(path);
    } catch {
      return undefined;
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
