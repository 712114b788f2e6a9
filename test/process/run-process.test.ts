/**
 * Plugin (and helm, git) processes: a timeout kills the whole process group, a process that
 * exits but leaves a child holding its output does not hold the caller, and output is bounded.
 * These run real `sh`, `sleep`, `yes` and `head`.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { after, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { runPluginProcess } from '../../src/plugins/run-plugin-process.js';
import { runProcess, STDERR_KEPT_BYTES } from '../../src/process/run-process.js';
import { KustomizeError } from '../../src/errors.js';
import { alive, fileWritten, gone } from './processes.js';

const tmp = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-process-'));
after(() => nodeFs.rmSync(tmp, { recursive: true, force: true }));
const base = { cwd: tmp, env: process.env };

test('a timeout kills the processes the process started, too', { timeout: 30_000 }, async () => {
  const pidFile = nodePath.join(tmp, 'grandchild.pid');
  const r = await runProcess({ ...base, argv: ['sh', '-c', `sleep 300 & echo $! > ${pidFile}; wait`], timeout: 1 });
  assert.equal(r.timedOut, true);
  const grandchild = Number(nodeFs.readFileSync(pidFile, 'utf8'));
  try {
    await gone(grandchild);
  } finally {
    if (alive(grandchild)) process.kill(grandchild, 'SIGKILL');
  }
});

test('a process that exits 0 leaving a child that holds stdout ends the run', { timeout: 20_000 }, async () => {
  const pidFile = nodePath.join(tmp, 'holder.pid');
  const r = await runProcess({ ...base, argv: ['sh', '-c', `echo done; sleep 300 & echo $! > ${pidFile}`], timeout: 120 });
  assert.deepEqual([r.code, r.timedOut, r.stdout], [0, false, 'done\n']);
  // the child left holding stdout is stopped
  await gone(Number(nodeFs.readFileSync(pidFile, 'utf8')));
});

test('stdout past the limit stops the process and says so', { timeout: 30_000 }, async () => {
  const r = await runProcess({ ...base, argv: ['yes'], timeout: 60, maxStdoutBytes: 1024 * 1024 });
  assert.deepEqual([r.outputTooLarge, r.timedOut, r.stdout], [true, false, '']);
});

test('only the end of a large stderr is kept', { timeout: 30_000 }, async () => {
  const r = await runProcess({ ...base, argv: ['sh', '-c', `head -c ${STDERR_KEPT_BYTES + 4096} /dev/zero | tr '\\0' x >&2; echo END >&2`], timeout: 60 });
  assert.equal(r.code, 0);
  assert.equal(Buffer.byteLength(r.stderr), STDERR_KEPT_BYTES);
  assert.ok(r.stderr.endsWith('xEND\n'));
});

test('a plugin writing too much fails with an error naming the limit', { timeout: 30_000 }, async () => {
  await assert.rejects(
    runPluginProcess({ ...base, argv: ['yes'], timeout: 60, maxStdoutBytes: 2 * 1024 * 1024, describe: 'plugin example.com/v1/Yes/y' }),
    { code: 'PLUGIN_FAILED', message: 'plugin example.com/v1/Yes/y: stopped after writing more than 2 MiB to stdout' },
  );
});

test('an in-process plugin that never settles times out like a plugin process', { timeout: 30_000 }, async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'transformers:\n- t.yaml\n',
    'app/t.yaml': 'apiVersion: example.com/v1\nkind: Stuck\nmetadata:\n  name: s\n',
  });
  const never = () => new Promise<void>(() => undefined);
  const plugins = [{ apiVersion: 'example.com/v1', kind: 'Stuck', factory: () => ({ transform: never }) }];
  await assert.rejects(build('/app', { fs, enablePlugins: true, pluginTimeout: 0.5, plugins }), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'PLUGIN_FAILED');
    assert.match(e.message, /plugin Stuck\.v1\.example\.com\/s\.\[noNs\]: timed out after 0\.5s \(raise it with --plugin-timeout\)$/);
    return true;
  });
  const stuckFactory = [{ apiVersion: 'example.com/v1', kind: 'Stuck', factory: never as never }];
  await assert.rejects(build('/app', { fs, enablePlugins: true, pluginTimeout: 0.5, plugins: stuckFactory }), /fails configuration: .*timed out after 0\.5s/);
});

test('an aborted signal kills the process group as a timeout does; the run rejects as ABORTED once the process has exited', { timeout: 30_000 }, async () => {
  const [childFile, readyFile] = [nodePath.join(tmp, 'aborted-child.pid'), nodePath.join(tmp, 'aborted.pid')];
  const controller = new AbortController();
  const run = runProcess({ ...base, argv: ['sh', '-c', `sleep 300 & echo $! > ${childFile}; echo $$ > ${readyFile}.tmp && mv ${readyFile}.tmp ${readyFile}; wait`], timeout: 120, signal: controller.signal });
  const pid = Number(await fileWritten(readyFile));
  const reason = new Error('the user went away');
  controller.abort(reason);
  await assert.rejects(run, (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.deepEqual([e.code, e.cause], ['ABORTED', reason]);
    return true;
  });
  assert.equal(alive(pid), false, 'the process was waited for before the run rejected');
  await gone(Number(nodeFs.readFileSync(childFile, 'utf8')));
});

test('a signal aborted before the run starts nothing', async () => {
  const marker = nodePath.join(tmp, 'never-started');
  await assert.rejects(runProcess({ ...base, argv: ['touch', marker], timeout: 60, signal: AbortSignal.abort() }), { code: 'ABORTED' });
  assert.equal(nodeFs.existsSync(marker), false);
});
