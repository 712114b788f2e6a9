import { KustomizeError } from '../../errors.js';

/**
 * A git repository reference as kustomize accepts it in `resources:` / `components:`:
 * `https://github.com/org/repo//path?ref=v1`, `github.com/org/repo/path`,
 * `git@github.com:org/repo.git//path`, `ssh://host/repo.git`, `file:///abs/repo.git//path`,
 * Azure's `_git/` form. The path inside the repository follows `//`, `.git` or `_git/<repo>`,
 * else the first two segments name the repository.
 */
export interface RepoSpec {
  /** as written */
  raw: string;
  /** scheme, user and host, e.g. `https://github.com/` or `git@github.com:` */
  host: string;
  /** the repository path on the host */
  repoPath: string;
  /** the kustomization directory inside the repository */
  path: string;
  ref: string;
  /** seconds allowed per git command */
  timeout: number;
  submodules: boolean;
}

const DEFAULT_TIMEOUT = 27;

/**
 * The repository a reference names, or undefined when it is not a git URL (then it is a local
 * path). A git URL whose parts could be read by git as options (a ref, repository or path that
 * starts with `-`) or that carries control characters is refused: those parts end up on git's
 * command line.
 */
export function parseRepoSpec(raw: string): RepoSpec | undefined {
  const spec = splitRepoSpec(raw);
  if (spec) checkRepoSpec(spec);
  return spec;
}

function checkRepoSpec(spec: RepoSpec): void {
  const bad = (what: string, why: string) =>
    new KustomizeError('REMOTE_INVALID', `invalid remote reference '${spec.raw}': the ${what} ${why}`, { remote: spec.raw });
  if ([spec.raw, spec.ref, spec.path].some((part) => /[\x00-\x1f\x7f]/.test(part))) throw bad('reference', 'contains control characters');
  const hostName = spec.host.replace(/^[a-z]+:\/\//i, '').replace(/^[a-zA-Z][a-zA-Z0-9-]*@/, '');
  if (hostName.startsWith('-')) throw bad('host', "starts with '-'");
  if (spec.repoPath.startsWith('-')) throw bad('repository', "starts with '-'");
  if (spec.ref.startsWith('-')) throw bad('ref', "starts with '-'");
  if (spec.path.split('/').some((segment) => segment.startsWith('-'))) throw bad('path', "has a part that starts with '-'");
}

function splitRepoSpec(raw: string): RepoSpec | undefined {
  if (raw.startsWith('/')) return undefined;
  const [beforeQuery, query = ''] = splitOnce(raw, '?');
  const host = splitHost(beforeQuery);
  if (!host) return undefined;
  const parts = splitPath(host.rest, host.host.startsWith('file://'));
  if (!parts || parts.repoPath === '' || exitsRepo(parts.path)) return undefined;
  const params = new URLSearchParams(query);
  const timeoutText = params.get('timeout') ?? '';
  return {
    raw,
    host: host.host,
    repoPath: parts.repoPath,
    path: parts.path.replace(/^\//, ''),
    ref: params.get('ref') || params.get('version') || '',
    timeout: parseTimeout(timeoutText),
    submodules: params.has('submodules') ? parseBool(params.get('submodules')!, true) : true,
  };
}

/** What `git fetch` is given. */
export function cloneUrl(spec: RepoSpec): string {
  return spec.host + spec.repoPath;
}

function splitOnce(s: string, sep: string): [string, string?] {
  const i = s.indexOf(sep);
  return i < 0 ? [s] : [s.slice(0, i), s.slice(i + 1)];
}

function trimPrefixIgnoreCase(s: string, prefix: string): string | undefined {
  return s.slice(0, prefix.length).toLowerCase() === prefix ? s.slice(prefix.length) : undefined;
}

/** How a git URL starts: a scheme (`git::` first, maybe), a user (`git@`), or GitHub with no scheme. A local path starts otherwise. */
const MAY_NAME_REPOSITORY = /^(git::|[a-z]+:\/\/|[a-z][a-z0-9-]*@|github\.com[/:])/i;

function splitHost(input: string): { host: string; rest: string } | undefined {
  // most entries are local paths: they are told apart before any slicing
  if (!MAY_NAME_REPOSITORY.test(input)) return undefined;
  let n = trimPrefixIgnoreCase(input, 'git::') ?? input;
  let scheme = '';
  for (const s of ['ssh://', 'https://', 'http://', 'file://']) {
    const rest = trimPrefixIgnoreCase(n, s);
    if (rest !== undefined) {
      scheme = s;
      n = rest;
      break;
    }
  }
  const user = /^([a-zA-Z][a-zA-Z0-9-]*)@/.exec(n)?.[0] ?? '';
  n = n.slice(user.length);
  const lower = n.toLowerCase();
  const github = lower.startsWith('github.com/') || lower.startsWith('github.com:');
  // scp-like `user@host:path` (and bare github.com:...) need no scheme
  const scp = scheme === '' && (user !== '' || github);
  if (scheme === '' && !scp) return undefined;
  if (scheme === 'file://') return { host: scheme, rest: user + n };
  let sep = n.indexOf('/');
  if (scp) {
    const colon = n.indexOf(':');
    if (sep === -1 || (colon > 0 && colon < sep)) sep = colon;
  }
  let host = sep >= 0 ? n.slice(0, sep + 1) : n;
  const rest = sep >= 0 ? n.slice(sep + 1) : '';
  if (github) {
    if (scheme.startsWith('ssh://') || user !== '') return { host: `${user}github.com:`, rest };
    return { host: 'https://github.com/', rest };
  }
  if (host === '') return undefined;
  return { host: scheme + user + host, rest };
}

function splitPath(n: string, allSegments: boolean): { repoPath: string; path: string } | undefined {
  const gitRoot = n.indexOf('_git/');
  if (gitRoot >= 0) {
    const segments = n.slice(gitRoot + 5).split('/');
    return { repoPath: n.slice(0, gitRoot + 5) + segments[0], path: segments.slice(1).join('/') };
  }
  const doubleSlash = n.indexOf('//');
  if (doubleSlash >= 0) return { repoPath: n.slice(0, doubleSlash), path: n.slice(doubleSlash + 2) };
  const dotGit = n.indexOf('.git');
  if (dotGit >= 0) return { repoPath: n.slice(0, dotGit + 4), path: n.slice(dotGit + 4) };
  if (allSegments) return { repoPath: n, path: '' };
  const segments = n.split('/');
  if (segments.length < 2) return undefined;
  return { repoPath: segments.slice(0, 2).join('/'), path: segments.slice(2).join('/') };
}

function exitsRepo(path: string): boolean {
  const parts = path.replace(/^\/+/, '').split('/').filter((p) => p !== '' && p !== '.');
  let depth = 0;
  for (const p of parts) {
    depth += p === '..' ? -1 : 1;
    if (depth < 0) return true;
  }
  return false;
}

function parseTimeout(text: string): number {
  if (/^\d+$/.test(text) && Number(text) > 0) return Number(text);
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (!m) return DEFAULT_TIMEOUT;
  const factor = { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  const seconds = Number(m[1]) * factor;
  return seconds > 0 ? seconds : DEFAULT_TIMEOUT;
}

function parseBool(text: string, fallback: boolean): boolean {
  if (/^(1|t|T|TRUE|true|True)$/.test(text)) return true;
  if (/^(0|f|F|FALSE|false|False)$/.test(text)) return false;
  return fallback;
}
