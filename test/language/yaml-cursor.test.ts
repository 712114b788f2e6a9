import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cursorAt } from '../../src/language/yaml-cursor.js';

/** The cursor at the `‸` of a text (the `‸` taken out). */
function at(marked: string) {
  const offset = marked.indexOf('‸');
  const text = marked.replace('‸', '');
  const before = text.slice(0, offset).split('\n');
  return cursorAt(text, { line: before.length - 1, character: before.at(-1)!.length });
}

test('a key: its map, what is typed, the word, the keys the map has (without the typed one)', () => {
  const c = at('patches:\n- path: p.yaml\n  tar‸get\nnamePrefix: x-\n')!;
  assert.deepEqual([c.path, c.at, c.typed, c.glue], [['patches', 0], 'key', 'tar', '']);
  assert.deepEqual(c.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 8 } });
  assert.deepEqual(c.document, { patches: [{ path: 'p.yaml' }], namePrefix: 'x-' });
});

test('a value, after a colon with and without its space; a list entry, with and without its space', () => {
  assert.deepEqual(pick(at('sortOptions:\n  order: fi‸')), [['sortOptions', 'order'], 'value', 'fi', '']);
  assert.deepEqual(pick(at('kind:‸')), [['kind'], 'value', '', ' ']);
  assert.deepEqual(pick(at('resources:\n- a.yaml\n- ../ba‸')), [['resources', 1], 'item', '../ba', '']);
  assert.deepEqual(pick(at('patches:\n-‸')), [['patches', 0], 'item', '', ' ']);
  assert.deepEqual(pick(at('resources:\n- "../ba‸')), [['resources', 0], 'item', '../ba', '']);
  assert.deepEqual(pick(at('namePrefix: prod-‸')), [['namePrefix'], 'value', 'prod-', ''], 'a dash typed in a value is no list entry');
});

test('in a block scalar: the path in its text, and the scalar in the outer document', () => {
  const c = at('patches:\n- target:\n    kind: Deployment\n  patch: |-\n    spec:\n      template:\n        ‸\n')!;
  assert.deepEqual([c.path, c.at], [['spec', 'template'], 'key']);
  assert.deepEqual(c.within?.path, ['patches', 0, 'patch']);
  assert.deepEqual((c.within?.document as { patches: { target: unknown }[] }).patches[0]!.target, { kind: 'Deployment' });
});

test('the document the cursor is in, of several; a half-typed line elsewhere does not stop it', () => {
  const c = at('kind: A\n---\nkind: B\nmetadata:\n  na‸\n')!;
  assert.deepEqual([c.path, c.document], [['metadata'], { kind: 'B', metadata: {} }]);
  const broken = at('resources:\n- a.yaml\n- [b\nimages:\n- name: x\n  newT\nsortOptions:\n  ‸\n')!;
  assert.deepEqual([broken.path, broken.at], [['sortOptions'], 'key']);
  assert.deepEqual(broken.document, { resources: ['a.yaml', ['b']], images: [{ name: 'x', newT: null }], sortOptions: {} });
});

test('nowhere to type: a comment, past the end of a line or of the text, a URL, a document marker', () => {
  assert.equal(at('# resources: ‸'), undefined);
  assert.equal(at('resources:\n- https://github.com/x‸'), undefined);
  assert.equal(at('---‸'), undefined);
  assert.equal(cursorAt('a: 1\n', { line: 5, character: 0 }), undefined);
  assert.equal(cursorAt('a: 1\n', { line: 0, character: 9 }), undefined);
});

function pick(c: ReturnType<typeof at>) {
  return c && [c.path, c.at, c.typed, c.glue];
}
