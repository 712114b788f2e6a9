import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../src/cli/main.js';
import { readText } from '../../src/fs/filesystem.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { localize } from '../../src/localize/localize.js';
import { build } from '../../src/build/build.js';
import { seedRemoteTree, startServer } from '../load/git-http-server.js';
import { unreachable } from './unreachable-remote.js';

// A git base and an HTTP file served for real from 127.0.0.1; the localized copy is built with
// a remote source that fails on use.

const work = mkdtempSync(join(tmpdir(), 'kts-localize-'));
let server: { url: string; requests: string[]; close: () => Promise<void> };


before(async () => {
  seedRemoteTree(work, ['one']);
  server = await startServer(join(work, 'srv'), join(work, 'www'));
});

after(async () => {
  await server?.close();
});

test('a git base and an HTTP file go under localized-files/, named from the URL; the copy builds offline to the same output', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': `resources:\n- ${server.url}/org/repo.git//base?ref=v1 # pinned\n- ${server.url}/manifests/svc.yaml\n`,
  });
  const original = await build('/app', { fs });
  await localize('/app', { fs, cwd: '/', destination: '/out' });
  const localized = await build('/out', { fs, remote: unreachable });
  assert.equal(localized.yaml, original.yaml);
  assert.equal(
    readText(fs, '/out/kustomization.yaml'),
    'resources:\n- localized-files/127.0.0.1/org/repo/v1/base # pinned\n- localized-files/127.0.0.1/manifests/svc.yaml\n',
  );
  assert.ok(fs.exists('/out/localized-files/127.0.0.1/org/repo/v1/base/cm.yaml'));
});

test('a git target: scope is the repository, the default destination names the directory and the ref', async () => {
  const fs = MemoryFileSystem.from({ 'cwd/.keep': '' });
  const url = `${server.url}/org/repo.git//base?ref=v1`;
  assert.equal(await localize(url, { fs, cwd: '/cwd' }), '/cwd/localized-base-v1');
  assert.equal((await build('/cwd/localized-base-v1/base', { fs, remote: unreachable })).yaml, (await build(url, { fs })).yaml);
  await assert.rejects(localize(url, { fs, cwd: '/cwd', scope: '/cwd', destination: 'x' }), {
    message: `invalid localize scope "/cwd": scope "/cwd" specified for remote localize target "${url}"`,
  });
});

test('a git base without ref is refused', async () => {
  const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': `resources:\n- ${server.url}/org/repo.git//base\n` });
  await assert.rejects(localize('/app', { fs, cwd: '/', destination: '/out' }), /could not localize path ".*" as directory: localize remote root ".*\/org\/repo.git\/\/base" missing ref query string parameter/);
  assert.equal(fs.exists('/out'), false);
});

test('a kustomization that already has localized-files/ cannot take remote copies', async () => {
  const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': `resources:\n- ${server.url}/manifests/svc.yaml\n`, 'app/localized-files/x': '' });
  await assert.rejects(localize('/app', { fs, cwd: '/', destination: '/out' }), /\/app already contains localized-files needed to store file ".*\/manifests\/svc.yaml"/);
});

test('the command: localizes, verifies by building both, and says so on stderr', async () => {
  const fs = MemoryFileSystem.from({ 'w/app/kustomization.yaml': `resources:\n- ${server.url}/manifests/svc.yaml\n` });
  const err: string[] = [];
  const code = await main(['localize', 'app', 'dst'], { out: () => {}, err: (s) => err.push(s), fs, cwd: '/w' });
  assert.equal(code, 0, err.join(''));
  assert.deepEqual(err, [
    'VERIFICATION SUCCESS: `kustomize build` for app and /w/dst are the same after localization.\n',
    'SUCCESS: localized "app" to directory /w/dst\n',
  ]);
  const again: string[] = [];
  assert.equal(await main(['localize', 'app', 'dst', '--no-verify'], { out: () => {}, err: (s) => again.push(s), fs, cwd: '/w' }), 1);
  assert.equal(again.join(''), 'Error: invalid localize destination "dst": localize destination "dst" already exists\n');
});
