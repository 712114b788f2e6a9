/**
 * The one way the tests run a fast-check property: with a known seed, so that every run checks
 * the same cases and a failure comes back when run again. The seed is $FC_SEED when it is set,
 * else a fixed one; setting FC_SEED to another number checks other cases.
 */
import fc from 'fast-check';

const DEFAULT_SEED = 20261127;

function seed(): number {
  const text = process.env['FC_SEED'];
  if (text === undefined || text === '') return DEFAULT_SEED;
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`FC_SEED=${text}: the seed must be an integer`);
  return n;
}

/** Checks `property` on `numRuns` cases; a failure says the seed and how to run the same cases again. */
export async function assertProperty<Ts>(property: fc.IRawProperty<Ts>, numRuns: number): Promise<void> {
  const runSeed = seed();
  try {
    await fc.assert(property, { numRuns, seed: runSeed });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(`${message}\n\nRun the same cases again with FC_SEED=${runSeed} in the environment (npm test, or node --test on this file).`, { cause: e });
  }
}
