import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { authFilePaths, credentialsFromAuthFiles } from '../../src/oci/auth-file.js';
import { credentialsIn } from '../../src/oci/credentials.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

test('auth file entries: the longest matching key wins; docker.io has several spellings', () => {
  const content = {
    auths: {
      'ghcr.io': { auth: b64('host:pw1') },
      'ghcr.io/org': { auth: b64('org:pw:with:colons') },
      'https://index.docker.io/v1/': { auth: b64('hub:pw3') },
    },
  };
  assert.deepEqual(credentialsIn(content, 'ghcr.io', 'org/app', 'f'), { username: 'org', password: 'pw:with:colons' });
  assert.deepEqual(credentialsIn(content, 'ghcr.io', 'other/app', 'f'), { username: 'host', password: 'pw1' });
  assert.deepEqual(credentialsIn(content, 'ghcr.io', 'organisation/app', 'f'), { username: 'host', password: 'pw1' });
  assert.deepEqual(credentialsIn(content, 'docker.io', 'library/x', 'f'), { username: 'hub', password: 'pw3' });
  assert.equal(credentialsIn(content, 'quay.io', 'x/y', 'f'), undefined);
  assert.throws(() => credentialsIn({ auths: { 'q.io': { auth: b64('nocolon') } } }, 'q.io', 'a', 'auth.json'), /auth.json: auths\["q.io"\].auth is not 'user:password'/);
});

test('auth files are read in podman order: REGISTRY_AUTH_FILE, XDG_RUNTIME_DIR, docker config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kts-auth-'));
  const env = { REGISTRY_AUTH_FILE: join(dir, 'explicit.json'), XDG_RUNTIME_DIR: join(dir, 'run'), HOME: join(dir, 'home') };
  assert.deepEqual(authFilePaths(env), [join(dir, 'explicit.json'), join(dir, 'run/containers/auth.json'), join(dir, 'home/.docker/config.json')]);
  mkdirSync(join(dir, 'run/containers'), { recursive: true });
  mkdirSync(join(dir, 'home/.docker'), { recursive: true });
  writeFileSync(join(dir, 'run/containers/auth.json'), JSON.stringify({ auths: { 'a.io': { auth: b64('podman:1') } } }));
  writeFileSync(join(dir, 'home/.docker/config.json'), JSON.stringify({ auths: { 'a.io': { auth: b64('docker:2') }, 'b.io': { auth: b64('docker:3') } } }));
  const lookup = credentialsFromAuthFiles(env);
  assert.deepEqual(lookup('a.io', 'r'), { username: 'podman', password: '1' });
  assert.deepEqual(lookup('b.io', 'r'), { username: 'docker', password: '3' });
  assert.equal(lookup('c.io', 'r'), undefined);
  writeFileSync(join(dir, 'explicit.json'), '{ not json');
  assert.throws(() => credentialsFromAuthFiles(env), /reading the registry auth file .*explicit.json/);
});
