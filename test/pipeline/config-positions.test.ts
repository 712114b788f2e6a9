/**
 * Where a notice about a step points: at the key of the value of its config it is about, or of a
 * value inside a text the config holds (an inline patch, in the kustomization) or names (a patch
 * file) — what a notice about a value a patch wrote needs (a list a strategic-merge patch
 * replaced). Steps are made from a kustomization's fields as the build makes them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StepNotice } from '../../src/builtins/step-notice.js';
import { defaultTransformerConfig } from '../../src/fieldspec/defaults.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { readKustomization } from '../../src/kinds/kustomization.js';
import { Loader } from '../../src/load/loader.js';
import { Resource } from '../../src/model/resource.js';
import { ConfigPositions, locatedNotice, type LocatedStep } from '../../src/pipeline/config-positions.js';
import { FieldSteps } from '../../src/plan/field-steps.js';
import { parseYamlDocuments } from '../../src/yaml/parse.js';
import type { YMap } from '../../src/yaml/value.js';
import { kustomizeProfile } from '../../src/versions/profiles.js';

/** the default profile: what these tests read kustomizations as */
const PROFILE = kustomizeProfile('5.8.1', 'test');

const lines = (...l: string[]) => `${l.join('\n')}\n`;

const KUSTOMIZATION = lines(
  'patches:',
  '- patch: |-', //                               2
  '    apiVersion: apps/v1',
  '    kind: Deployment',
  '    metadata:',
  '      name: web',
  '    spec:',
  '      template:',
  '        spec:',
  '          containers:', //                     10
  '          - name: app',
  '- path: two.yaml',
  'patchesStrategicMerge:',
  '- one.yaml',
  '- two.yaml',
  'patchesJson6902:',
  '- target: {version: v1, kind: Service, name: web}',
  '  patch: \'[{"op": "add", "path": "/spec/ports", "value": [{"port": 80}]}]\'', // 18
  'transformers:',
  '- |-',
  '  apiVersion: builtin',
  '  kind: PatchTransformer',
  '  metadata:',
  '    name: inline',
  '  patch: |-', //                               25
  '    apiVersion: v1',
  '    kind: Service',
  '    metadata:',
  '      name: web',
  '    spec:',
  '      ports:', //                              31
  '      - port: 80',
);
const FILES = {
  'app/kustomization.yaml': KUSTOMIZATION,
  'app/one.yaml': lines('apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', 'spec:', '  ports:', '  - port: 80'),
  'app/two.yaml': lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: a', '---', 'apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', 'spec:', '  ports:', '  - port: 80'),
};

/** The steps the kustomization's fields make, by field, and the one its inline `transformers:` entry makes. */
function steps(): { byField: Map<string, LocatedStep>; inline: LocatedStep } {
  const fs = MemoryFileSystem.from(FILES);
  const loader = Loader.atRoot(fs, '/app', 'rootOnly');
  const k = readKustomization(KUSTOMIZATION, '/app/kustomization.yaml', '/app', { program: 'kustomize-ts', warn: () => undefined }, PROFILE);
  const fields = new FieldSteps(k, loader, 'kustomization.yaml', '/app/kustomization.yaml');
  const byField = new Map(fields.transformers(defaultTransformerConfig(PROFILE)).map((s) => [s.field!, s]));
  const config = parseYamlDocuments(k.transformers![0]!)[0] as YMap;
  return { byField, inline: { config: new Resource(config), loader, entry: 'transformers[0]', file: '/app/kustomization.yaml' } };
}

const aboutList = (at: StepNotice['at'], within: StepNotice['within']): StepNotice => ({ code: 'LIST_REPLACED', message: 'a list replaced', at, ...(within && { within }) });

function place(step: LocatedStep | undefined, notice: StepNotice): string {
  const n = locatedNotice(new ConfigPositions(), step!, notice);
  return `${n.file}:${n.line}:${n.column} ${n.step}`;
}

test('a value of an inline patch: at its key in the kustomization, below the block indicator', () => {
  const { byField } = steps();
  const notice = aboutList(['patch'], { text: 'held', document: 0, path: ['spec', 'template', 'spec', 'containers'] });
  assert.equal(place(byField.get('patches[0]'), notice), '/app/kustomization.yaml:10:11 patches[0]');
});

test('a value of a patch file: in that file, in the document the notice names', () => {
  const { byField } = steps();
  const notice = aboutList(['path'], { text: 'named', document: 1, path: ['spec', 'ports'] });
  assert.equal(place(byField.get('patches[1]'), notice), '/app/two.yaml:11:3 patches[1]');
});

test('patchesStrategicMerge: the file of the entry, named as the entry', () => {
  const { byField } = steps();
  const notice = aboutList(['paths', 0], { text: 'named', document: 0, path: ['spec', 'ports'] });
  assert.equal(place(byField.get('patchesStrategicMerge'), notice), '/app/one.yaml:6:3 patchesStrategicMerge[0]');
});

test('a JSON patch written as a quoted string: after the quote, on its line', () => {
  const { byField } = steps();
  // (`jsonOp` is the config's name for the entry's `patch`)
  const notice = aboutList(['jsonOp'], { text: 'held', document: 0, path: [0, 'value'] });
  assert.equal(place(byField.get('patchesJson6902[0]'), notice), '/app/kustomization.yaml:18:49 patchesJson6902[0]');
});

test('a patch inside a builtin config written inline under transformers:', () => {
  const { inline } = steps();
  const notice = aboutList(['patch'], { text: 'held', document: 0, path: ['spec', 'ports'] });
  assert.equal(place(inline, notice), '/app/kustomization.yaml:31:7 transformers[0]');
  assert.equal(place(inline, aboutList(['patch'], undefined)), '/app/kustomization.yaml:25:3 transformers[0]');
});

test('a text that cannot be placed: the value of the config that holds it', () => {
  const { byField } = steps();
  const notice = aboutList(['path'], { text: 'named', document: 5, path: ['spec'] });
  assert.equal(place(byField.get('patches[1]'), notice), '/app/kustomization.yaml:12:3 patches[1]');
});
