import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../src/cli/main.js';
import { DiskFileSystem } from '../../src/fs/disk.js';
import { buildAll, diffRevisions } from '../../src/node.js';
import { RenderServer } from '../../src/serve/render-server.js';
import { publishTagged, startServer } from '../load/git-http-server.js';
import { buildRequest } from '../serve/client.js';

// Lock files at repository scale: `lock --all` locks every root, and build-all (in worker
// threads), diff and serve build each root as its own lock file says, against a real
// smart-HTTP git server on 127.0.0.1 whose tag moves after locking.

const work = mkdtempSync(join(tmpdir(), 'kts-lock-roots-'));
const src = join(work, 'src');
const bare = join(work, 'srv/org/repo.git');
const repo = join(work, 'repo');
let server: Awaited<ReturnType<typeof startServer>>;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();

const publish = (version: string) => publishTagged(src, bare, version);

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s), cwd: work });
  return { code, out, err };
}

before(async () => {
  mkdirSync(join(src, 'base'), { recursive: true });
  writeFileSync(join(src, 'base/kustomization.yaml'), 'resources:\n- cm.yaml\n');
  git(src, 'init', '-q', '-b', 'main');
  mkdirSync(join(work, 'srv/org'), { recursive: true });
  git(work, 'init', '-q', '--bare', bare);
  publish('one');
  server = await startServer(join(work, 'srv'), work);
  for (const root of ['a', 'b']) {
    mkdirSync(join(repo, root), { recursive: true });
    writeFileSync(join(repo, root, 'kustomization.yaml'), `namePrefix: ${root}-\nresources:\n- ${server.url}/org/repo.git//base?ref=v1\n`);
  }
  git(repo, 'init', '-q', '-b', 'main');
});

after(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

test('lock --all locks every root; after the tag moves, build-all, serve and diff build each root at its locked commit', async () => {
  const locked = await cli('lock', '--all', 'repo');
  assert.equal(locked.code, 0, locked.err);
  assert.equal(locked.err, 'wrote repo/a/kustomization.lock.yaml: 1 remote input\nwrote repo/b/kustomization.lock.yaml: 1 remote input\n');
  const first = git(src, 'rev-parse', 'HEAD');
  for (const root of ['a', 'b']) assert.match(readFileSync(join(repo, root, 'kustomization.lock.yaml'), 'utf8'), new RegExp(`commit: "${first}"`));
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'locked');

  publish('two');
  const second = git(src, 'rev-parse', 'HEAD');

  // build-all, in two worker threads
  const built = [];
  for await (const r of buildAll(repo, { jobs: 2 })) built.push(r);
  assert.deepEqual(
    built.map((r) => (r.ok ? [r.path, /version: (\w+)/.exec(r.yaml)?.[1]] : [r.path, r.error.message])),
    [
      ['a', 'one'],
      ['b', 'one'],
    ],
  );
  const cliAll = await cli('build-all', repo, '--locked', '--format', 'ndjson');
  assert.equal(cliAll.code, 0, cliAll.err);
  assert.equal(cliAll.out.match(/version: one/g)?.length, 2);

  // serve
  const render = new RenderServer({ root: repo, fs: new DiskFileSystem() });
  const { port } = await render.listen(0, '127.0.0.1');
  try {
    const { status, body } = await buildRequest(port, 'a');
    assert.equal(status, 200, JSON.stringify(body));
    assert.match(body.yaml!, /version: one/);
    assert.ok(body.inputs!.includes('a/kustomization.lock.yaml'), 'the lock file is among the inputs the server reports');
  } finally {
    await render.drain();
  }

  // root a moves to the new commit: diff sees it change there, and b (still locked) not at all
  assert.equal((await cli('lock', 'repo/a', '--update')).code, 0);
  assert.match(readFileSync(join(repo, 'a', 'kustomization.lock.yaml'), 'utf8'), new RegExp(`commit: "${second}"`));
  const diff = await diffRevisions(repo, { base: 'HEAD' });
  assert.deepEqual(
    diff.roots.map((r) => [r.path, r.status, r.resources.map((c) => [c.kind, c.name, c.change, c.diff.includes('-  version: one\n+  version: two')])]),
    [['a', 'changed', [['ConfigMap', 'a-settings', 'changed', true]]]],
  );
});
