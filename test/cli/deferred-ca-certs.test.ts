/**
 * bin/kustomize-ts.js run as a program starts Node without NODE_EXTRA_CA_CERTS and applies the
 * certificates itself (src/cli/deferred-ca-certs.ts). These tests run the launcher as a user's
 * shell does, against a real HTTPS server on 127.0.0.1 whose certificate only that file trusts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCommand, type Run } from './run-command.js';

const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kts-ca-'));
const certFile = path.join(work, 'cert.pem');
const keyFile = path.join(work, 'key.pem');

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: remote\ndata:\n  from: https\n';

// An exec KRM function reporting the environment it was given.
const ENV_FUNCTION = `#!/bin/sh
cat >/dev/null
cat <<EOF
apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: env
  data:
    extra: "\${NODE_EXTRA_CA_CERTS-unset}"
    deferred: "\${KUSTOMIZE_TS_DEFERRED_CA_CERTS-unset}"
EOF
`;

let server: https.Server;
let root: string;

before(async () => {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  server = https.createServer({ key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) }, (req, res) => {
    if (req.url === '/cm.yaml') res.end(CONFIG_MAP);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  root = path.join(work, 'tree');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'kustomization.yaml'), `resources:\n- https://127.0.0.1:${port}/cm.yaml\ngenerators:\n- env-fn.yaml\n`);
  fs.writeFileSync(path.join(root, 'env-fn.yaml'), 'apiVersion: test/v1\nkind: Env\nmetadata:\n  name: env\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./env-fn.sh\n');
  fs.writeFileSync(path.join(root, 'env-fn.sh'), ENV_FUNCTION, { mode: 0o755 });
});

after(() => {
  server?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Runs the launcher itself (its `#!` line), not `node bin/kustomize-ts.js`. */
function launch(env: NodeJS.ProcessEnv): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS' && k !== 'KUSTOMIZE_TS_DEFERRED_CA_CERTS'));
  return runCommand(BIN, ['build', root, '--enable-alpha-plugins', '--enable-exec'], { env: { ...clean, ...env } });
}

describe('NODE_EXTRA_CA_CERTS deferred by the launcher', () => {
  test('the HTTPS resource is fetched trusting the file, and functions see the variable unchanged', async () => {
    const r = await launch({ NODE_EXTRA_CA_CERTS: certFile });
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    assert.equal(
      r.stdout,
      `apiVersion: v1\ndata:\n  deferred: unset\n  extra: ${certFile}\nkind: ConfigMap\nmetadata:\n  name: env\n---\napiVersion: v1\ndata:\n  from: https\nkind: ConfigMap\nmetadata:\n  name: remote\n`,
    );
  });

  test('without the file the server is not trusted, and functions see no variable', async () => {
    const r = await launch({});
    assert.equal(r.status, 1);
    assert.match(r.stderr, /127\.0\.0\.1/);
    assert.equal(r.stdout, '');
  });

  test('an unreadable file is warned about, as Node warns at start-up, and the server is not trusted', async () => {
    const r = await launch({ NODE_EXTRA_CA_CERTS: path.join(work, 'missing.pem') });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /Ignoring extra certs from `.*missing\.pem`, load failed/);
  });
});
