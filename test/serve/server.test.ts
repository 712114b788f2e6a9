/**
 * The render server in this process, on 127.0.0.1, over real trees on disk: its answers are
 * the builds' (and, where kubectl is installed, kubectl's), a file edited between requests is
 * seen, nothing crosses from one build to another, nothing outside the root is read, and every
 * bound answers with its status.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { buildAll } from '../../src/build/build-all.js';
import { AccessLog } from '../../src/fs/access-log.js';
import { DiskFileSystem } from '../../src/fs/disk.js';
import { isWithin } from '../../src/fs/path.js';
import { NodeRemoteSource } from '../../src/load/remote/node-remote.js';
import { RenderServer, type RenderServerOptions } from '../../src/serve/render-server.js';
import { SLEEPER, writeTree } from '../plugins/plugin-tree.js';
import { fileWritten, gone } from '../process/processes.js';
import { buildRequest, functionTree, GATE, metric, request } from './client.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
const CM = (name: string, data = 'a: "1"') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  ${data}\n`;

/** The kinds of configurations-crd, which a leaked `configurations:`, `crds:` or `openapi:` would treat differently. */
const PIPELINE = 'apiVersion: example.com/v1\nkind: Pipeline\nmetadata:\n  name: build\nspec:\n  runner:\n    image: example/runner:1.0\n  configMapRef:\n    name: pipeline-env\n';
const DEPLOYMENT =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: app:1\n      - name: sidecar\n        image: proxy:1\n';
/** `crds:` saying a Pipeline's `spec.configMapRef` names a ConfigMap (whose prefix it then takes). */
const REF_SCHEMA = JSON.stringify({
  'example.com/v1.Pipeline': { Schema: { properties: { apiVersion: {}, kind: {}, metadata: {}, spec: { $ref: 'example.com/v1.PipelineSpec' } } } },
  'example.com/v1.PipelineSpec': {
    Schema: { properties: { configMapRef: { 'x-kubernetes-object-ref-api-version': 'v1', 'x-kubernetes-object-ref-kind': 'ConfigMap', $ref: 'example.com/v1.Ref' } } },
  },
  'example.com/v1.Ref': { Schema: { properties: { name: { type: 'string' } } } },
});
/** An OpenAPI schema that knows only a custom kind: in a build that leaked it, a Deployment's containers would no longer merge by name. */
const NARROW_OPENAPI = 'definitions:\n  v1.Thing:\n    type: object\n    x-kubernetes-group-version-kind:\n    - group: example.com\n      kind: Thing\n      version: v1\n';

/** The trees under the root: each a kustomization the tests ask for. */
const TREE = {
  'app/kustomization.yaml': 'namePrefix: app-\nresources:\n- cm.yaml\n',
  'app/cm.yaml': CM('settings'),
  'failing/kustomization.yaml': 'resources:\n- missing.yaml\n',
  'empty-dir/README': 'no kustomization here\n',
  'escape/kustomization.yaml': 'resources:\n- ../../outside\n',
  // the settings a build may make that must stay its own
  'leaky/configurations/kustomization.yaml': 'namePrefix: ci-\ncommonLabels:\n  owner: ci\nimages:\n- name: example/runner\n  newTag: "2.0"\nconfigurations:\n- config.yaml\nresources:\n- pipeline.yaml\n',
  'leaky/configurations/config.yaml': 'commonLabels:\n- kind: Pipeline\n  path: spec/podLabels\n  create: true\nimages:\n- kind: Pipeline\n  path: spec/runner/image\n',
  'leaky/configurations/pipeline.yaml': PIPELINE,
  'leaky/crds/kustomization.yaml': 'namePrefix: x-\ncrds:\n- crd.json\nresources:\n- pipeline.yaml\n- cm.yaml\n',
  'leaky/crds/crd.json': REF_SCHEMA,
  'leaky/crds/pipeline.yaml': PIPELINE,
  'leaky/crds/cm.yaml': CM('pipeline-env'),
  'leaky/openapi/kustomization.yaml': 'openapi:\n  path: schema.yaml\nresources:\n- deployment.yaml\npatches:\n- patch: |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: web\n    spec:\n      template:\n        spec:\n          containers:\n          - name: app\n            image: app:2\n',
  'leaky/openapi/schema.yaml': NARROW_OPENAPI,
  'leaky/openapi/deployment.yaml': DEPLOYMENT,
  // builds that wait: for minutes, and until the test opens the gate
  ...functionTree('slow', SLEEPER),
  ...functionTree('gated', GATE),
  // the same resources without those settings: what a leak would change
  'plain/pipeline/kustomization.yaml': 'namePrefix: x-\ncommonLabels:\n  owner: ci\nimages:\n- name: example/runner\n  newTag: "2.0"\nresources:\n- pipeline.yaml\n- cm.yaml\n',
  'plain/pipeline/pipeline.yaml': PIPELINE,
  'plain/pipeline/cm.yaml': CM('pipeline-env'),
  'plain/deployment/kustomization.yaml': 'resources:\n- deployment.yaml\npatches:\n- patch: |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: web\n    spec:\n      template:\n        spec:\n          containers:\n          - name: app\n            image: app:2\n',
  'plain/deployment/deployment.yaml': DEPLOYMENT,
};

