// named imports: a namespace import makes the CLI bundle copy every export of the module at start-up
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { KustomizeError } from '../errors.js';
import { DiskFileSystem } from './disk.js';
import type { EntryType, FileSystem } from './filesystem.js';
import { childOf, dirname, isWithin, normalize } from './path.js';
import { TreeFileSystem } from './tree.js';

/** How long one git command may run before it is killed. */
const GIT_TIMEOUT_MS = 120_000;
/** The most one git command may write: a tree listing, or one batch of blobs. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
/**
 * How many bytes of blobs a tree reads ahead by default: all of them, with the first read, when
 * the whole commit is no larger; otherwise those of the directory read, up to this much besides
 * the blob asked for (a large file beside a kustomization is read on its own, when asked for).
 */
const READ_AHEAD_BYTES = 64 * 1024 * 1024;

/**
 * A git work tree, read with the `git` executable: its revisions, the files that changed
 * between them (or since one of them), and the tree of a commit as a {@link FileSystem}.
 * Revisions are never read as options: those starting with `-` are refused.
 */
export class GitRepository {
  private constructor(
    /** the top of the work tree: absolute, symlinks resolved */
    readonly top: string,
  ) {}

  /** The repository whose work tree holds `dir`. */
  static open(dir: string): GitRepository {
    const found = runGit(dir, ['rev-parse', '--show-toplevel']);
    if (found.status !== 0) throw new KustomizeError('USAGE', `${dir} is not in a git work tree${gitSaid(found.stderr)}`);
    return new GitRepository(realpathSync.native(found.stdout.toString('utf8').replace(/\n$/, '')));
  }

