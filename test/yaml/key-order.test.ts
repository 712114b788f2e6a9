/**
 * sortedKeys keeps the order of each key list it has sorted, in a trie of the keys as listed:
 * whatever the lists (sharing prefixes, one a prefix of another, seen again), it must answer
 * what sorting the list afresh answers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { sortKeys, sortedKeys } from '../../src/yaml/key-order.js';
import type { YMap } from '../../src/yaml/value.js';
import { assertProperty } from '../property.js';

const key = fc.constantFrom('a', 'b', 'B', 'v1', 'v10', 'v1alpha1', 'v2beta1', '1', '10', '_x', 'name', 'metadata', 'é');
const keyList = fc.uniqueArray(key, { maxLength: 14 });
const mapOf = (keys: string[]): YMap => Object.fromEntries(keys.map((k, i) => [k, i]));

test('sortedKeys answers as a fresh sort of the map\'s keys, first time and again', async () => {
  await assertProperty(
    fc.property(fc.array(keyList, { minLength: 1, maxLength: 30 }), (lists) => {
      for (const pass of [1, 2]) {
        for (const keys of lists) {
          const m = mapOf(keys);
          assert.deepEqual(sortedKeys(m), sortKeys(Object.keys(m)), `pass ${pass}: ${JSON.stringify(Object.keys(m))}`);
        }
      }
    }),
    300,
  );
});
