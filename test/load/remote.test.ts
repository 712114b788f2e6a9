import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { requireTool } from '../require-tool.js';
import { seedRemoteTree, startServer } from './git-http-server.js';

// Remote bases and files, served for real from 127.0.0.1: a git repository (file:// and smart
// HTTP) and plain HTTP files. Tag v1 and the main branch differ, so refs are checked.

const work = mkdtempSync(join(tmpdir(), 'kts-remote-'));
const gitRoot = join(work, 'srv');
const files = join(work, 'www');
let server: { url: string; close: () => Promise<void> };
// the reference for the last test
const kubectl = requireTool('kubectl');

before(async () => {
  seedRemoteTree(work, ['one', 'two']);
  server = await startServer(gitRoot, files);
});

after(async () => {
  await server?.close();
});

const overlay = (resource: string) => MemoryFileSystem.from({ 'app/kustomization.yaml': `resources:\n- ${resource}\n` });

test('a file:// repository at a tag', async () => {
  const { yaml } = await build('/app', { fs: overlay(`file://${gitRoot}/org/repo.git//base?ref=v1`) });
  assert.equal(yaml, 'apiVersion: v1\ndata:\n  version: one\nkind: ConfigMap\nmetadata:\n  name: remote-settings\n');
});

test('a repository over smart HTTP, default branch', async () => {
  const { yaml } = await build('/app', { fs: overlay(`${server.url}/org/repo.git//base`) });
  assert.match(yaml, /version: two/);
});

test('a github.com URL, redirected to the loopback server with git insteadOf', async () => {
  const saved = { ...process.env };
  Object.assign(process.env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.${server.url}/.insteadOf`, GIT_CONFIG_VALUE_0: 'https://github.com/' });
  try {
    const { yaml } = await build('/app', { fs: overlay('https://github.com/org/repo.git//base?ref=v1') });
    assert.match(yaml, /version: one/);
  } finally {
    for (const k of ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
});

test('origin annotations of remote resources name the repository and ref', async () => {
  const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': `resources:\n- file://${gitRoot}/org/repo.git//base?ref=v1\nbuildMetadata: [originAnnotations]\n` });
  const { yaml } = await build('/app', { fs });
  assert.match(yaml, new RegExp(`config.kubernetes.io/origin: \\|\\n +path: base/cm.yaml\\n +repo: file://${gitRoot}/org/repo.git\\n +ref: v1\\n`));
});

test('a plain HTTP file resource', async () => {
  const { yaml } = await build('/app', { fs: overlay(`${server.url}/manifests/svc.yaml`) });
  assert.equal(yaml, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n');
});

test('an HTTP file that is missing fails with the status', async () => {
  await assert.rejects(build('/app', { fs: overlay(`${server.url}/manifests/nope.yaml`) }), /HTTP Error: status code 404 \(Not Found\)/);
});

test('a repository that cannot be fetched names the git command that failed', async () => {
  await assert.rejects(build('/app', { fs: overlay(`file://${gitRoot}/org/missing.git//base`) }), /failed to run '\S+\/git fetch --depth=1 --end-of-options file:\/\/\S+missing\.git HEAD'/);
});

test('a ref that git would read as --upload-pack runs nothing, also from inside a remote base', async () => {
  const marker = join(work, 'PWNED');
  const evil = `file://${gitRoot}/org/repo.git?ref=--upload-pack=touch%20${marker};git-upload-pack`;
  await assert.rejects(build('/app', { fs: overlay(evil) }), (e: Error & { code?: string }) => e.code === 'REMOTE_INVALID' && /the ref starts with '-'/.test(e.message));
  const nested = MemoryFileSystem.from({ 'app/kustomization.yaml': 'resources:\n- base\n', 'app/base/kustomization.yaml': `resources:\n- ${evil}\n` });
  await assert.rejects(build('/app', { fs: nested }), (e: Error & { code?: string }) => e.code === 'REMOTE_INVALID');
  assert.equal(existsSync(marker), false);
});

test('the same remote base builds identically with kubectl kustomize', { skip: kubectl.skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kts-remote-overlay-'));
  writeFileSync(join(dir, 'kustomization.yaml'), `resources:\n- ${server.url}/org/repo.git//base?ref=v1\n- ${server.url}/manifests/svc.yaml\nnamespace: prod\n`);
  const ours = (await build(dir, { reorder: 'legacy' })).yaml;
  // asynchronously: the git server answering kubectl runs in this process
  const theirs = (await promisify(execFile)(kubectl.path, ['kustomize', dir])).stdout;
  assert.equal(ours, theirs);
});
