import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { imageAtDigest, parseImageReference } from '../../src/oci/reference.js';

const D = `sha256:${'a'.repeat(64)}`;

test('container images are read as the engines read them: Docker Hub for a name without a registry, latest without a tag', () => {
  assert.deepEqual(parseImageReference('alpine'), { raw: 'alpine', registry: 'docker.io', repository: 'library/alpine' });
  assert.deepEqual(parseImageReference('org/fn:v1'), { raw: 'org/fn:v1', registry: 'docker.io', repository: 'org/fn', tag: 'v1' });
  assert.deepEqual(parseImageReference('ghcr.io/org/fn:v1'), { raw: 'ghcr.io/org/fn:v1', registry: 'ghcr.io', repository: 'org/fn', tag: 'v1' });
  assert.deepEqual(parseImageReference('127.0.0.1:5000/fn'), { raw: '127.0.0.1:5000/fn', registry: '127.0.0.1:5000', repository: 'fn' });
  assert.deepEqual(parseImageReference('localhost/fn:v2'), { raw: 'localhost/fn:v2', registry: 'localhost', repository: 'fn', tag: 'v2' });
  assert.deepEqual(parseImageReference(`ghcr.io/fn:v1@${D}`), { raw: `ghcr.io/fn:v1@${D}`, registry: 'ghcr.io', repository: 'fn', tag: 'v1', digest: D });
  assert.throws(
    () => parseImageReference('ghcr.io/Org/fn'),
    (e: unknown) => e instanceof KustomizeError && e.code === 'REMOTE_INVALID' && e.message === "invalid image 'ghcr.io/Org/fn': the repository 'Org/fn' must be lowercase path components (a-z, 0-9, '.', '_', '-')",
  );
});

test('an image pinned to a digest keeps its name as written and drops its tag', () => {
  assert.equal(imageAtDigest('alpine:3.20', D), `alpine@${D}`);
  assert.equal(imageAtDigest('127.0.0.1:5000/org/fn:v1', D), `127.0.0.1:5000/org/fn@${D}`);
  assert.equal(imageAtDigest('127.0.0.1:5000/org/fn', D), `127.0.0.1:5000/org/fn@${D}`);
});