/** The root, and beside it a kustomization with a secret no request may reach. */
const top = writeTree({
  ...Object.fromEntries(Object.entries(TREE).map(([path, file]) => [`root/${path}`, file])),
  'outside/kustomization.yaml': 'resources:\n- secret.yaml\n',
  'outside/secret.yaml': CM('secret', 'password: hunter2'),
});
const root = join(top, 'root');
/** The disk as the server asks it: every question it asks is noted, to show none was about a path outside the root. */
const disk = new AccessLog(new DiskFileSystem());
const servers: RenderServer[] = [];

before(() => {
  // links inside the root: one leading out of it, one leading to a tree inside it
  symlinkSync(join(top, 'outside'), join(root, 'link-out'));
  symlinkSync(join(root, 'app'), join(root, 'link-in'));
  // every fixture case, as more trees to build
  cpSync(FIXTURES, join(root, 'fixtures'), { recursive: true });
});
after(async () => {
  await Promise.all(servers.map((s) => s.drain()));
  rmSync(top, { recursive: true, force: true });
});

/** A server over the root, listening on a free port. */
async function serving(options: Partial<RenderServerOptions> = {}): Promise<{ server: RenderServer; port: number }> {
  const server = new RenderServer({ root, fs: disk, ...options });
  servers.push(server);
  const { port } = await server.listen(0, '127.0.0.1');
  return { server, port };
}

/** The build the CLI makes of a directory under the root, cold: what every answer must equal. */
async function cold(path: string): Promise<string> {
  return (await build(join(root, path), { reorder: 'unspecified' })).yaml;
}

test('a build is answered with the YAML kustomize-ts build prints, the files it read (relative to the root), and its time', async () => {
  const { port } = await serving();
  const { status, body } = await buildRequest(port, 'app');
  assert.equal(status, 200);
  assert.equal(body.yaml, await cold('app'));
  assert.match(body.yaml!, /name: app-settings/);
  assert.deepEqual(body.inputs, ['app/cm.yaml', 'app/kustomization.yaml']);
  assert.deepEqual(body.warnings, []);
  assert.equal(typeof body.ms, 'number');
});

test('every fixture case is answered as build() answers it cold, the failing ones with its error', async () => {
  const { port } = await serving();
  const cases = readdirSync(join(root, 'fixtures')).filter((c) => existsSync(join(root, 'fixtures', c, 'input', 'kustomization.yaml')));
  assert.ok(cases.length > 50, `${cases.length} cases`);
  for (const c of cases) {
    const path = `fixtures/${c}/input`;
    const expected = await cold(path).then(
      (yaml) => ({ yaml }),
      (e: KustomizeError) => ({ code: e.code, message: e.message }),
    );
    const { status, body } = await buildRequest(port, path);
    if ('yaml' in expected) assert.deepEqual({ status, yaml: body.yaml }, { status: 200, yaml: expected.yaml }, c);
    else assert.deepEqual({ status, code: body.error?.code, message: body.error?.message }, { status: 422, ...expected }, c);
  }
});

test('a file edited between two requests is seen by the second; an unchanged tree is answered from the cache', async () => {
  const { port } = await serving();
  const first = await buildRequest(port, 'app');
  const hits = await metric(port, 'kustomize_ts_cache_hits_total');
  assert.equal((await buildRequest(port, 'app')).body.yaml, first.body.yaml);
  assert.equal(await metric(port, 'kustomize_ts_cache_hits_total'), hits! + 1);
  // the same length, so that only the bytes tell
  writeFileSync(join(root, 'app/cm.yaml'), CM('settings', 'a: "2"'));
  try {
    const second = await buildRequest(port, 'app');
    assert.equal(second.body.yaml, await cold('app'));
    assert.match(second.body.yaml!, /a: "2"/);
  } finally {
    writeFileSync(join(root, 'app/cm.yaml'), CM('settings'));
  }
  assert.match((await buildRequest(port, 'app')).body.yaml!, /a: "1"/);
});

