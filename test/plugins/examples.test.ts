import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from '../../src/build/build.js';

// The bundled examples (the ones the README and docs/plugins.md walk through) build to the
// output stored beside them. The plain one and the legacy exec plugin were checked against
// kubectl kustomize (which runs legacy exec plugins too).

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
const read = (path: string) => readFileSync(examples + path, 'utf8');

test('examples/hello: the production overlay', async () => {
  const { yaml, inputsComplete } = await build(examples + 'hello/overlays/production', { reorder: 'legacy' });
  assert.equal(yaml, read('hello/expected-production.yaml'));
  assert.equal(inputsComplete, true, 'builtins read through the build');
});

test('examples/plugins/exec-function', async () => {
  const { yaml, inputsComplete } = await build(examples + 'plugins/exec-function', { enablePlugins: true, enableExec: true, reorder: 'legacy' });
  assert.equal(yaml, read('plugins/exec-function/expected.yaml'));
  assert.equal(inputsComplete, false, 'a process may read what it likes');
});

test('examples/plugins/legacy-exec', async () => {
  const { yaml, inputsComplete } = await build(examples + 'plugins/legacy-exec', { enablePlugins: true, pluginHome: examples + 'plugins/legacy-exec/plugins', reorder: 'legacy' });
  assert.equal(yaml, read('plugins/legacy-exec/expected.yaml'));
  assert.equal(inputsComplete, false);
});

test('examples/plugins/in-process', async () => {
  const { yaml, inputsComplete } = await build(examples + 'plugins/in-process', { enablePlugins: true, pluginHome: examples + 'plugins/in-process/plugins', reorder: 'legacy' });
  assert.equal(yaml, read('plugins/in-process/expected.yaml'));
  assert.equal(inputsComplete, false, 'a JavaScript plugin may read what it likes');
});

test('examples/plugins/group-executable, run as its kustomization says (the CLI, XDG_CONFIG_HOME at the example)', () => {
  const dir = examples + 'plugins/group-executable';
  const bin = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));
  const out = execFileSync(process.execPath, [bin, 'build', '--enable-alpha-plugins', dir], { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: dir } });
  assert.equal(out, read('plugins/group-executable/expected.yaml'));
});
