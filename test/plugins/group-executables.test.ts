/**
 * The generators and transformers KEP's plugin protocol: one executable per API group at
 * `$XDG_CONFIG_HOME/kustomize/plugins/<group>`, run with `generate` or `transform`. Real
 * executables (sh and awk) written here; the CLI run as users run it, in a child process, with
 * XDG_CONFIG_HOME pointing at them. Each executable notes its calls (subcommand, directory,
 * the KEP_MARK variable) and keeps its stdin, so the tests see what kustomize-ts gave it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { rmSync } from 'node:fs';
import { runCommand, type Run } from '../cli/run-command.js';
import { requireTool } from '../require-tool.js';

const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));
const kubectl = requireTool('kubectl');
const work = mkdtempSync(join(tmpdir(), 'kts-group-exe-'));
after(() => rmSync(work, { recursive: true, force: true }));
let count = 0;

/** What a group executable does with each subcommand: a shell fragment reading `$in` (its stdin, kept) and printing its output. */
interface Behaviour {
  generate?: string;
  transform?: string;
}

/** Prints the transform's input without the configs of its group: the resources as they came. */
const PASS = (group: string) => `awk 'BEGIN{RS="---\\n"; ORS=""; n=0} !/apiVersion: ${group.replaceAll('.', '\\.')}\\// { if (n++) print "---\\n"; print }' "$in"`;
/** The same, each resource marked `seen-by: <group>` in its annotations or labels (the test resources have neither of their own), kept in `$KEP_LOG/<group>.out` too. */
const MARK = (group: string, field: 'annotations' | 'labels' = 'annotations') =>
  `awk 'BEGIN{RS="---\\n"; ORS=""; n=0} !/apiVersion: ${group.replaceAll('.', '\\.')}\\// { sub(/\\nmetadata:\\n/, "\\nmetadata:\\n  ${field}:\\n    seen-by: ${group}\\n"); if (n++) print "---\\n"; print }' "$in" | tee "$KEP_LOG/${group}.out"`;
const CM = (name: string, data = 'v') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: ${data}\n`;

/** A case: a tree, the group executables, and a log of their calls. */
function setup(files: Record<string, string>, groups: Record<string, Behaviour>): { dir: string; xdg: string; log: string } {
  const dir = join(work, String(count++));
  const xdg = join(dir, 'xdg');
  const log = join(dir, 'log');
  mkdirSync(log, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const [group, behaviour] of Object.entries(groups)) {
    const exe = join(xdg, 'kustomize', 'plugins', group);
    mkdirSync(dirname(exe), { recursive: true });
    const cases = Object.entries(behaviour)
      .map(([sub, body]) => `${sub})\n${body}\n;;`)
      .join('\n');
    writeFileSync(
      exe,
      `#!/bin/sh
