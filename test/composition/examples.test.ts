/**
 * The worked examples of docs/composition.md (examples/composition/): each builds to the
 * expected.yaml beside it, `consolidate` prints the stored list, and the doc shows every
 * example file and output as they are.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { consolidateComposition } from '../../src/composition/consolidate-path.js';
import { build } from '../../src/build/build.js';

const examples = fileURLToPath(new URL('../../../examples/composition/', import.meta.url));
const doc = readFileSync(fileURLToPath(new URL('../../../docs/composition.md', import.meta.url)), 'utf8');
const read = (path: string) => readFileSync(examples + path, 'utf8');

const BUILT = ['app', 'staging', 'production', 'diamond', 'with-kustomization', 'kustomization'];

for (const name of BUILT) {
  test(`examples/composition/${name} builds to its expected.yaml`, async () => {
    const { yaml } = await build(examples + name, { enablePlugins: true, enableExec: true, reorder: 'legacy' });
    assert.equal(yaml, read(`${name}/expected.yaml`));
  });
}

test('consolidate prints the list production runs', async () => {
  assert.equal((await consolidateComposition(examples + 'production')).yaml, read('production/consolidated.yaml'));
});

test('docs/composition.md shows the example files and outputs as they are', () => {
  const shown = [
    ...['app', 'staging', 'production', 'diamond', 'with-kustomization'].map((n) => `${n}/composition.yaml`),
    'kustomization/kustomization.yaml',
    ...BUILT.map((n) => `${n}/expected.yaml`),
    'production/consolidated.yaml',
  ];
  for (const file of shown) assert.ok(doc.includes('```yaml\n' + read(file) + '```\n'), `docs/composition.md does not show ${file} as it is`);
});
