import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { pullArtifact, pushArtifact, resolveDigest } from '../../src/oci/client.js';
import { sha256Digest } from '../../src/oci/digest.js';
import { MediaType } from '../../src/oci/media-types.js';
import { startTokenService } from './token-service.js';
import { startRegistry, TEST_USER, type TestRegistry } from './registry.js';
import { requireTool } from '../require-tool.js';

// The OCI client against a real registry (docker-registry, distribution 2.8) on 127.0.0.1.

const { skip } = requireTool('registry');
const enc = (s: string) => new TextEncoder().encode(s);
const remoteFailed = (pattern: RegExp) => (e: unknown) => e instanceof KustomizeError && e.code === 'REMOTE_FAILED' && pattern.test(e.message);

describe('OCI client, anonymous registry', { skip }, () => {
  let registry: TestRegistry;
  before(async () => (registry = await startRegistry()));
  after(async () => registry?.stop());

  test('push, then pull by tag and by digest: layers verified, digest is the manifest sha256', async () => {
    const ref = `oci://${registry.host}/org/artifact:v1`;
    const layer = enc('layer content\n');
    const digest = await pushArtifact(ref, { layers: [{ mediaType: MediaType.fluxContent, bytes: layer }], config: { mediaType: MediaType.fluxConfig, bytes: enc('{}') } });
    const byTag = await pullArtifact(ref, { mediaType: MediaType.fluxContent });
    assert.equal(byTag.digest, digest);
    assert.equal(byTag.manifest.config.mediaType, MediaType.fluxConfig);
    assert.deepEqual(
      byTag.layers.map((l) => [l.mediaType, l.digest, new TextDecoder().decode(l.bytes)]),
      [[MediaType.fluxContent, await sha256Digest(layer), 'layer content\n']],
    );
    const byDigest = await pullArtifact(`oci://${registry.host}/org/artifact@${digest}`);
    assert.equal(byDigest.digest, digest);
    assert.equal(await resolveDigest(ref), digest);
  });

  test('a missing tag, a missing media type and an oversized blob are clear errors', async () => {
    await assert.rejects(pullArtifact(`oci://${registry.host}/org/nothing:v9`), remoteFailed(/GET http:\/\/127\.0\.0\.1:\d+\/v2\/org\/nothing\/manifests\/v9: 404 Not Found: MANIFEST_UNKNOWN|NAME_UNKNOWN/));
    const ref = `oci://${registry.host}/org/typed:v1`;
    await pushArtifact(ref, { layers: [{ mediaType: 'application/x-other', bytes: enc('x'.repeat(1000)) }] });
    await assert.rejects(pullArtifact(ref, { mediaType: MediaType.fluxContent }), remoteFailed(/no layer of media type application\/vnd.cncf.flux.content.v1.tar\+gzip \(its layers: application\/x-other\)/));
    await assert.rejects(pullArtifact(ref, { maxBlobBytes: 100 }), remoteFailed(/1000 bytes, over the limit of 100/));
  });

  test('a blob corrupted in the registry storage is refused by its digest', async () => {
    const ref = `oci://${registry.host}/org/corrupt:v1`;
    const layer = enc('original bytes!');
    await pushArtifact(ref, { layers: [{ mediaType: MediaType.fluxContent, bytes: layer }] });
    const hex = (await sha256Digest(layer)).slice('sha256:'.length);
    const data = join(registry.storage, 'docker/registry/v2/blobs/sha256', hex.slice(0, 2), hex, 'data');
    assert.equal(readFileSync(data, 'utf8'), 'original bytes!');
    writeFileSync(data, 'tampered bytes!');
    await assert.rejects(pullArtifact(ref), remoteFailed(/digest mismatch: expected sha256:[0-9a-f]{64}, got sha256:/));
  });
});

describe('OCI client, registry with a password (htpasswd, Basic)', { skip }, () => {
  let registry: TestRegistry;
  before(async () => (registry = await startRegistry({ auth: 'htpasswd' })));
  after(async () => registry?.stop());

  test('anonymous is refused; fixed credentials and the auth file from REGISTRY_AUTH_FILE work', async () => {
    const ref = `oci://${registry.host}/private/app:v1`;
    await assert.rejects(pushArtifact(ref, { layers: [{ mediaType: 'text/plain', bytes: enc('x') }], auth: null }), remoteFailed(/unauthorized anonymously .*asks for a user name and password/));
    const digest = await pushArtifact(ref, { layers: [{ mediaType: 'text/plain', bytes: enc('secret') }], auth: TEST_USER });
    await assert.rejects(pullArtifact(ref, { auth: { username: 'tester', password: 'wrong' } }), remoteFailed(/401 Unauthorized/));
    const authFile = join(mkdtempSync(join(tmpdir(), 'kts-auth-')), 'auth.json');
    writeFileSync(authFile, JSON.stringify({ auths: { [registry.host]: { auth: Buffer.from(`${TEST_USER.username}:${TEST_USER.password}`).toString('base64') } } }));
    const saved = process.env['REGISTRY_AUTH_FILE'];
    process.env['REGISTRY_AUTH_FILE'] = authFile;
    try {
      const pulled = await pullArtifact(ref);
      assert.equal(pulled.digest, digest);
      assert.equal(new TextDecoder().decode(pulled.layers[0]!.bytes), 'secret');
    } finally {
      if (saved === undefined) delete process.env['REGISTRY_AUTH_FILE'];
      else process.env['REGISTRY_AUTH_FILE'] = saved;
    }
  });
});

describe('OCI client, registry with token authentication (Bearer)', { skip }, () => {
  let registry: TestRegistry;
  let tokens: Awaited<ReturnType<typeof startTokenService>>;
  before(async () => {
    tokens = await startTokenService(TEST_USER);
    registry = await startRegistry({ auth: { token: tokens.config } });
  });
  after(async () => {
    await registry?.stop();
    await tokens?.close();
  });

  test('the challenge is answered with a token for the repository scope, fetched with the credentials', async () => {
    const ref = `oci://${registry.host}/team/app:v1`;
    await assert.rejects(pushArtifact(ref, { layers: [{ mediaType: 'text/plain', bytes: enc('x') }], auth: null }), remoteFailed(/unauthorized anonymously .*token service answered 401/));
    const digest = await pushArtifact(ref, { layers: [{ mediaType: 'text/plain', bytes: enc('via token') }], auth: TEST_USER });
    const pulled = await pullArtifact(ref, { auth: () => TEST_USER });
    assert.equal(pulled.digest, digest);
    assert.equal(new TextDecoder().decode(pulled.layers[0]!.bytes), 'via token');
    assert.deepEqual(
      tokens.requests.filter((r) => r.user === 'tester').map((r) => r.scope),
      ['repository:team/app:pull,push', 'repository:team/app:pull'],
    );
  });
});
