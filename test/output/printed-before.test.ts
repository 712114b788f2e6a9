import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Resource } from '../../src/model/resource.js';
import { PrintedBefore } from '../../src/output/printed-before.js';
import { renderResources, type Rendered } from '../../src/output/render.js';
import type { YMap } from '../../src/yaml/value.js';

const options = { originAnnotations: false, transformerAnnotations: false };
const cm = (name: string, data: YMap, namespace?: string): Resource =>
  new Resource({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(namespace && { namespace }) }, data });

/** An earlier output whose texts are markers, not what printing would give: a text found in a later output was reused, not printed. */
function earlier(resources: Resource[]): Rendered {
  const texts = resources.map((_, i) => `marker ${i}\n`);
  const starts = Uint32Array.from(texts, (_, i) => texts.slice(0, i).reduce((n, t) => n + t.length + 4, 0));
  return { resources, yaml: texts.join('---\n'), starts };
}

test('a resource identical to one printed before under its id gets the earlier text; a changed one is printed', () => {
  const before = new PrintedBefore(earlier([cm('a', { x: '1' }), cm('b', { y: '2' }), cm('c', { z: '3' })]));
  const out = renderResources([cm('c', { z: '3' }), cm('b', { y: 'changed' }), cm('a', { x: '1' })], options, (r) => before.textOf(r));
  assert.equal(out.yaml, 'marker 2\n---\napiVersion: v1\ndata:\n  "y": changed\nkind: ConfigMap\nmetadata:\n  name: b\n---\nmarker 0\n');
  assert.deepEqual(
    [...out.starts].map((at) => out.yaml.slice(at).split('\n')[0]),
    ['marker 2', 'apiVersion: v1', 'marker 0'],
  );
});

test('an id is what is compared under: the same object in another namespace, or an id printed twice before, is printed', () => {
  const before = new PrintedBefore(earlier([cm('a', { x: '1' }), cm('d', {}), cm('d', {})]));
  assert.equal(before.textOf(cm('a', { x: '1' }, 'other')), undefined);
  assert.equal(before.textOf(cm('d', {})), undefined);
  assert.equal(before.textOf(cm('a', { x: '1' })), 'marker 0\n');
});

test('scalars must be identical, not only equal: 0 and -0, 1 and 1n print differently', () => {
  const before = new PrintedBefore(earlier([cm('a', { x: 0 }), cm('b', { y: 1 })]));
  assert.equal(before.textOf(cm('a', { x: -0 })), undefined);
  assert.equal(before.textOf(cm('b', { y: 1n })), undefined);
  assert.equal(before.textOf(cm('b', { y: 1 })), 'marker 1\n');
});
