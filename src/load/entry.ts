import type { FileSystem } from '../fs/filesystem.js';
import { join } from '../fs/path.js';
import { isOciReference, parseOciReference, type OciReference } from '../oci/reference.js';
import { Loader, type LoadRestriction, type OriginBase } from './loader.js';
import { isHttpUrl, namesRemoteTree, type RemoteSource } from './remote/remote-source.js';
import { cloneUrl, parseRepoSpec, type RepoSpec } from './remote/repo-spec.js';

/** The names a kustomization file may have in its directory. */
export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;
/** The names a Composition file may have in its directory. */
export const COMPOSITION_FILE_NAMES = ['composition.yaml', 'composition.yml', 'Composition'] as const;

/** Entries named like this are resource files, almost always: they are read as files without asking first. */
const RESOURCE_FILE_NAME = /\.(ya?ml|json)$/i;

/**
 * A single line that is a YAML map, written in flow style or as `key: value`: no path looks so.
 * (A config written over several lines is inline whatever it holds.)
 */
const ONE_LINE_MAP = /^\s*(\{|[^\s:#'"][^:#]*:(\s|$))/;

/**
 * What an entry of a kustomization names: a `resources:`, `components:`, `generators:`,
 * `transformers:` or `validators:` item, or the path a build starts at. Decided here, once,
 * for every caller:
 * - `inline`: a config written in place (only where configs may be, see {@link classifyEntry});
 * - `file`: a local path to read as a file (kustomize tries it as a directory when that fails,
 *   and as a git repository when `repo` is set: a URL without a scheme, such as `github.com/org/repo`);
 * - `directory`: a local directory; `composition` when it holds a Composition file;
 * - `http`: a file over HTTP(S) (a git repository when the URL reads as one and the file fails);
 * - `git`: a git URL that can only name a repository (it marks the repository and pins a commit);
 * - `oci`: an OCI artifact's tree.
 */
export type Entry =
  | { readonly type: 'inline'; readonly text: string }
  | { readonly type: 'file'; readonly path: string; readonly repo: RepoSpec | undefined }
  | { readonly type: 'directory'; readonly path: string; readonly composition: boolean }
  | { readonly type: 'http'; readonly url: string; readonly repo: RepoSpec | undefined }
  | { readonly type: 'git'; readonly url: string; readonly repo: RepoSpec }
  | { readonly type: 'oci'; readonly url: string; readonly ref: OciReference };

/** An entry that names something to read: anything but an inline config. */
export type PathEntry = Exclude<Entry, { type: 'inline' }>;

/** An entry that names a tree of files: a local directory, a git repository or an OCI artifact. */
export type TreeEntry = Extract<Entry, { type: 'directory' | 'git' | 'oci' }>;

/**
 * What `text` names, seen from the directory of `loader`. `configs` says the entry may be a config
 * written in place (`generators:`, `transformers:`, `validators:`): such an entry, malformed or
 * not, is read as YAML, never as a path.
 */
export function classifyEntry(text: string, loader: Loader): PathEntry;
export function classifyEntry(text: string, loader: Loader, configs: true): Entry;
export function classifyEntry(text: string, loader: Loader, configs = false): Entry {
  if (configs && (/[\r\n]/.test(text) || ONE_LINE_MAP.test(text))) return { type: 'inline', text };
  if (isOciReference(text)) return { type: 'oci', url: text, ref: parseOciReference(text) };
  if (isHttpUrl(text)) {
    const repo = parseRepoSpec(text);
    return repo && namesRemoteTree(text) ? { type: 'git', url: text, repo } : { type: 'http', url: text, repo };
  }
  const repo = parseRepoSpec(text);
  if (repo || RESOURCE_FILE_NAME.test(text) || !loader.isDirectory(text)) return { type: 'file', path: text, repo };
  return { type: 'directory', path: text, composition: configs && holdsComposition(loader, text) };
}

/**
 * The tree an entry names when it is read as one (kustomize's fallback for an entry that is no
 * file, and what `components:` entries always are): a `file` or `http` entry's repository, else
 * the local directory of that name.
 */
export function treeOf(entry: PathEntry): TreeEntry {
  if (entry.type !== 'file' && entry.type !== 'http') return entry;
  const path = entry.type === 'file' ? entry.path : entry.url;
  return entry.repo ? { type: 'git', url: path, repo: entry.repo } : { type: 'directory', path, composition: false };
}

/** The directory or fetched tree an entry of `parent`'s kustomization names, as a loader below it (cycles refused). */
export async function openTree(entry: TreeEntry, parent: Loader, remote: () => Promise<RemoteSource>): Promise<Loader> {
  if (entry.type === 'directory') return parent.child(entry.path);
  parent.checkRemoteCycle(entry.url);
  return openRemoteTree(entry, parent, remote);
}

/**
 * The loader of the directory a build starts at: a local directory (relative to `cwd`), a git
 * repository or an OCI artifact. Origins are relative to it, as kustomize writes them for a
 * remote build (no repository named).
 */
export async function openBuildRoot(path: string, fs: Loader['fs'], restriction: LoadRestriction, cwd: string, remote: () => Promise<RemoteSource>): Promise<Loader> {
  if (isOciReference(path)) return openRemoteTree({ type: 'oci', url: path, ref: parseOciReference(path) }, undefined, remote);
  const repo = parseRepoSpec(path);
  if (repo) return openRemoteTree({ type: 'git', url: path, repo }, undefined, remote);
  return Loader.atRoot(fs, path, restriction, cwd);
}

/** A git checkout or an OCI artifact's tree, fetched; its origin is inside its repository when it is a base, the top of the build when it is the root. */
async function openRemoteTree(entry: Extract<TreeEntry, { type: 'git' | 'oci' }>, parent: Loader | undefined, remote: () => Promise<RemoteSource>): Promise<Loader> {
  const source = await remote();
  if (entry.type === 'git') {
    const spec = entry.repo;
    const clone = await source.clone(spec);
    const origin = originIn(parent, { dir: spec.path, repo: cloneUrl(spec), ref: spec.ref });
    return Loader.atRemote(clone.fs, join(clone.dir, spec.path), { url: entry.url, dir: clone.dir }, parent, origin);
  }
  const tree = await source.pullTree(entry.ref);
  const origin = originIn(parent, { dir: '', repo: `oci://${entry.ref.registry}/${entry.ref.repository}`, ref: tree.digest ?? '' });
  return Loader.atRemote(tree.fs, tree.dir, { url: entry.url, dir: tree.dir }, parent, origin);
}

/** Where a fetched tree is for origins: in its repository (an empty ref is left out), or, as the root of the build, at its top. */
function originIn(parent: Loader | undefined, inRepo: { dir: string; repo: string; ref: string }): OriginBase {
  if (!parent) return { dir: '' };
  return { dir: inRepo.dir, repo: inRepo.repo, ...(inRepo.ref && { ref: inRepo.ref }) };
}

/** The Composition files in the directory `dir` (absolute; one is allowed). */
export function compositionFilesIn(fs: FileSystem, dir: string): string[] {
  return filesIn(fs, dir, COMPOSITION_FILE_NAMES);
}

/** The kustomization files in the directory `dir` (absolute; kustomize allows one). */
export function kustomizationFilesIn(fs: FileSystem, dir: string): string[] {
  return filesIn(fs, dir, KUSTOMIZATION_FILE_NAMES);
}

function holdsComposition(loader: Loader, dir: string): boolean {
  return compositionFilesIn(loader.fs, loader.absolute(dir)).length > 0;
}

function filesIn(fs: FileSystem, dir: string, names: readonly string[]): string[] {
  return names.filter((name) => {
    const path = join(dir, name);
    return fs.exists(path) && !fs.isDirectory(path);
  });
}
