import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-types';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { LanguageService } from '../../src/language/service.js';

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n';

function setup(files: Record<string, string>) {
  const fs = MemoryFileSystem.from(files);
  const published = new Map<string, Diagnostic[]>();
  const service = new LanguageService({ fs, publishDiagnostics: (uri, d) => published.set(uri, d) });
  service.setFolders(['file:///repo']);
  return { fs, service, published };
}

test('a missing resource entry is an error at its line, cleared when the unsaved text fixes it', async () => {
  const { service, published } = setup({ 'repo/app/kustomization.yaml': 'resources:\n- deployment.yaml\n- missing.yaml\n', 'repo/app/deployment.yaml': DEPLOYMENT });
  await service.whenIdle();
  const d = published.get('file:///repo/app/kustomization.yaml');
  assert.equal(d?.length, 1, JSON.stringify(d));
  assert.equal(d[0]!.code, 'FILE_NOT_FOUND');
  assert.deepEqual(d[0]!.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 14 } });
  service.openDocument('file:///repo/app/kustomization.yaml', 'resources:\n- deployment.yaml\n- missing.yaml\n');
  service.changeDocument('file:///repo/app/kustomization.yaml', 'resources:\n- deployment.yaml\n');
  await service.whenIdle();
  assert.deepEqual(published.get('file:///repo/app/kustomization.yaml'), []);
});

test('a value a patch makes invalid is an error at the patch line; hover on the base value shows each root', async () => {
  const { service, published } = setup({
    'repo/base/kustomization.yaml': 'resources:\n- deployment.yaml\n',
    'repo/base/deployment.yaml': DEPLOYMENT,
    'repo/prod/kustomization.yaml': 'resources:\n- ../base\npatches:\n- path: replicas.yaml\n',
    'repo/prod/replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: three\n',
    'repo/dev/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: dev-\n',
  });
  await service.whenIdle();
  const d = published.get('file:///repo/prod/replicas.yaml');
  assert.equal(d?.length, 1, JSON.stringify([...published]));
  assert.equal(d[0]!.code, 'SCHEMA_VIOLATION');
  assert.equal(d[0]!.range.start.line, 5);
  const h = await service.hover('file:///repo/base/deployment.yaml', { line: 5, character: 13 });
  const text = (h?.contents as { value: string }).value;
  assert.match(text, /\*\*base\*\*/);
  assert.match(text, /\*\*dev\*\*\n- `Deployment\/dev-web` `spec.replicas` = `1`/);
  assert.match(text, /\*\*prod\*\*\n- `Deployment\/web` `spec.replicas` = `"three"`, by `patches\[0\]` at prod\/replicas.yaml:6:13; here `1`/);
  const k = await service.hover('file:///repo/prod/kustomization.yaml', { line: 2, character: 3 });
  assert.match((k?.contents as { value: string }).value, /^\*\*patches\*\*/);
});