seq=$(cat "$KEP_LOG/calls" 2>/dev/null | wc -l)
in="$KEP_LOG/$seq-${group}-$1.in"
cat > "$in"
echo "${group} $1 $(pwd) \${KEP_MARK:-}" >> "$KEP_LOG/calls"
case "$1" in
${cases}
*) exit 127 ;;
esac
`,
    );
    chmodSync(exe, 0o755);
  }
  return { dir, xdg, log };
}

function build(c: { dir: string; xdg: string; log: string }, path: string, flags = ['--enable-alpha-plugins']): Promise<Run> {
  return runCommand(process.execPath, [BIN, 'build', join(c.dir, path), ...flags], { env: { ...process.env, XDG_CONFIG_HOME: c.xdg, KEP_LOG: c.log, KEP_MARK: 'from-the-caller' } });
}

/** The calls the executables noted: `group subcommand directory mark`, directories relative to the case. */
function calls(c: { dir: string; log: string }): string[] {
  return readFileSync(join(c.log, 'calls'), 'utf8').trimEnd().split('\n').map((l) => l.replace(` ${c.dir}/`, ' ').replace(` ${c.dir} `, ' . '));
}

/** What the n-th call (from 0) got on stdin. */
function stdinOf(c: { log: string }, n: number): string {
  const name = readdirSync(c.log).find((f) => f.startsWith(`${n}-`))!;
  return readFileSync(join(c.log, name), 'utf8');
}

const APP = (name: string, image: string) => `apiVersion: team.example.com/v1\nkind: App\nmetadata:\n  name: ${name}\nspec:\n  image: ${image}\n`;
/** `generate` that makes a ConfigMap per config (named after it), the config's image as its data */
const GENERATE_PER_CONFIG = `awk '/^  name: /{name=$2} /^  image: /{printf "%sapiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: %s\\ndata:\\n  image: %s\\n", (n++ ? "---\\n" : ""), name, $2}' "$in"`;

test('the configs of one group are one generate call, in the order listed; the implicit transform runs before namePrefix', async () => {
  const c = setup(
    {
      'app/kustomization.yaml': 'generators:\n- a.yaml\n- other.yaml\n- b.yaml\nnamePrefix: p-\n',
      'app/a.yaml': APP('a', 'nginx'),
      'app/b.yaml': APP('b', 'redis'),
      'app/other.yaml': 'apiVersion: other.example.com/v1\nkind: Thing\nmetadata:\n  name: thing\n',
    },
    {
      'team.example.com': { generate: GENERATE_PER_CONFIG, transform: MARK('team.example.com') },
      'other.example.com': { generate: `printf '${CM('other').replaceAll('\n', '\\n')}'` },
    },
  );
  const r = await build(c, 'app');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(calls(c), [
    'team.example.com generate app from-the-caller',
    'other.example.com generate app from-the-caller',
    // every generator group is then called with transform: other's exits 127, nothing to do
    'team.example.com transform app from-the-caller',
    'other.example.com transform app from-the-caller',
  ]);
  assert.equal(stdinOf(c, 0), `${APP('a', 'nginx')}---\n${APP('b', 'redis')}`);
  // the implicit transform sees the configs, then the resources, before namePrefix renamed them
  assert.ok(stdinOf(c, 2).startsWith(`${APP('a', 'nginx')}---\n${APP('b', 'redis')}---\n`), stdinOf(c, 2));
  assert.match(stdinOf(c, 2), /name: a\n[^]*name: b\n[^]*name: other\n/);
  assert.doesNotMatch(stdinOf(c, 2), /name: p-/);
  assert.match(r.stdout, /annotations:\n    seen-by: team\.example\.com\n  name: p-a\n/);
  assert.match(r.stdout, /name: p-other\n/);
});

test('the configs of one group under transformers are one transform call, at its first place, after the builtin transformers', async () => {
  const c = setup(
    {
      'app/kustomization.yaml': 'resources:\n- cm.yaml\nnamePrefix: p-\ntransformers:\n- x1.yaml\n- y.yaml\n- x2.yaml\n',
      'app/cm.yaml': CM('a'),
      'app/x1.yaml': 'apiVersion: x.example.com/v1\nkind: X\nmetadata:\n  name: one\n',
      'app/x2.yaml': 'apiVersion: x.example.com/v1\nkind: X\nmetadata:\n  name: two\n',
      'app/y.yaml': 'apiVersion: y.example.com/v1\nkind: Y\nmetadata:\n  name: y\n',
    },
    { 'x.example.com': { transform: MARK('x.example.com') }, 'y.example.com': { transform: MARK('y.example.com', 'labels') } },
  );
  const r = await build(c, 'app');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(calls(c), ['x.example.com transform app from-the-caller', 'y.example.com transform app from-the-caller']);
  assert.equal(stdinOf(c, 0), 'apiVersion: x.example.com/v1\nkind: X\nmetadata:\n  name: one\n---\napiVersion: x.example.com/v1\nkind: X\nmetadata:\n  name: two\n---\napiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  name: p-a\n');
  assert.equal(r.stdout, 'apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  annotations:\n    seen-by: x.example.com\n  labels:\n    seen-by: y.example.com\n  name: p-a\n');
});

test('exit 127: an error for generate and for a listed transform, naming the group and the subcommand', async () => {
  const tree = (field: string) => ({ 'app/kustomization.yaml': `resources:\n- cm.yaml\n${field}:\n- a.yaml\n`, 'app/cm.yaml': CM('c'), 'app/a.yaml': APP('a', 'nginx') });
  const generating = setup(tree('generators'), { 'team.example.com': { transform: MARK('team.example.com') } });
  const g = await build(generating, 'app');
  assert.equal(g.status, 1);
  assert.match(g.stderr, /the plugin of group team\.example\.com \(.*\/kustomize\/plugins\/team\.example\.com\) does not support 'generate' \(exit status 127\), which its configs under generators need: App\.v1\.team\.example\.com\/a/);
  const transforming = setup(tree('transformers'), { 'team.example.com': { generate: GENERATE_PER_CONFIG } });
  const t = await build(transforming, 'app');
  assert.equal(t.status, 1);
  assert.match(t.stderr, /does not support 'transform' \(exit status 127\), which its configs under transformers need/);
});

test("a failing executable: its exit status and stderr in the error", async () => {
  const c = setup(
    { 'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- a.yaml\n', 'app/cm.yaml': CM('c'), 'app/a.yaml': APP('a', 'nginx') },
    { 'team.example.com': { transform: 'echo "the image nginx is not allowed" >&2\nexit 3' } },
  );
  const r = await build(c, 'app');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /group executable .*team\.example\.com \(transform, for App\.v1\.team\.example\.com\/a\.\[noNs\]\): couldn't execute function: exit status 3/);
  assert.match(r.stderr, /the image nginx is not allowed/);
});

test('a transform may not add, remove or rename resources', async () => {
  const files = { 'app/kustomization.yaml': 'resources:\n- cm.yaml\n- other.yaml\ntransformers:\n- a.yaml\n', 'app/cm.yaml': CM('c'), 'app/other.yaml': CM('other'), 'app/a.yaml': APP('a', 'nginx') };
  const cases: [string, RegExp][] = [
    [`${PASS('team.example.com')}\nprintf -- '---\\n${CM('extra').replaceAll('\n', '\\n')}'`, /added ConfigMap extra/],
    [`${PASS('team.example.com')} | awk 'BEGIN{RS="---\\n"; ORS=""} NR == 1'`, /removed ConfigMap other/],
    [`${PASS('team.example.com')} | sed 's/  name: other/  name: renamed/'`, /added ConfigMap renamed/],
    [`${PASS('team.example.com')} | sed 's/^kind: ConfigMap/kind: Secret/'`, /added Secret c/],
  ];
  for (const [transform, message] of cases) {
    const r = await build(setup(files, { 'team.example.com': { transform } }), 'app');
    assert.equal(r.status, 1, transform);
    assert.match(r.stderr, new RegExp(`the plugin of group team\\.example\\.com \\(.*\\) ${message.source}: a transform may not add or remove resources, nor change their kind, name or namespace`), r.stderr);
  }
});

test('a patch whose target selects a config reaches the config before the executable, and not the resources', async () => {
  const c = setup(
    {
      'app/kustomization.yaml': `generators:
