import assert from 'node:assert/strict';
import { test } from 'node:test';
import { valuesEqual } from '../../src/yaml/value.js';

test('valuesEqual: structure, not key order; 1 and 1n are the same integer', () => {
  assert.ok(valuesEqual({ a: [1, { b: 'x' }], c: null }, { c: null, a: [1n, { b: 'x' }] }));
  assert.ok(!valuesEqual({ a: 1 }, { a: 1, b: 2 }));
  assert.ok(!valuesEqual([1, 2], [2, 1]));
  assert.ok(!valuesEqual(1, 1.5));
  assert.ok(!valuesEqual(1n, 1.5));
  assert.ok(!valuesEqual(1, '1'));
});
