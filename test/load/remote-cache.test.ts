import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { main } from '../../src/cli/main.js';
import { startServer } from './git-http-server.js';

// Fetching each remote once per build, and the opt-in cache across builds, against a real
// smart-HTTP git server and file server on 127.0.0.1. Git is run through a logging shim on the
// PATH, so the tests count real git invocations; the server lists every request it answered.

const work = mkdtempSync(join(tmpdir(), 'kts-remote-cache-'));
const src = join(work, 'src');
const gitRoot = join(work, 'srv');
const gitLog = join(work, 'git.log');
let server: Awaited<ReturnType<typeof startServer>>;
let pinnedCommit: string;
const savedPath = process.env['PATH'];

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();

const configMap = (name: string, version: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  version: ${version}\n`;

/** Commits a new version of base/cm.yaml on main and publishes it to the served bare repository. */
function publish(version: string): string {
  writeFileSync(join(src, 'base/cm.yaml'), configMap('settings', version));
  git(src, 'commit', '-q', '-am', version);
  git(src, 'push', '-q', join(gitRoot, 'org/repo.git'), 'main');
  return git(src, 'rev-parse', 'HEAD');
}

before(async () => {
  mkdirSync(join(src, 'base'), { recursive: true });
  mkdirSync(join(src, 'other'), { recursive: true });
  mkdirSync(join(src, 'comp'), { recursive: true });
  writeFileSync(join(src, 'base/kustomization.yaml'), 'resources:\n- cm.yaml\nnamePrefix: base-\n');
  writeFileSync(join(src, 'base/cm.yaml'), configMap('settings', 'one'));
  writeFileSync(join(src, 'other/kustomization.yaml'), 'resources:\n- cm.yaml\nnamePrefix: other-\n');
  writeFileSync(join(src, 'other/cm.yaml'), configMap('other', 'one'));
  writeFileSync(join(src, 'comp/kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonLabels:\n  from: component\n');
  git(src, 'init', '-q', '-b', 'main');
  git(src, 'add', '.');
  git(src, 'commit', '-q', '-m', 'one');
  pinnedCommit = git(src, 'rev-parse', 'HEAD');
  mkdirSync(join(gitRoot, 'org'), { recursive: true });
  git(work, 'clone', '-q', '--bare', src, join(gitRoot, 'org/repo.git'));
  mkdirSync(join(work, 'www/manifests'), { recursive: true });
  writeFileSync(join(work, 'www/manifests/svc.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n');
  server = await startServer(gitRoot, join(work, 'www'));
  const shim = join(work, 'shim');
  mkdirSync(shim);
  const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
  writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$1" >> '${gitLog}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(shim, 'git'), 0o755);
  process.env['PATH'] = `${shim}:${savedPath}`;
});

after(async () => {
  process.env['PATH'] = savedPath;
  await server?.close();
});

beforeEach(() => {
  writeFileSync(gitLog, '');
  server.requests.length = 0;
});

/** The git subcommands the build ran (the server's own `git http-backend` runs are not the build's). */
const gitRuns = () =>
  readFileSync(gitLog, 'utf8')
    .split('\n')
    .filter((l) => l !== '' && l !== 'http-backend');

const app = (kustomization: string) => MemoryFileSystem.from({ 'app/kustomization.yaml': kustomization });
const repo = () => `${server.url}/org/repo.git`;
const freshCache = () => mkdtempSync(join(tmpdir(), 'kts-cache-'));

test('one build fetches a repository at a ref once, however many resources and components point into it; HTTP files too', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': `resources:\n- ${repo()}//base?ref=main\n- ${repo()}//other?ref=main\n- nested\n- ${server.url}/manifests/svc.yaml\ncomponents:\n- ${repo()}//comp?ref=main\n`,
    'app/nested/kustomization.yaml': `resources:\n- ${server.url}/manifests/svc.yaml\nnamespace: nested\n`,
  });
  const { yaml } = await build('/app', { fs });
  assert.match(yaml, /name: base-settings/);
  assert.match(yaml, /name: other-other/);
  assert.match(yaml, /from: component/);
  assert.match(yaml, /namespace: nested/);
  assert.deepEqual(gitRuns(), ['init', 'remote', 'fetch', 'checkout', 'submodule']);
  assert.deepEqual(
    server.requests.filter((r) => r.includes('svc.yaml')),
    ['GET /manifests/svc.yaml 200'],
  );
});

