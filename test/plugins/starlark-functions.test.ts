/**
 * Starlark KRM functions through build(): run in-process by our interpreter, gated like other
 * plugins (`--enable-alpha-plugins`, or `--enable-star` for Starlark alone), the script read
 * under the load restrictor, bounded by the plugin timeout. Each case runs from memory, and one
 * from disk.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build, type BuildOptions } from '../../src/build/build.js';

const fnConfig = (kind: string, spec: string, extra = '') =>
  `apiVersion: example.com/v1\nkind: ${kind}\nmetadata:\n  name: ${kind.toLowerCase()}\n  annotations:\n    config.kubernetes.io/function: |\n      starlark:\n        ${spec}\n${extra}`;

const SET_LABEL = `
def run(items, value):
  for r in items:
    r["metadata"].setdefault("labels", {})["team"] = value
run(ctx.resource_list["items"], ctx.resource_list["functionConfig"]["spec"]["team"])
`;

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n';

function tree(files: Record<string, string>): MemoryFileSystem {
  return MemoryFileSystem.from({ 'app/cm.yaml': CM, 'app/set-label.star': SET_LABEL, ...files });
}

async function failure(fs: MemoryFileSystem, options: BuildOptions = {}): Promise<KustomizeError> {
  try {
    await build('/app', { fs, ...options });
  } catch (e) {
    assert.ok(e instanceof KustomizeError, String(e));
    return e;
  }
  assert.fail('the build succeeded');
}

const transformerTree = () =>
  tree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/fn.yaml': fnConfig('SetTeam', 'path: set-label.star', 'spec:\n  team: blue\n'),
  });

test('a starlark transformer edits the resources in-process', async () => {
  const { yaml, inputs, inputsComplete } = await build('/app', { fs: transformerTree(), enablePlugins: true });
  assert.equal(yaml, 'apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  labels:\n    team: blue\n  name: a\n');
  // the script is read through the build: the inputs hold all it read
  assert.deepEqual(inputs, ['cm.yaml', 'fn.yaml', 'kustomization.yaml', 'set-label.star']);
  assert.equal(inputsComplete, true);
});

test('the same from disk, with --enable-star alone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kts-star-'));
  mkdirSync(join(dir, 'app'));
  writeFileSync(join(dir, 'app/kustomization.yaml'), 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n');
  writeFileSync(join(dir, 'app/cm.yaml'), CM);
  writeFileSync(join(dir, 'app/set-label.star'), SET_LABEL);
  writeFileSync(join(dir, 'app/fn.yaml'), fnConfig('SetTeam', 'path: set-label.star', 'spec:\n  team: red\n'));
  const { yaml } = await build(join(dir, 'app'), { enableStar: true });
  assert.match(yaml, /team: red/);
});

test('without --enable-alpha-plugins or --enable-star nothing runs', async () => {
  const e = await failure(transformerTree());
  assert.equal(e.code, 'PLUGIN_DISABLED');
  assert.match(e.message, /external plugins disabled; unable to load external plugin 'SetTeam'/);
});

test('a starlark generator adds resources (with a name hash when it asks for one)', async () => {
  const script = `
ctx.resource_list["items"] = [{"apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {"name": "made", "annotations": {"kustomize.config.k8s.io/needs-hash": "true"}},
  "data": {"count": str(len(ctx.resource_list["items"]))}}]
`;
  const fs = tree({ 'app/kustomization.yaml': 'generators:\n- fn.yaml\n', 'app/gen.star': script, 'app/fn.yaml': fnConfig('Gen', 'path: gen.star') });
  const { yaml } = await build('/app', { fs, enablePlugins: true });
  assert.match(yaml, /^apiVersion: v1\ndata:\n  count: "1"\nkind: ConfigMap\nmetadata:\n  name: made-[a-z0-9]{10}\n$/);
});

test('a starlark validator may not change resources', async () => {
  const fs = tree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\nvalidators:\n- fn.yaml\n',
    'app/fn.yaml': fnConfig('SetTeam', 'path: set-label.star', 'spec:\n  team: blue\n'),
  });
  const e = await failure(fs, { enablePlugins: true });
  assert.equal(e.code, 'VALIDATION_FAILED');
});

test("kpt's StarlarkRun: the script in source:", async () => {
  const fs = tree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- run.yaml\n',
    'app/run.yaml': `apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: upper\nsource: |\n  for r in ctx.resource_list["items"]:\n    r["data"]["k"] = r["data"]["k"].upper()\n`,
  });
  const { yaml } = await build('/app', { fs, enablePlugins: true });
  assert.match(yaml, /k: V\n/);
});

test('a script error names the script, line and column, with a backtrace', async () => {
  const fs = tree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/bad.star': 'def f(x):\n  return x["missing"]\nf({})\n',
    'app/fn.yaml': fnConfig('Bad', 'path: bad.star'),
  });
  const e = await failure(fs, { enablePlugins: true });
  assert.equal(e.code, 'PLUGIN_FAILED');
  assert.match(e.message, /bad\.star:2:\d+: /);
  assert.match(e.message, /bad\.star:3:\d+/);
});

test('an endless script is stopped at the plugin timeout', async () => {
  const fs = tree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    // each step sorts a thousand numbers (some 15 µs): the default budget of 10 million steps
    // would take minutes, so the timeout of 0.2 s is what stops the script on any machine
    'app/loop.star': 'numbers = list(range(1000))\nwhile True:\n  x = sorted(numbers, reverse=True)\n',
    'app/fn.yaml': fnConfig('Loop', 'path: loop.star'),
  });
  const e = await failure(fs, { enablePlugins: true, pluginTimeout: 0.2 });
  assert.equal(e.code, 'PLUGIN_FAILED');
  assert.match(e.message, /loop\.star:3:\d+: Starlark computation cancelled: deadline exceeded/);
});

test('the script path obeys the load restrictor', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/cm.yaml': CM,
    'outside.star': SET_LABEL,
    'app/fn.yaml': fnConfig('SetTeam', 'path: ../outside.star', 'spec:\n  team: blue\n'),
  });
  const e = await failure(fs, { enablePlugins: true });
  assert.equal(e.code, 'LOAD_RESTRICTED');
  const { yaml } = await build('/app', { fs, enablePlugins: true, loadRestrictor: 'none' });
  assert.match(yaml, /team: blue/);
});

test('ctx.environment holds the --env entries, not the process environment', async () => {
  const fs = tree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/env.star': 'load("json.star", "json")\nfor r in ctx.resource_list["items"]:\n  r["data"]["env"] = json.encode(ctx.environment)\n',
    'app/fn.yaml': fnConfig('Env', 'path: env.star'),
  });
  const { yaml } = await build('/app', { fs, enablePlugins: true, env: ['FOO=bar', 'BARE'] });
  assert.match(yaml, /env: '\{"FOO":"bar"\}'/);
});
