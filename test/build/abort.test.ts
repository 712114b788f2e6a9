/**
 * `build(path, { signal })`: an abort stops what the build is waiting on (a plugin's or helm's
 * process group is killed, git too; HTTP and registry requests are cancelled; the wait for an
 * in-process plugin ends) and the build rejects as ABORTED, its cause the signal's reason, with
 * no temporary directory left behind. Real processes, and real servers on 127.0.0.1 that take a
 * request and never answer it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { build, type BuildOptions } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { NodeRemoteSource } from '../../src/load/remote/node-remote.js';
import type { RemoteSource } from '../../src/load/remote/remote-source.js';
import type { PluginContext } from '../../src/plugins/plugin.js';
import { CONFIG } from '../catalog/harness.js';
import { exec, execFunctionConfig, SLEEPER, writeTree, type TreeFile } from '../plugins/plugin-tree.js';
import { alive, fileWritten, gone } from '../process/processes.js';

const work = mkdtempSync(join(tmpdir(), 'kts-abort-'));
const trees: string[] = [work];
after(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});
/** A tree of files for a build, removed after the tests. */
function tree(files: Record<string, TreeFile>): string {
  const dir = writeTree(files);
  trees.push(dir);
  return dir;
}

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n';

/**
 * Timeouts of the build's own far beyond the tests' (which are a minute): what ends a wait in
 * time can only be the abort.
 */
const PATIENT = 600;
const patientRemote = () => new NodeRemoteSource({ httpTimeout: PATIENT, oci: { timeoutSeconds: PATIENT } });

/** Whether `build` was rejected as the abort: ABORTED, caused by `reason`. */
function isAbort(reason: unknown): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof KustomizeError, String(e));
    assert.equal(e.code, 'ABORTED');
    assert.equal(e.cause, reason);
    return true;
  };
}

/** Builds `path`, aborts once `started` settles (the build is then waiting on what the test watches), and checks the rejection. */
async function buildAborted(path: string, options: BuildOptions, started: Promise<unknown>): Promise<void> {
  const controller = new AbortController();
  const reason = new Error('stopped by the test');
  const building = build(path, { ...options, signal: controller.signal });
  // a build that fails before it gets there fails the test with its own error
  await Promise.race([started, building]);
  controller.abort(reason);
  await assert.rejects(building, isAbort(reason));
}

/** Runs `run` with TMPDIR a fresh directory, and checks that the build left nothing in it. */
async function leavingNoTemporaries(run: () => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(work, 'tmp-'));
  const saved = process.env['TMPDIR'];
  process.env['TMPDIR'] = dir;
  try {
    await run();
  } finally {
    if (saved === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = saved;
  }
  assert.deepEqual(readdirSync(dir), [], 'the build removed its temporary directories');
}

/** A server on 127.0.0.1 that takes requests and never answers; `requested` settles with the first one's path. */
interface SilentServer {
  origin: string;
  requested: Promise<string>;
}

/** Runs `run` with a {@link SilentServer}, closed afterwards. */
async function withSilentServer(run: (server: SilentServer) => Promise<void>): Promise<void> {
  let first!: (path: string) => void;
  const requested = new Promise<string>((resolve) => (first = resolve));
  const server = http.createServer((req) => first(req.url ?? ''));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run({ origin: `127.0.0.1:${(server.address() as AddressInfo).port}`, requested });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('a signal aborted before the build fails it at once: nothing is read, nothing runs', async () => {
  const reason = new Error('never mind');
  const aborted = AbortSignal.abort(reason);
  await assert.rejects(build(join(work, 'no-such-directory'), { signal: aborted }), isAbort(reason));
  const dir = tree({
    'app/kustomization.yaml': 'generators:\n- fn.yaml\n',
    'app/fn.yaml': execFunctionConfig('Gen', './gen.sh'),
    'app/gen.sh': exec('#!/bin/sh\ntouch ran\n'),
  });
  await assert.rejects(build(join(dir, 'app'), { enablePlugins: true, enableExec: true, signal: aborted }), isAbort(reason));
  assert.equal(existsSync(join(dir, 'app/ran')), false);
});

test('an exec KRM function that sleeps: its process group is killed, and waited for', { timeout: 60_000 }, async () => {
  const dir = tree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/cm.yaml': CM,
    'app/fn.yaml': execFunctionConfig('Sleeper', './sleeper.sh'),
    'app/sleeper.sh': SLEEPER,
  });
  const app = join(dir, 'app');
  const ready = fileWritten(join(app, 'ready.pid'));
  await buildAborted(app, { enablePlugins: true, enableExec: true, pluginTimeout: PATIENT }, ready);
  assert.equal(alive(Number(await ready)), false, 'the function was gone before the build rejected');
  // the sleep it started was in its process group: killed too (and reaped by whoever inherited it)
  await gone(Number(await fileWritten(join(app, 'child.pid'))));
});