test("a build's own openapi:, crds: and configurations: never reach another build: each tree after them is its cold build", async () => {
  const { port } = await serving();
  const plain = ['plain/pipeline', 'plain/deployment'];
  const expected = await Promise.all(plain.map(cold));
  // the settings do take effect where they are given
  assert.match((await buildRequest(port, 'leaky/crds')).body.yaml!, /configMapRef:\n {4}name: x-pipeline-env/);
  assert.match((await buildRequest(port, 'leaky/configurations')).body.yaml!, /image: example\/runner:2.0/);
  assert.doesNotMatch((await buildRequest(port, 'leaky/openapi')).body.yaml!, /sidecar/);
  for (const [i, path] of plain.entries()) {
    const { status, body } = await buildRequest(port, path);
    assert.equal(status, 200);
    assert.equal(body.yaml, expected[i], path);
  }
  // the trees a leak would change: the names, images and containers the leaky settings touch are as a cold build leaves them
  assert.match(expected[0]!, /configMapRef:\n {4}name: pipeline-env/);
  assert.match(expected[0]!, /image: example\/runner:1.0/);
  assert.match(expected[1]!, /name: sidecar/);
  // and the same at once: builds interleaved in flight
  const together = await Promise.all([...plain, 'leaky/crds', 'leaky/configurations', 'leaky/openapi', ...plain].map((p) => buildRequest(port, p)));
  assert.deepEqual([together[0]!.body.yaml, together[1]!.body.yaml, together[5]!.body.yaml, together[6]!.body.yaml], [...expected, ...expected]);
});

test('a path outside the root gets 403, however it is spelt, and nothing outside the root is read', async () => {
  const { port } = await serving();
  for (const path of ['..', '../outside', 'app/../../outside', '/etc', join(top, 'outside'), '%2e%2e/outside', '%2E%2E%2Foutside', 'app/%2e%2e/%2e%2e/outside', 'link-out', 'link-out/']) {
    const { status, body } = await buildRequest(port, path);
    assert.deepEqual({ status, code: body.error?.code }, { status: 403, code: 'OUTSIDE_ROOT' }, path);
  }
  // a kustomization inside whose base is outside: the build is refused there too
  const escape = await buildRequest(port, 'escape');
  assert.equal(escape.status, 403, JSON.stringify(escape.body));
  assert.doesNotMatch(JSON.stringify(escape.body), /hunter2/);
  for (const route of ['/v1/build', '/v1/build-all']) assert.equal((await request(port, 'POST', route, { path: '../outside' })).status, 403);
  // a link that stays inside is followed
  assert.equal((await buildRequest(port, 'link-in')).body.yaml, await cold('app'));
  const outside = disk.asked.filter((p) => !isWithin(root, p));
  assert.deepEqual(outside.filter((p) => p.startsWith(top)), [], 'no question about a path outside the root reached the disk');
});

