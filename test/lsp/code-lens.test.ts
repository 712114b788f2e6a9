/**
 * Code lenses of kustomization files, from the real server over stdio (test/lsp/client.ts): a
 * root's resource count, Preview, how many roots render it; a Component says it is not a root.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import type { CodeLens } from 'vscode-languageserver/node';
import { LspClient } from './client.js';
import { writeTree } from './fixture-tree.js';

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

const { dir, uri } = writeTree(FILES, 'kts-lsp-lens-');
let client: LspClient | undefined;
after(() => {
  if (client?.process.exitCode === null) client.process.kill();
  rmSync(dir, { recursive: true, force: true });
});

const titles = (lenses: CodeLens[] | null) => (lenses ?? []).map((l) => l.command?.title);

test("a root's resources, Preview and the roots rendering it; a Component; a failed build; an unsaved edit, and a refresh after builds", async () => {
  client = await LspClient.start([uri()], {}, { configuration: true, codeLensRefresh: true });
  await client.settled();
  assert.ok(client.codeLensRefreshes > 0, 'a client that can refresh its lenses is asked to once roots are built');
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

  // an unsaved edit: the lens follows the next build, which asks the client to refresh its lenses
  const prod = uri('prod/kustomization.yaml');
  await client.open(prod, FILES['prod/kustomization.yaml']!);
  await client.settled();
  const refreshes = client.codeLensRefreshes;
  await client.change(prod, 'resources:\n- ../base\n');
  await client.settled();
  assert.ok(client.codeLensRefreshes > refreshes);
  assert.deepEqual(titles(await client.codeLenses(prod)), ['2 resources', 'Preview', 'rendered by 1 root']);
  assert.deepEqual(titles(await client.codeLenses(uri('comp/kustomization.yaml'))), ['Component: not a root', 'rendered by no root']);
  assert.equal(await client.stop(), 0);
});
