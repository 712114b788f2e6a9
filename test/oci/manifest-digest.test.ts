import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { findManifestDigest, pushArtifact } from '../../src/oci/client.js';
import { MediaType } from '../../src/oci/media-types.js';
import { parseImageReference } from '../../src/oci/reference.js';
import { requireTool } from '../require-tool.js';
import { startRegistry, type TestRegistry } from './registry.js';

// findManifestDigest against a real registry (docker-registry) on 127.0.0.1: what `lock` asks
// of a container image's registry, an image index (several platforms) included.

const { skip } = requireTool('registry');

describe('the digest a reference names in its registry', { skip }, () => {
  let registry: TestRegistry;
  before(async () => {
    registry = await startRegistry();
  });
  after(async () => {
    await registry?.stop();
  });

  test('a manifest and an image index by tag; pinned, whether the registry still has it; missing, undefined', async () => {
    const image = await pushArtifact(`oci://${registry.host}/fn/multi:amd64`, { layers: [{ mediaType: MediaType.ociLayerTarGzip, bytes: new TextEncoder().encode('layer') }] });
    assert.equal(await findManifestDigest(parseImageReference(`${registry.host}/fn/multi:amd64`)), image);

    const manifestSize = (await fetch(`http://${registry.host}/v2/fn/multi/manifests/${image}`, { headers: { Accept: MediaType.ociManifest } }).then((r) => r.arrayBuffer())).byteLength;
    const index = new TextEncoder().encode(
      JSON.stringify({ schemaVersion: 2, mediaType: MediaType.ociIndex, manifests: [{ mediaType: MediaType.ociManifest, digest: image, size: manifestSize, platform: { os: 'linux', architecture: 'amd64' } }] }),
    );
    const put = await fetch(`http://${registry.host}/v2/fn/multi/manifests/v1`, { method: 'PUT', headers: { 'Content-Type': MediaType.ociIndex }, body: index });
    assert.equal(put.status, 201, await put.text());
    const indexDigest = `sha256:${createHash('sha256').update(index).digest('hex')}`;
    assert.equal(await findManifestDigest(parseImageReference(`${registry.host}/fn/multi:v1`)), indexDigest);
    assert.equal(await findManifestDigest(parseImageReference(`${registry.host}/fn/multi@${indexDigest}`)), indexDigest);

    assert.equal(await findManifestDigest(parseImageReference(`${registry.host}/fn/multi:v9`)), undefined);
    assert.equal(await findManifestDigest(parseImageReference(`${registry.host}/fn/multi@sha256:${'0'.repeat(64)}`)), undefined);
  });
});
