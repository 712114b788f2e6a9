import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CATALOG_LAYER_MEDIA_TYPE } from '../../src/catalog/catalog-store.js';
import { KustomizeError } from '../../src/errors.js';
import { startServer } from '../load/git-http-server.js';
import { startRegistry, type TestRegistry } from '../oci/registry.js';
import { catalogYaml, execRuntime, renamerFunction, renamerScript, runOnConfigMap, setup, sha256, tree } from './harness.js';
import { requireTool } from '../require-tool.js';

// Catalogs as OCI artifacts in a real registry (Debian's docker-registry) on 127.0.0.1, pushed
// by the test itself over the distribution API (plain fetch, not our client).

const { skip } = requireTool('registry');

/** Pushes one blob (monolithic upload); returns its descriptor. */
async function pushBlob(base: string, repo: string, mediaType: string, bytes: Uint8Array<ArrayBuffer>) {
  const digest = `sha256:${sha256(bytes)}`;
  const start = await fetch(`${base}/v2/${repo}/blobs/uploads/`, { method: 'POST' });
  assert.equal(start.status, 202);
  const location = new URL(start.headers.get('location')!, base);
  location.searchParams.set('digest', digest);
  const put = await fetch(location, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: bytes });
  assert.equal(put.status, 201, await put.text());
  return { mediaType, digest, size: bytes.byteLength };
}

/** Pushes an artifact with one layer of `mediaType` holding `text`, tagged `tag`; returns the manifest digest. */
async function pushArtifact(host: string, repo: string, tag: string, mediaType: string, text: string): Promise<string> {
  const base = `http://${host}`;
  const config = await pushBlob(base, repo, 'application/vnd.oci.empty.v1+json', new TextEncoder().encode('{}'));
  const layer = await pushBlob(base, repo, mediaType, new TextEncoder().encode(text));
  const manifest = new TextEncoder().encode(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config, layers: [layer] }));
  const put = await fetch(`${base}/v2/${repo}/manifests/${tag}`, { method: 'PUT', headers: { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' }, body: manifest });
  assert.equal(put.status, 201, await put.text());
  return `sha256:${sha256(manifest)}`;
}

describe('catalogs from an OCI registry', { skip }, () => {
  let registry: TestRegistry;
  let files: { url: string; close: () => Promise<void> };
  let digest: string;
  const program = renamerScript(join(mkdtempSync(join(tmpdir(), 'kts-oci-marker-')), 'ran'), 'oci-');

  before(async () => {
    registry = await startRegistry();
    files = await startServer(tmpdir(), tree({ renamer: program }));
    const catalog = catalogYaml('oci-catalog', renamerFunction(execRuntime({ bin: 'renamer', uri: `${files.url}/renamer`, sha256: sha256(program) })));
    digest = await pushArtifact(registry.host, 'catalogs/example', 'v1', CATALOG_LAYER_MEDIA_TYPE, catalog);
    await pushArtifact(registry.host, 'catalogs/relative', 'v1', CATALOG_LAYER_MEDIA_TYPE, catalogYaml('rel', renamerFunction(execRuntime({ bin: 'renamer', uri: 'renamer', sha256: sha256(program) }))));
    await pushArtifact(registry.host, 'catalogs/wrong-type', 'v1', 'application/yaml', catalog);
  });
  after(async () => {
    await files?.close();
    await registry?.stop();
  });

  const options = (trusted: string[]) => ({ trustedCatalogs: trusted, cacheDir: mkdtempSync(join(tmpdir(), 'kts-cache-')) });

  test('oci://HOST/REPO:TAG, trusted by the reference as written', async () => {
    const ref = `oci://${registry.host}/catalogs/example:v1`;
    const { resolver, ctx } = setup(tree({}), options([ref]));
    assert.deepEqual(await runOnConfigMap(resolver([ref]), ctx), ['oci-cm']);
  });

  test('oci://HOST/REPO@sha256:DIGEST, trusted by name; the store records the digest', async () => {
    const ref = `oci://${registry.host}/catalogs/example@${digest}`;
    const { resolver, ctx, store, loader } = setup(tree({}), options(['oci-catalog']));
    assert.deepEqual(await runOnConfigMap(resolver([ref]), ctx), ['oci-cm']);
    assert.equal((await store.load(ref, loader)).digest, digest);
  });

  test('a tag trusted does not trust the same catalog under another reference', async () => {
    const { resolver, ctx } = setup(tree({}), options([`oci://${registry.host}/catalogs/example:v1`]));
    await assert.rejects(runOnConfigMap(resolver([`oci://${registry.host}/catalogs/example@${digest}`]), ctx), (e: unknown) => e instanceof KustomizeError && e.code === 'CATALOG_UNTRUSTED');
  });

  test('an artifact without a catalog layer is an error naming the media type', async () => {
    const ref = `oci://${registry.host}/catalogs/wrong-type:v1`;
    const { resolver, ctx } = setup(tree({}), options([ref]));
    await assert.rejects(runOnConfigMap(resolver([ref]), ctx), (e: unknown) => {
      assert.ok(e instanceof KustomizeError);
      assert.match(e.message, new RegExp(`loading catalog '${ref}': .*no layer of media type application/vnd\\.cncf\\.kubernetes\\.krm-func-catalog\\.layer\\.v1\\+yaml \\(its layers: application/yaml\\)`));
      return true;
    });
  });

  test('a relative program path in an OCI catalog is refused: it has no location', async () => {
    const ref = `oci://${registry.host}/catalogs/relative:v1`;
    const { resolver, ctx } = setup(tree({}), options(['rel']));
    await assert.rejects(runOnConfigMap(resolver([ref]), ctx), (e: unknown) => e instanceof KustomizeError && e.code === 'CATALOG_INVALID' && /pulled from an OCI registry has no location/.test(e.message));
  });

  test('a missing tag is an error naming the catalog; an unreachable registry listed after a match is never contacted', async () => {
    const missing = `oci://${registry.host}/catalogs/example:v9`;
    const { resolver, ctx } = setup(tree({}), options([]));
    await assert.rejects(runOnConfigMap(resolver([missing]), ctx), (e: unknown) => e instanceof KustomizeError && e.message.startsWith(`loading catalog '${missing}'`));
    const ref = `oci://${registry.host}/catalogs/example:v1`;
    const ok = setup(tree({}), options([ref]));
    assert.deepEqual(await runOnConfigMap(ok.resolver([ref, 'oci://127.0.0.1:1/nowhere:v1']), ok.ctx), ['oci-cm']);
  });
});
