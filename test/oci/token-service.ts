import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomUUID, sign, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenAuthConfig } from './registry.js';

/**
 * A Docker token service on 127.0.0.1 for the registry's `auth: token` mode: it hands out
 * RS256 JWTs (with the signing certificate in `x5c`, which the registry checks against its
 * root bundle) granting the requested scope, to callers with `user:password` (Basic).
 * `requests` records the scopes asked for and who asked.
 */
export async function startTokenService(user: { username: string; password: string }): Promise<{
  config: TokenAuthConfig;
  requests: { scope: string; user: string }[];
  close: () => Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'kts-token-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=token-issuer', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const key = createPrivateKey(readFileSync(join(dir, 'key.pem')));
  const certDer = new X509Certificate(readFileSync(join(dir, 'cert.pem'))).raw.toString('base64');
  const requests: { scope: string; user: string }[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const who = basic ? Buffer.from(basic, 'base64').toString() : '';
    const scope = url.searchParams.get('scope') ?? '';
    requests.push({ scope, user: who.split(':')[0] ?? '' });
    if (who !== `${user.username}:${user.password}`) {
      res.writeHead(401).end();
      return;
    }
    const [, name = '', actions = ''] = scope.split(':');
    const now = Math.floor(Date.now() / 1000);
    const b64url = (v: object | Buffer) => (Buffer.isBuffer(v) ? v : Buffer.from(JSON.stringify(v))).toString('base64url');
    const head = b64url({ typ: 'JWT', alg: 'RS256', x5c: [certDer] });
    const claims = b64url({
      iss: 'kts-test-issuer',
      sub: user.username,
      aud: url.searchParams.get('service'),
      exp: now + 300,
      nbf: now - 10,
      iat: now,
      jti: randomUUID(),
      access: [{ type: 'repository', name, actions: actions.split(',') }],
    });
    const signature = b64url(sign('sha256', Buffer.from(`${head}.${claims}`), key));
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token: `${head}.${claims}.${signature}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    config: { realm: `http://127.0.0.1:${port}/token`, service: 'kts-test-registry', issuer: 'kts-test-issuer', rootCertBundle: join(dir, 'cert.pem') },
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