  /** The full sha of the commit `rev` names. */
  resolve(rev: string): string {
    if (rev.startsWith('-')) throw new KustomizeError('USAGE', `a revision cannot start with '-': '${rev}'`);
    const resolved = runGit(this.top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
    if (resolved.status === 0) return resolved.stdout.toString('utf8').trim();
    // a shallow clone may name a commit it does not hold (a branch's base, HEAD~5)
    const shallow = runGit(this.top, ['rev-parse', '--is-shallow-repository']).stdout.toString('utf8').trim() === 'true';
    if (!shallow) throw new KustomizeError('USAGE', `unknown revision '${rev}'${gitSaid(resolved.stderr)}`);
    // a ref names its commit without the commit being here
    const named = runGit(this.top, ['rev-parse', '--verify', '--quiet', '--end-of-options', rev]);
    const commit = named.status === 0 ? `commit ${named.stdout.toString('utf8').trim()} ('${rev}')` : `revision '${rev}'`;
    throw new KustomizeError('USAGE', `${commit} is not in this shallow clone (${this.top}): fetch it, with git fetch --unshallow or git fetch --deepen=N`);
  }

  /**
   * The files, relative to {@link top} and sorted, that differ between commit `since` and
   * commit `until`; without `until`, between `since` and the work tree: staged, unstaged,
   * deleted and untracked files (not ignored ones). A renamed file counts as both its paths.
   */
  changedFiles(since: string, until?: string): string[] {
    const diff = (...commits: string[]) => nulSeparated(git(this.top, ['diff', '--name-only', '--no-renames', '-z', ...commits, '--']));
    const from = this.resolve(since);
    const changed =
      until === undefined
        ? [...diff(from), ...nulSeparated(git(this.top, ['ls-files', '--others', '--exclude-standard', '-z']))]
        : diff(from, this.resolve(until));
    return [...new Set(changed)].sort();
  }

  /**
   * The untracked paths of the work tree that git ignores, relative to {@link top}: a directory
   * ignored whole once, ending in `/`.
   */
  ignoredPaths(): string[] {
    return nulSeparated(git(this.top, ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z']));
  }

  /**
   * The commit `rev` names as a build at it sees the machine: the commit's tree under
   * {@link top}, and the disk for what the commit cannot hold, which is the same at every
   * revision: the paths outside the top, and the files git ignores (a secret generator's
   * `.env`, a pulled helm chart) where the commit has nothing.
   */
  checkout(rev: string): FileSystem {
    return new CheckoutFileSystem(this.tree(rev), this.top, this.ignoredPaths());
  }

  /**
   * The tree of the commit `rev` names, mounted at {@link top}. `readAheadBytes` bounds what
   * one read of a blob brings in besides it (see {@link GitTreeFileSystem}).
   */
  tree(rev: string, readAheadBytes = READ_AHEAD_BYTES): GitTreeFileSystem {
    return new GitTreeFileSystem(this.top, this.resolve(rev), readAheadBytes);
  }
}

interface GitEntry {
  type: EntryType;
  /** the blob's (or tree's, or submodule commit's) object id */
  oid: string;
  /** bytes of a blob; 0 for the rest */
  size: number;
  executable: boolean;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * The tree of one commit, read-only, mounted where the work tree is: what a checkout of the
 * commit would hold, read from git's objects. It lists the tree with one `git ls-tree`. A commit
 * whose blobs fit in the read-ahead is read whole, with one `git cat-file --batch`, when a file
 * is first read: building every root of a repository then costs two processes. A larger one is
 * read a directory at a time, the blob asked for with those beside it, so a build runs one
 * process per directory it reads. Blobs are read as stored: a checkout's
 * filters (eol conversion, LFS) are not applied. A submodule is an empty directory, as in a
 * checkout that did not update it.
 */
class GitTreeFileSystem extends TreeFileSystem implements FileSystem {
  private readonly entries = new Map<string, GitEntry>();
  /** the sorted entry names of each directory */
  private readonly names = new Map<string, string[]>();
  /** the blobs read so far, by object id */
  private readonly blobs = new Map<string, Uint8Array>();
  /** the bytes of all the commit's blobs, each counted once */
  private readonly totalBytes: number;

  constructor(
    top: string,
    /** the full sha of the commit ({@link GitRepository.resolve}) */
    readonly commit: string,
    private readonly readAheadBytes: number,
  ) {
    super(top);
    this.names.set(top, []);
    const listing = git(top, ['ls-tree', '-r', '-t', '-l', '-z', '--full-tree', commit]).toString('utf8');
    for (const record of nulSeparated(listing)) {
      // <mode> SP <type> SP <object> SP+ <size> TAB <path>
      const tab = record.indexOf('\t');
      const [mode, type, oid, size] = record.slice(0, tab).split(/ +/) as [string, string, string, string];
      const relative = record.slice(tab + 1);
      const slash = relative.lastIndexOf('/');
      const path = childOf(top, relative);
      const entry: GitEntry =
        type === 'blob'
          ? { type: mode === '120000' ? 'symlink' : 'file', oid, size: Number(size), executable: mode === '100755' }
          : { type: 'directory', oid, size: 0, executable: false };
      this.entries.set(path, entry);
      // -t lists a tree before what it holds
      this.names.get(slash < 0 ? top : childOf(top, relative.slice(0, slash)))!.push(relative.slice(slash + 1));
      if (entry.type === 'directory') this.names.set(path, []);
    }
    for (const names of this.names.values()) names.sort();
    const sizes = new Map<string, number>();
    for (const { type, oid, size } of this.entries.values()) if (type !== 'directory') sizes.set(oid, size);
    this.totalBytes = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  }

  writeFile(path: string): never {
    throw readOnly(path);
  }
  mkdirAll(path: string): never {
    throw readOnly(path);
  }

  protected typeOf(path: string): EntryType | undefined {
    return path === this.root ? 'directory' : this.entries.get(path)?.type;
  }
  protected readLink(path: string): string {
    return decoder.decode(this.blob(path));
  }
  protected contentOf(path: string): Uint8Array {
    return this.blob(path);
  }
  protected namesIn(path: string): string[] {
    return [...this.names.get(path)!];
  }
  protected executableAt(path: string): boolean {
    return this.entries.get(path)!.executable;
  }

  private blob(path: string): Uint8Array {
    const { oid } = this.entries.get(path)!;
    if (!this.blobs.has(oid)) this.readBlobs(this.totalBytes <= this.readAheadBytes ? this.allBlobs() : this.blobsBeside(path));
    return this.blobs.get(oid)!;
  }

  private allBlobs(): Set<string> {
    const oids = new Set<string>();
    for (const { type, oid } of this.entries.values()) if (type !== 'directory') oids.add(oid);
    return oids;
  }

  /** The blob at `path` and the unread blobs of its directory, up to the read-ahead. */
  private blobsBeside(path: string): Set<string> {
    const dir = dirname(path);
    const oids = new Set([this.entries.get(path)!.oid]);
    let bytes = 0;
    for (const name of this.names.get(dir)!) {
      const sibling = this.entries.get(childOf(dir, name))!;
      if (sibling.type === 'directory' || oids.has(sibling.oid) || this.blobs.has(sibling.oid) || bytes + sibling.size > this.readAheadBytes) continue;
      oids.add(sibling.oid);
      bytes += sibling.size;
    }
    return oids;
  }

  /** Reads the blobs `oids` in one `git cat-file --batch`. */
  private readBlobs(oids: Set<string>): void {
    const out = git(this.root, ['cat-file', '--batch'], [...oids].join('\n') + '\n');
    // records of <object> SP <type> SP <size> LF <contents> LF
    for (let at = 0; at < out.length; ) {
      const eol = out.indexOf(10, at);
      const [oid, type, size] = out.toString('latin1', at, eol < 0 ? out.length : eol).split(' ');
      if (eol < 0 || type !== 'blob') throw new KustomizeError('GIT_FAILED', `git cat-file could not read object ${oid} of commit ${this.commit}: ${type ?? 'truncated'}`);
      const end = eol + 1 + Number(size);
      this.blobs.set(oid!, out.subarray(eol + 1, end));
      at = end + 1;
    }
  }
}

/** {@link GitRepository.checkout}: a commit's tree, with the disk outside the top and for the ignored files. */
class CheckoutFileSystem implements FileSystem {
  private readonly disk = new DiskFileSystem();
  /** the ignored files, and the ignored directories ending in `/`, absolute */
  private readonly ignored: string[];

  constructor(
    private readonly tree: GitTreeFileSystem,
    private readonly top: string,
    ignored: readonly string[],
  ) {
    this.ignored = ignored.map((p) => (p.endsWith('/') ? `${childOf(top, p.slice(0, -1))}/` : childOf(top, p)));
  }

  readFile(path: string): Uint8Array {
    return this.at(path).readFile(path);
  }
  exists(path: string): boolean {
    return this.at(path).exists(path);
  }
  isDirectory(path: string): boolean {
    return this.at(path).isDirectory(path);
  }
  /** a directory of the tree lists the ignored entries the disk holds in it too */
  readDir(path: string): string[] {
    const fs = this.at(path);
    const names = fs.readDir(path);
    if (fs === this.disk) return names;
    const dir = normalize(path);
    const beside = this.ignored.map((p) => p.replace(/\/$/, '')).filter((p) => dirname(p) === dir && this.disk.entryType(p) !== undefined);
    return beside.length === 0 ? names : [...new Set([...names, ...beside.map((p) => p.slice(dir.length + 1))])].sort();
  }
  realPath(path: string): string {
    return this.at(path).realPath(path);
  }
  entryType(path: string): EntryType | undefined {
    return this.at(path).entryType(path);
  }
  isExecutable(path: string): boolean {
    return this.at(path).isExecutable(path);
  }
  writeFile(path: string): never {
    throw readOnly(path);
  }
  mkdirAll(path: string): never {
    throw readOnly(path);
  }

  /** Who answers for `path`: the disk outside the top and for an ignored path the tree has nothing at, else the tree. */
  private at(path: string): GitTreeFileSystem | DiskFileSystem {
    const p = normalize(path);
    if (!isWithin(this.top, p)) return this.disk;
    const ignored = this.ignored.some((i) => (i.endsWith('/') ? p.startsWith(i) || p === i.slice(0, -1) : p === i));
    return ignored && this.tree.entryType(p) === undefined ? this.disk : this.tree;
  }
}

function readOnly(path: string): KustomizeError {
  return new KustomizeError('USAGE', `cannot write '${path}': a git revision is read-only`, { file: path });
}

function nulSeparated(text: Buffer | string): string[] {
  return text.toString().split('\0').filter((s) => s !== '');
}

interface GitRun {
  /** null when a signal ended it */
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs `git -C dir args…`, bounded in time and output. What its exit status means is the
 * caller's to judge; failing to start, the time limit and the output limit throw GIT_FAILED.
 */
function runGit(dir: string, args: readonly string[], input?: string): GitRun {
  const run = spawnSync('git', ['-C', dir, ...args], {
    input,
    timeout: GIT_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: MAX_OUTPUT_BYTES,
    // a read must not take the index lock from a git command the user runs meanwhile
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
  });
  const shown = `'git ${args.join(' ')}' in ${dir}`;
  const code = (run.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') throw new KustomizeError('GIT_FAILED', 'no git executable found on the PATH; reading a git repository needs it', { cause: run.error });
  if (code === 'ETIMEDOUT') throw new KustomizeError('GIT_FAILED', `${shown} did not finish in ${GIT_TIMEOUT_MS / 1000}s`, { cause: run.error });
  if (code === 'ENOBUFS') throw new KustomizeError('GIT_FAILED', `${shown} wrote more than ${MAX_OUTPUT_BYTES / (1024 * 1024)} MiB`, { cause: run.error });
  if (run.error) throw new KustomizeError('GIT_FAILED', `failed to run ${shown}: ${run.error.message}`, { cause: run.error });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr.toString('utf8') };
}

/** {@link runGit}'s output, an exit status other than 0 throwing GIT_FAILED. */
function git(dir: string, args: readonly string[], input?: string): Buffer {
  const run = runGit(dir, args, input);
  if (run.status !== 0) throw new KustomizeError('GIT_FAILED', `'git ${args.join(' ')}' in ${dir} failed${gitSaid(run.stderr)}`);
  return run.stdout;
}

/** What git wrote to stderr, for a message: `: fatal: …`, or nothing. */
function gitSaid(stderr: string): string {
  const said = stderr.trim();
  return said === '' ? '' : `: ${said.length > 2000 ? '…' + said.slice(-2000) : said}`;
}