test('helm that hangs: killed, and the build’s helm directory removed', { timeout: 60_000 }, async () => {
  const dir = tree({ 'app/kustomization.yaml': 'helmCharts:\n- name: c\n', 'app/helm.sh': SLEEPER });
  const app = join(dir, 'app');
  const ready = fileWritten(join(app, 'ready.pid'));
  await leavingNoTemporaries(() => buildAborted(app, { enableHelm: true, helmCommand: join(app, 'helm.sh'), cwd: app, pluginTimeout: PATIENT }, ready));
  assert.equal(alive(Number(await ready)), false);
  await gone(Number(await fileWritten(join(app, 'child.pid'))));
});

test('an in-process plugin that never settles: the build stops waiting, and the plugin sees its signal abort', { timeout: 60_000 }, async () => {
  const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': 'transformers:\n- t.yaml\n', 'app/t.yaml': 'apiVersion: example.com/v1\nkind: Stuck\nmetadata:\n  name: s\n' });
  let seen!: (signal: AbortSignal) => void;
  const called = new Promise<AbortSignal>((resolve) => (seen = resolve));
  const transform = (_: unknown, ctx: PluginContext) => {
    seen(ctx.signal);
    return new Promise<void>(() => undefined);
  };
  const plugins = [{ apiVersion: 'example.com/v1', kind: 'Stuck', factory: () => ({ transform }) }];
  await buildAborted('/app', { fs, enablePlugins: true, pluginTimeout: PATIENT, plugins }, called);
  assert.equal((await called).aborted, true);
});

test('an HTTP resource whose server never answers', { timeout: 60_000 }, () =>
  withSilentServer(async (server) => {
    const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': `resources:\n- http://${server.origin}/cm.yaml\n` });
    await buildAborted('/app', { fs, remote: patientRemote() }, server.requested);
    assert.equal(await server.requested, '/cm.yaml');
  }),
);

test('a git base whose server never answers: git is killed, its clone directory removed', { timeout: 60_000 }, () =>
  withSilentServer(async (server) => {
    // a full commit and `.git`: a repository for sure, so no HTTP GET of a file is tried first
    const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': `resources:\n- http://${server.origin}/org/repo.git?ref=${'a'.repeat(40)}&timeout=${PATIENT}\n` });
    await leavingNoTemporaries(() => buildAborted('/app', { fs }, server.requested));
    assert.match(await server.requested, /^\/org\/repo\.git\/info\/refs\?service=git-upload-pack$/);
  }),
);

test('an oci:// base whose registry never answers', { timeout: 60_000 }, () =>
  withSilentServer(async (server) => {
    const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': `resources:\n- oci://${server.origin}/org/app:v1\n` });
    await leavingNoTemporaries(() => buildAborted('/app', { fs, remote: patientRemote() }, server.requested));
    assert.equal(await server.requested, '/v2/org/app/manifests/v1');
  }),
);

test('a catalog over HTTP whose server never answers', { timeout: 60_000 }, () =>
  withSilentServer(async (server) => {
    const fs = MemoryFileSystem.from({
      'app/kustomization.yaml': `catalogs:\n- http://${server.origin}/catalog.yaml\nresources:\n- cm.yaml\ntransformers:\n- fn.yaml\n`,
      'app/cm.yaml': CM,
      'app/fn.yaml': CONFIG,
    });
    await buildAborted('/app', { fs, remote: patientRemote(), trustedCatalogs: ['team'] }, server.requested);
    assert.equal(await server.requested, '/catalog.yaml');
  }),
);

test('a remote source that ignores the signal: the build still rejects as ABORTED once it has its answer', async () => {
  let release!: () => void;
  const answered = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  const remote: RemoteSource = {
    async fetchFile() {
      asked();
      await answered;
      return new TextEncoder().encode(CM);
    },
    clone: () => Promise.reject(new Error('not used')),
    pullTree: () => Promise.reject(new Error('not used')),
    pullLayer: () => Promise.reject(new Error('not used')),
    cleanup: () => undefined,
  };
  const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': 'resources:\n- https://example.com/cm.yaml\n' });
  const controller = new AbortController();
  const building = build('/app', { fs, remote, signal: controller.signal });
  await requested;
  controller.abort('enough');
  release();
  await assert.rejects(building, isAbort('enough'));
});
