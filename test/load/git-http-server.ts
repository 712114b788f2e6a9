import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A loopback HTTP server for remote-resource tests: smart-HTTP git for `*.git/...` paths (through
 * `git http-backend`, protocol v2, so shallow fetches of any ref work) and plain files (with an
 * ETag) otherwise. `requests` lists every request, so tests can count what reached the network.
 */
export async function startServer(gitRoot: string, filesRoot: string): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.includes('.git/')) {
      requests.push(`${req.method} ${url.pathname}`);
      return gitBackend(gitRoot, req, res, url);
    }
    const file = join(filesRoot, decodeURIComponent(url.pathname));
    if (!existsSync(file)) {
      requests.push(`${req.method} ${url.pathname} 404`);
      res.writeHead(404).end('not found');
      return;
    }
    // files carry an ETag (their sha256), so that caches can revalidate them
    const body = readFileSync(file);
    const etag = `"${createHash('sha256').update(body).digest('hex')}"`;
    const fresh = req.headers['if-none-match'] === etag;
    requests.push(`${req.method} ${url.pathname} ${fresh ? 304 : 200}`);
    if (fresh) res.writeHead(304, { ETag: etag }).end();
    else res.writeHead(200, { 'Content-Type': 'application/octet-stream', ETag: etag }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function gitBackend(root: string, req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    REQUEST_METHOD: req.method,
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
    HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
  };
  if (req.headers['content-length']) env['CONTENT_LENGTH'] = String(req.headers['content-length']);
  const cgi = spawn('git', ['http-backend'], { env });
  req.pipe(cgi.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  cgi.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    let sep = head.indexOf('\r\n\r\n');
    let len = 4;
    if (sep < 0) {
      sep = head.indexOf('\n\n');
      len = 2;
    }
    if (sep < 0) return;
    let status = 200;
    for (const line of head.subarray(0, sep).toString().split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i < 0) continue;
      const name = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (name.toLowerCase() === 'status') status = parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    headersSent = true;
    res.write(head.subarray(sep + len));
  });
  cgi.on('close', () => res.end());
}

/**
 * The remote tree the remote tests serve, under `work`: a bare repository `srv/org/repo.git`
 * whose `base/` kustomization prefixes a ConfigMap, one commit per entry of `versions` (the
 * first tagged `v1`, the last on `main`), and `www/manifests/svc.yaml` for plain HTTP.
 */
export function seedRemoteTree(work: string, versions: readonly string[]): void {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const src = join(work, 'src');
  mkdirSync(join(src, 'base'), { recursive: true });
  writeFileSync(join(src, 'base/kustomization.yaml'), 'resources:\n- cm.yaml\nnamePrefix: remote-\n');
  versions.forEach((version, i) => {
    writeFileSync(join(src, 'base/cm.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  version: ${version}\n`);
    if (i === 0) git(src, 'init', '-q', '-b', 'main');
    git(src, 'add', '.');
    git(src, 'commit', '-q', '-m', version);
    if (i === 0) git(src, 'tag', 'v1');
  });
  mkdirSync(join(work, 'srv/org'), { recursive: true });
  git(work, 'clone', '-q', '--bare', src, join(work, 'srv/org/repo.git'));
  mkdirSync(join(work, 'www/manifests'), { recursive: true });
  writeFileSync(join(work, 'www/manifests/svc.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n');
}

/**
 * Commits `base/cm.yaml` (a ConfigMap `settings` of data `version`) in the work tree `src`, moves
 * the tag v1 to that commit, and publishes main and the tag to the bare repository `bare`
 * (forced: the tag moved). Returns the commit.
 */
export function publishTagged(src: string, bare: string, version: string): string {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: src, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
  writeFileSync(join(src, 'base/cm.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  version: ${version}\n`);
  git('add', '.');
  git('commit', '-q', '-m', version);
  git('tag', '-f', 'v1');
  git('push', '-q', '--force', bare, 'main', 'refs/tags/v1');
  return git('rev-parse', 'HEAD');
}
