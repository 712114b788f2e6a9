/**
 * KEP-2906's `catalogs:` on a Composition: its transformers resolve through the Composition's
 * own catalogs, then those of its imports (each relative to the Composition listing it), with
 * a real exec program verified by digest; trust works as for a Kustomization.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { consolidateComposition } from '../../src/composition/consolidate-path.js';
import { readComposition } from '../../src/kinds/composition.js';
import { build } from '../../src/build/build.js';
import { catalogYaml, CONFIG, execRuntime, renamerFunction, renamerScript, sha256, tree } from '../catalog/harness.js';
import { rejectsWith } from './expect-error.js';

const work = mkdtempSync(join(tmpdir(), 'kts-composition-catalog-'));
const cacheDir = () => mkdtempSync(join(tmpdir(), 'kts-cache-'));
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n';
/** The Renamer config as a transformer of a Composition. */
const renamer = CONFIG.replace(/^/gm, '  ').replace(/^ {2}apiVersion/, '- apiVersion');

function compositions(marker: string) {
  const program = renamerScript(join(work, marker), 'cat-');
  return tree({
    'base/composition.yaml': 'catalogs:\n- catalog.yaml\n',
    'base/catalog.yaml': catalogYaml('team', renamerFunction(execRuntime({ bin: 'renamer', uri: 'renamer', sha256: sha256(program) }))),
    'base/renamer': program,
    'app/composition.yaml': `transformersFrom:\n- path: ../base\ntransformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [cm.yaml]\n${renamer}`,
    'app/cm.yaml': CM,
  });
}

test('a Composition resolves its transformers through the catalogs of its imports (each relative to the Composition listing it)', async () => {
  const dir = compositions('composition-ok');
  const { yaml } = await build(join(dir, 'app'), { trustedCatalogs: ['team'], cacheDir: cacheDir() });
  assert.equal(yaml, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cat-cm\n');
  assert.ok(existsSync(join(work, 'composition-ok')), 'the catalog program ran');
});

test('an untrusted catalog stops a Composition before anything runs', async () => {
  const dir = compositions('composition-untrusted');
  await rejectsWith(build(join(dir, 'app'), { cacheDir: cacheDir() }), 'CATALOG_UNTRUSTED', '--trusted-catalog team');
  assert.equal(existsSync(join(work, 'composition-untrusted')), false);
});

test('consolidate prints the catalogs after the transformers, each under the directory its reference is relative to', async () => {
  const dir = compositions('composition-printed');
  const { yaml, catalogs } = await consolidateComposition(join(dir, 'app'));
  assert.deepEqual(catalogs, [{ reference: 'catalog.yaml', dir: join(dir, 'base') }]);
  assert.match(yaml, /\n {4}name: renamer\ncatalogs:\n# relative to \.\.\/base\n- catalog\.yaml\n$/);
});

test('catalogs: is a list of non-empty references', () => {
  assert.deepEqual(readComposition('catalogs: [a.yaml, oci://r.example/c:v1]\n', '/c/composition.yaml').catalogs, ['a.yaml', 'oci://r.example/c:v1']);
  assert.throws(() => readComposition('catalogs: [""]\n', '/c/composition.yaml'), /catalogs\[0\]: must not be empty/);
  assert.throws(() => readComposition('catalogs: a.yaml\n', '/c/composition.yaml'), /cannot unmarshal string/);
});
