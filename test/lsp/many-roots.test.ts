/**
 * A repository of many roots, generated here: apps that each have a base and overlays, and a
 * component some overlays share. The server builds every root, rebuilds only the roots that
 * read a changed file, and follows kustomization files made and removed on the disk.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { LspClient, type RootSummary } from './client.js';

const APPS = 12;
const OVERLAYS = ['dev', 'staging', 'prod'];

/** apps/appN/{base,overlays/ENV}, and components/monitoring used by every prod overlay: 12 × 4 roots. */
function repository(dir: string): void {
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('components/monitoring/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonAnnotations:\n  monitored: "true"\n');
  for (let i = 0; i < APPS; i++) {
    write(`apps/app${i}/base/kustomization.yaml`, 'resources:\n- deployment.yaml\n');
    write(`apps/app${i}/base/deployment.yaml`, `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app${i}\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: app${i}\n  template:\n    metadata:\n      labels:\n        app: app${i}\n    spec:\n      containers:\n      - name: app\n        image: registry.example/app${i}:1.0\n`);
    for (const env of OVERLAYS) {
      const component = env === 'prod' ? 'components:\n- ../../../../components/monitoring\n' : '';
      write(`apps/app${i}/overlays/${env}/kustomization.yaml`, `resources:\n- ../../base\nnamespace: ${env}\n${component}`);
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'kts-lsp-many-'));
const started: LspClient[] = [];
after(() => {
  for (const c of started) if (c.process.exitCode === null) c.process.kill();
  rmSync(dir, { recursive: true, force: true });
});
repository(dir);
const uri = (path: string) => pathToFileURL(join(dir, path)).href;
const builds = (roots: RootSummary[]) => new Map(roots.map((r) => [r.name, r.builds]));

test('every root is built once; a change rebuilds the roots that read the file, and only those', async () => {
  const client = await LspClient.start([pathToFileURL(dir).href]);
  started.push(client);
  const first = await client.settled();
  assert.equal(first.length, APPS * (1 + OVERLAYS.length));
  assert.ok(first.every((r) => r.builds === 1 && r.problems === 0), JSON.stringify(first.filter((r) => r.builds !== 1 || r.problems !== 0)));

  // a base: itself and its three overlays
  const base = uri('apps/app3/base/deployment.yaml');
  await client.open(base, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app3\nspec:\n  replicas: many\n');
  // what the base's own root found comes first, then with every root that read the file
  const d = await client.waitFor(base, (d) => d.length > 0 && d[0]!.data.roots.length === 4);
  assert.match(String(d[0]!.message), /\(roots apps\/app3\/base, apps\/app3\/overlays\/dev, apps\/app3\/overlays\/prod, apps\/app3\/overlays\/staging\)$/);
  assert.deepEqual(client.publications.find((p) => p.uri === base && p.diagnostics.length > 0)?.diagnostics[0]?.data.roots, ['apps/app3/base']);
  let now = builds(await client.settled());
  const rebuilt = [...now].filter(([, n]) => n !== 1).map(([name]) => name);
  assert.deepEqual(rebuilt, ['apps/app3/base', 'apps/app3/overlays/dev', 'apps/app3/overlays/prod', 'apps/app3/overlays/staging']);

  // the component: every prod overlay
  const component = uri('components/monitoring/kustomization.yaml');
  await client.open(component, 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonAnnotations:\n  monitored: "yes"\n');
  const before = now;
  now = builds(await client.settled());
  const again = [...now].filter(([name, n]) => n !== before.get(name)).map(([name]) => name);
  assert.deepEqual(again, Array.from({ length: APPS }, (_, i) => `apps/app${i}/overlays/prod`).sort());
  await client.stop();
});

test('kustomization files made and removed on the disk add and drop roots', async () => {
  const client = await LspClient.start([pathToFileURL(dir).href]);
  started.push(client);
  assert.equal((await client.settled()).length, APPS * 4);
  mkdirSync(join(dir, 'apps/app0/overlays/qa'), { recursive: true });
  writeFileSync(join(dir, 'apps/app0/overlays/qa/kustomization.yaml'), 'resources:\n- ../../base\n- missing.yaml\n');
  await client.watched([{ uri: uri('apps/app0/overlays/qa/kustomization.yaml'), type: 1 }]);
  const [d] = await client.waitFor(uri('apps/app0/overlays/qa/kustomization.yaml'), (d) => d.length === 1);
  assert.equal(d!.code, 'FILE_NOT_FOUND');
  assert.equal((await client.settled()).length, APPS * 4 + 1);
  rmSync(join(dir, 'apps/app0/overlays/qa'), { recursive: true });
  await client.watched([{ uri: uri('apps/app0/overlays/qa'), type: 3 }]);
  await client.waitFor(uri('apps/app0/overlays/qa/kustomization.yaml'), (d) => d.length === 0);
  assert.equal((await client.settled()).length, APPS * 4);
  await client.stop();
});
