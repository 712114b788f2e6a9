import { utf8DecodeStrict } from '../encoding/base64.js';
import { KustomizeError } from '../errors.js';
import type { FileSystem } from '../fs/filesystem.js';
import { dirname, isWithin, join, normalize, relative, resolve } from '../fs/path.js';

/** kustomize's `--load-restrictor`: may files outside a kustomization's directory be read? */
export type LoadRestriction = 'rootOnly' | 'none';

/** Where a kustomization directory is, for origin annotations. */
export interface OriginBase {
  /** relative to the top of the build, or to the root of `repo` */
  dir: string;
  repo?: string;
  ref?: string;
}

/**
 * Where a remote kustomization was fetched to: files inside it may never escape it, whatever
 * the load restriction.
 */
interface RemoteOrigin {
  /** as written by the user, e.g. `https://github.com/org/repo//base?ref=v1` */
  url: string;
  /** the local directory holding the fetched tree */
  dir: string;
}

/**
 * A kustomization's view of the file system: reads files relative to its root and applies
 * the load restriction; makes loaders for the kustomizations it refers to, refusing cycles.
 * Errors use kustomize's wording.
 */
export class Loader {
  private constructor(
    readonly fs: FileSystem,
    /** absolute, symlinks resolved */
    readonly root: string,
    readonly restriction: LoadRestriction,
    readonly referrer: Loader | undefined,
    readonly remote: RemoteOrigin | undefined,
    /** where the directory is, for origin annotations */
    readonly origin: OriginBase,
    /** directories with their symlinks resolved, shared by the loaders of one build on one file system (links do not change during it) */
    private readonly realDirs: Map<string, string> = referrer?.fs === fs ? referrer.realDirs : new Map(),
  ) {
    // the root is resolved already: the files beside the kustomization need no realpath of their own
    realDirs.set(root, root);
  }

  /** The loader for the directory a build starts at; `target` as the user gave it (relative to `cwd`). */
  static atRoot(fs: FileSystem, target: string, restriction: LoadRestriction, cwd = '/'): Loader {
    const root = mustBeDir(fs, resolve(cwd, target), target);
    return new Loader(fs, root, restriction, undefined, undefined, { dir: '' });
  }

  /** The loader for a fetched remote tree (`dir` inside it, at `origin`); files never escape it. */
  static atRemote(fs: FileSystem, dir: string, remote: RemoteOrigin, referrer: Loader | undefined, origin: OriginBase): Loader {
    const root = mustBeDir(fs, dir, dir);
    if (!isWithin(remote.dir, root)) {
      throw new KustomizeError('LOAD_RESTRICTED', `"${dir}" refers to directory outside of repo "${remote.dir}"`);
    }
    return new Loader(fs, root, 'rootOnly', referrer, remote, origin);
  }

  /** The absolute path `path` denotes, relative to the root. */
  absolute(path: string): string {
    return resolve(this.root, path);
  }

  /** The remote tree this loader is inside, if any. */
  get containingRemote(): RemoteOrigin | undefined {
    return this.remote ?? this.referrer?.containingRemote;
  }

  /** The path of `path` relative to the repository or the directory the build started at (for origin annotations). */
  originPath(path: string): string {
    const remote = this.containingRemote;
    const base = remote ? remote.dir : this.topRoot();
    return relative(base, this.absolute(path));
  }

  private topRoot(): string {
    let l: Loader = this;
    while (l.referrer && !l.remote) l = l.referrer;
    return l.root;
  }

  /** Reads a file, enforcing the load restriction. */
  load(path: string): Uint8Array {
    const abs = this.absolute(path);
    let real = abs;
    if (this.restriction === 'rootOnly') {
      const resolved = this.resolveFile(abs);
      if (!isWithin(this.root, resolved.dir)) {
        throw new KustomizeError('LOAD_RESTRICTED', `security; file '${abs}' is not in or below '${this.root}'`, { file: abs });
      }
      real = resolved.path;
    }
    try {
      return this.fs.readFile(real);
    } catch (e) {
      throw new KustomizeError('FILE_NOT_FOUND', `open ${abs}: no such file or directory`, { file: abs, cause: e });
    }
  }

