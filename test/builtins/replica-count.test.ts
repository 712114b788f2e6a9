/** `replicas`: outputs as kubectl kustomize (kustomize v5.5.0) printed them for the same files. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build } from '../../src/build/build.js';

async function replicasAfter(existing: string): Promise<string> {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'resources:\n- web.yaml\nreplicas:\n- name: web\n  count: 3\n',
    'app/web.yaml': `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n${existing}`,
  });
  const { yaml } = await build('/app', { fs });
  return yaml.slice(yaml.indexOf('spec:'));
}

test('the count keeps a string a string; any other value, or none, becomes the number', async () => {
  assert.equal(await replicasAfter('  replicas: "2"\n'), 'spec:\n  replicas: "3"\n');
  assert.equal(await replicasAfter('  replicas: 2\n'), 'spec:\n  replicas: 3\n');
  assert.equal(await replicasAfter('  replicas: true\n'), 'spec:\n  replicas: 3\n');
  assert.equal(await replicasAfter('  replicas: null\n'), 'spec:\n  replicas: 3\n');
  assert.equal(await replicasAfter('  paused: false\n'), 'spec:\n  paused: false\n  replicas: 3\n');
});
