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

test('the count keeps a string written quoted (or as a block) a string; any other value, or none, becomes the number', async () => {
  assert.equal(await replicasAfter('  replicas: "2"\n'), 'spec:\n  replicas: "3"\n');
  assert.equal(await replicasAfter("  replicas: '2'\n"), 'spec:\n  replicas: "3"\n');
  assert.equal(await replicasAfter('  replicas: |-\n    2\n'), 'spec:\n  replicas: "3"\n');
  // a string written plain is the node's text: kustomize's count over it reads as the number
  assert.equal(await replicasAfter('  replicas: two\n'), 'spec:\n  replicas: 3\n');
  assert.equal(await replicasAfter('  replicas: !!str 2\n'), 'spec:\n  replicas: 3\n');
  assert.equal(await replicasAfter('  replicas: 2\n'), 'spec:\n  replicas: 3\n');
  assert.equal(await replicasAfter('  replicas: true\n'), 'spec:\n  replicas: 3\n');
  assert.equal(await replicasAfter('  replicas: null\n'), 'spec:\n  replicas: 3\n');
  assert.equal(await replicasAfter('  paused: false\n'), 'spec:\n  paused: false\n  replicas: 3\n');
});

test('a string a patch wrote quoted over a plain number is plain after the merge: the count over it is the number', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'resources:\n- web.yaml\nreplicas:\n- name: web\n  count: 3\npatches:\n- path: p.yaml\n',
    'app/web.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n',
    'app/p.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: "three"\n',
  });
  const { yaml } = await build('/app', { fs });
  assert.equal(yaml.slice(yaml.indexOf('spec:')), 'spec:\n  replicas: 3\n');
});