test('without --remote-cache nothing is written outside a temporary directory that is removed', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'kts-tmp-'));
  const saved = process.env['TMPDIR'];
  process.env['TMPDIR'] = tmp;
  try {
    const { yaml } = await build('/app', { fs: app(`resources:\n- ${repo()}//base?ref=${pinnedCommit}\n`) });
    assert.match(yaml, /version: one/);
  } finally {
    if (saved === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = saved;
  }
  assert.ok(gitRuns().includes('fetch'), 'the repository was fetched');
  assert.deepEqual(readdirSync(tmp), []);
});

test('with the cache, a second build of a pinned commit makes no network request and runs no git', async () => {
  const remoteCache = freshCache();
  const fs = app(`resources:\n- ${repo()}//base?ref=${pinnedCommit}\n`);
  const first = await build('/app', { fs, remoteCache });
  assert.ok(server.requests.length > 0);
  assert.ok(existsSync(join(remoteCache, 'git', pinnedCommit, 'tree/base/cm.yaml')));
  writeFileSync(gitLog, '');
  server.requests.length = 0;
  const second = await build('/app', { fs, remoteCache });
  assert.equal(second.yaml, first.yaml);
  assert.deepEqual(server.requests, []);
  assert.deepEqual(gitRuns(), []);
  assert.deepEqual(readdirSync(join(remoteCache, 'tmp')), []);
});

test('a branch is re-resolved with ls-remote: unchanged means no clone, a new commit is fetched', async () => {
  const remoteCache = freshCache();
  const fs = app(`resources:\n- ${repo()}//base?ref=main\n`);
  const first = await build('/app', { fs, remoteCache });
  writeFileSync(gitLog, '');
  const again = await build('/app', { fs, remoteCache });
  assert.equal(again.yaml, first.yaml);
  assert.deepEqual(gitRuns(), ['ls-remote']);
  const version = `v${Date.now()}`;
  publish(version);
  writeFileSync(gitLog, '');
  const moved = await build('/app', { fs, remoteCache });
  assert.match(moved.yaml, new RegExp(`version: ${version}`));
  assert.deepEqual(gitRuns(), ['ls-remote', 'init', 'remote', 'fetch', 'checkout', 'submodule', 'rev-parse']);
});

test('--offline builds from the cache alone, and names the reference that is missing', async () => {
  const remoteCache = freshCache();
  const fs = app(`resources:\n- ${repo()}//base?ref=main\n- ${server.url}/manifests/svc.yaml\n`);
  const online = await build('/app', { fs, remoteCache });
  writeFileSync(gitLog, '');
  server.requests.length = 0;
  const offline = await build('/app', { fs, remoteCache, offline: true });
  assert.equal(offline.yaml, online.yaml);
  assert.deepEqual(server.requests, []);
  assert.deepEqual(gitRuns(), []);

  const missing = `${repo()}//other?ref=no-such-branch`;
  await assert.rejects(
    build('/app', { fs: app(`resources:\n- ${missing}\n`), remoteCache, offline: true }),
    (e: unknown) => e instanceof KustomizeError && e.code === 'REMOTE_FAILED' && e.message.includes(`offline: '${missing}' is not in the remote cache ${remoteCache}`),
  );
  await assert.rejects(build('/app', { fs, offline: true }), /offline: '.*' is not in a remote cache \(none was given: --remote-cache DIR\)/);
  assert.deepEqual(server.requests, []);
});

