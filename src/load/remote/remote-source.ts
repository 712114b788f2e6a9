import { KustomizeError, type Warning } from '../../errors.js';
import type { FileSystem } from '../../fs/filesystem.js';
import { isOciReference, type OciReference } from '../../oci/reference.js';
import { parseRepoSpec, type RepoSpec } from './repo-spec.js';

/** A fetched tree: the directory of its root, the file system it is on, and what it was pinned to. */
export interface RemoteTree {
  dir: string;
  fs: FileSystem;
  /** the commit of a git checkout, when known */
  commit?: string;
  /** the manifest digest of an OCI artifact */
  digest?: string;
}

/**
 * Where remote resources come from: files over HTTP(S), git repositories and OCI artifacts.
 * The default (node-remote.ts) uses `fetch` and the `git` executable; a browser or a test can
 * supply its own.
 */
export interface RemoteSource {
  /** the body of an HTTP(S) URL; an `HttpStatusError` for a non-2xx answer */
  fetchFile(url: string): Promise<Uint8Array>;
  /** a checkout of the repository at the spec's ref */
  clone(spec: RepoSpec): Promise<RemoteTree>;
  /** the tree an `oci://` artifact holds (Flux's format: one tar.gz layer of the directory) */
  pullTree(ref: OciReference): Promise<RemoteTree>;
  /** removes everything fetched into temporary directories */
  cleanup(): void;
}

/** What the default remote source takes from a build's options (see `InputOptions` and `OutputOptions`). */
export interface RemoteOptions {
  remoteCache: string | undefined;
  offline: boolean;
  warn: ((warning: Warning) => void) | undefined;
}

/** A remote source's answer for a URL that gave no file: the HTTP status, in kustomize's words. */
export class HttpStatusError extends KustomizeError {
  constructor(
    readonly status: number,
    statusText: string,
  ) {
    super('REMOTE_FAILED', `HTTP Error: status code ${status} (${statusText})`);
  }
}

export function isHttpUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

/**
 * Whether a `resources:` entry can only be a remote tree, so no HTTP request for a file is
 * tried first (kustomize tries one for every URL): an `oci://` reference, or a git URL that
 * marks the repository explicitly (`//`, `.git`, `_git/`) and pins a full commit.
 */
export function namesRemoteTree(path: string): boolean {
  if (isOciReference(path)) return true;
  const spec = isHttpUrl(path) ? parseRepoSpec(path) : undefined;
  if (!spec || !/^[0-9a-f]{40}$/.test(spec.ref)) return false;
  const afterScheme = path.replace(/^[a-z:]+\/\//i, '').split('?')[0]!;
  return afterScheme.includes('//') || afterScheme.includes('.git') || afterScheme.includes('_git/');
}

/**
 * A GET with `fetch`, bounded in time: what both remote sources send. A failure to get any
 * answer is REMOTE_FAILED in kustomize's words; the status is the caller's to judge.
 */
export async function httpGet(url: string, timeoutSeconds: number, headers: Record<string, string> = {}): Promise<Response> {
  try {
    return await fetch(url, { headers, signal: AbortSignal.timeout(timeoutSeconds * 1000) });
  } catch (e) {
    throw new KustomizeError('REMOTE_FAILED', `Get "${url}": ${(e as Error).message}`, { cause: e });
  }
}