- a.yaml
resources:
- cm.yaml
patches:
- target:
    kind: App
    name: a
  patch: |-
    - op: replace
      path: /spec/image
      value: patched
- target:
    kind: ConfigMap
  patch: |-
    - op: add
      path: /data/patched
      value: "yes"
`,
      'app/a.yaml': APP('a', 'nginx'),
      'app/cm.yaml': CM('c'),
    },
    { 'team.example.com': { generate: GENERATE_PER_CONFIG } },
  );
  const r = await build(c, 'app');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(stdinOf(c, 0), APP('a', 'patched'));
  // the second patch is for the resources: the generated ConfigMap and cm.yaml's get it
  assert.equal(r.stdout, 'apiVersion: v1\ndata:\n  image: patched\n  patched: "yes"\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\ndata:\n  k: v\n  patched: "yes"\nkind: ConfigMap\nmetadata:\n  name: c\n');
});

test("a config listed in a base runs in the base's directory, with kustomize-ts's environment", async () => {
  const c = setup(
    {
      'base/kustomization.yaml': 'generators:\n- a.yaml\n',
      'base/a.yaml': APP('a', 'nginx'),
      'overlay/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: o-\n',
    },
    { 'team.example.com': { generate: GENERATE_PER_CONFIG } },
  );
  const r = await build(c, 'overlay');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(calls(c), ['team.example.com generate base from-the-caller', 'team.example.com transform base from-the-caller']);
  assert.match(r.stdout, /name: o-a\n/);
});

test('gating: --enable-alpha-plugins (or the seeds\' --enable_alpha_plugins); nothing found names every place looked at', async () => {
  const c = setup({ 'app/kustomization.yaml': 'generators:\n- a.yaml\n', 'app/a.yaml': APP('a', 'nginx') }, { 'team.example.com': { generate: GENERATE_PER_CONFIG } });
  const off = await build(c, 'app', []);
  assert.equal(off.status, 1);
  assert.match(off.stderr, /external plugins disabled; unable to load external plugin 'App' \(enable plugins with --enable-alpha-plugins\)/);
  assert.equal((await build(c, 'app', ['--enable_alpha_plugins'])).status, 0);
  const missing = setup({ 'app/kustomization.yaml': 'generators:\n- a.yaml\n', 'app/a.yaml': APP('a', 'nginx').replace('team.example.com', 'nobody.example.com') }, {});
  const none = await build(missing, 'app');
  assert.equal(none.status, 1);
  assert.match(none.stderr, /unable to find plugin for App\.v1\.nobody\.example\.com\/a\.\[noNs\]: .*nor group executable .*\/xdg\/kustomize\/plugins\/nobody\.example\.com/);
});

test('the output is what kubectl kustomize makes of the same tree with the executables\' output written out as files', { skip: kubectl.skip }, async () => {
  const c = setup(
    {
      'app/kustomization.yaml': 'generators:\n- a.yaml\n- b.yaml\nresources:\n- cm.yaml\nnamePrefix: p-\ncommonLabels:\n  team: t\ntransformers:\n- y.yaml\n',
      'app/a.yaml': APP('a', 'nginx'),
      'app/b.yaml': APP('b', 'redis'),
      'app/cm.yaml': CM('c'),
      'app/y.yaml': 'apiVersion: y.example.com/v1\nkind: Y\nmetadata:\n  name: y\n',
    },
    {
      'team.example.com': { generate: GENERATE_PER_CONFIG, transform: MARK('team.example.com') },
      'y.example.com': { transform: `${PASS('y.example.com')} | sed 's/^  k: v$/  k: from-y/' | tee "$KEP_LOG/y.example.com.out"` },
    },
  );
  const ours = await build(c, 'app');
  assert.equal(ours.status, 0, ours.stderr);
  // the implicit transform's output, then the builtins on it: what kubectl builds from that file
  const equivalent = join(c.dir, 'equivalent');
  mkdirSync(equivalent);
  writeFileSync(join(equivalent, 'implicit.yaml'), readFileSync(join(c.log, 'team.example.com.out')));
  writeFileSync(join(equivalent, 'kustomization.yaml'), 'resources:\n- implicit.yaml\nnamePrefix: p-\ncommonLabels:\n  team: t\n');
  const builtins = execFileSync(kubectl.path, ['kustomize', equivalent], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  // and the listed transform's output, as a tree of its own
  writeFileSync(join(equivalent, 'listed.yaml'), readFileSync(join(c.log, 'y.example.com.out')));
  writeFileSync(join(equivalent, 'kustomization.yaml'), 'resources:\n- listed.yaml\n');
  assert.equal(ours.stdout, execFileSync(kubectl.path, ['kustomize', equivalent], { encoding: 'utf8' }));
  // the listed transform got what kubectl's builtins made (in the build's order; kubectl prints them sorted)
  const documents = (text: string) => text.split('---\n').filter((d) => d !== '').sort();
  assert.deepEqual(documents(stdinOf(c, 2)).filter((d) => !d.startsWith('apiVersion: y.example.com/')), documents(builtins));
});
