import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { CATALOG_LAYER_MEDIA_TYPE } from '../../src/catalog/catalog-store.js';
import { lock } from '../../src/edit/lock.js';
import { KustomizeError } from '../../src/errors.js';
import { pushArtifact } from '../../src/oci/client.js';
import { catalogYaml, CONFIG, execRuntime, renamerFunction, renamerScript, sha256 } from '../catalog/harness.js';
import { pushTree, startRegistry, type TestRegistry } from '../oci/registry.js';
import { requireTool } from '../require-tool.js';
import { startServer } from './git-http-server.js';

// kustomization.lock.yaml with OCI inputs, against a real registry (docker-registry) on
// 127.0.0.1: an oci:// base and a catalog whose tags are re-pushed after locking, the catalog's
// exec program served over HTTP.

const { skip } = requireTool('registry');
const enc = (s: string) => new TextEncoder().encode(s);

describe('lock files and OCI artifacts', { skip }, () => {
  let registry: TestRegistry;
  let files: Awaited<ReturnType<typeof startServer>>;
  const work = mkdtempSync(join(tmpdir(), 'kts-lock-oci-'));
  const www = join(work, 'www');
  const cacheDir = join(work, 'exec-cache');
  const programs = [renamerScript(join(work, 'ran-one'), 'one-'), renamerScript(join(work, 'ran-two'), 'two-')];

  const baseRef = () => `oci://${registry.host}/org/app-config:v1`;
  const catalogRef = () => `oci://${registry.host}/catalogs/team:v1`;
  const programUrl = (i: number) => `${files.url}/renamer-${i}`;

  /** Publishes version `i` of the base (its ConfigMap) and of the catalog (its program); returns their digests. */
  async function publish(i: number): Promise<{ base: string; catalog: string }> {
    const cm = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  version: v${i}\n`;
    const base = await pushTree(baseRef(), [
      { path: 'kustomization.yaml', bytes: enc('resources:\n- cm.yaml\n') },
      { path: 'cm.yaml', bytes: enc(cm) },
    ]);
    const catalog = catalogYaml('team', renamerFunction(execRuntime({ bin: 'renamer', uri: programUrl(i), sha256: sha256(programs[i]!) })));
    const catalogDigest = await pushArtifact(catalogRef(), { layers: [{ mediaType: CATALOG_LAYER_MEDIA_TYPE, bytes: enc(catalog) }] });
    return { base, catalog: catalogDigest };
  }

  async function deleteManifest(repository: string, digest: string): Promise<void> {
    const res = await fetch(`http://${registry.host}/v2/${repository}/manifests/${digest}`, { method: 'DELETE' });
    assert.equal(res.status, 202, await res.text());
  }

  before(async () => {
    registry = await startRegistry();
    mkdirSync(www);
    programs.forEach((p, i) => writeFileSync(join(www, `renamer-${i}`), p));
    files = await startServer(work, www);
  });
  after(async () => {
    await files?.close();
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** Checks an error is LOCK_MISMATCH saying `said`. */
  const mismatch = (said: string) => (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'LOCK_MISMATCH');
    assert.ok(e.message.includes(said), e.message);
    return true;
  };

  function app(): string {
    const dir = mkdtempSync(join(work, 'app-'));
    writeFileSync(join(dir, 'kustomization.yaml'), `resources:\n- ${baseRef()}\ncatalogs:\n- ${catalogRef()}\ntransformers:\n- fn.yaml\n`);
    writeFileSync(join(dir, 'fn.yaml'), CONFIG);
    return dir;
  }
  const options = () => ({ trustedCatalogs: ['team'], cacheDir });

  test('lock pins the base and the catalog by digest and the exec program by sha256; re-pushed tags build the locked artifacts', async () => {
    const one = await publish(0);
    const dir = app();
    await lock(dir, options());
    assert.equal(
      readFileSync(join(dir, 'kustomization.lock.yaml'), 'utf8'),
      [
        'apiVersion: kustomize-ts.dev/v1alpha1',
        'kind: KustomizationLock',
        'inputs:',
        '- type: exec',
        `  url: "${programUrl(0)}"`,
        `  sha256: "${sha256(programs[0]!)}"`,
        '- type: oci',
        `  url: "${catalogRef()}"`,
        `  digest: "${one.catalog}"`,
        '- type: oci',
        `  url: "${baseRef()}"`,
        `  digest: "${one.base}"`,
        '',
      ].join('\n'),
    );
    const locked = (await build(dir, options())).yaml;
    assert.equal(locked, 'apiVersion: v1\ndata:\n  version: v0\nkind: ConfigMap\nmetadata:\n  name: one-cm\n');

    const two = await publish(1);
    assert.notEqual(two.base, one.base);
    assert.equal((await build(dir, options())).yaml, locked, 'the locked digests are built, not what the tags name now');
    assert.equal((await build(dir, { ...options(), lock: 'ignore' })).yaml, 'apiVersion: v1\ndata:\n  version: v1\nkind: ConfigMap\nmetadata:\n  name: two-cm\n');

    const check = await lock(dir, { ...options(), action: 'check' });
    assert.deepEqual(check.differences, [
      { type: 'exec', url: programUrl(0), kind: 'unreached', locked: `sha256:${sha256(programs[0]!)}` },
      { type: 'exec', url: programUrl(1), kind: 'missing', found: `sha256:${sha256(programs[1]!)}` },
      { type: 'oci', url: catalogRef(), kind: 'changed', locked: one.catalog, found: two.catalog },
      { type: 'oci', url: baseRef(), kind: 'changed', locked: one.base, found: two.base },
    ]);
    assert.equal(check.written, false);

    // the locked manifests are deleted from the registry: the tags now name other digests
    await deleteManifest('org/app-config', one.base);
    await assert.rejects(build(dir, options()), mismatch(`oci input '${baseRef()}': the lock file ${dir}/kustomization.lock.yaml pins ${one.base}, found ${two.base}`));
    writeFileSync(join(dir, 'kustomization.yaml'), `resources:\n- cm.yaml\ncatalogs:\n- ${catalogRef()}\ntransformers:\n- fn.yaml\n`);
    writeFileSync(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n');
    await deleteManifest('catalogs/team', one.catalog);
    await assert.rejects(build(dir, options()), mismatch(`oci input '${catalogRef()}': the lock file ${dir}/kustomization.lock.yaml pins ${one.catalog}, found ${two.catalog}`));
  });

  test('an oci:// catalog and base locked and cached: the cache serves the locked digests once the registry lost them, and offline, identical', async () => {
    const one = await publish(0);
    const dir = app();
    const remoteCache = mkdtempSync(join(work, 'remote-cache-'));
    await lock(dir, { ...options(), remoteCache });
    const online = await build(dir, { ...options(), remoteCache });
    assert.equal(online.yaml, 'apiVersion: v1\ndata:\n  version: v0\nkind: ConfigMap\nmetadata:\n  name: one-cm\n');
    await publish(1);
    await deleteManifest('catalogs/team', one.catalog);
    await deleteManifest('org/app-config', one.base);
    assert.equal((await build(dir, { ...options(), remoteCache })).yaml, online.yaml, 'the locked digests come from the cache, without the registry');
    const offline = await build(dir, { ...options(), remoteCache, offline: true });
    assert.equal(offline.yaml, online.yaml);
    await assert.rejects(build(dir, { ...options(), offline: true }), /offline: 'oci:\/\/.*' is not in a remote cache/, 'without the cache, offline has nothing to build from');
  });

  test('an oci:// base locked and cached builds offline, identical to the online build', async () => {
    await publish(0);
    const dir = mkdtempSync(join(work, 'app-'));
    writeFileSync(join(dir, 'kustomization.yaml'), `resources:\n- ${baseRef()}\n`);
    const remoteCache = join(work, 'remote-cache');
    await lock(dir, { remoteCache });
    const online = await build(dir, { remoteCache });
    await publish(1);
    const offline = await build(dir, { remoteCache, offline: true });
    assert.equal(offline.yaml, online.yaml);
    assert.match(offline.yaml, /version: v0/);
  });
});
