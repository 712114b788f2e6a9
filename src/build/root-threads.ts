import { Worker } from 'node:worker_threads';
import { abortedError } from '../abort.js';
import { KustomizeError } from '../errors.js';
import { rootWork, type RootsSetup, type RootWorkResult } from './root-work.js';

/** What the main thread tells a worker thread. */
export type ToWorker = { kind: 'roots'; chunk: number; paths: readonly string[] } | { kind: 'abort'; reason: string } | { kind: 'stop' };
/** What a worker thread tells the main thread: one root's result, or that it finished a chunk. */
export type FromWorker = { kind: 'result'; path: string; result: RootWorkResult } | { kind: 'done'; chunk: number };

/** How the roots' work is spread. */
interface Threads {
  /** worker threads working at the same time; with 1 (or no script) every root is worked on in this thread */
  jobs: number;
  /** the script each worker thread runs (it must end in `workerMain`) */
  script: string | URL | undefined;
  signal: AbortSignal | undefined;
}

/**
 * The work the setup says done on every root (`rootWork`), the results given in the order of
 * `roots`: in this thread, one root after the other, or on worker threads.
 */
export function workOnRoots(roots: readonly string[], setup: RootsSetup, threads: Threads): AsyncGenerator<RootWorkResult> {
  const jobs = Math.min(threads.jobs, roots.length);
  return jobs <= 1 || !threads.script ? workInThread(roots, setup, threads.signal) : workInWorkers(roots, setup, jobs, threads.script, threads.signal);
}

async function* workInThread(roots: readonly string[], setup: RootsSetup, signal: AbortSignal | undefined): AsyncGenerator<RootWorkResult> {
  const work = rootWork(setup, signal);
  for (const path of roots) yield await work(path);
}

/**
 * The roots worked on by `jobs` worker threads, each taking the next run of consecutive roots
 * when it has finished its last: the threads stay busy, and the overlays of a base mostly meet
 * one cache.
 */
async function* workInWorkers(roots: readonly string[], setup: RootsSetup, jobs: number, script: string | URL, signal: AbortSignal | undefined): AsyncGenerator<RootWorkResult> {
  const chunkSize = Math.max(1, Math.ceil(roots.length / (jobs * 8)));
  const chunks: string[][] = [];
  for (let i = 0; i < roots.length; i += chunkSize) chunks.push(roots.slice(i, i + chunkSize));
  const results = new Map<string, RootWorkResult>();
  let nextChunk = 0;
  let wake: (() => void) | undefined;
  let failure: unknown;
  // the argument tells the CLI's launcher (bin/kustomize-ts.js) it runs in a worker thread
  const workers = Array.from({ length: jobs }, () => new Worker(script, { workerData: setup, argv: ['--worker-thread'] }));
  const give = (w: Worker): void => {
    const chunk = nextChunk++;
    w.postMessage(chunk < chunks.length ? ({ kind: 'roots', chunk, paths: chunks[chunk]! } satisfies ToWorker) : ({ kind: 'stop' } satisfies ToWorker));
  };
  const onAbort = (): void => {
    for (const w of workers) w.postMessage({ kind: 'abort', reason: String(signal!.reason) } satisfies ToWorker);
    wake?.();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  for (const w of workers) {
    w.on('message', (m: FromWorker) => {
      if (m.kind === 'result') results.set(m.path, m.result);
      else give(w);
      wake?.();
    });
    w.on('error', (e) => {
      failure ??= e;
      wake?.();
    });
    give(w);
  }
  try {
    for (const path of roots) {
      while (!results.has(path)) {
        if (failure) throw new KustomizeError('INTERNAL', `a worker thread failed: ${String(failure)}`, { cause: failure });
        if (signal?.aborted) throw abortedError(signal);
        await new Promise<void>((resolve) => (wake = resolve));
      }
      const result = results.get(path);
      results.delete(path);
      yield result;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
