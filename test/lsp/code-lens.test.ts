/**
 * Code lenses of kustomization files, from the real server over stdio (test/lsp/client.ts): a
 * root's resource count, Preview, how many roots render it; a Component says it is not a root.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CodeLens } from 'vscode-languageserver/node';
import { LspClient } from './client.js';

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
const FILES: Record<string, string> = {
  'base/kustomization.yaml': 'resources:\n- a.yaml\n- b.yaml\n',
  'base/a.yaml': cm('a'),
  'base/b.yaml': cm('b'),
  'dev/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: dev-\n',
  'prod/kustomization.yaml': 'resources:\n- ../base\n- c.yaml\ncomponents:\n- ../comp\n',
  'prod/c.yaml': cm('c'),
  'comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonAnnotations:\n  team: web\n',
  'broken/kustomization.yaml': 'resources:\n- missing.yaml\n',
  'broken/notes.yaml': 'hello: world\n',
};

const dir = mkdtempSync(join(tmpdir(), 'kts-lsp-lens-'));
for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}
const uri = (path = '') => pathToFileURL(join(dir, path)).href.replace(/\/$/, '');
let client: LspClient | undefined;
after(() => {
  if (client?.process.exitCode === null) client.process.kill();
  rmSync(dir, { recursive: true, force: true });
});

const titles = (lenses: CodeLens[] | null) => (lenses ?? []).map((l) => l.command?.title);

test("a root's resources, Preview and the roots rendering it; a Component; a failed build; an unsaved edit", async () => {
  client = await LspClient.start([uri()]);
  await client.settled();
  const base = await client.codeLenses(uri('base/kustomization.yaml'));
  assert.deepEqual(titles(base), ['2 resources', 'Preview', 'rendered by 3 roots']);
  assert.deepEqual(base![1]!.command, { title: 'Preview', command: 'kustomize.preview', arguments: [uri('base/kustomization.yaml')] });
  assert.deepEqual(base![0]!.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  assert.equal(base![0]!.command!.command, '', 'a lens that only tells runs nothing');
  assert.deepEqual(titles(await client.codeLenses(uri('dev/kustomization.yaml'))), ['2 resources', 'Preview', 'rendered by 1 root']);
  assert.deepEqual(titles(await client.codeLenses(uri('prod/kustomization.yaml'))), ['3 resources', 'Preview', 'rendered by 1 root']);
  assert.deepEqual(titles(await client.codeLenses(uri('comp/kustomization.yaml'))), ['Component: not a root', 'Preview', 'rendered by 1 root']);
  assert.deepEqual(titles(await client.codeLenses(uri('broken/kustomization.yaml'))), ['build failed', 'Preview', 'rendered by 1 root']);
  assert.deepEqual(await client.codeLenses(uri('broken/notes.yaml')), [], 'a file that is no kustomization has none');
  assert.deepEqual(await client.codeLenses(uri('nowhere/kustomization.yaml')), [], 'nor one that does not exist');

  // an unsaved edit: the lens follows the next build
  const prod = uri('prod/kustomization.yaml');
  await client.open(prod, FILES['prod/kustomization.yaml']!);
  await client.change(prod, 'resources:\n- ../base\n');
  await client.settled();
  assert.deepEqual(titles(await client.codeLenses(prod)), ['2 resources', 'Preview', 'rendered by 1 root']);
  assert.deepEqual(titles(await client.codeLenses(uri('comp/kustomization.yaml'))), ['Component: not a root', 'rendered by no root']);
  assert.equal(await client.stop(), 0);
});
