import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DiskFileSystem } from '../../src/fs/disk.js';
import { localize } from '../../src/localize/localize.js';
import { build } from '../../src/build/build.js';
import { dumpChart } from '../helm/charts.js';
import { helm, skipHelm, writeTree } from '../helm/helm-env.js';
import { unreachable } from './unreachable-remote.js';

test('helm: the chart home (default and helmGlobals) and values files are copied; the copy renders the same with a real helm', { skip: skipHelm }, async () => {
  const root = writeTree({
    ...dumpChart('app/charts'),
    'app/kustomization.yaml': 'helmCharts:\n- name: dump\n  releaseName: r\n  valuesFile: values/mine.yaml\n',
    'app/values/mine.yaml': 'replicaCount: 3\n',
    'globals/kustomization.yaml': 'helmGlobals:\n  chartHome: homes/../homes/other\nhelmCharts:\n- name: other\n  releaseName: o\n',
    ...dumpChart('globals/homes/other', 'other'),
  });
  const fs = new DiskFileSystem();
  const options = { enableHelm: true, helmCommand: helm(), remote: unreachable };
  for (const [target, dst, file] of [
    ['app', 'out-app', 'charts/dump/Chart.yaml'],
    ['globals', 'out-globals', 'homes/other/other/Chart.yaml'],
  ] as const) {
    const original = await build(join(root, target), options);
    await localize(join(root, target), { fs, cwd: root, destination: dst });
    assert.ok(existsSync(join(root, dst, file)), `${file} copied`);
    assert.equal((await build(join(root, dst), options)).yaml, original.yaml);
  }
  assert.ok(existsSync(join(root, 'out-app/values/mine.yaml')));
  assert.match(readFileSync(join(root, 'out-globals/kustomization.yaml'), 'utf8'), /chartHome: homes\/other\n/);
});
