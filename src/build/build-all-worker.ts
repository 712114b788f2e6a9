import { parentPort, workerData } from 'node:worker_threads';
import { DiskFileSystem } from '../fs/disk.js';
import { MemoizedFileSystem } from '../fs/memoized.js';
import { BuildCache } from './build-cache.js';
import { buildRoot, type FromWorker, type ToWorker, type WorkerSetup } from './build-all.js';

/**
 * What a `buildAll` worker thread runs: it builds the runs of roots it is given, one root after
 * the other with one cache, tells each result, and says when a run is done so it is given the
 * next. The main thread's abort reaches its builds as their signal.
 */
export function workerMain(): void {
  const port = parentPort!;
  const setup = workerData as WorkerSetup;
  const cache = new BuildCache();
  // the tree does not change while its roots build: each file is read once for the roots of this thread
  const fs = new MemoizedFileSystem(new DiskFileSystem());
  const controller = new AbortController();
  let building = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    if (m.kind === 'abort') controller.abort(m.reason);
    else if (m.kind === 'stop') port.close();
    else building = building.then(() => buildRun(m.chunk, m.paths));
  });
  const tell = (m: FromWorker): void => port.postMessage(m);
  const buildRun = async (chunk: number, paths: readonly string[]): Promise<void> => {
    try {
      for (const path of paths) tell({ kind: 'result', result: await buildRoot(setup.dir, path, { ...setup.options, fs, cache, signal: controller.signal }) });
    } catch (e) {
      // an aborted run just ends: the main thread has stopped waiting
      if (controller.signal.aborted) return;
      throw e;
    }
    tell({ kind: 'done', chunk });
  };
}
