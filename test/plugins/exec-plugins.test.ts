import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { exec, writeTree } from './plugin-tree.js';

// Legacy exec plugins, run for real: shell scripts in a plugin home laid out as
// <home>/<group>/<version>/<lowercase kind>/<Kind>, as kustomize's plugin docs describe.

const CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: base
data:
  a: "1"
`;

test('an exec generator gets its config file and argsOneLiner; needs-hash asks for a name hash', async () => {
  const dir = writeTree({
    'home/example.com/v1/bashedconfigmap/BashedConfigMap': exec(`#!/bin/sh
# $1 is the config file; the rest comes from argsOneLiner
name=$(grep '^  name:' "$1" | head -1 | sed 's/.*: //')
cat <<YAML
apiVersion: v1
kind: ConfigMap
metadata:
  name: $name
  annotations:
    kustomize.config.k8s.io/needs-hash: "true"
data:
  first: "$2"
  second: "$3"
  root: $KUSTOMIZE_PLUGIN_CONFIG_ROOT
  cwd: $(pwd)
YAML
`),
    'app/kustomization.yaml': 'generators:\n- gen.yaml\n',
    'app/gen.yaml': `apiVersion: example.com/v1
kind: BashedConfigMap
metadata:
  name: generated
argsOneLiner: alpha "beta gamma"
`,
  });
  const { yaml } = await build(join(dir, 'app'), { enablePlugins: true, pluginHome: join(dir, 'home') });
  const app = join(dir, 'app');
  assert.match(yaml, /^  first: alpha$/m);
  assert.match(yaml, /^  second: beta gamma$/m);
  assert.match(yaml, new RegExp(`^  root: ${app}$`, 'm'));
  assert.match(yaml, new RegExp(`^  cwd: ${app}$`, 'm'));
  assert.match(yaml, /^  name: generated-[a-z0-9]{10}$/m, 'hash suffix requested by the annotation');
  assert.doesNotMatch(yaml, /needs-hash/);
});

test('an exec transformer gets the resources with their ids on stdin; its output replaces them by id', async () => {
  const dir = writeTree({
    'home/example.com/v1/upcaser/Upcaser': exec(`#!/bin/sh
# keeps every document but the one named dropme, upper-casing "value-"
tee "$(dirname "$0")/stdin.yaml" | sed 's/value-/VALUE-/' | awk 'BEGIN { RS = "---\\n" } !/name: dropme/ { printf "---\\n%s", $0 }'
`),
    'app/kustomization.yaml': 'resources:\n- cms.yaml\ntransformers:\n- up.yaml\n',
    'app/cms.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\ndata:\n  k: value-1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dropme\n',
    'app/up.yaml': 'apiVersion: example.com/v1\nkind: Upcaser\nmetadata:\n  name: up\n',
  });
  const { yaml } = await build(join(dir, 'app'), { enablePlugins: true, pluginHome: join(dir, 'home'), reorder: 'none' });
  assert.equal(yaml, 'apiVersion: v1\ndata:\n  k: VALUE-1\nkind: ConfigMap\nmetadata:\n  name: keep\n');
  const stdin = readFileSync(join(dir, 'home/example.com/v1/upcaser/stdin.yaml'), 'utf8');
  assert.match(stdin, /kustomize\.config\.k8s\.io\/id: \|\n {6}kind: ConfigMap\n {6}name: keep\n {6}version: v1\n/);
});

test('a transformer printing the same resource twice is an error naming the plugin', async () => {
  const dir = writeTree({
    'home/example.com/v1/twice/Twice': exec(`#!/bin/sh
