import { abortedError, requestSignal } from '../../abort.js';
import { KustomizeError, type Warning } from '../../errors.js';
import type { FileSystem } from '../../fs/filesystem.js';
import { sha256Digest } from '../../oci/digest.js';
import type { PulledSingleLayer } from '../../oci/client.js';
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

/** What a build tells a remote source with each request. */
export interface RemoteRequestOptions {
  /** the build's signal: when it aborts, the request (and the process fetching it) should stop */
  signal?: AbortSignal;
  /**
   * For a file: the sha256 (hex) its bytes must have, when something pins them (a lock file, a
   * catalog giving an exec program's digest). A source with a cache may answer from the bytes
   * it holds by that digest, without a request; the caller checks what it gets. A file a
   * catalog pins is no remote input of the build's own: the catalog is.
   */
  sha256?: string;
}

/**
 * Where remote resources come from: files over HTTP(S), git repositories and OCI artifacts.
 * The default (node-remote.ts) uses `fetch` and the `git` executable; a browser or a test can
 * supply its own.
 */
export interface RemoteSource {
  /** the body of an HTTP(S) URL; an `HttpStatusError` for a non-2xx answer */
  fetchFile(url: string, options?: RemoteRequestOptions): Promise<Uint8Array>;
  /** a checkout of the repository at the spec's ref */
  clone(spec: RepoSpec, options?: RemoteRequestOptions): Promise<RemoteTree>;
  /** the tree an `oci://` artifact holds (Flux's format: one tar.gz layer of the directory) */
  pullTree(ref: OciReference, options?: RemoteRequestOptions): Promise<RemoteTree>;
  /** the one layer of `mediaType` an `oci://` artifact holds (a catalog), with the manifest's digest */
  pullLayer(ref: OciReference, mediaType: string, options?: RemoteRequestOptions): Promise<PulledSingleLayer>;
  /** removes everything fetched into temporary directories */
  cleanup(): void;
}

/**
 * A remote reference a build read, as written (`url`), with what it resolved to: a git base's
 * ref and commit, an OCI tree's or catalog's manifest digest, an HTTP file's sha256 (hex), a
 * catalog exec program's sha256 (as its catalog gives it), a pulled chart archive's digest. A
 * container function's image given by tag has the digest the lock pins it to, if it does (the
 * build does not ask the registry: `lock()` does; see locked-image.ts).
 */
export interface RemoteInput {
  type: 'git' | 'http' | 'oci' | 'exec' | 'helm' | 'image';
  /** the reference as written; a chart's repository */
  url: string;
  /** a chart's name and version (as written) */
  chart?: string;
  version?: string;
  ref?: string;
  commit?: string;
  digest?: string;
  sha256?: string;
}

/**
 * `source` as one build uses it: `signal` given to each of its requests, so that none can
 * forget it, and each reference it fetched told to `fetched` with what it resolved to.
 */
export function forBuild(source: RemoteSource, signal: AbortSignal, fetched: (input: RemoteInput) => void): RemoteSource {
  return {
    fetchFile: async (url, options) => {
      const bytes = await source.fetchFile(url, { ...options, signal });
      if (options?.sha256 === undefined) fetched({ type: 'http', url, sha256: (await sha256Digest(bytes)).slice('sha256:'.length) });
      return bytes;
    },
    clone: async (spec) => {
      const t = await source.clone(spec, { signal });
      fetched({ type: 'git', url: spec.raw, ref: spec.ref, ...(t.commit && { commit: t.commit }) });
      return t;
    },
    pullTree: async (ref) => {
      const t = await source.pullTree(ref, { signal });
      fetched({ type: 'oci', url: ref.raw, ...(t.digest && { digest: t.digest }) });
      return t;
    },
    pullLayer: async (ref, mediaType) => {
      const layer = await source.pullLayer(ref, mediaType, { signal });
      fetched({ type: 'oci', url: ref.raw, digest: layer.digest });
      return layer;
    },
    cleanup: () => source.cleanup(),
  };
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

/** How {@link httpGet} asks. */
interface HttpGetOptions {
  /** seconds before the request (headers and body) is given up */
  timeoutSeconds: number;
  headers?: Record<string, string>;
  /** stops the request too */
  signal?: AbortSignal | undefined;
}

/**
 * A GET with `fetch`, bounded in time: what both remote sources send. A failure to get any
 * answer is REMOTE_FAILED in kustomize's words (ABORTED when `signal` stopped it); the status
 * is the caller's to judge.
 */
export async function httpGet(url: string, options: HttpGetOptions): Promise<Response> {
  const { signal } = options;
  try {
    return await fetch(url, { headers: options.headers ?? {}, signal: requestSignal(options.timeoutSeconds, signal) });
  } catch (e) {
    throw getFailure(url, e, signal);
  }
}

/** The body of an answer {@link httpGet} got, which may still fail (or be stopped) on the way, as the request would. */
export async function responseBytes(res: Response, url: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
  try {
    return new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    throw getFailure(url, e, signal);
  }
}

function getFailure(url: string, e: unknown, signal: AbortSignal | undefined): KustomizeError {
  if (signal?.aborted) return abortedError(signal);
  return new KustomizeError('REMOTE_FAILED', `Get "${url}": ${(e as Error).message}`, { cause: e });
}
