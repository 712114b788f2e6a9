/**
 * Labels and annotations set through their field specs. Expected messages are what
 * `kubectl kustomize` (kustomize v5.5.0) printed for the same files.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build } from '../../src/build/build.js';

const deployment = (matchLabels: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: ${matchLabels}\n  template:\n    metadata:\n      labels:\n        a: b\n`;

async function failure(matchLabels: string): Promise<string> {
  const fs = MemoryFileSystem.from({
    '/app/kustomization.yaml': 'resources:\n- r.yaml\nlabels:\n- pairs: {app: x}\n  includeSelectors: true\n',
    '/app/r.yaml': deployment(matchLabels),
  });
  const e = await build('/app', { fs }).then(
    () => assert.fail('the build should fail'),
    (e: unknown) => e,
  );
  assert.ok(e instanceof KustomizeError);
  return e.message;
}

test('a field that is no map is an error naming the field, the object and what is there', async () => {
  assert.equal(
    await failure('oops'),
    "considering field 'spec/selector/matchLabels' of object Deployment.v1.apps/web.[noNs]: wrong node kind: expected MappingNode but got ScalarNode: node contents:\noops",
  );
  // kubectl prints the list as it was written ([a, b] here); a block list prints as a block
  assert.match(await failure('[a, b]'), /^considering field 'spec\/selector\/matchLabels' of object Deployment\.v1\.apps\/web\.\[noNs\]: wrong node kind: expected MappingNode but got SequenceNode: node contents:\n/);
});

test('every resource and every field gets the entries (one visitor serves them all)', async () => {
  const fs = MemoryFileSystem.from({
    '/app/kustomization.yaml': 'resources:\n- r.yaml\n- s.yaml\nlabels:\n- pairs: {app: x, tier: web}\n  includeSelectors: true\n',
    '/app/r.yaml': deployment('{a: b}'),
    '/app/s.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\nspec:\n  selector: null\n',
  });
  const { yaml } = await build('/app', { fs, reorder: 'legacy' });
  assert.equal(
    yaml,
    'apiVersion: v1\nkind: Service\nmetadata:\n  labels:\n    app: x\n    tier: web\n  name: svc\nspec:\n  selector:\n    app: x\n    tier: web\n---\n' +
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  labels:\n    app: x\n    tier: web\n  name: web\nspec:\n  selector:\n    matchLabels:\n      a: b\n      app: x\n      tier: web\n  template:\n    metadata:\n      labels:\n        a: b\n        app: x\n        tier: web\n',
  );
});
