import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { manifestReference, parseOciReference, registryBaseUrl } from '../../src/oci/reference.js';

const digest = `sha256:${'ab'.repeat(32)}`;

test('oci:// references: registry, repository, tag, digest', () => {
  assert.deepEqual(parseOciReference('oci://127.0.0.1:5000/org/app-config:v1.2'), {
    raw: 'oci://127.0.0.1:5000/org/app-config:v1.2',
    registry: '127.0.0.1:5000',
    repository: 'org/app-config',
    tag: 'v1.2',
  });
  const pinned = parseOciReference(`oci://ghcr.io/org/app@${digest}`);
  assert.equal(pinned.digest, digest);
  assert.equal(pinned.tag, undefined);
  assert.equal(manifestReference(pinned), digest);
  assert.equal(manifestReference(parseOciReference('oci://ghcr.io/org/app')), 'latest');
  assert.equal(parseOciReference(`oci://ghcr.io/a/b:v1@${digest}`).tag, 'v1');
});

test('invalid oci:// references are REMOTE_INVALID errors saying what is wrong', () => {
  const cases: [string, RegExp][] = [
    ['oci://ghcr.io', /names no repository/],
    ['oci://ghcr.io/Org/App:v1', /must be lowercase/],
    ['oci://ghcr.io/org/app:-v1', /tag '-v1' is not a valid tag/],
    ['oci://-oops/org/app', /registry '-oops'/],
    ['oci://ghcr.io/org/app@sha256:abc', /64 lowercase hex/],
    ['oci://ghcr.io/org/-app', /must be lowercase path components/],
    ['oci://ghcr.io/org/a\nb', /must be lowercase/],
  ];
  for (const [raw, message] of cases) {
    assert.throws(() => parseOciReference(raw), (e: unknown) => e instanceof KustomizeError && e.code === 'REMOTE_INVALID' && message.test(e.message), raw);
  }
});

test('loopback registries are plain HTTP, all others HTTPS', () => {
  assert.equal(registryBaseUrl('127.0.0.1:5000'), 'http://127.0.0.1:5000');
  assert.equal(registryBaseUrl('localhost:5000'), 'http://localhost:5000');
  assert.equal(registryBaseUrl('localhost'), 'http://localhost');
  assert.equal(registryBaseUrl('ghcr.io'), 'https://ghcr.io');
  assert.equal(registryBaseUrl('localhost.example.com'), 'https://localhost.example.com');
  assert.equal(registryBaseUrl('docker.io'), 'https://registry-1.docker.io');
});