test('requests that are wrong get their status and a JSON error: 400, 404, 405, 413, 422', async () => {
  const { port } = await serving({ limits: { maxBodyBytes: 1000 } });
  const error = async (method: string, path: string, body?: unknown, chunks?: string[]) => {
    const answer = await request(port, method, path, body, chunks && { chunks });
    assert.equal(answer.headers['content-type'], 'application/json');
    const { error } = JSON.parse(answer.text) as { error: { code: string; message: string; file?: string } };
    return { status: answer.status, code: error.code, ...(error.file !== undefined && { file: error.file }) };
  };
  assert.deepEqual(await error('POST', '/v1/build', '{"path": '), { status: 400, code: 'BAD_REQUEST' });
  assert.deepEqual(await error('POST', '/v1/build', '["app"]'), { status: 400, code: 'BAD_REQUEST' });
  assert.deepEqual(await error('POST', '/v1/build', {}), { status: 400, code: 'BAD_REQUEST' });
  assert.deepEqual(await error('POST', '/v1/build', { path: 'app', extra: 1 }), { status: 400, code: 'BAD_REQUEST' });
  assert.deepEqual(await error('POST', '/v1/build', { path: 'app', options: { pluginHome: '/tmp' } }), { status: 400, code: 'BAD_REQUEST' });
  assert.deepEqual(await error('POST', '/v1/build', { path: 'app', options: { reorder: 'sideways' } }), { status: 400, code: 'BAD_REQUEST' });
  assert.deepEqual(await error('POST', '/v1/build', { path: '%zz' }), { status: 400, code: 'BAD_REQUEST' });
  // a request cannot enable what the server was not started with
  assert.deepEqual(await error('POST', '/v1/build', { path: 'app', options: { enableHelm: true } }), { status: 403, code: 'OPTION_REFUSED' });
  assert.deepEqual(await error('POST', '/v1/build', { path: 'app', options: { loadRestrictor: 'LoadRestrictionsNone' } }), { status: 403, code: 'OPTION_REFUSED' });
  assert.deepEqual(await error('POST', '/v1/build', { path: 'empty-dir' }), { status: 404, code: 'KUSTOMIZATION_NOT_FOUND', file: 'empty-dir' });
  assert.deepEqual(await error('POST', '/v1/build', { path: 'no-such-dir' }), { status: 404, code: 'NOT_FOUND' });
  assert.deepEqual(await error('GET', '/v1/build'), { status: 405, code: 'METHOD_NOT_ALLOWED' });
  assert.deepEqual(await error('GET', '/v2/build'), { status: 404, code: 'NOT_FOUND' });
  assert.deepEqual(await error('POST', '/v1/build', { path: 'failing' }), { status: 422, code: 'FILE_NOT_FOUND', file: 'failing/missing.yaml' });
  // over the bound, with its length said and without
  assert.deepEqual(await error('POST', '/v1/build', { path: 'app', pad: 'x'.repeat(2000) }), { status: 413, code: 'BODY_TOO_LARGE' });
  assert.deepEqual(await error('POST', '/v1/build', undefined, ['{"path": "app", "pad": "', 'x'.repeat(600), 'x'.repeat(600), '"}']), { status: 413, code: 'BODY_TOO_LARGE' });
  // the request options it may set do apply
  const legacy = await buildRequest(port, 'fixtures/configurations-crd/input', { reorder: 'none' });
  assert.equal(legacy.body.yaml, (await build(join(root, 'fixtures/configurations-crd/input'), { reorder: 'none' })).yaml);
});

test('build-all streams the ndjson buildAll gives, a line a root, and shares the cache with builds', async () => {
  const { port } = await serving();
  const answer = await request(port, 'POST', '/v1/build-all', { path: 'leaky' });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['content-type'], 'application/x-ndjson');
  const lines = answer.text.trimEnd().split('\n').map((l) => JSON.parse(l) as { ms: number });
  const expected: unknown[] = [];
  for await (const r of buildAll(join(root, 'leaky'), { jobs: 1, reorder: 'unspecified' })) expected.push({ ...r, ms: 0 });
  assert.deepEqual(lines.map((l) => ({ ...l, ms: 0 })), expected);
  assert.deepEqual(lines.map((l) => (l as unknown as { path: string }).path), ['configurations', 'crds', 'openapi']);
  const hits = await metric(port, 'kustomize_ts_cache_hits_total');
  await request(port, 'POST', '/v1/build-all', { path: 'leaky' });
  assert.equal(await metric(port, 'kustomize_ts_cache_hits_total'), hits! + 3);
});

test('past --timeout the answer is 504 and the build is stopped, its plugin process group killed', { timeout: 60_000 }, async () => {
  const dir = join(root, 'slow');
  // the function sleeps for minutes, its own timeout longer still: only the server's deadline ends it
  const { port } = await serving({ options: { enablePlugins: true, enableExec: true, pluginTimeout: 600 }, limits: { timeoutSeconds: 1 } });
  const { status, body } = await buildRequest(port, 'slow');
  assert.deepEqual({ status, code: body.error?.code }, { status: 504, code: 'TIMEOUT' });
  await gone(Number(await fileWritten(join(dir, 'ready.pid'))));
  await gone(Number(await fileWritten(join(dir, 'child.pid'))));
});

