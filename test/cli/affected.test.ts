/**
 * `kustomize-ts affected`, run as users run it (the launcher as a child process) on real git
 * repositories: the text and ndjson formats, worker threads, exit codes and bad command lines.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { commit, git, newRepo, workDir, write } from '../git-repos.js';
import { runCommand, type Run } from './run-command.js';

const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));
const work = workDir('kts-cli-affected-');

const CM = (name: string, data = 'v') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: ${data}\n`;
const TREE: Record<string, string> = {
  'base/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'base/cm.yaml': CM('base'),
  'overlays/a/kustomization.yaml': 'resources:\n- ../../base\nnamePrefix: a-\n',
  'overlays/b/kustomization.yaml': 'resources:\n- ../../base\nnamePrefix: b-\n',
  'other/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'other/cm.yaml': CM('other'),
};

const cli = (args: string[], cwd: string): Promise<Run> => runCommand(process.execPath, [BIN, ...args], { cwd, env: process.env });

describe('affected', () => {
  const repo = newRepo(work, 'repo', TREE);
  const first = git(repo, 'rev-parse', 'HEAD');
  write(repo, { 'other/cm.yaml': CM('other', 'two') });
  const second = commit(repo, 'other two');
  write(repo, { 'base/cm.yaml': CM('base', 'edited'), 'new/kustomization.yaml': 'resources:\n- ../other\n' });

  test('text: the roots, a line each, relative to ROOT; how many on stderr', async () => {
    const r = await cli(['affected', '--since', 'HEAD'], repo);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'base\nnew\noverlays/a\noverlays/b\n');
    assert.equal(r.stderr, '4 roots affected\n');
    const below = await cli(['affected', 'overlays', '--since', 'HEAD'], repo);
    assert.equal(below.stdout, 'a\nb\n');
    const none = await cli(['affected', '.', '--since', second, '--until', 'HEAD'], repo);
    assert.deepEqual([none.status, none.stdout, none.stderr], [0, '', '0 roots affected\n']);
  });

  test('--format ndjson: path, reason and files; worker threads print what one thread prints', async () => {
    const r = await cli(['affected', repo, '--since', first, '--format', 'ndjson', '--jobs', '2'], work);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(
      r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown),
      [
        { path: 'base', reason: 'inputs', files: ['base/cm.yaml'] },
        { path: 'new', reason: 'added', files: [] },
        { path: 'other', reason: 'inputs', files: ['other/cm.yaml'] },
        { path: 'overlays/a', reason: 'inputs', files: ['base/cm.yaml'] },
        { path: 'overlays/b', reason: 'inputs', files: ['base/cm.yaml'] },
      ],
    );
    assert.equal((await cli(['affected', repo, '--since', first, '--format', 'ndjson', '--jobs', '1'], work)).stdout, r.stdout);
  });

  test('--shard: the shards together list every root once', async () => {
    const shards = await Promise.all(['1/2', '2/2'].map(async (shard) => (await cli(['affected', '--since', 'HEAD', '--shard', shard], repo)).stdout));
    assert.deepEqual(shards, ['base\nnew\n', 'overlays/a\noverlays/b\n']);
  });

  test('a wrong command line, no work tree, an unknown revision: exit 2 and a clear error', async () => {
    const plain = join(work, 'plain');
    write(plain, { 'kustomization.yaml': 'resources: []\n' });
    const cases: [string[], string, RegExp][] = [
      [[], repo, /--since is required/],
      [['--since', 'HEAD'], plain, /is not in a git work tree/],
      [['--since', 'no-such-branch'], repo, /unknown revision 'no-such-branch'/],
      [['--since', 'HEAD', '--until', 'HEAD~9'], repo, /unknown revision 'HEAD~9'/],
      [['--since', '-x'], repo, /cannot start with '-'/],
      [['nowhere', '--since', 'HEAD'], repo, /nowhere' is not a directory/],
      [['--since', 'HEAD', '--shard', '3/2'], repo, /--shard '3\/2'/],
      [['--since', 'HEAD', '--jobs', '0'], repo, /--jobs '0'/],
      [['--since', 'HEAD', '--format', 'xml'], repo, /--format 'xml'/],
    ];
    for (const [args, cwd, message] of cases) {
      const r = await cli(['affected', ...args], cwd);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    }
    rmSync(plain, { recursive: true });
  });
});