cat > /dev/null
printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: x\\n---\\napiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: x\\n'
`),
    'app/kustomization.yaml': 'transformers:\n- t.yaml\n',
    'app/t.yaml': 'apiVersion: example.com/v1\nkind: Twice\nmetadata:\n  name: t\n',
  });
  await assert.rejects(build(join(dir, 'app'), { enablePlugins: true, pluginHome: join(dir, 'home') }), /generated duplicate resource: ConfigMap\.v1\.\[noGrp\]\/x/);
});

test('plugins do not run unless enabled', async () => {
  const dir = writeTree({
    'home/example.com/v1/boom/Boom': exec('#!/bin/sh\ntouch "$(dirname "$0")/ran"\n'),
    'app/kustomization.yaml': 'generators:\n- g.yaml\n',
    'app/g.yaml': 'apiVersion: example.com/v1\nkind: Boom\nmetadata:\n  name: b\n',
  });
  await assert.rejects(build(join(dir, 'app'), { pluginHome: join(dir, 'home') }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'PLUGIN_DISABLED');
    assert.match(e.message, /external plugins disabled; unable to load external plugin 'Boom'/);
    assert.match(e.message, /--enable-alpha-plugins/);
    return true;
  });
});

test('a failing plugin is one error naming the plugin, its config file and its stderr', async () => {
  const dir = writeTree({
    'home/example.com/v1/fails/Fails': exec('#!/bin/sh\necho "something broke" >&2\nexit 3\n'),
    'app/kustomization.yaml': 'generators:\n- f.yaml\n',
    'app/f.yaml': 'apiVersion: example.com/v1\nkind: Fails\nmetadata:\n  name: f\n',
  });
  await assert.rejects(build(join(dir, 'app'), { enablePlugins: true, pluginHome: join(dir, 'home') }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'PLUGIN_FAILED');
    assert.match(e.message, /plugin Fails\.v1\.example\.com\/f\.\[noNs\] \(configured in f\.yaml\)/);
    assert.match(e.message, /exit status 3/);
    assert.match(e.message, /something broke/);
    return true;
  });
});

test('a plugin printing invalid YAML is an error naming the plugin', async () => {
  const dir = writeTree({
    'home/example.com/v1/garbage/Garbage': exec("#!/bin/sh\nprintf 'a: [unclosed\\n'\n"),
    'app/kustomization.yaml': 'generators:\n- g.yaml\n',
    'app/g.yaml': 'apiVersion: example.com/v1\nkind: Garbage\nmetadata:\n  name: g\n',
  });
  await assert.rejects(build(join(dir, 'app'), { enablePlugins: true, pluginHome: join(dir, 'home') }), /plugin Garbage.* printed invalid YAML/);
});

// without `exec`, the shell's `sleep` child still holds the plugin's output after the plugin is
// killed. The sleep outlasts the test's own timeout: a build that waited for it fails the test.
for (const [what, script] of [
  ['that hangs', 'exec sleep 1000'],
  ['whose child process holds its output open', 'sleep 1000'],
]) {
  test(`a plugin ${what} is stopped after the timeout`, { timeout: 60_000 }, async () => {
    const dir = writeTree({
      'home/example.com/v1/hangs/Hangs': exec(`#!/bin/sh\n${script}\n`),
      'app/kustomization.yaml': 'generators:\n- h.yaml\n',
      'app/h.yaml': 'apiVersion: example.com/v1\nkind: Hangs\nmetadata:\n  name: h\n',
    });
    await assert.rejects(build(join(dir, 'app'), { enablePlugins: true, pluginHome: join(dir, 'home'), pluginTimeout: 1 }), /timed out after 1s/);
  });
}

test('a generator plugin can ask to merge into an existing resource', async () => {
  const dir = writeTree({
    'home/example.com/v1/merger/Merger': exec(`#!/bin/sh
cat <<YAML
apiVersion: v1
kind: ConfigMap
metadata:
  name: base
  annotations:
    kustomize.config.k8s.io/behavior: merge
data:
  b: "2"
YAML
`),
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ngenerators:\n- m.yaml\n',
    'app/cm.yaml': CONFIG_MAP,
    'app/m.yaml': 'apiVersion: example.com/v1\nkind: Merger\nmetadata:\n  name: m\n',
  });
  const { yaml } = await build(join(dir, 'app'), { enablePlugins: true, pluginHome: join(dir, 'home') });
  assert.equal(yaml, 'apiVersion: v1\ndata:\n  a: "1"\n  b: "2"\nkind: ConfigMap\nmetadata:\n  name: base\n');
});

test("a config's group, version or kind that is a path never leaves the plugin home", async () => {
  // kind ../../../../../bin/sh would otherwise name /bin/sh and run it on the config
  const marker = join(writeTree({ x: '' }), 'PWNED');
  const script = `touch ${marker}\n`;
  for (const [apiVersion, kind] of [
    ['example.com/v1', '../../../../../../../../../../bin/sh'],
    ['../../../../../../../../../../bin/v1', 'sh'],
    ['example.com/..', 'X'],
  ]) {
    const dir = writeTree({
      'home/.keep': '',
      'app/kustomization.yaml': 'generators:\n- gen.yaml\n',
      'app/gen.yaml': `apiVersion: ${apiVersion}\nkind: ${JSON.stringify(kind)}\nmetadata:\n  name: x\nargsOneLiner: ${JSON.stringify(script)}\n`,
    });
    await assert.rejects(
      build(join(dir, 'app'), { enablePlugins: true, pluginHome: join(dir, 'home') }),
      (e: unknown) => e instanceof KustomizeError && e.code === 'PLUGIN_NOT_FOUND' && /is not a name/.test(e.message),
      `${apiVersion} ${kind}`,
    );
  }
  assert.equal(existsSync(marker), false);
});
