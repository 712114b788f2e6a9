/**
 * `kustomize-ts serve` run as users run it, `bin/kustomize-ts.js` in a child process: SIGTERM
 * under load lets every request in flight finish, answers new ones 503, and exits 0.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { writeTree } from '../plugins/plugin-tree.js';
import { runCommand } from '../cli/run-command.js';
import { buildRequest, functionTree, GATE, metric, request, startServe } from './client.js';

const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));

const root = writeTree(functionTree('gated', GATE));
after(() => rmSync(root, { recursive: true, force: true }));

/** Waits until a metric of the server reads `value`. */
async function until(port: number, sample: string, value: number): Promise<void> {
  while ((await metric(port, sample)) !== value) await sleep(20);
}

test('SIGTERM under load: the requests in flight and waiting all get their build, new ones 503, and the server exits 0', { timeout: 60_000 }, async () => {
  const { child, port, stderr, exited } = await startServe(['--root', root, '--enable-alpha-plugins', '--enable-exec', '--max-concurrency', '2', '--queue', '16']);
  const answers = Array.from({ length: 6 }, () => buildRequest(port, 'gated'));
  await until(port, 'kustomize_ts_in_flight_requests', 2);
  await until(port, 'kustomize_ts_queue_depth', 4);
  child.kill('SIGTERM');
  while (!stderr().includes('stopping')) await sleep(20);
  const refused = await buildRequest(port, 'gated');
  assert.deepEqual({ status: refused.status, code: refused.body.error?.code }, { status: 503, code: 'UNAVAILABLE' });
  assert.equal((await request(port, 'GET', '/readyz')).status, 503);
  assert.equal((await request(port, 'GET', '/healthz')).status, 200);
  writeFileSync(join(root, 'gated', 'open'), '');
  for (const answer of await Promise.all(answers)) {
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.match(answer.body.yaml!, /name: cm/);
  }
  assert.deepEqual(await exited, [0, null], stderr());
  assert.match(stderr(), /stopped/);
});

test('serve without --root, or with a --root that is no directory, is a usage error', async () => {
  const missing = await runCommand(process.execPath, [BIN, 'serve'], { env: process.env });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--root DIR is required/);
  const notThere = await runCommand(process.execPath, [BIN, 'serve', '--root', join(root, 'nowhere')], { env: process.env });
  assert.equal(notThere.status, 2);
  assert.match(notThere.stderr, /does not exist/);
  const badListen = await runCommand(process.execPath, [BIN, 'serve', '--root', root, '--listen', 'localhost'], { env: process.env });
  assert.equal(badListen.status, 2);
  assert.match(badListen.stderr, /expected HOST:PORT/);
});
