/**
 * `file:` URIs, as editors name documents, and the absolute paths the file systems take. Written
 * here rather than taken from Node's `url` module: the service runs in browsers too.
 */

/** The absolute path a `file:` URI names (`file:///a%20b/c.yaml` → `/a b/c.yaml`); undefined for another scheme. */
export function pathOfUri(uri: string): string | undefined {
  const m = /^file:\/\/([^/]*)(\/.*)?$/i.exec(uri);
  if (!m) return undefined;
  let path = decodeURIComponent(m[2] ?? '/');
  // a Windows drive (`file:///c%3A/x`) is a path of its own: `c:/x`
  if (/^\/[a-z]:/i.test(path)) path = path.slice(1);
  return path;
}

/**
 * The `file:` URI of an absolute path, each part percent-encoded. Clients spell URIs in their own
 * ways: a document the client opened is named by the URI it gave (see `Documents`), not by this.
 */
export function uriOfPath(path: string): string {
  const drive = /^[a-z]:/i.test(path) ? `/${path.slice(0, 1).toLowerCase()}%3A` : '';
  const rest = drive ? path.slice(2) : path;
  return `file://${drive}${rest.split('/').map(encodeURIComponent).join('/')}`;
}
