import assert from 'node:assert/strict';
import { KustomizeError, type ErrorCode } from '../../src/errors.js';

/** Asserts `e` is a KustomizeError with `code` whose message holds every string and matches every pattern of `parts`. */
export function assertKustomizeError(e: unknown, code: ErrorCode, parts: (string | RegExp)[]): KustomizeError {
  assert.ok(e instanceof KustomizeError, `not a KustomizeError: ${String(e)}`);
  assert.equal(e.code, code, e.message);
  for (const p of parts) {
    if (typeof p === 'string') assert.ok(e.message.includes(p), `${JSON.stringify(e.message)} lacks ${JSON.stringify(p)}`);
    else assert.match(e.message, p);
  }
  return e;
}

/** Runs `run`, which must throw such an error; returns it. */
export function throwsError(run: () => unknown, code: ErrorCode, ...parts: (string | RegExp)[]): KustomizeError {
  try {
    run();
  } catch (e) {
    return assertKustomizeError(e, code, parts);
  }
  assert.fail(`expected a ${code} error`);
}

/** Awaits `run`, which must reject with such an error; returns it. */
export async function rejectsWith(run: Promise<unknown>, code: ErrorCode, ...parts: (string | RegExp)[]): Promise<KustomizeError> {
  try {
    await run;
  } catch (e) {
    return assertKustomizeError(e, code, parts);
  }
  assert.fail(`expected a ${code} error`);
}
