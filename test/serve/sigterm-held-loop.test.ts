/**
 * `kustomize-ts serve` stopping while its event loop is held by a build: requests whose
 * connections were opened and whose bodies were sent before SIGTERM wait unread (in the listen
 * backlog, or on a kept-alive connection the server has not read again). Each still gets an
 * answer, its build or a 503 with `Retry-After` and `Connection: close`; none is reset. The
 * loop is held by an in-process plugin that blocks until a file appears, so nothing depends on
 * timing.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { writeTree } from '../plugins/plugin-tree.js';
import { startServe } from './client.js';

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n';

// a transformer that says it has started, then holds the thread (and the server's event loop) until `open` exists
const HOLD = `import { existsSync, writeFileSync } from 'node:fs';
export default function configure(config) {
  return {
    transform() {
      writeFileSync(config.entered, '');
      const pause = new Int32Array(new SharedArrayBuffer(4));
      while (!existsSync(config.open)) Atomics.wait(pause, 0, 0, 10);
    },
  };
}
`;

const root = writeTree({ 'plugins/example.com/v1/hold/Hold.mjs': HOLD, 'quick/kustomization.yaml': 'resources:\n- cm.yaml\n', 'quick/cm.yaml': CONFIG_MAP });
after(() => rmSync(root, { recursive: true, force: true }));
const entered = join(root, 'entered');
const open = join(root, 'open');
// the held root's config names files of the tree, so it is written once the tree has its place
mkdirSync(join(root, 'held'));
writeFileSync(join(root, 'held', 'kustomization.yaml'), 'resources:\n- cm.yaml\ntransformers:\n- hold.yaml\n');
writeFileSync(join(root, 'held', 'cm.yaml'), CONFIG_MAP);
writeFileSync(join(root, 'held', 'hold.yaml'), `apiVersion: example.com/v1\nkind: Hold\nmetadata:\n  name: hold\nentered: ${entered}\nopen: ${open}\n`);

interface Outcome {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: string;
  error?: string;
}

/** A build request for `path`; resolves with the answer or the error that ended it, and says when its body has been handed to the system. */
function send(port: number, path: string, agent: http.Agent | false): { outcome: Promise<Outcome>; sent: Promise<void> } {
  let sent!: () => void;
  const written = new Promise<void>((resolve) => (sent = resolve));
  const outcome = new Promise<Outcome>((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/build', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', (e) => resolve({ error: e.message }));
    });
    req.on('error', (e) => resolve({ error: `${(e as NodeJS.ErrnoException).code ?? ''} ${e.message}` }));
    req.on('finish', () => sent());
    req.end(JSON.stringify({ path }));
  });
  return { outcome, sent: written };
}

test('SIGTERM while a build holds the event loop: every request sent before it is answered (built, or 503 with Retry-After and Connection: close), none reset', { timeout: 60_000 }, async () => {
  const { child, port, stderr, exited } = await startServe(['--root', root, '--enable-alpha-plugins', '--max-concurrency', '2'], {
    ...process.env,
    KUSTOMIZE_PLUGIN_HOME: join(root, 'plugins'),
  });

  // kept-alive connections, each answered once before the loop is held: their next requests wait on connections the server has accepted
  const agents = Array.from({ length: 3 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  for (const agent of agents) assert.equal((await send(port, 'quick', agent).outcome).status, 200);

  const held = send(port, 'held', false);
  while (!existsSync(entered)) await sleep(20);
  // the loop is held: these wait unread, on new connections (the listen backlog) and on the kept-alive ones
  const waiting = [...Array.from({ length: 8 }, () => send(port, 'quick', false)), ...agents.map((agent) => send(port, 'quick', agent))];
  await Promise.all(waiting.map((w) => w.sent));
  child.kill('SIGTERM');
  writeFileSync(open, '');

  const heldOutcome = await held.outcome;
  assert.equal(heldOutcome.status, 200, JSON.stringify(heldOutcome));
  const outcomes = await Promise.all(waiting.map((w) => w.outcome));
  for (const agent of agents) agent.destroy();
  for (const o of outcomes) {
    assert.equal(o.error, undefined, `a request was not answered: ${o.error}`);
    if (o.status === 200) assert.match(o.body!, /name: cm/);
    else {
      assert.equal(o.status, 503, o.body);
      assert.equal(JSON.parse(o.body!).error.code, 'UNAVAILABLE');
      assert.equal(o.headers!['connection'], 'close');
      assert.match(o.headers!['retry-after'] ?? '', /^\d+$/);
    }
  }
  assert.deepEqual(await exited, [0, null], stderr());
});
