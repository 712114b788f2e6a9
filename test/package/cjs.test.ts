/**
 * `require('kustomize-ts')` from CommonJS, on the published package, in a separate Node
 * process: the CommonJS build (dist/cjs) renders from memory and from the disk (whose module is
 * loaded lazily), its errors are KustomizeErrors, and its entries (kustomize-ts, /node, /oci) share their classes.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { installPacked, REPO } from './packed.js';

const CONSUMER = String.raw`
const { build, BuildCache, MemoryFileSystem, KustomizeError } = require('kustomize-ts');
const { DiskFileSystem, NodeRemoteSource } = require('kustomize-ts/node');
const { parseOciReference, writeTreeArchive, readTreeArchive } = require('kustomize-ts/oci');
(async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'namePrefix: dev-\nresources:\n- cm.yaml\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n',
  });
  const memory = (await build('/app', { fs })).yaml;
  const cache = new BuildCache();
  const cached = [(await build('/app', { fs, cache })).yaml, (await build('/app', { fs, cache })).yaml, cache.counts];
  const disk = (await build(process.argv[2], { reorder: 'legacy' })).yaml;
  const explicitDisk = (await build(process.argv[2], { reorder: 'legacy', fs: new DiskFileSystem() })).yaml;
  let error;
  try { await build('/nowhere', { fs: new DiskFileSystem() }); } catch (e) { error = e; }
  let ociError;
  try { parseOciReference('https://example.com/app'); } catch (e) { ociError = e; }
  const archived = await readTreeArchive(await writeTreeArchive([{ path: 'a.yaml', bytes: new TextEncoder().encode('a: 1\n') }]), 'test');
  process.stdout.write(JSON.stringify({
    resolved: require.resolve('kustomize-ts'),
    memory, cached, disk, explicitDisk,
    errorIsKustomizeError: error instanceof KustomizeError,
    errorCode: error && error.code,
    remoteSource: typeof new NodeRemoteSource().fetchFile,
    ociRegistry: parseOciReference('oci://127.0.0.1:5000/org/app:v1').registry,
    ociErrorIsKustomizeError: ociError instanceof KustomizeError,
    archived: archived.map((f) => [f.path, new TextDecoder().decode(f.bytes)]),
  }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

test('require() from CommonJS: the CJS build renders from memory and from disk', (t) => {
  const packed = installPacked();
  t.after(() => packed.remove());
  const { dir } = packed;
  writeFileSync(join(dir, 'consumer.cjs'), CONSUMER);
  const example = join(REPO, 'examples/hello/overlays/production');
  const out = JSON.parse(execFileSync(process.execPath, ['consumer.cjs', example], { cwd: dir, encoding: 'utf8' })) as Record<string, unknown>;
  assert.equal(out['resolved'], join(dir, 'node_modules/kustomize-ts/dist/cjs/index.cjs'));
  assert.equal(out['memory'], 'apiVersion: v1\ndata:\n  a: "1"\nkind: ConfigMap\nmetadata:\n  name: dev-settings\n');
  assert.deepEqual(out['cached'], [out['memory'], out['memory'], { answered: 1, built: 1, reusedBases: 0 }]);
  const expected = readFileSync(join(REPO, 'examples/hello/expected-production.yaml'), 'utf8');
  assert.equal(out['disk'], expected);
  assert.equal(out['explicitDisk'], expected);
  assert.equal(out['errorIsKustomizeError'], true);
  assert.equal(out['errorCode'], 'FILE_NOT_FOUND');
  assert.equal(out['remoteSource'], 'function');
  assert.equal(out['ociRegistry'], '127.0.0.1:5000');
  assert.equal(out['ociErrorIsKustomizeError'], true);
  assert.deepEqual(out['archived'], [['a.yaml', 'a: 1\n']]);
});
