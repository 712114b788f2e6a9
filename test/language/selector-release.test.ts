/**
 * Navigation and completion select resources as the `kustomize.kustomizeVersion` release does: a
 * replacement target's `select` is an anchored regular expression since kustomize 5.8.0 (#5863),
 * its exact value before; a patch's target is a regular expression in every release.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CompletionItem, Location } from 'vscode-languageserver-types';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { LanguageService } from '../../src/language/service.js';

const KUSTOMIZATION = 'file:///repo/app/kustomization.yaml';

const FILES = {
  'repo/app/kustomization.yaml': [
    'resources:',
    '- cm.yaml',
    'patches:',
    '- target: {kind: Config.*, name: t.*}',
    '  patch: |',
    '    - {op: add, path: /metadata/labels, value: {patched: "yes"}}',
    'replacements:',
    '- source: {kind: ConfigMap, name: src, fieldPath: data.v}',
    '  targets:',
    '  - select:',
    '      kind: Config.*',
    '      name: ',
    '    fieldPaths: [data.v]',
    '',
  ].join('\n'),
  'repo/app/cm.yaml': ['src', 't1', 't2'].map((name) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  v: ${name}\n`).join('---\n'),
};

/** Runs `check` with a service under 5.8.1 (regular expressions) and one under 5.7.1 (exact values), disposed afterwards. */
async function underBoth(check: (regex: LanguageService, exact: LanguageService) => Promise<void>): Promise<void> {
  const regex = await serviceAs('5.8.1');
  const exact = await serviceAs('5.7.1');
  try {
    await check(regex, exact);
  } finally {
    regex.dispose();
    exact.dispose();
  }
}

async function serviceAs(kustomizeVersion: string): Promise<LanguageService> {
  const service = new LanguageService({ fs: MemoryFileSystem.from(FILES) });
  service.configure({ kustomizeVersion });
  service.setFolders(['file:///repo']);
  await service.whenIdle();
  return service;
}

/** Locations as `line:character` in their file, the file relative to the repository. */
const shown = (locations: Location[]) => locations.map((l) => `${l.uri.replace('file:///repo/', '')} ${l.range.start.line}:${l.range.start.character}`).sort();
const labels = (items: CompletionItem[]) => items.map((i) => i.label).sort();

test("a replacement target's select goes to what it selects: by regular expression under 5.8.1, by exact value under 5.7.1", () =>
  underBoth(async (regex, exact) => {
    const select = { line: 9, character: 4 };
    assert.deepEqual(shown(await regex.definition(KUSTOMIZATION, select)), ['app/cm.yaml 10:8', 'app/cm.yaml 17:8', 'app/cm.yaml 3:8']);
    assert.deepEqual(shown(await exact.definition(KUSTOMIZATION, select)), []);
    // a patch target is a regular expression under both
    const target = { line: 3, character: 3 };
    for (const service of [regex, exact]) assert.deepEqual(shown(await service.definition(KUSTOMIZATION, target)), ['app/cm.yaml 10:8', 'app/cm.yaml 17:8']);
  }));

test("completion of a replacement target's name offers what its kind selects, as the release compares kinds", () =>
  underBoth(async (regex, exact) => {
    const name = { line: 11, character: 12 };
    assert.deepEqual(labels(await regex.completion(KUSTOMIZATION, name)), ['src', 't1', 't2']);
    assert.deepEqual(labels(await exact.completion(KUSTOMIZATION, name)), []);
  }));
