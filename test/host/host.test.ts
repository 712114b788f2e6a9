/**
 * Node-only modules, as the library loads them: in Node, what the module exports; a module a
 * browser bundle mapped to an empty one (its exports undefined) makes a feature that needs it
 * fail with NODE_REQUIRED, naming the feature, what it needs Node for, the file and the field.
 * (In Chromium the same errors are tested on the bundled package: test/browser/library.test.ts.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { importInNode, requireNode } from '../../src/host.js';

/** an ES module namespace as a bundler makes it for a module mapped to `false` */
const emptyModule = async (): Promise<{ run?: () => string }> => ({});
const realModule = async (): Promise<{ run?: () => string }> => ({ run: () => 'ran' });

test('in Node, importInNode gives what the module exports; undefined for an emptied module', async () => {
  assert.equal((await importInNode(async () => (await realModule()).run))?.(), 'ran');
  assert.equal(await importInNode(async () => (await emptyModule()).run), undefined);
});

test('requireNode: NODE_REQUIRED for an emptied module, naming the feature, the need, the file and the field', async () => {
  const feature = { feature: 'helm chart ‘minecraft’ (helmCharts)', needs: 'runs the helm executable' };
  assert.equal((await requireNode(async () => (await realModule()).run, feature))(), 'ran');
  await assert.rejects(requireNode(async () => (await emptyModule()).run, feature, { file: 'kustomization.yaml', field: 'helmCharts[0]' }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.deepEqual([e.code, e.file, e.field], ['NODE_REQUIRED', 'kustomization.yaml', 'helmCharts[0]']);
    assert.equal(e.message, 'helm chart ‘minecraft’ (helmCharts) needs Node, as it runs the helm executable; this build does not run in Node');
    return true;
  });
});
