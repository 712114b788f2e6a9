import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { buildImage } from '../plugins/container-image.js';
import { requireTool } from '../require-tool.js';
import { catalogYaml, execRuntime, renamerFunction, runOnConfigMap, setup, sha256, tree } from './harness.js';

// Catalog functions with a container runtime, run in real containers through podman
// (test/require-tool.ts says what happens without it).

const { skip } = requireTool('podman');

const IMAGE = 'localhost/kustomize-ts-test/catalog-prefix:v1';
const digest = skip
  ? ''
  : (() => {
      buildImage(IMAGE, "/bin/busybox sed -e 's/^    name: /    name: ctr-/'\n");
      return execFileSync('podman', ['image', 'inspect', '--format', '{{.Digest}}', IMAGE]).toString().trim();
    })();

const containerRuntime = (fields: string) => `        container:\n${fields}`;
const opts = { containerRuntime: 'podman', trustedCatalogs: ['c'], cacheDir: mkdtempSync(join(tmpdir(), 'kts-cache-')) };

test('a container function from a trusted catalog runs in podman without --enable-alpha-plugins', { skip }, async () => {
  const dir = tree({ 'catalog.yaml': catalogYaml('c', renamerFunction(containerRuntime(`          image: ${IMAGE}\n`))) });
  const { resolver, ctx } = setup(dir, { ...opts, enablePlugins: false });
  assert.deepEqual(await runOnConfigMap(resolver(['catalog.yaml']), ctx), ['ctr-cm']);
});

test('with sha256 the image is run pinned by digest: the right digest runs, a wrong one is not found', { skip }, async () => {
  assert.match(digest, /^sha256:[0-9a-f]{64}$/);
  const pinned = tree({ 'catalog.yaml': catalogYaml('c', renamerFunction(containerRuntime(`          image: ${IMAGE}\n          sha256: ${digest.slice('sha256:'.length)}\n`))) });
  const ok = setup(pinned, opts);
  assert.deepEqual(await runOnConfigMap(ok.resolver(['catalog.yaml']), ok.ctx), ['ctr-cm']);
  const wrong = tree({ 'catalog.yaml': catalogYaml('c', renamerFunction(containerRuntime(`          image: ${IMAGE}\n          sha256: ${sha256('another image')}\n`))) });
  const bad = setup(wrong, opts);
  await assert.rejects(runOnConfigMap(bad.resolver(['catalog.yaml']), bad.ctx), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.match(e.message, new RegExp(`catalog-prefix(:v1)?@sha256:${sha256('another image')}: image not known`));
    return true;
  });
});

test('an image whose own digest disagrees with sha256 is refused before podman runs', async () => {
  const dir = tree({ 'catalog.yaml': catalogYaml('c', renamerFunction(containerRuntime(`          image: ${IMAGE}@sha256:${'1'.repeat(64)}\n          sha256: '${'2'.repeat(64)}'\n`))) });
  const { resolver, ctx } = setup(dir, { ...opts, containerRuntime: '/nonexistent/podman' });
  await assert.rejects(runOnConfigMap(resolver(['catalog.yaml']), ctx), (e: unknown) => e instanceof KustomizeError && e.code === 'DIGEST_MISMATCH' && /name different images/.test(e.message));
});

test('a version offering exec for another platform and a container runs the container; exec for this host wins over it', { skip }, async () => {
  const program = '#!/bin/sh\nsed "s/^    name: /    name: exec-/"\n';
  const hostExec = execRuntime({ bin: 'p', uri: 'p', sha256: sha256(program) });
  const otherExec = execRuntime({ bin: 'p', uri: 'p', sha256: sha256(program), os: process.platform === 'darwin' ? 'windows' : 'darwin' });
  const both = (exec: string) => tree({ 'catalog.yaml': catalogYaml('c', renamerFunction(`${exec}${containerRuntime(`          image: ${IMAGE}\n`)}`)), p: program });
  const other = setup(both(otherExec), opts);
  assert.deepEqual(await runOnConfigMap(other.resolver(['catalog.yaml']), other.ctx), ['ctr-cm']);
  const host = setup(both(hostExec), opts);
  assert.deepEqual(await runOnConfigMap(host.resolver(['catalog.yaml']), host.ctx), ['exec-cm']);
});
