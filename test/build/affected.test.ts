/**
 * affected(): on real git repositories made here, the roots whose output may differ between two
 * revisions. The property that matters is that none is missed: random edits of a small GitOps
 * repository are checked against real builds at both revisions. Then what is listed and why,
 * what git ignores, links, plugins, shards and bad input.
 */
import assert from 'node:assert/strict';
import { chmodSync, renameSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { affected as affectedInThread, type AffectedOptions, type AffectedRoot } from '../../src/build/affected.js';
import { build } from '../../src/build/build.js';
import { findRoots } from '../../src/build/roots.js';
import { KustomizeError, type ErrorCode } from '../../src/errors.js';
import { DiskFileSystem } from '../../src/fs/disk.js';
import type { FileSystem } from '../../src/fs/filesystem.js';
import { GitRepository } from '../../src/fs/git.js';
import { affected } from '../../src/node.js';
import { commit, git, newRepo as newRepoIn, workDir, write } from '../git-repos.js';
import { assertProperty } from '../property.js';

const work = workDir('kts-affected-');
let repos = 0;
const newRepo = (files: Record<string, string>) => newRepoIn(work, `r${repos++}`, files);

const CM = (name: string, data = 'v') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: ${data}\n`;

/** A small GitOps repository: overlays on shared bases, a component, a generator, a root that fails. */
const TREE: Record<string, string> = {
  'README.md': 'the apps\n',
  'shared/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'shared/cm.yaml': CM('shared'),
  'web/base/kustomization.yaml': 'resources:\n- cm.yaml\n- ../../shared\n',
  'web/base/cm.yaml': CM('web'),
  'web/overlays/dev/kustomization.yaml': 'resources:\n- ../../base\nnamePrefix: dev-\ncomponents:\n- ../../components/debug\n',
  'web/overlays/prod/kustomization.yaml': 'resources:\n- ../../base\nnamePrefix: prod-\nconfigMapGenerator:\n- name: settings\n  envs:\n  - settings.env\n',
  'web/overlays/prod/settings.env': 'LEVEL=info\n',
  'web/components/debug/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonLabels:\n  debug: "true"\n',
  'api/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'api/cm.yaml': CM('api'),
  'missing/kustomization.yaml': 'resources:\n- gone.yaml\n',
};

async function listed(top: string, options: AffectedOptions): Promise<AffectedRoot[]> {
  const out: AffectedRoot[] = [];
  for await (const r of affectedInThread(top, options)) out.push(r);
  return out;
}
const paths = (roots: AffectedRoot[]) => roots.map((r) => r.path);

describe('affected', () => {
  test('an edit lists the roots whose builds read the file, and no other', async () => {
    const repo = newRepo(TREE);
    write(repo, { 'web/base/cm.yaml': CM('web', 'edited') });
    assert.deepEqual(await listed(repo, { since: 'HEAD' }), [
      { path: 'web/base', reason: 'inputs', files: ['web/base/cm.yaml'] },
      { path: 'web/overlays/dev', reason: 'inputs', files: ['web/base/cm.yaml'] },
      { path: 'web/overlays/prod', reason: 'inputs', files: ['web/base/cm.yaml'] },
    ]);
    write(repo, { 'web/base/cm.yaml': TREE['web/base/cm.yaml']!, 'shared/cm.yaml': CM('shared', 'edited'), 'README.md': 'read by none\n' });
    assert.deepEqual(paths(await listed(repo, { since: 'HEAD' })), ['shared', 'web/base', 'web/overlays/dev', 'web/overlays/prod']);
  });

  test('nothing changed, nothing listed; a file no build reads lists nothing', async () => {
    const repo = newRepo(TREE);
    assert.deepEqual(await listed(repo, { since: 'HEAD' }), []);
    write(repo, { 'README.md': 'edited\n', 'docs/new.md': 'untracked\n' });
    assert.deepEqual(await listed(repo, { since: 'HEAD' }), []);
  });

  test('a root only one revision has is added or removed; a moved root is both', async () => {
    const repo = newRepo(TREE);
    write(repo, { 'jobs/kustomization.yaml': 'resources:\n- ../api\n' });
    renameSync(join(repo, 'web/overlays/dev'), join(repo, 'web/overlays/staging'));
    rmSync(join(repo, 'missing'), { recursive: true });
    assert.deepEqual(await listed(repo, { since: 'HEAD' }), [
      { path: 'jobs', reason: 'added', files: [] },
      { path: 'missing', reason: 'removed', files: [] },
      { path: 'web/overlays/dev', reason: 'removed', files: [] },
      { path: 'web/overlays/staging', reason: 'added', files: [] },
    ]);
  });

  test('a root that stops reading a file is listed, by the kustomization that stopped naming it', async () => {
    const repo = newRepo(TREE);
    write(repo, { 'web/base/kustomization.yaml': 'resources:\n- cm.yaml\n' });
    rmSync(join(repo, 'shared/cm.yaml'));
    const roots = await listed(repo, { since: 'HEAD' });
    assert.deepEqual(paths(roots), ['shared', 'web/base', 'web/overlays/dev', 'web/overlays/prod']);
    assert.deepEqual(roots[1]!.files, ['web/base/kustomization.yaml']);
  });

  test('--until compares two commits: the work tree is not read then', async () => {
    const repo = newRepo(TREE);
    const first = git(repo, 'rev-parse', 'HEAD');
    write(repo, { 'api/cm.yaml': CM('api', 'two') });
    const second = commit(repo, 'api two');
    write(repo, { 'shared/cm.yaml': CM('shared', 'uncommitted') });
    assert.deepEqual(paths(await listed(repo, { since: first, until: second })), ['api']);
    assert.deepEqual(paths(await listed(repo, { since: second, until: first })), ['api']);
    assert.deepEqual(await listed(repo, { since: second, until: 'HEAD' }), []);
    assert.deepEqual(paths(await listed(repo, { since: second })), ['shared', 'web/base', 'web/overlays/dev', 'web/overlays/prod']);
  });

  test('untracked files count; files git ignores are read from the disk at both revisions', async () => {
    const repo = newRepo({ ...TREE, '.gitignore': '*.env\n' });
    assert.equal(git(repo, 'ls-files', 'web/overlays/prod/settings.env'), '', 'the env file is ignored');
    // the ignored file is the same at both revisions: whatever it holds, prod is not listed for it
    write(repo, { 'web/overlays/prod/settings.env': 'LEVEL=debug\n' });
    assert.deepEqual(await listed(repo, { since: 'HEAD' }), []);
    // an untracked patch that the edited api kustomization reads
    write(repo, {
      'api/kustomization.yaml': 'resources:\n- cm.yaml\npatches:\n- path: patch.yaml\n',
      'api/patch.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\ndata:\n  k: patched\n',
    });
    assert.deepEqual(await listed(repo, { since: 'HEAD' }), [{ path: 'api', reason: 'inputs', files: ['api/kustomization.yaml', 'api/patch.yaml'] }]);
  });

  test('a base read through a symlink: editing what it leads to, or where it leads, lists the roots that read through it', async () => {
    const base = (name: string) => ({ [`bases/${name}/kustomization.yaml`]: 'resources:\n- cm.yaml\n', [`bases/${name}/cm.yaml`]: CM(name) });
    const repo = newRepo({ 'app/kustomization.yaml': 'resources:\n- linked\n', ...base('one'), ...base('two') });
    symlinkSync('../bases/one', join(repo, 'app/linked'));
    commit(repo, 'a link');
    write(repo, { 'bases/one/cm.yaml': CM('one', 'edited') });
    assert.deepEqual(await listed(repo, { since: 'HEAD' }), [
      { path: 'app', reason: 'inputs', files: ['bases/one/cm.yaml'] },
      { path: 'bases/one', reason: 'inputs', files: ['bases/one/cm.yaml'] },
    ]);
    git(repo, 'checkout', '--', '.');
    unlinkSync(join(repo, 'app/linked'));
    symlinkSync('../bases/two', join(repo, 'app/linked'));
    const roots = await listed(repo, { since: 'HEAD' });
    assert.deepEqual(paths(roots), ['app']);
    assert.ok(roots[0]!.files.includes('app/linked'), JSON.stringify(roots));
  });

  test('a root whose build runs a program is listed whenever anything changed; so is a failed one, when programs may run', async () => {
    const fn = '#!/bin/sh\ncat >/dev/null\necho "apiVersion: v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: made\n"\n';
    const repo = newRepo({
      ...TREE,
      'gen/kustomization.yaml': 'generators:\n- fn.yaml\n',
      'gen/fn.yaml': 'apiVersion: example.com/v1\nkind: Made\nmetadata:\n  name: made\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./fn.sh\n',
      'gen/fn.sh': fn,
    });
    chmodSync(join(repo, 'gen/fn.sh'), 0o755);
    commit(repo, 'executable');
    const options = { enablePlugins: true, enableExec: true };
    assert.deepEqual(await listed(repo, { since: 'HEAD', ...options }), []);
    write(repo, { 'api/cm.yaml': CM('api', 'edited') });
    assert.deepEqual(await listed(repo, { since: 'HEAD', ...options }), [
      { path: 'api', reason: 'inputs', files: ['api/cm.yaml'] },
      { path: 'gen', reason: 'unknown', files: [] },
      // a plugin may have run before it failed
      { path: 'missing', reason: 'unknown', files: [] },
    ]);
    assert.deepEqual(paths(await listed(repo, { since: 'HEAD' })), ['api'], 'without plugins, the failed root is decided by its files');
  });

  test('the shards of the roots of both revisions: each listed root in exactly one', async () => {
    const repo = newRepo(TREE);
    write(repo, { 'shared/cm.yaml': CM('shared', 'edited'), 'new/kustomization.yaml': 'resources: []\n' });
    rmSync(join(repo, 'api'), { recursive: true });
    const all = paths(await listed(repo, { since: 'HEAD' }));
    assert.deepEqual(all, ['api', 'new', 'shared', 'web/base', 'web/overlays/dev', 'web/overlays/prod']);
    const shards = await Promise.all([1, 2, 3].map(async (index) => paths(await listed(repo, { since: 'HEAD', shard: { index, count: 3 } }))));
    assert.deepEqual(shards.flat(), all);
    // the partition is of all seven roots (api, missing, new, shared and the three web ones): runs of 2, 2 and 3
    assert.deepEqual(shards, [['api'], ['new', 'shared'], ['web/base', 'web/overlays/dev', 'web/overlays/prod']]);
  });

  test('worker threads list what one thread lists', async () => {
    const repo = newRepo(TREE);
    write(repo, { 'shared/cm.yaml': CM('shared', 'edited'), 'api/cm.yaml': CM('api', 'edited') });
    const threaded: AffectedRoot[] = [];
    for await (const r of affected(repo, { since: 'HEAD', jobs: 2 })) threaded.push(r);
    assert.deepEqual(threaded, await listed(repo, { since: 'HEAD' }));
    assert.equal(threaded.length, 5);
  });

  test('bad input: no work tree, an unknown revision, a revision read as an option, no since, no directory', async () => {
    const failsWith = (code: ErrorCode, message: RegExp) => (e: unknown) => e instanceof KustomizeError && e.code === code && message.test(e.message);
    const repo = newRepo(TREE);
    const plain = join(work, 'plain');
    write(plain, { 'kustomization.yaml': 'resources: []\n' });
    await assert.rejects(listed(plain, { since: 'HEAD' }), failsWith('USAGE', /is not in a git work tree/));
    await assert.rejects(listed(repo, { since: 'no-such-branch' }), failsWith('USAGE', /unknown revision 'no-such-branch'/));
    await assert.rejects(listed(repo, { since: '--output=/tmp/x' }), failsWith('USAGE', /cannot start with '-'/));
    await assert.rejects(listed(repo, { since: 'HEAD', until: 'HEAD~5' }), failsWith('USAGE', /unknown revision 'HEAD~5'/));
    await assert.rejects(listed(repo, {} as AffectedOptions), failsWith('USAGE', /since/));
    await assert.rejects(listed(join(repo, 'README.md'), { since: 'HEAD' }), failsWith('USAGE', /is not a directory/));
    await assert.rejects(listed(repo, { since: 'HEAD', jobs: 0 }), failsWith('USAGE', /jobs/));
  });
});

/**
 * The property: after random edits of a repository (new contents, files removed, roots added
 * and removed, a base replaced by a link to another), every root whose build at the later
 * revision differs from its build at the earlier one (its output, or its error) is listed.
 */
describe('affected misses no root whose output changed', () => {
  type Edit =
    | { op: 'data'; base: number; value: string }
    | { op: 'prefix'; overlay: number; prefix: string }
    | { op: 'env'; overlay: number; text: string }
    | { op: 'remove'; path: string }
    | { op: 'readme'; text: string }
    | { op: 'link'; base: number }
    | { op: 'overlay'; overlay: number; bases: number[] }
    | { op: 'drop'; overlay: number };

  const BASES = 3;
  const OVERLAYS = 4;
  const overlayFiles = (j: number, bases: number[], prefix = `o${j}-`): Record<string, string> => ({
    [`overlays/o${j}/kustomization.yaml`]: `resources:\n${bases.map((b) => `- ../../bases/b${b}\n`).join('')}namePrefix: ${prefix}\n${j % 2 ? 'configMapGenerator:\n- name: env\n  envs:\n  - vars.env\n' : ''}`,
    [`overlays/o${j}/vars.env`]: `A=${j}\n`,
  });
  const initial = (): Record<string, string> => {
    const files: Record<string, string> = { 'README.md': 'hello\n' };
    for (let b = 0; b < BASES; b++) Object.assign(files, { [`bases/b${b}/kustomization.yaml`]: 'resources:\n- cm.yaml\n', [`bases/b${b}/cm.yaml`]: CM(`b${b}`) });
    for (let j = 0; j < OVERLAYS; j++) Object.assign(files, overlayFiles(j, [j % BASES]));
    return files;
  };
  const removable = ['bases/b0/cm.yaml', 'bases/b1/kustomization.yaml', 'overlays/o1/vars.env', 'overlays/o3/vars.env', 'overlays/o2/kustomization.yaml', 'README.md'];

  const edit: fc.Arbitrary<Edit> = fc.oneof(
    fc.record({ op: fc.constant('data' as const), base: fc.nat(BASES - 1), value: fc.constantFrom('v', 'w', 'x') }),
    fc.record({ op: fc.constant('prefix' as const), overlay: fc.nat(OVERLAYS - 1), prefix: fc.constantFrom('p-', 'q-') }),
    fc.record({ op: fc.constant('env' as const), overlay: fc.nat(OVERLAYS - 1), text: fc.constantFrom('A=1\n', 'A=2\nB=3\n') }),
    fc.record({ op: fc.constant('remove' as const), path: fc.constantFrom(...removable) }),
    fc.record({ op: fc.constant('readme' as const), text: fc.constantFrom('a\n', 'b\n') }),
    fc.record({ op: fc.constant('link' as const), base: fc.nat(BASES - 1) }),
    fc.record({ op: fc.constant('overlay' as const), overlay: fc.integer({ min: OVERLAYS, max: OVERLAYS + 1 }), bases: fc.uniqueArray(fc.nat(BASES - 1), { minLength: 1, maxLength: 2 }) }),
    fc.record({ op: fc.constant('drop' as const), overlay: fc.nat(OVERLAYS - 1) }),
  );

  function apply(repo: string, e: Edit): void {
    const at = (p: string) => join(repo, p);
    switch (e.op) {
      case 'data':
        return write(repo, { [`bases/b${e.base}/cm.yaml`]: CM(`b${e.base}`, e.value) });
      case 'prefix':
        return write(repo, { [`overlays/o${e.overlay}/kustomization.yaml`]: overlayFiles(e.overlay, [e.overlay % BASES], e.prefix)[`overlays/o${e.overlay}/kustomization.yaml`]! });
      case 'env':
        return write(repo, { [`overlays/o${e.overlay}/vars.env`]: e.text });
      case 'remove':
        return rmSync(at(e.path), { force: true });
      case 'readme':
        return write(repo, { 'README.md': e.text });
      case 'link':
        rmSync(at(`bases/b${e.base}`), { recursive: true, force: true });
        return symlinkSync(`b${(e.base + 1) % BASES}`, at(`bases/b${e.base}`));
      case 'overlay':
        return write(repo, overlayFiles(e.overlay, e.bases));
      case 'drop':
        return rmSync(at(`overlays/o${e.overlay}`), { recursive: true, force: true });
    }
  }

  /** What a root's build gives on `fs`: its output, or its error. */
  async function outcome(fs: FileSystem, dir: string): Promise<string> {
    try {
      return (await build(dir, { fs })).yaml;
    } catch (e) {
      return e instanceof KustomizeError ? `${e.code}: ${e.message}` : String(e);
    }
  }

  test('random edits, in the work tree or committed', async () => {
    let runs = 0;
    await assertProperty(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), fc.boolean(), async (edits, committed) => {
        const repo = newRepoIn(work, `p${runs++}`, initial());
        const since = git(repo, 'rev-parse', 'HEAD');
        for (const e of edits) apply(repo, e);
        const until = committed ? commit(repo, 'edits') : undefined;
        const roots = await listed(repo, { since, ...(until && { until }) });
        const repository = GitRepository.open(repo);
        const before = repository.checkout(since);
        const after = until ? repository.checkout(until) : new DiskFileSystem();
        const rootsBefore = findRoots(before, repo);
        const rootsAfter = findRoots(after, repo);
        const reasons = new Map(roots.map((r) => [r.path, r.reason]));
        for (const path of new Set([...rootsBefore, ...rootsAfter])) {
          const dir = join(repo, path);
          if (!rootsBefore.includes(path)) assert.equal(reasons.get(path), 'added', path);
          else if (!rootsAfter.includes(path)) assert.equal(reasons.get(path), 'removed', path);
          else if ((await outcome(before, dir)) !== (await outcome(after, dir))) {
            assert.equal(reasons.get(path), 'inputs', `${path} changed after ${JSON.stringify(edits)} but is not listed`);
          }
        }
        if (edits.every((e) => e.op === 'readme')) assert.deepEqual(roots, [], 'the readme is read by no build');
      }),
      25,
    );
  });
});
