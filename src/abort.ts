import { KustomizeError, messageOf } from './errors.js';

/**
 * A build's `AbortSignal` reaches everything that waits on the outside world (processes, HTTP
 * requests, in-process plugins): these are the few ways they honour it.
 */

/** What an operation stopped by `signal` rejects with: ABORTED, caused by the signal's reason. */
export function abortedError(signal: AbortSignal): KustomizeError {
  return new KustomizeError('ABORTED', `aborted: ${messageOf(signal.reason)}`, { cause: signal.reason });
}

/** Throws {@link abortedError} when `signal` has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError(signal);
}

/** A signal for one request: it aborts after `seconds`, or when `signal` (the build's) does. */
export function requestSignal(seconds: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(seconds * 1000);
  return signal ? AbortSignal.any([timeout, signal]) : timeout;
}

/**
 * `work`, or {@link abortedError} as soon as `signal` aborts, whichever comes first. What `work`
 * does goes on unless it honours the signal itself; the build just stops waiting for it.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortedError(signal));
    // settling after the abort does nothing, but `work` is always listened to: its rejection is never unhandled
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
