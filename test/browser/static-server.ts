import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
};

export interface StaticServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves the files under `root` on 127.0.0.1 (GET only, no directory listings; `/` is
 * index.html). `cors` adds Access-Control-Allow-Origin: *, as a server of remote resources
 * for browser builds must.
 */
export async function serveDirectory(root: string, cors = false): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', ...(cors && { 'Access-Control-Allow-Origin': '*' }) });
        res.end(body);
      },
      () => {
        res.writeHead(404, cors ? { 'Access-Control-Allow-Origin': '*' } : {});
        res.end('not found');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
