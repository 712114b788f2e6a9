import { isHttpUrl } from '../load/remote/remote-source.js';
import { parseRepoSpec, type RepoSpec } from '../load/remote/repo-spec.js';

/**
 * Where a `catalogs:` entry points. `raw` is the entry exactly as written (it is what
 * `--trusted-catalog` matches).
 */
export type CatalogReference =
  | { kind: 'oci'; raw: string }
  | { kind: 'git'; raw: string; spec: RepoSpec }
  | { kind: 'http'; raw: string; url: string }
  | { kind: 'local'; raw: string; path: string };

/**
 * Classifies a catalog reference: `oci://…` is an OCI artifact; kustomize's git URL forms
 * (`github.com/org/repo/catalog.yaml`, `git@host:org/repo.git//c.yaml`, and http(s) URLs that
 * say they are git — a `//` after the repository, `.git`, `_git/`, or a `ref=`/`version=`
 * query) name a file in a repository; other http(s) URLs are files over HTTP; anything else
 * is a path relative to the kustomization.
 */
export function parseCatalogReference(raw: string): CatalogReference {
  if (/^oci:\/\//i.test(raw)) return { kind: 'oci', raw };
  const spec = parseRepoSpec(raw);
  if (spec && (!isHttpUrl(raw) || saysGit(raw))) return { kind: 'git', raw, spec };
  if (isHttpUrl(raw)) return { kind: 'http', raw, url: raw };
  return { kind: 'local', raw, path: raw };
}

function saysGit(url: string): boolean {
  const [beforeQuery = '', query = ''] = url.split('?', 2);
  const path = beforeQuery.replace(/^https?:\/\/[^/]*/i, '');
  const params = new URLSearchParams(query);
  return path.includes('//') || /\.git(\/|$)/.test(path) || path.includes('/_git/') || params.has('ref') || params.has('version');
}
