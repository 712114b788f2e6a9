/**
 * KRM functions see a resource as kustomize has it at their step: its build state (the
 * previous names a prefix left, the prefixes) in `internal.config.kubernetes.io/*` annotations,
 * whether it came from a base or from an earlier step of the same kustomization; and what they
 * give back is the build state from then on, as kustomize's UpdateResMapValues resets each
 * resource to the function's output. (kubectl's kustomize skips exec functions silently, so
 * these are checked against kustomize's source, not run against kubectl; the patches' side is in
 * test/fixtures/build-state-same-kustomization and json6902-build-state, recorded with kubectl.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { exec, execFunctionConfig, writeTree } from './plugin-tree.js';

const TREE = {
  'base/kustomization.yaml': 'resources:\n- cm.yaml\nnamePrefix: b-\n',
  'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n',
  'app/deploy.yaml':
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        envFrom:\n        - configMapRef:\n            name: settings\n',
  'app/kustomization.yaml': 'resources:\n- ../base\n- deploy.yaml\nnamePrefix: p-\ntransformers:\n- fn.yaml\n',
  'app/fn.yaml': execFunctionConfig('Fn', './fn.sh'),
};
const enabled = { enablePlugins: true, enableExec: true };
/** the Deployment's reference to the ConfigMap, in the output */
const reference = (yaml: string) => /configMapRef:\n\s+name: (\S+)/.exec(yaml)?.[1];

test("a function sees the build state of the base's and of its own kustomization's steps", async () => {
  const dir = writeTree({ ...TREE, 'app/fn.sh': exec('#!/bin/sh\ntee input.yaml\n') });
  const { yaml } = await build(join(dir, 'app'), enabled);
  const input = readFileSync(join(dir, 'app/input.yaml'), 'utf8');
  // the ConfigMap: renamed by the base's prefix, then by the app's
  assert.match(input, /internal\.config\.kubernetes\.io\/prefixes: b-,p-\n/);
  assert.match(input, /internal\.config\.kubernetes\.io\/previousNames: settings,b-settings\n/);
  // the Deployment: renamed by the app's prefix only
  assert.match(input, /internal\.config\.kubernetes\.io\/previousNames: web\n/);
  // given back as they were, the state stays: the reference follows the renames, and no
  // internal annotation is printed
  assert.equal(reference(yaml), 'p-b-settings');
  assert.doesNotMatch(yaml, /internal\.config/);
});

test('a function that drops the build state leaves the resource without it, as kustomize does', async () => {
  const dir = writeTree({ ...TREE, 'app/fn.sh': exec('#!/bin/sh\nsed "/internal.config.kubernetes.io\\/previous/d"\n') });
  const { yaml } = await build(join(dir, 'app'), enabled);
  // without its previous names, nothing tells the build that `settings` is now p-b-settings
  assert.equal(reference(yaml), 'settings');
});
