import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './root-threads.js';
import { rootWork, type RootsSetup } from './root-work.js';

/**
 * What a worker thread of `buildAll` or `affected` runs: it works on the runs of roots it is
 * given, one root after the other with one file system and cache, tells each result, and says
 * when a run is done so it is given the next. The main thread's abort reaches its builds as
 * their signal.
 */
export function workerMain(): void {
  const port = parentPort!;
  const controller = new AbortController();
  const work = rootWork(workerData as RootsSetup, controller.signal);
  let working = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    if (m.kind === 'abort') controller.abort(m.reason);
    else if (m.kind === 'stop') port.close();
    else working = working.then(() => workOnRun(m.chunk, m.paths));
  });
  const tell = (m: FromWorker): void => port.postMessage(m);
  const workOnRun = async (chunk: number, paths: readonly string[]): Promise<void> => {
    try {
      for (const path of paths) tell({ kind: 'result', path, result: await work(path) });
    } catch (e) {
      // an aborted run just ends: the main thread has stopped waiting
      if (controller.signal.aborted) return;
      throw e;
    }
    tell({ kind: 'done', chunk });
  };
}
