import { basename, join, normalize } from '../fs/path.js';
import type { RepoSpec } from '../load/remote/repo-spec.js';

/** The directory, inside a localized kustomization, that holds the copies of its remote references. */
export const LOCALIZED_FILES = 'localized-files';

/** Under {@link LOCALIZED_FILES}, where `file://` repositories go (so local paths never pass for host names). */
const FILE_SCHEMED = 'file-schemed';

/**
 * Where an HTTP file is copied, relative to the kustomization that names it:
 * `localized-files/<host>/<path of the URL, escaped as sent, dot-segments removed>`. The port,
 * user and query are left out: raw GitHub URLs, the only kind kustomize vouches for, already
 * carry organisation, repository, ref and path.
 */
export function remoteFilePath(url: string): string {
  const u = new URL(url);
  return join(LOCALIZED_FILES, u.hostname, normalize(`/${u.pathname}`).slice(1));
}

/**
 * Where a git base is copied, relative to the kustomization that names it:
 * `localized-files/<host>/<repository path without .git>/<ref>/<directory in the repository>`.
 */
export function remoteRootPath(spec: RepoSpec, inRepo: string): string {
  const repo = normalize(`/${spec.repoPath.replace(/\.git$/, '')}`).slice(1);
  return join(LOCALIZED_FILES, repoHost(spec), repo, spec.ref, inRepo === '.' ? '' : inRepo);
}

/** The host name of a repository (scheme, user and port left out); `file-schemed` for `file://`, `gh` for `gh:`. */
function repoHost(spec: RepoSpec): string {
  const host = spec.host;
  if (/^gh:/i.test(host)) return 'gh';
  if (/^file:\/\//i.test(host)) return FILE_SCHEMED;
  const withScheme = /^(https?|ssh):\/\//i.test(host) ? host : `ssh://${host}`;
  const bare = withScheme.replace(/[:/]+$/, '');
  try {
    return new URL(bare).hostname;
  } catch {
    // scp-like `user@host:path` leaves `host` here
    return bare.replace(/^[a-z]+:\/\//i, '').replace(/^[^@]*@/, '').replace(/:.*$/, '');
  }
}

/**
 * The destination kustomize picks when none is given, in the working directory:
 * `localized-<target directory>`, or `localized-<directory or repository>-<ref>` for a git target.
 */
export function defaultDestinationName(targetRoot: string, remote?: { spec: RepoSpec; atRepoRoot: boolean }): string {
  if (remote) {
    const name = remote.atRepoRoot ? basename(remote.spec.repoPath.replace(/\/+$/, '')) : basename(targetRoot);
    return ['localized', name, remote.spec.ref.replace(/\//g, '-')].join('-');
  }
  return targetRoot === '/' ? 'localized' : `localized-${basename(targetRoot)}`;
}
