import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { lock } from '../../src/edit/lock.js';
import { KustomizeError } from '../../src/errors.js';
import { helm, runHelm, serveDirectory, skipHelm, writeTree } from './helm-env.js';

// Helm charts in kustomization.lock.yaml, with a real helm and a chart repository on
// 127.0.0.1 (a directory with index.yaml and a packaged chart, served over HTTP) whose chart is
// published again, at the same version, after locking.

const repoDir = mkdtempSync(join(tmpdir(), 'kts-helm-lock-repo-'));
let repo: { url: string; close: () => void } | undefined;

/** Packages chart `demo` 0.1.0 rendering a ConfigMap of `version`, and indexes the repository; returns the archive's sha256. */
function publish(version: string): string {
  writeTree(
    {
      'src/demo/Chart.yaml': 'apiVersion: v2\nname: demo\nversion: 0.1.0\n',
      'src/demo/values.yaml': '{}\n',
      'src/demo/templates/cm.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-demo\ndata:\n  version: ${version}\n`,
    },
    repoDir,
  );
  runHelm(['package', 'src/demo', '-d', '.'], repoDir);
  runHelm(['repo', 'index', '.', '--url', repo!.url], repoDir);
  return createHash('sha256').update(readFileSync(join(repoDir, 'demo-0.1.0.tgz'))).digest('hex');
}

before(async () => {
  if (skipHelm) return;
  const { url, server } = await serveDirectory(repoDir);
  repo = { url, close: () => server.close() };
});
after(() => {
  repo?.close();
  rmSync(repoDir, { recursive: true, force: true });
});

const options = () => ({ enableHelm: true, helmCommand: helm() });

test('a pulled chart is locked by its archive digest; published again, the copy in the chart home still builds, a new pull is LOCK_MISMATCH', { skip: skipHelm }, async () => {
  const first = publish('one');
  const dir = writeTree({ 'kustomization.yaml': `helmCharts:\n- name: demo\n  repo: ${repo!.url}\n  version: 0.1.0\n  releaseName: r\n` });
  const locked = await lock(dir, options());
  assert.deepEqual(locked.inputs, [{ type: 'helm', url: repo!.url, chart: 'demo', version: '0.1.0', digest: `sha256:${first}` }]);
  assert.equal(
    readFileSync(join(dir, 'kustomization.lock.yaml'), 'utf8'),
    `apiVersion: kustomize-ts.dev/v1alpha1\nkind: KustomizationLock\ninputs:\n- type: helm\n  url: "${repo!.url}"\n  chart: "demo"\n  version: "0.1.0"\n  digest: "sha256:${first}"\n`,
  );

  const second = publish('two');
  assert.notEqual(second, first);
  // the chart home keeps what was pulled (as kustomize leaves it), which is what the lock pins
  assert.match((await build(dir, options())).yaml, /version: one/);
  const check = await lock(dir, { ...options(), action: 'check' });
  assert.deepEqual(check.differences, [], 'the chart home copy is what a build uses, and it matches');

  // a fresh pull gets the chart as published now
  rmSync(join(dir, 'charts'), { recursive: true });
  await assert.rejects(build(dir, options()), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'LOCK_MISMATCH');
    assert.ok(e.message.includes(`chart 'demo' 0.1.0 of '${repo!.url}': the lock file ${dir}/kustomization.lock.yaml pins sha256:${first}, found sha256:${second}`), e.message);
    return true;
  });
  assert.match((await build(dir, { ...options(), lock: 'ignore' })).yaml, /version: two/);
  const updated = await lock(dir, { ...options(), action: 'update' });
  assert.deepEqual(updated.differences, [{ type: 'helm', url: repo!.url, chart: 'demo', version: '0.1.0', kind: 'changed', locked: `sha256:${first}`, found: `sha256:${second}` }]);
  assert.match((await build(dir, { ...options(), lock: 'locked' })).yaml, /version: two/);
});

test('a chart in the chart home without an archive (the user\'s own files) is no remote input', { skip: skipHelm }, async () => {
  const dir = writeTree({
    'kustomization.yaml': `helmCharts:\n- name: local\n  repo: ${repo!.url}\n  releaseName: r\n`,
    'charts/local/Chart.yaml': 'apiVersion: v2\nname: local\nversion: 1.0.0\n',
    'charts/local/values.yaml': '{}\n',
    'charts/local/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: local\n',
  });
  const locked = await lock(dir, options());
  assert.deepEqual(locked.inputs, []);
  assert.match((await build(dir, { ...options(), lock: 'locked' })).yaml, /name: local/);
});
