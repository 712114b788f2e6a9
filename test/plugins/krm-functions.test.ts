import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { exec, writeTree } from './plugin-tree.js';

// KRM functions run as local executables (exec functions), for real.

const fnConfig = (kind: string, path: string, extra = '') => `apiVersion: example.com/v1
kind: ${kind}
metadata:
  name: ${kind.toLowerCase()}
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ${path}
${extra}`;

test('an exec transformer function receives a ResourceList and its output replaces the resources', async () => {
  const dir = writeTree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  k: v\n',
    'app/fn.yaml': fnConfig('Renamer', './renamer.sh', 'spec:\n  prefix: fn-\n'),
    // renames every item's metadata.name; keeps the ResourceList shape on the way out
    'app/renamer.sh': exec(`#!/bin/sh
tee input.yaml | sed 's/^    name: /    name: fn-/'
`),
  });
  const { yaml } = await build(join(dir, 'app'), { enablePlugins: true, enableExec: true });
  assert.equal(yaml, 'apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  name: fn-cm\n');
  const input = readFileSync(join(dir, 'app/input.yaml'), 'utf8');
  assert.match(input, /^apiVersion: config\.kubernetes\.io\/v1\nfunctionConfig:\n/);
  assert.match(input, /^kind: ResourceList$/m);
  assert.match(input, /config\.kubernetes\.io\/local-config: "true"/, 'the function config is marked local');
  assert.match(input, /^  spec:\n    prefix: fn-$/m);
  assert.match(input, /kustomize\.config\.k8s\.io\/id: \|/);
});

test('an exec generator function prints plain resources; results are reported, exit 0 decides success', async () => {
  const dir = writeTree({
    'app/kustomization.yaml': 'generators:\n- fn.yaml\n',
    'app/fn.yaml': fnConfig('Gen', './gen.sh'),
    'app/gen.sh': exec(`#!/bin/sh
cat > /dev/null
cat <<YAML
apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Service
  metadata:
    name: generated
results:
- message: looked fine
  severity: info
  resourceRef:
    kind: Service
    name: generated
YAML
`),
  });
  const warnings: string[] = [];
  const { yaml } = await build(join(dir, 'app'), { enablePlugins: true, enableExec: true, warn: (w) => warnings.push(w.message) });
  assert.equal(yaml, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: generated\n');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /function Gen\.v1\.example\.com\/gen.* result \[info\] Service\/generated: looked fine/);
});

test('exec functions need --enable-exec: refused with an error naming the flag, never skipped', async () => {
  const dir = writeTree({
    'app/kustomization.yaml': 'generators:\n- fn.yaml\n',
    'app/fn.yaml': fnConfig('Gen', './gen.sh'),
    'app/gen.sh': exec('#!/bin/sh\ntouch ran\n'),
  });
  await assert.rejects(build(join(dir, 'app'), { enablePlugins: true }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'PLUGIN_DISABLED');
    assert.match(e.message, /--enable-exec/);
    return true;
  });
});

test('a function that exits non-zero fails the build with its stderr', async () => {
  const dir = writeTree({
    'app/kustomization.yaml': 'generators:\n- fn.yaml\n',
    'app/fn.yaml': fnConfig('Gen', './gen.sh'),
    'app/gen.sh': exec('#!/bin/sh\ncat >/dev/null\necho "bad config: missing spec" >&2\nexit 1\n'),
  });
  await assert.rejects(
    build(join(dir, 'app'), { enablePlugins: true, enableExec: true }),
    /function Gen\.v1\.example\.com\/gen\.\[noNs\] \(configured in fn\.yaml\): couldn't execute function: exit status 1\nbad config: missing spec/,
  );
});

test('a function config without --enable-alpha-plugins is refused with kustomize\'s wording', async () => {
  const dir = writeTree({
    'app/kustomization.yaml': 'transformers:\n- fn.yaml\n',
    'app/fn.yaml': fnConfig('Gen', './gen.sh'),
  });
  await assert.rejects(build(join(dir, 'app'), { enableExec: true }), /external plugins disabled; unable to load external plugin 'Gen'/);
});
