/**
 * diffRevisions(): how the rendered manifests differ between two revisions of a git repository
 * made here, per root and per resource; checked against kubectl kustomize run on checkouts of
 * both revisions.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { diffRevisions, type DiffOptions, type RevisionsDiff } from '../../src/build/diff.js';
import { KustomizeError } from '../../src/errors.js';
import { diffRevisions as diffInThreads } from '../../src/node.js';
import { commit, git, newRepo as newRepoIn, workDir, write } from '../git-repos.js';
import { requireTool } from '../require-tool.js';

const kubectl = requireTool('kubectl');
const work = workDir('kts-diff-');
let repos = 0;
const newRepo = (files: Record<string, string>) => newRepoIn(work, `r${repos++}`, files);

const CM = (name: string, data: Record<string, string>) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${Object.entries(data).map(([k, v]) => `  ${k}: ${v}\n`).join('')}`;
const DEPLOY = (name: string, image: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n      - name: ${name}\n        image: ${image}\n`;

const TREE: Record<string, string> = {
  'base/kustomization.yaml': 'resources:\n- deploy.yaml\n- cm.yaml\n',
  'base/deploy.yaml': DEPLOY('web', 'nginx:1.26'),
  'base/cm.yaml': CM('settings', { level: 'info' }),
  'prod/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: prod-\nsecretGenerator:\n- name: creds\n  literals:\n  - password=hunter2\n',
  'dev/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: dev-\n',
  'other/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'other/cm.yaml': CM('other', { a: 'b' }),
};

const diff = (repo: string, options: Omit<DiffOptions, 'jobs'>) => diffRevisions(repo, { jobs: 1, ...options });
/** (root, change, kind/name) of every resource change: what the comparison with kubectl compares */
const changeSet = (d: RevisionsDiff) => d.roots.flatMap((r) => r.resources.map((c) => `${r.path} ${c.change} ${c.kind}/${c.namespace}/${c.name}`)).sort();

