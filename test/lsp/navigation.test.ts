/**
 * Navigation through the language server as an editor asks for it: go to definition, document
 * links, references and rename, over LSP (test/lsp/client.ts) to `kustomize-ts lsp --stdio`, on
 * a copy of test/lsp/fixtures/navigation: a base (a Deployment, a Service, an HPA, a ConfigMap
 * generator), a component patching the Deployment, an overlay `prod` (a prefix, a patch file, an
 * inline JSON patch with a target, an inline strategic-merge patch, a replacement), an overlay
 * `dev` (`patchesStrategicMerge`, `patchesJson6902`), and `elsewhere` (a remote base, a missing
 * file, a file outside its root).
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DocumentLink, Location, Range, WorkspaceEdit } from 'vscode-languageserver/node';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { serverOn } from './fixture-tree.js';
import { applyEdits } from './text-edits.js';

const FIXTURE = fileURLToPath(new URL('../../../test/lsp/fixtures/navigation', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kts-nav-'));
cpSync(FIXTURE, dir, { recursive: true });
const uri = (path = '') => pathToFileURL(join(dir, path)).href.replace(/\/$/, '');
const rel = (u: string) => (u.startsWith('file:') ? fileURLToPath(u).slice(dir.length + 1) : u);
const at = (line: number, character: number) => ({ line, character });
const range = (line: number, from: number, to: number): Range => ({ start: at(line, from), end: at(line, to) });
/** A place as `file line:from-to`, for comparing lists of them. */
const place = (file: string, r: Range) => `${rel(file)} ${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
const places = (locations: Location[] | null) => (locations ?? []).map((l) => place(l.uri, l.range)).sort();
const FILE_START = range(0, 0, 0);

const client = serverOn(dir, uri());

const definition = (file: string, line: number, character: number) => client().request<Location[] | null>('textDocument/definition', { textDocument: { uri: uri(file) }, position: at(line, character) });
const links = (file: string) => client().request<DocumentLink[] | null>('textDocument/documentLink', { textDocument: { uri: uri(file) } });
const references = (file: string, line: number, character: number, includeDeclaration = false) =>
  client().request<Location[] | null>('textDocument/references', { textDocument: { uri: uri(file) }, position: at(line, character), context: { includeDeclaration } });
const prepareRename = (file: string, line: number, character: number) => client().request<{ range: Range; placeholder: string }>('textDocument/prepareRename', { textDocument: { uri: uri(file) }, position: at(line, character) });
const rename = (file: string, line: number, character: number, newName: string) =>
  client().request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri: uri(file) }, position: at(line, character), newName });

/** Where the Deployment `web` is named, as written, outside its own file: the HPA's scaleTargetRef, the patches and targets that select it. */
const DEPLOYMENT_NAMED = [
  'base/hpa.yaml 8:10-8:13',
  'components/monitoring/kustomization.yaml 6:10-6:13',
  'overlays/dev/kustomization.yaml 9:10-9:13',
  'overlays/dev/smp.yaml 3:8-3:11',
  'overlays/prod/kustomization.yaml 18:12-18:15',
  'overlays/prod/kustomization.yaml 28:12-28:15',
  'overlays/prod/replicas.yaml 3:8-3:11',
];

test('the server says it answers definition, document links, references and rename (with prepareRename)', () => {
  const { definitionProvider, documentLinkProvider, referencesProvider, renameProvider } = client().capabilities;
  assert.deepEqual({ definitionProvider, documentLinkProvider, referencesProvider, renameProvider }, { definitionProvider: true, documentLinkProvider: { resolveProvider: false }, referencesProvider: true, renameProvider: { prepareProvider: true } });
});

describe('definition', () => {
  test("a directory entry goes to its kustomization file's start; a file entry, a patch's path, a generator's files to the file", async () => {
    assert.deepEqual(places(await definition('overlays/prod/kustomization.yaml', 2, 4)), [place(uri('base/kustomization.yaml'), FILE_START)]);
    assert.deepEqual(places(await definition('overlays/prod/kustomization.yaml', 4, 10)), [place(uri('components/monitoring/kustomization.yaml'), FILE_START)]);
    assert.deepEqual(places(await definition('overlays/prod/kustomization.yaml', 6, 12)), [place(uri('overlays/prod/replicas.yaml'), FILE_START)]);
    assert.deepEqual(places(await definition('base/kustomization.yaml', 2, 2)), [place(uri('base/service.yaml'), FILE_START)]);
    assert.deepEqual(places(await definition('base/kustomization.yaml', 8, 12)), [place(uri('base/extra.properties'), FILE_START)]);
    assert.deepEqual(places(await definition('base/kustomization.yaml', 10, 6)), [place(uri('base/web.env'), FILE_START)]);
    assert.deepEqual(places(await definition('overlays/dev/kustomization.yaml', 10, 10)), [place(uri('overlays/dev/json-patch.yaml'), FILE_START)]);
  });

  test("a patch's target, a strategic-merge patch's name, a replacement's source go to the resource's name in its source file", async () => {
    const deployment = ['base/deployment.yaml 3:8-3:11'];
    const service = ['base/service.yaml 3:8-3:11'];
    assert.deepEqual(places(await definition('overlays/prod/kustomization.yaml', 8, 10)), service, 'a target (kind: Service, name: web)');
    assert.deepEqual(places(await definition('overlays/prod/kustomization.yaml', 18, 12)), deployment, 'an inline strategic-merge patch');
    assert.deepEqual(places(await definition('overlays/prod/replicas.yaml', 3, 9)), deployment, 'a patch file');
    assert.deepEqual(places(await definition('overlays/prod/kustomization.yaml', 24, 10)), service, "a replacement's source");
    assert.deepEqual(places(await definition('overlays/prod/kustomization.yaml', 27, 8)), deployment, "a replacement target's select");
    assert.deepEqual(places(await definition('overlays/dev/kustomization.yaml', 7, 8)), deployment, 'patchesJson6902');
    assert.deepEqual(places(await definition('overlays/dev/smp.yaml', 3, 8)), deployment, 'patchesStrategicMerge');
    assert.deepEqual(places(await definition('components/monitoring/kustomization.yaml', 5, 8)), deployment, "a component's target");
  });

  test('a remote URL, a missing file, a file outside the root, a key, a line past the end: nothing', async () => {
    for (const [line, character] of [[1, 10], [2, 4], [3, 6]] as const) assert.deepEqual(await definition('elsewhere/kustomization.yaml', line, character), []);
    assert.deepEqual(await definition('overlays/prod/kustomization.yaml', 1, 3), []);
    assert.deepEqual(await definition('overlays/prod/kustomization.yaml', 99, 0), []);
    assert.deepEqual(await definition('nowhere/kustomization.yaml', 0, 0), []);
  });
});

describe('document links', () => {
  test('each path to its file (a directory to its kustomization file), each https URL to itself', async () => {
    const shown = (l: DocumentLink[] | null) => (l ?? []).map((x) => `${rel(x.target!)} ${x.range.start.line}:${x.range.start.character}-${x.range.end.character}`);
    assert.deepEqual(shown(await links('overlays/prod/kustomization.yaml')), ['base/kustomization.yaml 2:2-12', 'components/monitoring/kustomization.yaml 4:2-29', 'overlays/prod/replicas.yaml 6:8-21']);
    assert.deepEqual(shown(await links('base/kustomization.yaml')), [
      'base/deployment.yaml 1:2-17',
      'base/service.yaml 2:2-14',
      'base/hpa.yaml 3:2-10',
      'base/app.properties 7:4-18',
      'base/extra.properties 8:10-26',
      'base/web.env 10:4-11',
    ]);
    // the missing file and the file outside the root (LoadRestrictionsRootOnly) have none
    assert.deepEqual(shown(await links('elsewhere/kustomization.yaml')), ['https://github.com/example/apps//web?ref=v1.0.0 1:2-49']);
    assert.deepEqual(await links('base/deployment.yaml'), []);
  });

  test("over the editor's unsaved texts: a file only the editor has, named by an unsaved entry", async () => {
    const k = 'overlays/prod/kustomization.yaml';
    const text = readFileSync(join(dir, k), 'utf8');
    await client().open(uri('overlays/prod/extra.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n');
    await client().open(uri(k), text);
    await client().change(uri(k), text.replace('- ../../base\n', '- ../../base\n- extra.yaml\n'));
    const found = await links(k);
    assert.deepEqual(found?.[1], { range: range(3, 2, 12), target: uri('overlays/prod/extra.yaml') });
    assert.deepEqual(places(await definition(k, 3, 4)), [place(uri('overlays/prod/extra.yaml'), FILE_START)]);
    await client().change(uri(k), text);
    await client().close(uri(k));
    await client().close(uri('overlays/prod/extra.yaml'));
  });

  test('a half-typed kustomization: no crash; what is written so far, while it parses', async () => {
    const k = 'overlays/dev/kustomization.yaml';
    const text = readFileSync(join(dir, k), 'utf8');
    await client().open(uri(k), text);
    await client().change(uri(k), 'resources:\n- ../../base\npatchesJson6902:\n- target:\n    kind: Deploy');
    assert.deepEqual((await links(k))?.map((l) => l.range.start.line), [1]);
    assert.deepEqual(await definition(k, 4, 10), []);
    await client().change(uri(k), 'resources:\n- ../../base\npatches:\n- path: [smp.yaml\n');
    assert.deepEqual(await links(k), []);
    assert.deepEqual(await definition(k, 1, 4), []);
    assert.deepEqual(places(await references(k, 1, 4)), ['overlays/dev/kustomization.yaml 0:0-0:0'], 'the root that read it (its build fails)');
    await client().change(uri(k), text);
    await client().close(uri(k));
    await client().settled();
  });
});

describe('references', () => {
  test("on a resource's name or kind: the patches, targets, replacements and name references that touch it", async () => {
    assert.deepEqual(places(await references('base/deployment.yaml', 3, 9)), DEPLOYMENT_NAMED);
    assert.deepEqual(places(await references('base/deployment.yaml', 1, 8)), DEPLOYMENT_NAMED);
    assert.deepEqual(places(await references('base/deployment.yaml', 3, 9, true)), ['base/deployment.yaml 3:8-3:11', ...DEPLOYMENT_NAMED].sort());
    assert.deepEqual(places(await references('base/service.yaml', 3, 9)), ['overlays/prod/kustomization.yaml 24:10-24:13', 'overlays/prod/kustomization.yaml 9:10-9:13']);
  });

  test("on a generator's name: the fields that refer to what it makes", async () => {
    assert.deepEqual(places(await references('base/kustomization.yaml', 5, 10, true)), ['base/deployment.yaml 19:18-19:28', 'base/deployment.yaml 23:16-23:26', 'base/kustomization.yaml 5:8-5:18']);
  });

  test('elsewhere in a file: the entries that name it and the roots that render it', async () => {
    const roots = ['base', 'overlays/dev', 'overlays/prod'].map((r) => place(uri(`${r}/kustomization.yaml`), FILE_START));
    assert.deepEqual(places(await references('base/deployment.yaml', 0, 0)), ['base/kustomization.yaml 1:2-1:17', ...roots].sort());
    assert.deepEqual(places(await references('base/deployment.yaml', 16, 10)), ['base/kustomization.yaml 1:2-1:17', ...roots].sort());
    assert.deepEqual(places(await references('overlays/prod/replicas.yaml', 5, 4)), ['overlays/prod/kustomization.yaml 0:0-0:0', 'overlays/prod/kustomization.yaml 6:8-6:21']);
    assert.deepEqual(places(await references('base/kustomization.yaml', 0, 0)), [
      'base/kustomization.yaml 0:0-0:0',
      'overlays/dev/kustomization.yaml 0:0-0:0',
      'overlays/dev/kustomization.yaml 1:2-1:12',
      'overlays/prod/kustomization.yaml 0:0-0:0',
      'overlays/prod/kustomization.yaml 2:2-2:12',
    ]);
    assert.deepEqual(await references('nowhere/deployment.yaml', 0, 0), []);
  });
});

describe('rename', () => {
  /** The texts of the tree with a rename's edits applied. */
  function applied(edit: WorkspaceEdit): MemoryFileSystem {
    const files: Record<string, string> = {};
    for (const [u, edits] of Object.entries(edit.changes ?? {})) files[rel(u)] = applyEdits(readFileSync(join(dir, rel(u)), 'utf8'), edits);
    const fs = MemoryFileSystem.from({});
    for (const file of ['base/kustomization.yaml', 'base/deployment.yaml', 'base/service.yaml', 'base/hpa.yaml', 'base/app.properties', 'base/extra.properties', 'base/web.env', 'components/monitoring/kustomization.yaml', 'components/monitoring/scrape.yaml', 'overlays/prod/kustomization.yaml', 'overlays/prod/replicas.yaml', 'overlays/dev/kustomization.yaml', 'overlays/dev/smp.yaml', 'overlays/dev/json-patch.yaml']) {
      fs.writeFile(`/t/${file}`, files[file] ?? readFileSync(join(dir, file), 'utf8'));
    }
    return fs;
  }

  test("a resource's name: in its file, its patches, their targets, the replacements and the name references; the builds still patch it", async () => {
    assert.deepEqual(await prepareRename('base/deployment.yaml', 3, 9), { range: range(3, 8, 11), placeholder: 'web' });
    const edit = await rename('base/deployment.yaml', 3, 9, 'api');
    const changed = Object.entries(edit.changes ?? {}).flatMap(([u, edits]) => edits.map((e) => (assert.equal(e.newText, 'api'), place(u, e.range))));
    assert.deepEqual(changed.sort(), ['base/deployment.yaml 3:8-3:11', ...DEPLOYMENT_NAMED].sort());
    const fs = applied(edit);
    const prod = await build('/t/overlays/prod', { fs });
    const deployment = prod.objects.find((o) => o.kind === 'Deployment');
    assert.equal(field(deployment, 'metadata.name'), 'prod-api');
    assert.equal(field(deployment, 'spec.replicas'), 3, 'the patch file still patches it');
    assert.equal(field(deployment, 'spec.minReadySeconds'), 5, 'the inline patch still patches it');
    assert.equal(field(deployment, 'metadata.annotations.prometheus\\.io/scrape'), 'true', "the component's target still selects it");
    assert.equal(field(deployment, 'spec.template.metadata.annotations.service'), 'prod-web', 'the replacement still targets it');
    assert.equal(field(prod.objects.find((o) => o.kind === 'HorizontalPodAutoscaler'), 'spec.scaleTargetRef.name'), 'prod-api');
    const dev = await build('/t/overlays/dev', { fs });
    assert.equal(field(dev.objects.find((o) => o.kind === 'Deployment'), 'spec.replicas'), 4);
  });

  test("a generator's name: there and in the fields that refer to it", async () => {
    const edit = await rename('base/kustomization.yaml', 5, 12, 'settings');
    assert.deepEqual(Object.entries(edit.changes ?? {}).flatMap(([u, edits]) => edits.map((e) => place(u, e.range))).sort(), ['base/deployment.yaml 19:18-19:28', 'base/deployment.yaml 23:16-23:26', 'base/kustomization.yaml 5:8-5:18']);
    const prod = await build('/t/overlays/prod', { fs: applied(edit) });
    assert.match(prod.yaml, /configMapRef:\n {12}name: prod-settings-/);
  });

  test('refused, with the reason, where no name is: a kind, a patch, a prefix, a bad new name, no file', async () => {
    const refused = async (answer: Promise<unknown>, message: RegExp) => {
      await assert.rejects(answer, (e: { code?: number; message?: string }) => e.code === -32803 && message.test(e.message ?? ''));
    };
    await refused(prepareRename('base/deployment.yaml', 1, 8), /Only a resource's name can be renamed/);
    await refused(prepareRename('overlays/prod/replicas.yaml', 3, 9), /Only a resource's name/);
    await refused(prepareRename('overlays/prod/kustomization.yaml', 0, 13), /Only a resource's name/);
    await refused(prepareRename('nowhere/x.yaml', 0, 0), /Only a resource's name/);
    await refused(rename('base/deployment.yaml', 3, 9, 'not a name'), /cannot be a resource's name/);
    // the server still answers
    assert.equal((await client().roots()).length, 4);
  });
});

/** The value at a `.`-separated path of an object (`\\.` a dot in a key). */
function field(object: unknown, path: string): unknown {
  return path.split(/(?<!\\)\./).reduce<unknown>((o, key) => (typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key.replace(/\\\./g, '.')] : undefined), object);
}
