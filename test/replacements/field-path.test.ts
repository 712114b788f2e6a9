/**
 * Field path splitting. The expected splits are those kustomize's own tests assert for its
 * path splitter (kyaml/utils); the index rules were checked with `kubectl kustomize` (see
 * kubectl.test.ts: `l.+1` and `l.01` index a list, `l.-1` is a map key in targets).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goAtoi, isIdxNumber, splitFieldPath, splitIndexNameValue } from '../../src/replacements/field-path.js';

const SPLITS: [string, string[]][] = [
  ['', ['']],
  ['spec.replicas', ['spec', 'replicas']],
  ['spec.data.[name=first].key', ['spec', 'data', '[name=first]', 'key']],
  ['spec.data.[.name=.first].key', ['spec', 'data', '[.name=.first]', 'key']],
  ['spec.data.[name.=first.].key', ['spec', 'data', '[name.=first.]', 'key']],
  ['spec.data.[name=f.i.r.s.t.].key', ['spec', 'data', '[name=f.i.r.s.t.]', 'key']],
  ['spec\\.replicas', ['spec.replicas']],
  ['spec.data.[name=f.i.[r.s.t..key', ['spec', 'data', '[name=f.i.[r.s.t..key']],
  ['metadata.annotations.[a.b.c/d.e.f-g.]', ['metadata', 'annotations', 'a.b.c/d.e.f-g.']],
];

for (const [path, expected] of SPLITS) {
  test(`splits ${JSON.stringify(path)}`, () => assert.deepEqual(splitFieldPath(path), expected));
}

test('list entry selectors split at the first =', () => {
  assert.deepEqual(splitIndexNameValue('[name=a=b]'), ['name', 'a=b']);
  assert.deepEqual(splitIndexNameValue('[=-jar]'), ['', '-jar']);
  assert.throws(() => splitIndexNameValue('[name]'), /list path element must contain fieldName=fieldValue/);
});

test('indexes are Go Atoi integers; targets take only non-negative ones', () => {
  assert.equal(goAtoi('+1'), 1);
  assert.equal(goAtoi('01'), 1);
  assert.equal(goAtoi('-1'), -1);
  assert.equal(goAtoi('-'), undefined);
  assert.equal(goAtoi('1e2'), undefined);
  assert.equal(isIdxNumber('-1'), false);
  assert.equal(isIdxNumber('0'), true);
});
