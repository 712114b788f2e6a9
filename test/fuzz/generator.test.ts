/**
 * The fuzz generator (scripts/fuzz/tree.mjs, run by `npm run fuzz`): the same seed gives the
 * same tree, and a few hundred seeds use every kustomization field it promises.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'yaml';

interface Tree {
  files: Map<string, string | Uint8Array>;
  build: string;
  shape: string;
}
type Generate = (seed: number) => Tree;

/** from dist/test/fuzz/ back to the repository's scripts/fuzz/ (a module without types: imported by URL) */
const TREE = new URL('../../../scripts/fuzz/tree.mjs', import.meta.url).href;
const generateTree = async (): Promise<Generate> => ((await import(TREE)) as { generateTree: Generate }).generateTree;

const FIELDS = [
  'resources', 'components', 'bases', 'namePrefix', 'nameSuffix', 'namespace', 'commonLabels', 'labels', 'commonAnnotations',
  'images', 'imageTags', 'replicas', 'patches', 'patchesStrategicMerge', 'patchesJson6902', 'configMapGenerator',
  'secretGenerator', 'generatorOptions', 'replacements', 'vars', 'crds', 'configurations', 'sortOptions', 'buildMetadata',
  'openapi', 'transformers', 'generators',
];

test('the same seed gives the same tree', async () => {
  const generate = await generateTree();
  for (const seed of [1, 2, 42, 20261128]) {
    const a = generate(seed);
    const b = generate(seed);
    assert.deepEqual([...a.files], [...b.files]);
    assert.equal(a.build, b.build);
  }
  assert.notDeepEqual([...generate(1).files], [...generate(2).files]);
});

test('a few hundred seeds use every field, every shape and the generator behaviors', async () => {
  const generate = await generateTree();
  const seen = new Set<string>();
  for (let seed = 0; seed < 400; seed++) {
    const tree = generate(seed);
    seen.add(`shape:${tree.shape}`);
    for (const [path, text] of tree.files) {
      if (!/(^|\/)(kustomization\.ya?ml|Kustomization)$/.test(path) || typeof text !== 'string') continue;
      const k = parse(text, { version: '1.1' }) as Record<string, unknown>;
      for (const key of Object.keys(k)) seen.add(key);
      if (k['kind'] === 'Component') seen.add('kind:Component');
      for (const g of [...((k['configMapGenerator'] as { behavior?: string }[]) ?? []), ...((k['secretGenerator'] as { behavior?: string }[]) ?? [])]) {
        if (g.behavior) seen.add(`behavior:${g.behavior}`);
      }
    }
  }
  const missing = [
    ...FIELDS,
    'kind:Component',
    'behavior:merge',
    'behavior:replace',
    ...['single', 'overlay', 'two-bases', 'chain', 'diamond'].map((s) => `shape:${s}`),
  ].filter((f) => !seen.has(f));
  assert.deepEqual(missing, []);
});
