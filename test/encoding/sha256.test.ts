/**
 * Hashes (the generators' name suffixes among them) are Node's SHA-256 for long inputs in Node
 * and ours otherwise: both must give the same digest for every input, across the padding
 * boundaries.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { portableSha256Hex } from '../../src/encoding/sha256.js';
import { assertProperty } from '../property.js';

const node = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

test('the portable SHA-256 agrees with Node\'s on strings (UTF-8) and bytes of every length around a block', async () => {
  for (let n = 0; n <= 130; n++) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
    assert.equal(portableSha256Hex(bytes), node(bytes), `${n} bytes`);
  }
  await assertProperty(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => portableSha256Hex(s) === node(s)),
    300,
  );
});