describe('diffRevisions', () => {
  test('a changed base: each root that uses it, the resource that changed, with its unified diff', async () => {
    const repo = newRepo(TREE);
    write(repo, { 'base/deploy.yaml': DEPLOY('web', 'nginx:1.27') });
    const d = await diff(repo, { base: 'HEAD' });
    assert.equal(d.base, git(repo, 'rev-parse', 'HEAD'));
    assert.equal(d.head, 'worktree');
    assert.deepEqual(
      d.roots.map((r) => [r.path, r.status]),
      [
        ['base', 'changed'],
        ['dev', 'changed'],
        ['prod', 'changed'],
      ],
    );
    assert.deepEqual(d.roots[1]!.resources, [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: '',
        name: 'dev-web',
        change: 'changed',
        diff: '@@ -6,5 +6,5 @@\n   template:\n     spec:\n       containers:\n-      - image: nginx:1.26\n+      - image: nginx:1.27\n         name: web\n',
      },
    ]);
  });

  test('nothing differs: no roots; the same commit twice: no roots', async () => {
    const repo = newRepo(TREE);
    assert.deepEqual((await diff(repo, { base: 'HEAD' })).roots, []);
    write(repo, { 'README.md': 'not read by any build\n', 'base/cm.yaml': `# a comment\n${TREE['base/cm.yaml']}` });
    assert.deepEqual((await diff(repo, { base: 'HEAD' })).roots, [], 'a comment changes no output');
    const same = await diff(repo, { base: 'HEAD', head: 'main' });
    assert.deepEqual(same, { base: same.base, head: same.base, roots: [] });
  });

  test('resources that only moved are no change; resources added and removed are', async () => {
    const repo = newRepo(TREE);
    write(repo, {
      'base/kustomization.yaml': 'resources:\n- cm.yaml\n- deploy.yaml\n- extra.yaml\n',
      'base/extra.yaml': CM('extra', { x: 'y' }),
      'other/cm.yaml': CM('renamed', { a: 'b' }),
    });
    const d = await diff(repo, { base: 'HEAD' });
    assert.deepEqual(changeSet(d), [
      'base added ConfigMap//extra',
      'dev added ConfigMap//dev-extra',
      'other added ConfigMap//renamed',
      'other removed ConfigMap//other',
      'prod added ConfigMap//prod-extra',
    ]);
    assert.equal(d.roots.find((r) => r.path === 'other')!.resources.find((c) => c.change === 'removed')!.diff, '@@ -1,6 +0,0 @@\n-apiVersion: v1\n-data:\n-  a: b\n-kind: ConfigMap\n-metadata:\n-  name: other\n');
  });

  test('a deleted root is removed, a moved root removed and added; renamed files that change nothing are no change', async () => {
    const repo = newRepo(TREE);
    rmSync(join(repo, 'dev'), { recursive: true });
    renameSync(join(repo, 'other'), join(repo, 'others'));
    git(repo, 'mv', 'base/cm.yaml', 'base/settings.yaml');
    write(repo, { 'base/kustomization.yaml': 'resources:\n- deploy.yaml\n- settings.yaml\n' });
    const d = await diff(repo, { base: 'HEAD' });
    assert.deepEqual(
      d.roots.map((r) => [r.path, r.status, r.resources.map((c) => c.change).join()]),
      [
        ['dev', 'removed', 'removed,removed'],
        ['other', 'removed', 'removed'],
        ['others', 'added', 'added'],
      ],
    );
  });

  test('a root that breaks at the head: its error; one broken at both the same way: nothing', async () => {
    const repo = newRepo({ ...TREE, 'broken/kustomization.yaml': 'resources:\n- missing.yaml\n' });
    write(repo, { 'prod/kustomization.yaml': 'resources:\n- ../base\n- gone.yaml\n', 'broken/kustomization.yaml': 'resources:\n- missing.yaml\n# still broken\n' });
    const d = await diff(repo, { base: 'HEAD' });
    assert.deepEqual(
      d.roots.map((r) => [r.path, r.status]),
      [['prod', 'error']],
    );
    const error = d.roots[0]!.error!;
    assert.equal(error.side, 'head');
    assert.equal(error.code, 'FILE_NOT_FOUND');
    assert.equal(error.file, 'prod/gone.yaml');
  });

  test("a Secret's values are hidden: only whether each key changed, unless showSecrets", async () => {
    const repo = newRepo(TREE);
    write(repo, { 'prod/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: prod-\nsecretGenerator:\n- name: creds\n  literals:\n  - password=correct-horse\n  - user=admin\n' });
    const d = await diff(repo, { base: 'HEAD' });
    const changes = d.roots.find((r) => r.path === 'prod')!.resources;
    const text = JSON.stringify(changes);
    for (const secret of ['hunter2', 'correct-horse', 'aHVudGVyMg==', 'Y29ycmVjdC1ob3JzZQ==', 'YWRtaW4=']) assert.ok(!text.includes(secret), `${secret} shown`);
    // the hashed name changed with the values: the old Secret removed, the new one added, each key hidden
    assert.deepEqual(changes.filter((c) => c.kind === 'Secret').map((c) => `${c.change} ${c.name.replace(/-[a-z0-9]{10}$/, '-HASH')}`).sort(), ['added prod-creds-HASH', 'removed prod-creds-HASH']);
    assert.match(changes.find((c) => c.kind === 'Secret' && c.change === 'added')!.diff, /^\+  password: <hidden>\n\+  user: <hidden>\n/m);
    const shown = JSON.stringify((await diff(repo, { base: 'HEAD', showSecrets: true })).roots);
    assert.ok(shown.includes('Y29ycmVjdC1ob3JzZQ=='), 'shown with showSecrets');
  });

  test('a Secret whose name stays: the changed key marked changed, the others hidden alike', async () => {
    const secret = (password: string) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: fixed\ndata:\n  password: ${Buffer.from(password).toString('base64')}\n  user: YWRtaW4=\n`;
    const repo = newRepo({ 'app/kustomization.yaml': 'resources:\n- secret.yaml\n', 'app/secret.yaml': secret('old-one') });
    write(repo, { 'app/secret.yaml': secret('new-one') });
    const [change] = (await diff(repo, { base: 'HEAD' })).roots[0]!.resources;
    assert.equal(change!.diff, '@@ -1,6 +1,6 @@\n apiVersion: v1\n data:\n-  password: <hidden>\n+  password: <hidden, changed>\n   user: <hidden>\n kind: Secret\n metadata:\n');
  });

  test('a binary file beside the YAML: read by a generator it changes the output, else nothing', async () => {
    const repo = newRepo({
      'app/kustomization.yaml': 'configMapGenerator:\n- name: blob\n  files:\n  - logo.png\n',
      'plain/kustomization.yaml': 'resources:\n- cm.yaml\n',
      'plain/cm.yaml': CM('plain', { a: 'b' }),
    });
    writeFileSync(join(repo, 'app/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x01]));
    writeFileSync(join(repo, 'plain/icon.png'), Buffer.from([0x89, 0x50, 0x00, 0xfd]));
    commit(repo, 'binary files');
    writeFileSync(join(repo, 'app/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x02]));
    writeFileSync(join(repo, 'plain/icon.png'), Buffer.from([0x89, 0x50, 0x00, 0xfe]));
    const d = await diff(repo, { base: 'HEAD' });
    assert.deepEqual(
      d.roots.map((r) => r.path),
      ['app'],
    );
    const changes = d.roots[0]!.resources;
    assert.deepEqual(changes.map((c) => `${c.change} ${c.kind} ${c.name.replace(/-[a-z0-9]{10}$/, '-HASH')}`).sort(), ['added ConfigMap blob-HASH', 'removed ConfigMap blob-HASH']);
    assert.match(changes.find((c) => c.change === 'added')!.diff, /^\+binaryData:\n\+  logo\.png: iVBORwD/m);
  });

  test('between two commits, the work tree left out; a shallow clone that lacks the base says to fetch it', async () => {
    const repo = newRepo(TREE);
    const first = git(repo, 'rev-parse', 'HEAD');
    write(repo, { 'other/cm.yaml': CM('other', { a: 'c' }) });
    const second = commit(repo, 'other changed');
    write(repo, { 'base/deploy.yaml': DEPLOY('web', 'uncommitted') });
    assert.deepEqual(changeSet(await diff(repo, { base: first, head: second })), ['other changed ConfigMap//other']);
    const shallow = join(work, `shallow${repos++}`);
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo}`, shallow]);
    await assert.rejects(diff(shallow, { base: 'HEAD~1' }), (e: unknown) => e instanceof KustomizeError && e.code === 'USAGE' && /revision 'HEAD~1' is not in this shallow clone .*: fetch it/.test(e.message));
  });

  test('worker threads give what one thread gives', async () => {
    const repo = newRepo(TREE);
    write(repo, { 'base/deploy.yaml': DEPLOY('web', 'nginx:1.27'), 'other/cm.yaml': CM('other', { a: 'c' }) });
    assert.deepEqual(await diffInThreads(repo, { base: 'HEAD', jobs: 2 }), await diff(repo, { base: 'HEAD' }));
  });

  test('the changes are what kubectl kustomize makes of checkouts of both revisions, per resource', { skip: kubectl.skip }, async () => {
    const repo = newRepo({ ...TREE, 'broken/kustomization.yaml': 'resources:\n- missing.yaml\n' });
    const base = git(repo, 'rev-parse', 'HEAD');
    rmSync(join(repo, 'dev'), { recursive: true });
    write(repo, {
      'base/deploy.yaml': DEPLOY('web', 'nginx:1.27'),
      'base/kustomization.yaml': 'resources:\n- cm.yaml\n- deploy.yaml\n- svc.yaml\n',
      'base/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n',
      'new/kustomization.yaml': 'resources:\n- ../other\nnamespace: fresh\n',
      'other/cm.yaml': CM('other', { a: 'b', c: 'd' }),
    });
    const head = commit(repo, 'many changes');
    const ours = changeSet(await diff(repo, { base, head }));
    // kubectl at each revision, on a checkout of it, every root, compared per resource by id
    const rendered = (rev: string): Map<string, Map<string, string>> => {
      const checkout = join(work, `checkout-${rev.slice(0, 8)}`);
      git(repo, 'worktree', 'add', '-q', '--detach', checkout, rev);
      const roots = new Map<string, Map<string, string>>();
      for (const root of ['base', 'broken', 'dev', 'new', 'other', 'prod']) {
        let out: string;
        try {
          out = execFileSync(kubectl.path, ['kustomize', join(checkout, root)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
        } catch {
          continue;
        }
        const docs = new Map<string, string>();
        for (const doc of out.split(/^---\n/m)) {
          const kind = /^kind: (.*)$/m.exec(doc)![1];
          const name = /^ {2}name: (.*)$/m.exec(doc)![1];
          const namespace = /^ {2}namespace: (.*)$/m.exec(doc)?.[1] ?? '';
          docs.set(`${kind}/${namespace}/${name}`, doc);
        }
        roots.set(root, docs);
      }
      return roots;
    };
    const [before, after] = [rendered(base), rendered(head)];
    const theirs: string[] = [];
    for (const root of new Set([...before.keys(), ...after.keys()])) {
      const [b, a] = [before.get(root) ?? new Map<string, string>(), after.get(root) ?? new Map<string, string>()];
      for (const id of new Set([...b.keys(), ...a.keys()])) {
        if (!b.has(id)) theirs.push(`${root} added ${id}`);
        else if (!a.has(id)) theirs.push(`${root} removed ${id}`);
        else if (b.get(id) !== a.get(id)) theirs.push(`${root} changed ${id}`);
      }
    }
    assert.deepEqual(ours, theirs.sort());
    assert.ok(ours.length >= 8, ours.join('\n'));
  });
});
