import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { main } from '../../src/cli/main.js';
import { lock } from '../../src/edit/lock.js';
import { KustomizeError } from '../../src/errors.js';
import { catalogYaml, CONFIG, execRuntime, renamerFunction, renamerScript } from '../catalog/harness.js';
import { publishTagged, startServer } from './git-http-server.js';

// kustomization.lock.yaml against a real smart-HTTP git server and file server on 127.0.0.1:
// what `lock` writes, builds that follow it when a tag moves or a file changes, and what
// `lock --check` says.

const work = mkdtempSync(join(tmpdir(), 'kts-lock-'));
const src = join(work, 'src');
const bare = join(work, 'srv/org/repo.git');
let server: Awaited<ReturnType<typeof startServer>>;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();

const configMap = (version: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  version: ${version}\n`;
const service = (port: number) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: ${port}\n`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Publishes base/cm.yaml at `version`, tagged v1 (the tag moved); returns the commit. */
const publish = (version: string) => publishTagged(src, bare, version);

function serveFile(text: string): void {
  writeFileSync(join(work, 'www/manifests/svc.yaml'), text);
}

let first: string;

before(async () => {
  mkdirSync(join(src, 'base'), { recursive: true });
  writeFileSync(join(src, 'base/kustomization.yaml'), 'resources:\n- cm.yaml\nnamePrefix: remote-\n');
  git(src, 'init', '-q', '-b', 'main');
  mkdirSync(join(work, 'srv/org'), { recursive: true });
  git(work, 'init', '-q', '--bare', bare);
  first = publish('one');
  mkdirSync(join(work, 'www/manifests'), { recursive: true });
  serveFile(service(80));
  server = await startServer(join(work, 'srv'), join(work, 'www'));
});

after(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  // each test starts from the first publication
  git(src, 'reset', '-q', '--hard', first);
  git(src, 'tag', '-f', 'v1');
  git(src, 'push', '-q', '--force', bare, 'main', 'refs/tags/v1');
  serveFile(service(80));
});

const gitUrl = () => `${server.url}/org/repo.git//base?ref=v1`;
const fileUrl = () => `${server.url}/manifests/svc.yaml`;

/** A kustomization on disk whose resources are the remote git base and file (and `extra`). */
function app(extra = ''): string {
  const dir = mkdtempSync(join(work, 'app-'));
  writeFileSync(join(dir, 'kustomization.yaml'), `resources:\n- ${gitUrl()}\n- ${fileUrl()}\n${extra}`);
  return dir;
}

/** How the CLI, run in `work`, names a directory under it. */
const shown = (dir: string) => dir.slice(work.length + 1);

const lockText = (dir: string) => readFileSync(join(dir, 'kustomization.lock.yaml'), 'utf8');

