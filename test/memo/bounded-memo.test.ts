import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedMemo } from '../../src/memo/bounded-memo.js';

test('a bounded memo computes each key once, null answers included, and starts over when full', () => {
  const computed: string[] = [];
  const memo = boundedMemo(2, (key: string) => {
    computed.push(key);
    return key === 'none' ? null : key.toUpperCase();
  });
  assert.equal(memo('a'), 'A');
  assert.equal(memo('none'), null);
  assert.equal(memo('a'), 'A');
  assert.equal(memo('none'), null);
  assert.deepEqual(computed, ['a', 'none']);
  // a third key finds the memo full: it starts over with that key alone
  assert.equal(memo('b'), 'B');
  assert.equal(memo('b'), 'B');
  assert.equal(memo('a'), 'A');
  assert.deepEqual(computed, ['a', 'none', 'b', 'a']);
});