  /** The file `abs` (normalised) with its symlinks resolved, and its directory; kustomize's errors when it is missing or a directory. */
  private resolveFile(abs: string): { path: string; dir: string } {
    if (this.fs.entryType?.(abs) === 'file') {
      // not a link itself: only its directory needs resolving, and a build's files share few directories
      const slash = abs.lastIndexOf('/');
      const parent = slash === 0 ? '/' : abs.slice(0, slash);
      let dir = this.realDirs.get(parent);
      if (dir === undefined) this.realDirs.set(parent, (dir = this.fs.realPath(parent)));
      return { path: (dir === '/' ? '' : dir) + abs.slice(slash), dir };
    }
    const path = cleanedAbs(this.fs, abs);
    if (this.fs.isDirectory(path)) {
      throw new KustomizeError('LOAD_RESTRICTED', `'${abs}' must resolve to a file`, { file: abs });
    }
    return { path, dir: dirname(path) };
  }

  /** Whether `path` (relative to the root) is a directory, symlinks followed. */
  isDirectory(path: string): boolean {
    return this.fs.isDirectory(this.absolute(path));
  }

  /** Reads a text file (UTF-8, as kustomize's YAML reader requires), enforcing the load restriction. */
  loadText(path: string): string {
    const text = utf8DecodeStrict(this.load(path));
    if (text === undefined) {
      throw new KustomizeError('FILE_INVALID', `'${this.absolute(path)}' is not UTF-8 text (yaml: incomplete UTF-8 octet sequence)`, { file: path });
    }
    return text;
  }

  /** A loader for the kustomization at `path` (a directory relative to the root). */
  child(path: string): Loader {
    const loader = this.descend(path);
    for (let l: Loader | undefined = this; l; l = l.referrer) {
      if (isWithin(loader.root, l.root)) {
        throw new KustomizeError('CYCLE', `cycle detected: candidate root '${loader.root}' contains visited root '${l.root}'`);
      }
    }
    return loader;
  }

  /**
   * This loader, but resolving the directories of the files it and the loaders below it read
   * on its own instead of with every loader of the build: each directory is then asked of the
   * file system while they read (what a base remembered apart from its build must record).
   */
  apart(): Loader {
    return new Loader(this.fs, this.root, this.restriction, this.referrer, this.remote, this.origin, new Map());
  }

  /**
   * A loader for the directory of a Composition imported from this one: like {@link child},
   * but a parent or sibling directory is allowed, because Composition imports are checked
   * for cycles by file.
   */
  importRoot(path: string): Loader {
    return this.descend(path);
  }

  private descend(path: string): Loader {
    if (path === '') throw new KustomizeError('LOAD_RESTRICTED', 'new root cannot be empty');
    if (path.startsWith('/')) throw new KustomizeError('LOAD_RESTRICTED', `new root '${path}' cannot be absolute`);
    const abs = this.absolute(path);
    const root = mustBeDir(this.fs, abs, abs);
    const remote = this.containingRemote;
    if (remote && !isWithin(remote.dir, root)) {
      throw new KustomizeError(
        'LOAD_RESTRICTED',
        `security; bases in kustomizations found in cloned git repos must be within the repo, but base '${root}' is outside '${remote.dir}'`,
      );
    }
    return new Loader(this.fs, root, this.restriction, this, undefined, { ...this.origin, dir: join(this.origin.dir, path) });
  }

  /** Refuses a remote URL already being loaded further up (a cycle through remote bases). */
  checkRemoteCycle(url: string): void {
    for (let l: Loader | undefined = this; l; l = l.referrer) {
      if (l.remote && l.remote.url.startsWith(url)) {
        throw new KustomizeError('CYCLE', `cycle detected: URI '${url}' referenced by previous URI '${l.remote.url}'`);
      }
    }
  }
}

/** The path with symlinks resolved; kustomize's "evalsymlink failure" when it does not exist. */
export function cleanedAbs(fs: FileSystem, path: string): string {
  try {
    return fs.realPath(normalize(path));
  } catch {
    throw new KustomizeError('FILE_NOT_FOUND', `evalsymlink failure on '${path}' : '${path}' doesn't exist`, { file: path });
  }
}

/** `path` as a directory (symlinks resolved), or kustomize's error naming `shown`. */
function mustBeDir(fs: FileSystem, path: string, shown: string): string {
  let real: string;
  try {
    real = fs.realPath(normalize(path));
  } catch {
    throw new KustomizeError(
      'FILE_NOT_FOUND',
      `must build at directory: not a valid directory: evalsymlink failure on '${shown}' : '${shown}' doesn't exist`,
      { file: path },
    );
  }
  if (!fs.isDirectory(real)) {
    throw new KustomizeError('FILE_NOT_FOUND', `must build at directory: '${shown}': file is not directory`, { file: path });
  }
  return real;
}
