import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KustomizationShape } from '../../src/kinds/shapes.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { KUSTOMIZATION_FIELD_DOCS } from '../../src/language/kustomization-docs.js';
import { OverlayFileSystem } from '../../src/language/overlay-fs.js';
import { LanguageService } from '../../src/language/service.js';
import { allowingSetting, DEFAULT_SETTINGS, readSettings } from '../../src/language/settings.js';
import { replacingEdit, tokenRange } from '../../src/language/text-range.js';
import { pathOfUri, uriOfPath } from '../../src/language/uri.js';

test('typing while a build runs queues each root once: a burst of changes is built together', async () => {
  const fs = MemoryFileSystem.from({ 'w/app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'w/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n' });
  const service = new LanguageService({ fs });
  service.setFolders(['file:///w']);
  await service.whenIdle();
  assert.equal(service.roots()[0]!.builds, 1);
  let text = 'resources:\n- cm.yaml\n';
  service.openDocument('file:///w/app/kustomization.yaml', text);
  for (const c of 'namePrefix: typed-\n') service.changeDocument('file:///w/app/kustomization.yaml', (text += c));
  await service.whenIdle();
  assert.equal(service.roots()[0]!.builds, 2);
  assert.deepEqual(service.diagnostics('file:///w/app/kustomization.yaml'), []);
});

test('a lone kustomization opened outside every folder is built as its own root', async () => {
  const fs = MemoryFileSystem.from({ 'elsewhere/app/kustomization.yaml': 'resources:\n- nothere.yaml\n' });
  const service = new LanguageService({ fs });
  service.openDocument('file:///elsewhere/app/kustomization.yaml', 'resources:\n- nothere.yaml\n');
  await service.whenIdle();
  assert.deepEqual(service.roots().map((r) => r.name), ['app']);
  assert.equal(service.diagnostics('file:///elsewhere/app/kustomization.yaml')[0]?.code, 'FILE_NOT_FOUND');
});

test('the overlay: texts over the files below, new files in new directories, removals, renames', () => {
  const below = MemoryFileSystem.from({ 'a/x.yaml': 'x', 'a/y.yaml': 'y' });
  const fs = new OverlayFileSystem(below);
  fs.set('/a/x.yaml', 'unsaved');
  fs.set('/b/c/new.yaml', 'new');
  assert.equal(new TextDecoder().decode(fs.readFile('/a/x.yaml')), 'unsaved');
  assert.deepEqual(fs.readDir('/'), ['a', 'b']);
  assert.ok(fs.isDirectory('/b/c') && fs.exists('/b/c/new.yaml') && fs.entryType('/b') === 'directory');
  assert.equal(fs.realPath('/b/c/new.yaml'), '/b/c/new.yaml');
  fs.remove('/a/y.yaml');
  assert.ok(!fs.exists('/a/y.yaml') && below.exists('/a/y.yaml'));
  assert.deepEqual(fs.readDir('/a'), ['x.yaml']);
  fs.rename('/b/c/new.yaml', '/a/z.yaml');
  assert.deepEqual(fs.readDir('/a'), ['x.yaml', 'z.yaml']);
  assert.ok(!fs.isDirectory('/b'));
  fs.unset('/a/x.yaml');
  assert.equal(new TextDecoder().decode(fs.readFile('/a/x.yaml')), 'x');
  assert.deepEqual([...fs.changes().keys()].sort(), ['/a/y.yaml', '/a/z.yaml']);
});

test('settings: defaults allow nothing; a mistyped one is named and keeps its default', () => {
  assert.deepEqual(DEFAULT_SETTINGS.allow, { plugins: false, exec: false, helm: false, starlark: false, network: false });
  const { settings, problems } = readSettings({ allow: { helm: true, exec: 'yes' }, strict: true, kubernetesVersion: '1.32.3', loadRestrictor: 'none' });
  assert.deepEqual(settings.allow, { plugins: false, exec: false, helm: true, starlark: false, network: false });
  assert.equal(settings.strict, true);
  assert.equal(settings.kubernetesVersion, '1.32.3');
  assert.deepEqual(problems, ['kustomize.allow.exec: "yes" is not a valid value; using false', 'kustomize.loadRestrictor: "none" is not a valid value; using "LoadRestrictionsRootOnly"']);
  assert.equal(allowingSetting('must specify --enable-helm'), 'kustomize.allow.helm');
  assert.equal(allowingSetting('exec functions are disabled; enable them with --enable-exec'), 'kustomize.allow.exec');
  assert.equal(allowingSetting('network required but not enabled with --network'), 'kustomize.allow.network');
  assert.equal(allowingSetting('give one with --mount'), undefined);
});

test('every kustomization field has its documentation', () => {
  assert.deepEqual(Object.keys(KUSTOMIZATION_FIELD_DOCS).sort(), Object.keys(KustomizationShape.fields).sort());
});

test('file URIs and paths', () => {
  assert.equal(pathOfUri('file:///a%20b/c.yaml'), '/a b/c.yaml');
  assert.equal(pathOfUri('file:///c%3A/x/y.yaml'), 'c:/x/y.yaml');
  assert.equal(pathOfUri('untitled:Untitled-1'), undefined);
  assert.equal(uriOfPath('/a b/c#1.yaml'), 'file:///a%20b/c%231.yaml');
  assert.equal(uriOfPath('c:/x'), 'file:///c%3A/x');
});

test('ranges: a key to its colon, a value to the end of the line before a comment; one edit between the common lines', () => {
  const lines = ['resources:', '- a.yaml # the app', '"quoted key": 1'];
  assert.deepEqual(tokenRange(lines, 1, 1), { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } });
  assert.deepEqual(tokenRange(lines, 2, 3), { start: { line: 1, character: 2 }, end: { line: 1, character: 8 } });
  assert.deepEqual(tokenRange(lines, 3, 1), { start: { line: 2, character: 0 }, end: { line: 2, character: 12 } });
  assert.deepEqual(replacingEdit('a\nb\nc\n', 'a\nB\nB2\nc\n'), { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, newText: 'B\nB2' });
});
