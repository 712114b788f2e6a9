import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { lock } from '../../src/edit/lock.js';
import { KustomizeError } from '../../src/errors.js';
import { helm, serveDirectory, skipHelm, writeTree } from './helm-env.js';

// A chart's values files over HTTP in kustomization.lock.yaml, with a real helm and a real HTTP
// server on 127.0.0.1 whose files change after locking.

const www = mkdtempSync(join(tmpdir(), 'kts-helm-values-www-'));
let server: { url: string; close: () => void } | undefined;

const values = (replicas: number) => `replicas: ${replicas}\n`;
const more = (color: string) => `color: ${color}\n`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const valuesUrl = () => `${server!.url}values.yaml`;
const moreUrl = () => `${server!.url}more.yaml`;

function serve(replicas: number, color: string): void {
  writeFileSync(join(www, 'values.yaml'), values(replicas));
  writeFileSync(join(www, 'more.yaml'), more(color));
}

before(async () => {
  if (skipHelm) return;
  const { url, server: s } = await serveDirectory(www);
  server = { url, close: () => s.close() };
});
beforeEach(() => serve(1, 'red'));
after(() => {
  server?.close();
  rmSync(www, { recursive: true, force: true });
});

/** A kustomization whose chart (in its chart home) renders a ConfigMap of its values, read over HTTP. */
function app(): string {
  return writeTree({
    'kustomization.yaml': `helmCharts:\n- name: demo\n  releaseName: r\n  valuesFile: ${valuesUrl()}\n  additionalValuesFiles:\n  - ${moreUrl()}\n`,
    'charts/demo/Chart.yaml': 'apiVersion: v2\nname: demo\nversion: 0.1.0\n',
    'charts/demo/values.yaml': 'replicas: 0\ncolor: none\n',
    'charts/demo/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\ndata:\n  replicas: "{{ .Values.replicas }}"\n  color: {{ .Values.color }}\n',
  });
}
const options = () => ({ enableHelm: true, helmCommand: helm() });
const rendered = (replicas: number, color: string) => `apiVersion: v1\ndata:\n  color: ${color}\n  replicas: "${replicas}"\nkind: ConfigMap\nmetadata:\n  name: demo\n`;

test('values files over HTTP (valuesFile and additionalValuesFiles) are locked by sha256; changed on the server, LOCK_MISMATCH', { skip: skipHelm }, async () => {
  const dir = app();
  const locked = await lock(dir, options());
  assert.deepEqual(locked.inputs, [
    { type: 'http', url: moreUrl(), sha256: sha256(more('red')) },
    { type: 'http', url: valuesUrl(), sha256: sha256(values(1)) },
  ]);
  assert.equal(
    readFileSync(join(dir, 'kustomization.lock.yaml'), 'utf8'),
    [
      'apiVersion: kustomize-ts.dev/v1alpha1',
      'kind: KustomizationLock',
      'inputs:',
      '- type: http',
      `  url: "${moreUrl()}"`,
      `  sha256: "${sha256(more('red'))}"`,
      '- type: http',
      `  url: "${valuesUrl()}"`,
      `  sha256: "${sha256(values(1))}"`,
      '',
    ].join('\n'),
  );
  assert.equal((await build(dir, options())).yaml, rendered(1, 'red'));

  serve(3, 'red');
  await assert.rejects(build(dir, options()), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'LOCK_MISMATCH');
    assert.ok(e.message.includes(`http input '${valuesUrl()}': the lock file ${dir}/kustomization.lock.yaml pins sha256:${sha256(values(1))}, found sha256:${sha256(values(3))} (the file changed)`), e.message);
    return true;
  });
  serve(1, 'blue');
  await assert.rejects(build(dir, options()), (e: unknown) => e instanceof KustomizeError && e.code === 'LOCK_MISMATCH' && e.message.includes(`http input '${moreUrl()}'`));
  assert.equal((await build(dir, { ...options(), lock: 'ignore' })).yaml, rendered(1, 'blue'));
  const check = await lock(dir, { ...options(), action: 'check' });
  assert.deepEqual(check.differences, [{ type: 'http', url: moreUrl(), kind: 'changed', locked: `sha256:${sha256(more('red'))}`, found: `sha256:${sha256(more('blue'))}` }]);
});

test('--locked: a values file over HTTP the lock does not list is LOCK_MISSING', { skip: skipHelm }, async () => {
  const dir = app();
  writeFileSync(join(dir, 'kustomization.lock.yaml'), 'apiVersion: kustomize-ts.dev/v1alpha1\nkind: KustomizationLock\ninputs: []\n');
  assert.equal((await build(dir, options())).yaml, rendered(1, 'red'), 'without --locked an unlisted input is fetched as without a lock');
  await assert.rejects(build(dir, { ...options(), lock: 'locked' }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'LOCK_MISSING');
    assert.match(e.message, /^remote input 'http:\/\/127\.0\.0\.1:\d+\/(values|more)\.yaml' is not in the lock file .*kustomization\.lock\.yaml \(--locked\)/);
    return true;
  });
});

test('locked values files are kept in the remote cache by sha256: changed on the server, the build and an offline build still read the locked bytes', { skip: skipHelm }, async () => {
  const dir = app();
  const remoteCache = mkdtempSync(join(tmpdir(), 'kts-helm-values-cache-'));
  await lock(dir, { ...options(), remoteCache });
  const online = await build(dir, { ...options(), remoteCache });
  assert.equal(online.yaml, rendered(1, 'red'));
  serve(5, 'green');
  assert.equal((await build(dir, { ...options(), remoteCache })).yaml, online.yaml, 'read from the cache by the locked sha256, with no request');
  const offline = await build(dir, { ...options(), remoteCache, offline: true });
  assert.equal(offline.yaml, online.yaml);
  rmSync(remoteCache, { recursive: true });
});
