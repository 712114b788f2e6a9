import { throwIfAborted, untilAborted } from '../abort.js';
import { KustomizeError } from '../errors.js';
import { aroundEachRun, type Plugin } from './plugin.js';

/**
 * Waits for `work` at most `seconds`, and until `signal` aborts: past that, rejects with a
 * PLUGIN_FAILED timeout error, or ABORTED. (Code that never yields cannot be stopped
 * in-process; code that never settles can.)
 */
export async function settleWithin<T>(work: () => T | Promise<T>, seconds: number, describe: string, signal: AbortSignal): Promise<T> {
  throwIfAborted(signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new KustomizeError('PLUGIN_FAILED', `${describe}: timed out after ${seconds}s (raise it with --plugin-timeout)`)),
      seconds * 1000,
    );
  });
  try {
    return await untilAborted(Promise.race([Promise.resolve().then(work), timeout]), signal);
  } finally {
    clearTimeout(timer);
  }
}

/** `plugin` with each `generate` and `transform` call bounded by `seconds` and the build's signal, like a plugin process. */
export function timeBounded(plugin: Plugin, seconds: number, describe: string): Plugin {
  return aroundEachRun(plugin, (work, ctx) => settleWithin(work, seconds, describe, ctx.signal));
}
