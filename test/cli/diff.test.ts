/**
 * `kustomize-ts diff`, run as users run it (the launcher as a child process) on git repositories
 * made here: its three formats, colors, exit codes (as diff's: 0, 1, 2) and bad input.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { commit, git, newRepo, workDir, write } from '../git-repos.js';
import { parse } from 'yaml';
import { runCommand, type Run } from './run-command.js';

const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));
const work = workDir('kts-cli-diff-');
const cli = (args: string[], cwd: string): Promise<Run> => runCommand(process.execPath, [BIN, ...args], { cwd, env: process.env });

const CM = (name: string, value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  value: ${value}\n`;

describe('diff', () => {
  const repo = newRepo(work, 'repo', {
    'app/kustomization.yaml': 'resources:\n- cm.yaml\n- secret.yaml\nnamespace: shop\n',
    'app/cm.yaml': CM('settings', 'one'),
    'app/secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  password: swordfish\n',
    'other/kustomization.yaml': 'resources:\n- cm.yaml\n',
    'other/cm.yaml': CM('other', 'x'),
  });
  const first = git(repo, 'rev-parse', 'HEAD');
  write(repo, { 'other/cm.yaml': CM('other', 'y') });
  const second = commit(repo, 'other y');
  write(repo, { 'app/cm.yaml': CM('settings', 'two'), 'app/secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  password: opensesame\n' });

  test('text: git diff\'s look, a === line per root; exit 1 when something differs', async () => {
    const r = await cli(['diff', '--base', 'HEAD'], repo);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(
      r.stdout,
      `=== app (changed)
diff --kustomize app: v1 ConfigMap shop/settings (changed)
--- a/app/v1/ConfigMap/shop/settings
+++ b/app/v1/ConfigMap/shop/settings
@@ -1,6 +1,6 @@
 apiVersion: v1
 data:
-  value: one
+  value: two
 kind: ConfigMap
 metadata:
   name: settings
diff --kustomize app: v1 Secret shop/creds (changed)
--- a/app/v1/Secret/shop/creds
+++ b/app/v1/Secret/shop/creds
@@ -4,4 +4,4 @@
   name: creds
   namespace: shop
 stringData:
-  password: <hidden>
+  password: <hidden, changed>
`,
    );
    assert.equal(r.stderr, '');
    const shown = await cli(['diff', '--base', 'HEAD', '--show-secrets'], repo);
    assert.match(shown.stdout, /^-  password: swordfish\n\+  password: opensesame\n/m);
  });

  test('--color always colors the text; never, and auto off a terminal, do not', async () => {
    const colored = await cli(['diff', '--base', 'HEAD', '--color', 'always'], repo);
    assert.match(colored.stdout, /^\x1b\[1m=== app \(changed\)\x1b\[0m$/m);
    assert.match(colored.stdout, /^\x1b\[31m-  value: one\x1b\[0m$/m);
    assert.match(colored.stdout, /^\x1b\[32m\+  value: two\x1b\[0m$/m);
    assert.match(colored.stdout, /^\x1b\[36m@@ -1,6 \+1,6 @@\x1b\[0m$/m);
    assert.doesNotMatch((await cli(['diff', '--base', 'HEAD', '--color', 'never'], repo)).stdout, /\x1b/);
    assert.doesNotMatch((await cli(['diff', '--base', 'HEAD'], repo)).stdout, /\x1b/);
  });

  test('json: the fixed shape, commits and roots; between two commits the work tree is left out', async () => {
    const r = await cli(['diff', '--base', first, '--head', second, '--format', 'json'], repo);
    assert.equal(r.status, 1, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      base: first,
      head: second,
      roots: [
        {
          path: 'other',
          status: 'changed',
          resources: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: '', name: 'other', change: 'changed', diff: '@@ -1,6 +1,6 @@\n apiVersion: v1\n data:\n-  value: x\n+  value: "y"\n kind: ConfigMap\n metadata:\n   name: other\n' }],
        },
      ],
    });
  });

  test('markdown: a summary table, then a collapsible diff per root', async () => {
    const r = await cli(['diff', '--base', first, '--format', 'markdown'], repo);
    assert.equal(r.status, 1, r.stderr);
    assert.ok(r.stdout.startsWith(`### Rendered manifests: ${first.slice(0, 12)} → the work tree\n\n2 roots changed.\n\n| root | status | added | changed | removed |\n| --- | --- | ---: | ---: | ---: |\n| \`app\` | changed | 0 | 2 | 0 |\n| \`other\` | changed | 0 | 1 | 0 |\n`), r.stdout);
    assert.match(r.stdout, /<details><summary><code>app<\/code>: changed, 2 resources<\/summary>\n\n```diff\ndiff --kustomize app: v1 ConfigMap shop\/settings \(changed\)\n/);
    assert.doesNotMatch(r.stdout, /swordfish|opensesame/);
  });

  test('markdown stays under a comment\'s size limit, saying what it left out', async () => {
    const big = newRepo(work, 'big', Object.fromEntries(Array.from({ length: 40 }, (_, i) => [[`r${i}/kustomization.yaml`, 'resources:\n- cm.yaml\n'], [`r${i}/cm.yaml`, CM(`c${i}`, 'a'.repeat(2500))]]).flat()));
    for (let i = 0; i < 40; i++) write(big, { [`r${i}/cm.yaml`]: CM(`c${i}`, 'b'.repeat(2500)) });
    const r = await cli(['diff', '--base', 'HEAD', '--format', 'markdown'], big);
    assert.equal(r.status, 1, r.stderr);
    assert.ok(r.stdout.length < 65536, String(r.stdout.length));
    assert.match(r.stdout, /^\| `r39` \| changed \| 0 \| 1 \| 0 \|$/m, 'every root in the table');
    assert.match(r.stdout, /_\d+ more roots are in the table but not shown: the comment would pass GitHub's size limit\./);
  });

  test('nothing differs: exit 0 and nothing printed; the same commit twice: exit 0, said on stderr', async () => {
    const none = await cli(['diff', '--base', 'HEAD', 'other'], repo);
    assert.deepEqual([none.status, none.stdout, none.stderr], [0, '', '']);
    const same = await cli(['diff', '--base', 'HEAD', '--head', second], repo);
    assert.equal(same.status, 0);
    assert.equal(same.stderr, `--base and --head are the same commit (${second.slice(0, 12)}): no difference\n`);
    const markdown = await cli(['diff', '--base', 'HEAD', '--head', 'HEAD', '--format', 'markdown'], repo);
    assert.match(markdown.stdout, /No kustomization's output changed\.\n$/);
  });

  test('errors exit 2: no --base, no work tree, an unknown revision, a bad flag', async () => {
    const plain = join(work, 'plain');
    write(plain, { 'kustomization.yaml': 'resources: []\n' });
    const cases: [string[], string, RegExp][] = [
      [['diff'], repo, /--base is required/],
      [['diff', '--base', 'HEAD'], plain, /is not in a git work tree/],
      [['diff', '--base', 'no-such-branch'], repo, /unknown revision 'no-such-branch'/],
      [['diff', '--base', 'HEAD', '--head', 'HEAD~9'], repo, /unknown revision 'HEAD~9'/],
      [['diff', '--base', 'HEAD', '--format', 'ndjson'], repo, /--format 'ndjson': expected text, markdown, json/],
      [['diff', '--base', 'HEAD', '--color', 'sometimes'], repo, /--color 'sometimes'/],
      [['diff', 'nowhere', '--base', 'HEAD'], repo, /nowhere' is not a directory/],
    ];
    for (const [args, cwd, message] of cases) {
      const r = await cli(args, cwd);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    }
  });
});

describe('the pull-request workflow of examples/ci/manifests-diff.yml', () => {
  test('its diff step, run as the runner runs it on a pull request, writes the comment', async () => {
    const workflow = parse(readFileSync(fileURLToPath(new URL('../../../examples/ci/manifests-diff.yml', import.meta.url)), 'utf8')) as { jobs: { diff: { steps: { name?: string; run?: string }[] } } };
    const step = workflow.jobs.diff.steps.find((s) => s.name === 'Diff the rendered manifests')!;
    const repo = newRepo(work, 'pull-request', { 'app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'app/cm.yaml': CM('settings', 'one') });
    // the target branch, fetched (as actions/checkout with fetch-depth 0 leaves it); the pull request's commit checked out
    git(repo, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
    write(repo, { 'app/cm.yaml': CM('settings', 'two') });
    commit(repo, 'the pull request');
    const bin = join(work, 'bin');
    write(bin, { 'kustomize-ts': `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n` });
    const script = step.run!.replace('${{ github.base_ref }}', 'main');
    const r = await runCommand('/bin/sh', ['-ec', `chmod +x '${bin}/kustomize-ts'; ${script}`], { cwd: repo, env: { ...process.env, PATH: `${bin}:${process.env['PATH']}` } });
    assert.equal(r.status, 0, r.stderr);
    const comment = readFileSync(join(repo, 'diff.md'), 'utf8');
    assert.match(comment, /^### Rendered manifests: [0-9a-f]{12} → the work tree\n\n1 root changed\.\n/);
    assert.match(comment, /^-  value: one\n\+  value: two\n/m);
  });
});