test('an HTTP file in the cache is revalidated with its ETag (304, body not sent again)', async () => {
  const remoteCache = freshCache();
  const fs = app(`resources:\n- ${server.url}/manifests/svc.yaml\n`);
  const first = await build('/app', { fs, remoteCache });
  const second = await build('/app', { fs, remoteCache });
  assert.equal(second.yaml, first.yaml);
  assert.deepEqual(server.requests, ['GET /manifests/svc.yaml 200', 'GET /manifests/svc.yaml 304']);
});

test('a corrupted cache entry is detected, reported and fetched again', async () => {
  const remoteCache = freshCache();
  const fs = app(`resources:\n- ${repo()}//base?ref=${pinnedCommit}\n- ${server.url}/manifests/svc.yaml\n`);
  const first = await build('/app', { fs, remoteCache });
  writeFileSync(join(remoteCache, 'git', pinnedCommit, 'tree/base/cm.yaml'), configMap('settings', 'tampered'));
  const httpEntry = readdirSync(join(remoteCache, 'http'))[0]!;
  writeFileSync(join(remoteCache, 'http', httpEntry, 'body'), 'kind: Tampered\n');
  writeFileSync(gitLog, '');
  const warnings: string[] = [];
  const second = await build('/app', { fs, remoteCache, warn: (w) => warnings.push(w.message) });
  assert.equal(second.yaml, first.yaml);
  assert.ok(gitRuns().includes('fetch'), 'the repository was fetched again');
  assert.deepEqual(warnings.sort(), [
    `remote cache: the entry for git ${pinnedCommit} was corrupted; fetching it again`,
    `remote cache: the entry for ${server.url}/manifests/svc.yaml was corrupted; fetching it again`,
  ]);
  assert.equal(readFileSync(join(remoteCache, 'git', pinnedCommit, 'tree/base/cm.yaml'), 'utf8'), configMap('settings', 'one'));
});

test('concurrent builds sharing a cold cache directory both succeed and leave one intact entry', async () => {
  const remoteCache = freshCache();
  const fs = app(`resources:\n- ${repo()}//base?ref=${pinnedCommit}\n- ${repo()}//other?ref=${pinnedCommit}\n`);
  const results = await Promise.all([1, 2, 3].map(() => build('/app', { fs, remoteCache })));
  assert.equal(new Set(results.map((r) => r.yaml)).size, 1);
  assert.deepEqual(readdirSync(join(remoteCache, 'git')), [pinnedCommit]);
  assert.deepEqual(readdirSync(join(remoteCache, 'tmp')), []);
  writeFileSync(gitLog, '');
  const warnings: string[] = [];
  await build('/app', { fs, remoteCache, offline: true, warn: (w) => warnings.push(w.message) });
  assert.deepEqual(warnings, []);
});

test('the CLI: --remote-cache, KUSTOMIZE_TS_REMOTE_CACHE and --offline', async () => {
  const remoteCache = freshCache();
  const dir = mkdtempSync(join(tmpdir(), 'kts-cli-overlay-'));
  writeFileSync(join(dir, 'kustomization.yaml'), `resources:\n- ${repo()}//base?ref=main\n`);
  const run = async (...args: string[]) => {
    let out = '';
    let err = '';
    const code = await main(['build', dir, ...args], { out: (s) => (out += s), err: (s) => (err += s) });
    return { code, out, err };
  };
  const offlineWithout = await run('--offline');
  assert.equal(offlineWithout.code, 1);
  assert.match(offlineWithout.err, /^Error: .*offline: '.*\/\/base\?ref=main' is not in a remote cache/);
  const online = await run('--remote-cache', remoteCache);
  assert.equal(online.code, 0);
  server.requests.length = 0;
  process.env['KUSTOMIZE_TS_REMOTE_CACHE'] = remoteCache;
  try {
    const offline = await run('--offline');
    assert.deepEqual([offline.code, offline.out], [0, online.out]);
  } finally {
    delete process.env['KUSTOMIZE_TS_REMOTE_CACHE'];
  }
  assert.deepEqual(server.requests, []);
});