test('past --queue a request gets 503 at once; /metrics counts requests, in flight and waiting', { timeout: 60_000 }, async () => {
  const dir = join(root, 'gated');
  const { port } = await serving({ options: { enablePlugins: true, enableExec: true }, limits: { maxConcurrency: 1, queue: 1 } });
  const building = buildRequest(port, 'gated');
  while ((await metric(port, 'kustomize_ts_in_flight_requests')) !== 1) await new Promise((r) => setTimeout(r, 20));
  const waiting = buildRequest(port, 'app');
  while ((await metric(port, 'kustomize_ts_queue_depth')) !== 1) await new Promise((r) => setTimeout(r, 20));
  const refused = await buildRequest(port, 'app');
  assert.deepEqual({ status: refused.status, code: refused.body.error?.code }, { status: 503, code: 'UNAVAILABLE' });
  writeFileSync(join(dir, 'open'), '');
  assert.equal((await building).status, 200);
  assert.equal((await waiting).status, 200);
  const { text } = await request(port, 'GET', '/metrics');
  assert.match(text, /^kustomize_ts_requests_total\{route="build",status="200"\} 2$/m);
  assert.match(text, /^kustomize_ts_requests_total\{route="build",status="503"\} 1$/m);
  assert.match(text, /^kustomize_ts_build_duration_seconds_count\{route="build"\} 2$/m);
  assert.match(text, /^kustomize_ts_cache_bytes \d+$/m);
  assert.match(text, /^# TYPE kustomize_ts_build_duration_seconds histogram$/m);
  assert.equal(await metric(port, 'kustomize_ts_in_flight_requests'), 0);
  assert.equal(await metric(port, 'kustomize_ts_queue_depth'), 0);
});

test('the cache stays within --cache-mb: the least recently used builds go first', async () => {
  const { server, port } = await serving({ limits: { cacheBytes: 64 * 1024 } });
  const cases = readdirSync(join(root, 'fixtures')).filter((c) => existsSync(join(root, 'fixtures', c, 'input', 'kustomization.yaml')));
  for (const c of cases) await buildRequest(port, `fixtures/${c}/input`);
  const bytes = await metric(port, 'kustomize_ts_cache_bytes');
  assert.ok(bytes! > 0 && bytes! <= 64 * 1024, `${bytes} bytes`);
  // the last one built is answered from the cache; the first was dropped for those after it
  const hits = await metric(port, 'kustomize_ts_cache_hits_total');
  await buildRequest(port, `fixtures/${cases.at(-1)}/input`);
  assert.equal(await metric(port, 'kustomize_ts_cache_hits_total'), hits! + 1);
  await buildRequest(port, `fixtures/${cases[0]}/input`);
  assert.equal(await metric(port, 'kustomize_ts_cache_hits_total'), hits! + 1);
  assert.equal(server.root, root);
});

test('a root that is a link swapped to another checkout (as git-sync swaps it) serves the new checkout from the next request on', async () => {
  const checkouts = writeTree({ 'v1/app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'v1/app/cm.yaml': CM('settings'), 'v2/app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'v2/app/cm.yaml': CM('settings', 'a: "2"') });
  try {
    symlinkSync(join(checkouts, 'v1'), join(checkouts, 'current'));
    const { port } = await serving({ root: join(checkouts, 'current'), fs: new DiskFileSystem() });
    assert.match((await buildRequest(port, 'app')).body.yaml!, /a: "1"/);
    // swapped as git-sync swaps it: a new link renamed over the old
    symlinkSync(join(checkouts, 'v2'), join(checkouts, 'next'));
    renameSync(join(checkouts, 'next'), join(checkouts, 'current'));
    assert.match((await buildRequest(port, 'app')).body.yaml!, /a: "2"/);
  } finally {
    rmSync(checkouts, { recursive: true, force: true });
  }
});

test("past --timeout a fetch is stopped too: the remote server sees its request's connection closed", { timeout: 60_000 }, async () => {
  let requested: (path: string) => void = () => undefined;
  let closed: () => void = () => undefined;
  const asked = new Promise<string>((resolve) => (requested = resolve));
  const hungUp = new Promise<void>((resolve) => (closed = resolve));
  // takes the request and never answers it
  const silent = http.createServer((req) => {
    req.socket.once('close', closed);
    requested(req.url!);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const remote = join(root, 'remote');
  mkdirSync(remote);
  writeFileSync(join(remote, 'kustomization.yaml'), `resources:\n- http://127.0.0.1:${(silent.address() as { port: number }).port}/cm.yaml\n`);
  try {
    // the fetch's own timeout far beyond the server's: only the server's deadline ends it
    const { port } = await serving({ options: { remote: new NodeRemoteSource({ httpTimeout: 600 }) }, limits: { timeoutSeconds: 1 } });
    const { status, body } = await buildRequest(port, 'remote');
    assert.deepEqual({ status, code: body.error?.code }, { status: 504, code: 'TIMEOUT' });
    assert.equal(await asked, '/cm.yaml');
    await hungUp;
  } finally {
    silent.closeAllConnections();
    silent.close();
  }
});

test('a client that never finishes sending its body is cut off within --timeout', { timeout: 60_000 }, async () => {
  const { port } = await serving({ limits: { timeoutSeconds: 1 } });
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
  socket.write('POST /v1/build HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"path": ');
  await once(socket, 'close');
  assert.match(answer, /^HTTP\/1\.1 408 /);
});