/** Runs the CLI; returns its exit code and what it wrote. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s), cwd: work });
  return { code, out, err };
}

function expectedLock(commit: string, fileText: string): string {
  return [
    'apiVersion: kustomize-ts.dev/v1alpha1',
    'kind: KustomizationLock',
    'inputs:',
    '- type: http',
    `  url: "${fileUrl()}"`,
    `  sha256: "${sha256(fileText)}"`,
    '- type: git',
    `  url: "${gitUrl()}"`,
    '  ref: "v1"',
    `  commit: "${commit}"`,
    '',
  ].join('\n');
}

test('lock writes each remote input with what it resolved to, sorted; writing it again changes nothing', async () => {
  const dir = app();
  const r = await cli('lock', dir);
  assert.equal(r.code, 0, r.err);
  assert.equal(lockText(dir), expectedLock(first, service(80)));
  assert.match(r.err, /wrote .*kustomization\.lock\.yaml: 2 remote inputs/);
  const again = await lock(dir);
  assert.equal(again.written, false);
  assert.deepEqual(again.differences, []);
  // nothing but the lock file was left beside the kustomization (no temporary file)
  assert.deepEqual(readdirSync(dir).sort(), ['kustomization.lock.yaml', 'kustomization.yaml']);
});

test('a tag moved after locking: the build follows the lock to the locked commit; --no-lock and lock --update take the new one', async () => {
  const dir = app();
  await lock(dir);
  const second = publish('two');
  const locked = await build(dir);
  assert.match(locked.yaml, /version: one/);
  assert.ok(locked.inputs.includes('kustomization.lock.yaml'), 'the lock file is an input of the build');
  assert.deepEqual(
    locked.remote.find((r) => r.type === 'git'),
    { type: 'git', url: gitUrl(), ref: 'v1', commit: first },
  );
  assert.match((await build(dir, { lock: 'ignore' })).yaml, /version: two/);
  const cliBuild = await cli('build', dir, '--no-lock');
  assert.match(cliBuild.out, /version: two/);

  const check = await cli('lock', dir, '--check');
  assert.equal(check.code, 1);
  assert.equal(check.out, `${shown(dir)}/kustomization.lock.yaml: does not match\n  changed: git ${gitUrl()}: locked ${first}, now ${second}\n`);
  assert.equal(lockText(dir), expectedLock(first, service(80)), '--check writes nothing');

  assert.equal((await cli('lock', dir, '--update')).code, 0);
  assert.equal(lockText(dir), expectedLock(second, service(80)));
  assert.match((await build(dir)).yaml, /version: two/);
});

test('a locked commit the server no longer has: LOCK_MISMATCH naming the input, the locked and the found commit, and the lock file', async () => {
  const dir = app();
  await lock(dir);
  // the repository is published anew: a history without the locked commit
  rmSync(bare, { recursive: true });
  git(work, 'init', '-q', '--bare', bare);
  git(src, 'checkout', '-q', '--orphan', 'rewritten');
  writeFileSync(join(src, 'base/cm.yaml'), configMap('rewritten'));
  git(src, 'add', '.');
  git(src, 'commit', '-q', '-m', 'rewritten');
  git(src, 'tag', '-f', 'v1');
  const rewritten = git(src, 'rev-parse', 'HEAD');
  git(src, 'push', '-q', '--force', bare, 'rewritten:main', 'refs/tags/v1');
  git(src, 'checkout', '-q', 'main');
  try {
    await assert.rejects(build(dir), (e: unknown) => {
      assert.ok(e instanceof KustomizeError);
      assert.equal(e.code, 'LOCK_MISMATCH');
      assert.ok(e.message.includes(`git input '${gitUrl()}': the lock file ${dir}/kustomization.lock.yaml pins ${first}, found ${rewritten}`), e.message);
      return true;
    });
  } finally {
    rmSync(bare, { recursive: true });
    git(work, 'init', '-q', '--bare', bare);
    git(src, 'branch', '-q', '-D', 'rewritten');
  }
});

test('an HTTP file that changed after locking: LOCK_MISMATCH with both sha256s; --no-lock builds what is there', async () => {
  const dir = app();
  await lock(dir);
  serveFile(service(8080));
  await assert.rejects(build(dir), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'LOCK_MISMATCH');
    assert.equal(e.remote, fileUrl());
    assert.ok(e.message.includes(`http input '${fileUrl()}': the lock file ${dir}/kustomization.lock.yaml pins sha256:${sha256(service(80))}, found sha256:${sha256(service(8080))}`), e.message);
    return true;
  });
  const r = await cli('build', dir);
  assert.equal(r.code, 1);
  assert.match(r.err, /LOCK_MISMATCH|pins sha256:/);
  assert.match((await build(dir, { lock: 'ignore' })).yaml, /port: 8080/);
  const check = await cli('lock', dir, '--check');
  assert.equal(check.code, 1);
  assert.match(check.out, new RegExp(`changed: http ${fileUrl().replace(/[.?/]/g, '\\$&')}: locked sha256:${sha256(service(80))}, now sha256:${sha256(service(8080))}`));
});

test('an input the lock does not list: fetched as without a lock, refused with --locked; lock --check lists it and the inputs no longer reached', async () => {
  const dir = app();
  await lock(dir);
  const other = `${server.url}/manifests/extra.yaml`;
  writeFileSync(join(work, 'www/manifests/extra.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n');
  writeFileSync(join(dir, 'kustomization.yaml'), `resources:\n- ${gitUrl()}\n- ${other}\n`);
  assert.match((await build(dir)).yaml, /name: extra/);
  await assert.rejects(build(dir, { lock: 'locked' }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'LOCK_MISSING');
    assert.ok(e.message.includes(`remote input '${other}' is not in the lock file ${dir}/kustomization.lock.yaml (--locked)`), e.message);
    return true;
  });
  const r = await cli('build', dir, '--locked');
  assert.equal(r.code, 1);
  assert.match(r.err, /is not in the lock file/);
  const check = await cli('lock', dir, '--check');
  assert.equal(check.code, 1);
  assert.equal(
    check.out,
    `${shown(dir)}/kustomization.lock.yaml: does not match\n  not locked: http ${other} (now sha256:${sha256('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n')})\n  not reached: http ${fileUrl()} (locked sha256:${sha256(service(80))})\n`,
  );
  // lock (without --update) adds the new input and drops the one no longer reached
  await lock(dir);
  assert.match(lockText(dir), /extra\.yaml/);
  assert.doesNotMatch(lockText(dir), /svc\.yaml/);
  assert.match((await build(dir, { lock: 'locked' })).yaml, /name: extra/);
});

test('--locked without a lock file fails; without --locked a tree with no lock builds as before', async () => {
  const dir = app();
  assert.match((await build(dir)).yaml, /version: one/);
  await assert.rejects(build(dir, { lock: 'locked' }), /--locked: there is no lock file/);
});

test('lock writes nothing on a failed build and keeps no temporary file', async () => {
  const dir = app('- missing.yaml\n');
  await assert.rejects(lock(dir));
  assert.equal(existsSync(join(dir, 'kustomization.lock.yaml')), false);
  assert.deepEqual(readdirSync(dir), ['kustomization.yaml']);
});

test('a locked HTTP file is read from the remote cache by its sha256, with no request; a locked tree builds offline, identical', async () => {
  const dir = app();
  const remoteCache = mkdtempSync(join(work, 'cache-'));
  await lock(dir, { remoteCache });
  const online = await build(dir, { remoteCache });
  server.requests.length = 0;
  const again = await build(dir, { remoteCache });
  assert.equal(again.yaml, online.yaml);
  assert.deepEqual(server.requests.filter((r) => r.includes('svc.yaml')), []);
  // the tag moves and the file changes on the server: offline, the cache still has the locked bytes
  publish('two');
  serveFile(service(8080));
  const offline = await build(dir, { remoteCache, offline: true });
  assert.equal(offline.yaml, online.yaml);
  assert.match(offline.yaml, /version: one/);
  assert.match(offline.yaml, /port: 80\n/);
});

test('a bad lock file is an error naming the file and the line', async () => {
  const dir = app();
  const file = join(dir, 'kustomization.lock.yaml');
  const cases: [string, RegExp, number][] = [
    ['apiVersion: kustomize-ts.dev/v1alpha1\nkind: KustomizationLock\ninputs:\n- type: git\n  url: [unclosed\n', /not a lock file: MalformedYAMLError: yaml: line 6: /, 6],
    ['apiVersion: kustomize-ts.dev/v9\nkind: KustomizationLock\ninputs: []\n', /unknown apiVersion "kustomize-ts.dev\/v9"; this kustomize-ts reads kustomize-ts.dev\/v1alpha1/, 1],
    [
      `apiVersion: kustomize-ts.dev/v1alpha1\nkind: KustomizationLock\ninputs:\n- type: http\n  url: ${fileUrl()}\n  sha256: ${sha256('a')}\n- type: http\n  url: ${fileUrl()}\n  sha256: ${sha256('b')}\n`,
      /http input '.*svc\.yaml' is listed twice/,
      7,
    ],
    [`apiVersion: kustomize-ts.dev/v1alpha1\nkind: KustomizationLock\ninputs:\n- type: git\n  url: x\n  ref: v1\n  commit: abc\n`, /commit must be a string matching/, 7],
    [`apiVersion: kustomize-ts.dev/v1alpha1\nkind: KustomizationLock\ninputs:\n- type: svn\n  url: x\n`, /type must be one of git, http, oci, exec, helm, image, not "svn"/, 4],
  ];
  for (const [text, message, line] of cases) {
    writeFileSync(file, text);
    await assert.rejects(build(dir), (e: unknown) => {
      assert.ok(e instanceof KustomizeError);
      assert.equal(e.code, 'LOCK_INVALID', e.message);
      assert.match(e.message, message);
      assert.ok(e.message.includes(`${file}:${line}: `), e.message);
      assert.equal(e.line, line, e.message);
      return true;
    });
    await assert.rejects(lock(dir), /LOCK_INVALID|not a lock file|unknown apiVersion|listed twice|must be/);
  }
});

test("a catalog's exec program is locked by the sha256 its catalog gives; another program there is LOCK_MISMATCH", async () => {
  const dir = mkdtempSync(join(work, 'catalog-app-'));
  const programs = [renamerScript(join(work, 'ran-one'), 'one-'), renamerScript(join(work, 'ran-two'), 'two-')];
  /** The program `i` at `renamer`, and the catalog that gives its digest. */
  const publishProgram = (i: number) => {
    writeFileSync(join(dir, 'renamer'), programs[i]!, { mode: 0o755 });
    writeFileSync(join(dir, 'catalog.yaml'), catalogYaml('team', renamerFunction(execRuntime({ bin: 'renamer', uri: 'renamer', sha256: sha256(programs[i]!) }))));
  };
  publishProgram(0);
  writeFileSync(join(dir, 'fn.yaml'), CONFIG);
  writeFileSync(join(dir, 'kustomization.yaml'), `catalogs:\n- catalog.yaml\nresources:\n- ${fileUrl()}\ntransformers:\n- fn.yaml\n`);
  const options = { trustedCatalogs: ['team'], cacheDir: mkdtempSync(join(work, 'exec-cache-')) };
  const locked = await lock(dir, options);
  assert.deepEqual(locked.inputs, [
    { type: 'exec', url: 'catalog.yaml#renamer', sha256: sha256(programs[0]!) },
    { type: 'http', url: fileUrl(), sha256: sha256(service(80)) },
  ]);
  assert.match((await build(dir, options)).yaml, /name: one-web/);
  publishProgram(1);
  await assert.rejects(build(dir, options), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'LOCK_MISMATCH');
    assert.ok(e.message.includes(`exec input 'catalog.yaml#renamer': the lock file ${dir}/kustomization.lock.yaml pins sha256:${sha256(programs[0]!)}, found sha256:${sha256(programs[1]!)}`), e.message);
    return true;
  });
  assert.match((await build(dir, { ...options, lock: 'ignore' })).yaml, /name: two-web/);
});
