import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KustomizeError, withErrorPrefix } from '../../src/errors.js';

const failing = (): never => {
  throw new KustomizeError('PATCH_FAILED', 'no match', { file: 'k.yaml', field: 'patches[0]' });
};

test('a thrown error gets the prefix and keeps its code, file and field', () => {
  assert.throws(
    () => withErrorPrefix('accumulating resources', failing),
    (e: unknown) => e instanceof KustomizeError && e.message === 'accumulating resources: no match' && e.code === 'PATCH_FAILED' && e.file === 'k.yaml' && e.field === 'patches[0]',
  );
});

test('a rejected promise gets the prefix too; results pass through', async () => {
  await assert.rejects(
    withErrorPrefix('recursed accumulation', async () => failing()),
    (e: unknown) => e instanceof KustomizeError && e.message === 'recursed accumulation: no match',
  );
  assert.equal(withErrorPrefix('x', () => 3), 3);
  assert.equal(await withErrorPrefix('x', async () => 4), 4);
});

test('errors kustomize-ts did not raise become INTERNAL, keeping their cause', () => {
  assert.throws(
    () => withErrorPrefix('p', () => {
      throw new TypeError('bad');
    }),
    (e: unknown) => e instanceof KustomizeError && e.code === 'INTERNAL' && e.message === 'p: bad' && e.cause instanceof Error,
  );
});
