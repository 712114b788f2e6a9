import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseYamlDocuments } from '../../src/yaml/parse.js';
import { cloneValue, isWrittenEmpty, scalarSourceText, valuesEqual, type YMap } from '../../src/yaml/value.js';

test('valuesEqual: structure, not key order; 1 and 1n are the same integer', () => {
  assert.ok(valuesEqual({ a: [1, { b: 'x' }], c: null }, { c: null, a: [1n, { b: 'x' }] }));
  assert.ok(!valuesEqual({ a: 1 }, { a: 1, b: 2 }));
  assert.ok(!valuesEqual([1, 2], [2, 1]));
  assert.ok(!valuesEqual(1, 1.5));
  assert.ok(!valuesEqual(1n, 1.5));
  assert.ok(!valuesEqual(1, '1'));
});

test('cloneValue keeps what the reader noted on a map: keys written empty, and annotation values as written', () => {
  const [doc] = parseYamlDocuments('metadata:\n  annotations:\n    ver: 1.10\n    when: 2024-01-02\n  labels:\n');
  const copy = cloneValue(doc!) as YMap;
  const annotations = (copy['metadata'] as YMap)['annotations'] as YMap;
  assert.equal(scalarSourceText(annotations, 'ver'), '1.10');
  assert.equal(scalarSourceText(annotations, 'when'), '2024-01-02');
  assert.ok(isWrittenEmpty(copy['metadata'] as YMap, 'labels'));
});
