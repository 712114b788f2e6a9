import type { FileSystem } from '../../fs/filesystem.js';
import type { RepoSpec } from './repo-spec.js';

/**
 * Where remote resources come from: files over HTTP(S) and git repositories. The default
 * (node-remote.ts) uses `fetch` and the `git` executable; a browser or a test can supply its own.
 */
export interface RemoteSource {
  /** the body of an HTTP(S) URL; an `HttpStatusError` for a non-2xx answer */
  fetchFile(url: string): Promise<Uint8Array>;
  /** a checkout of the repository at the spec's ref: the directory of its root, and the file system it is on */
  clone(spec: RepoSpec): Promise<{ dir: string; fs: FileSystem }>;
  /** removes everything fetched */
  cleanup(): void;
}

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    statusText: string,
  ) {
    super(`HTTP Error: status code ${status} (${statusText})`);
  }
}

export function isHttpUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}
