/**
 * A `null` list item (and other empty shapes) in a kustomization or a configurations file is
 * what Go's encoding/json makes of it, the zero value (an empty struct), so the build fails or
 * succeeds as kustomize's does, with a KustomizeError. Messages and outputs are what
 * `kubectl kustomize` (kustomize v5.5.0) printed for the same files; where kubectl panics
 * (nil pointer dereference) the error is ours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: a\n        image: nginx\n';
const UNCHANGED = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - image: nginx\n        name: a\n';

interface Case {
  kustomization: string;
  configurations?: string;
  output?: string;
  error?: string;
}

const CASES: Record<string, Case> = {
  'configMapGenerator: [null]': { kustomization: 'configMapGenerator: [null]', error: 'a configmap must have a name' },
  // kubectl says 'a configmap must have a name' here too (its secret check copies the configmap's message)
  'secretGenerator: [null]': { kustomization: 'secretGenerator: [null]', error: 'a secret must have a name' },
  'images: [null]': { kustomization: 'images: [null]', output: UNCHANGED },
  'labels: [null]': { kustomization: 'labels: [null]', output: UNCHANGED },
  'patches: [null]': { kustomization: 'patches: [null]', error: 'trouble configuring builtin PatchTransformer with config: `\n{}\n`: must specify one of patch and path in\n{}\n' },
  // kubectl panics
  'patchesJson6902: [null]': { kustomization: 'patchesJson6902: [null]', error: 'trouble configuring builtin PatchJson6902Transformer with config: `\n{}\n`: must specify the target name' },
  'replicas: [null]': {
    kustomization: 'replicas: [null]',
    error: 'resource with name  does not match a config with the following GVK [Deployment.[noVer].[noGrp] StatefulSet.[noVer].[noGrp] ReplicaSet.[noVer].[noGrp] ReplicationController.[noVer].[noGrp]]',
  },
  'vars: [null]': { kustomization: 'vars: [null]', error: "var '{ [noKind].[noVer].[noGrp] {metadata.name}}' cannot be mapped to a field in the set of known resources" },
  'replacements: [null]': { kustomization: 'replacements: [null]', error: 'replacements must specify a source and at least one target' },
  // kubectl panics
  'replacement targets: [null]': { kustomization: 'replacements:\n- source: {kind: Deployment, fieldPath: metadata.name}\n  targets: [null]', error: 'target must specify resources to select' },
  'configMapGenerator literals: [null]': { kustomization: 'configMapGenerator:\n- name: x\n  literals: [null]', error: 'loading KV pairs: literal sources []: invalid literal source , expected key=value' },
  'labels fields: [null]': { kustomization: 'labels:\n- pairs: {a: b}\n  fields: [null]', error: "considering field '' of object Deployment.v1.apps/web.[noNs]: cannot set or create an empty field name" },
  'configurations nameReference: [null]': { kustomization: 'configurations: [conf.yaml]', configurations: 'nameReference: [null]\nnamePrefix: [null]\n', output: UNCHANGED },
  'configurations nameReference fieldSpecs: [null]': {
    kustomization: 'configurations: [conf.yaml]',
    configurations: 'nameReference:\n- kind: ConfigMap\n  fieldSpecs: [null]\n',
    error: "updating name reference in '' field of 'Deployment.v1.apps/web.[noNs]': considering field '' of object Deployment.v1.apps/web.[noNs]: cannot set or create an empty field name",
  },
  'configurations images: [null]': {
    kustomization: 'configurations: [conf.yaml]\nimages: [{name: nginx, newTag: v}]',
    configurations: 'images: [null]\n',
    error: "considering field '' of object Deployment.v1.apps/web.[noNs]: cannot set or create an empty field name",
  },
};

for (const [name, c] of Object.entries(CASES)) {
  test(name, async () => {
    const fs = MemoryFileSystem.from({
      'app/kustomization.yaml': `resources:\n- d.yaml\n${c.kustomization}\n`,
      'app/d.yaml': DEPLOYMENT,
      ...(c.configurations !== undefined && { 'app/conf.yaml': c.configurations }),
    });
    const run = build('/app', { fs, warn: () => undefined });
    if (c.output !== undefined) {
      assert.equal((await run).yaml, c.output);
      return;
    }
    await assert.rejects(run, (e: unknown) => {
      assert.ok(e instanceof KustomizeError, `not a KustomizeError: ${String(e)}`);
      assert.equal(e.message, c.error);
      return true;
    });
  });
}
