/**
 * From a consolidated list to what the engine runs (step configs) and to what a user reads
 * (the flat Composition the `consolidate` command prints).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { consolidate } from '../../src/composition/consolidate.js';
import { consolidateComposition } from '../../src/composition/consolidate-path.js';
import { printComposition } from '../../src/composition/print.js';
import { stepConfig } from '../../src/composition/step-configs.js';
import { consolidateCommand } from '../../src/cli/commands/consolidate.js';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { Loader } from '../../src/load/loader.js';
import { functionSpecOf, FUNCTION_ANNOTATION } from '../../src/kinds/function-spec.js';
import { writeTree } from '../plugins/plugin-tree.js';
import { onBoth } from './trees.js';

const TREE = {
  'app/composition.yaml': `transformers:
- apiVersion: example.com/v1
  kind: Renamer
  runtime:
    exec:
      path: ./renamer.sh
      args: [--fast]
  spec:
    prefix: fn-
- apiVersion: builtin
  kind: PrefixSuffixTransformer
  prefix: p-
  fieldSpecs:
  - path: metadata/name
`,
  'staging/composition.yaml': `transformersFrom:
- path: ../app
transformers:
- apiVersion: example.com/v1
  kind: Box
  provider: {container: {image: example/box:v1, network: true}}
  metadata:
    name: box
    annotations:
      note: kept
`,
};

describe('stepConfig', () => {
  onBoth('the runtime becomes the config.kubernetes.io/function annotation, read back as the same function spec', TREE, (t) => {
    const steps = consolidate(t.at('staging')).map(stepConfig);
    assert.equal(steps.length, 3);
    const [renamer, prefix, box] = steps;
    assert.equal(renamer!.config.obj['provider'], undefined);
    assert.equal(renamer!.config.stringMap('annotations')?.[FUNCTION_ANNOTATION], 'exec:\n  args:\n  - --fast\n  path: ./renamer.sh\n');
    assert.deepEqual(functionSpecOf(renamer!.config), { exec: { path: './renamer.sh', args: ['--fast'] } });
    assert.deepEqual(functionSpecOf(box!.config), { container: { image: 'example/box:v1', network: true } });
    assert.equal(box!.config.stringMap('annotations')?.['note'], 'kept');
    assert.equal(functionSpecOf(prefix!.config), undefined);
    assert.deepEqual(prefix!.config.obj, {
      apiVersion: 'builtin',
      kind: 'PrefixSuffixTransformer',
      metadata: { name: 'prefix-suffix-transformer' },
      prefix: 'p-',
      fieldSpecs: [{ path: 'metadata/name' }],
    });
  });

  onBoth('each step keeps the loader of its Composition and is configured in its file, relative to the top', TREE, (t) => {
    const steps = consolidate(t.at('staging')).map(stepConfig);
    assert.deepEqual(steps.map((s) => s.configuredIn), ['../app/composition.yaml', '../app/composition.yaml', 'composition.yaml']);
    assert.deepEqual(steps.map((s) => s.loader.root), ['app', 'app', 'staging'].map((d) => t.fs.realPath(`${t.root}/${d}`)));
  });

  test('the consolidated configs are not changed by making step configs', () => {
    const fs = MemoryFileSystem.from(TREE);
    const list = consolidate(Loader.atRoot(fs, '/staging', 'rootOnly'));
    const before = structuredClone(list.map((t) => t.config));
    list.map(stepConfig);
    assert.deepEqual(list.map((t) => t.config), before);
  });
});


const PRINTED = `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Composition
transformers:
# from ../app/composition.yaml
- apiVersion: example.com/v1
  kind: Renamer
  metadata:
    name: renamer
  provider:
    exec:
      args:
      - --fast
      path: ./renamer.sh
  spec:
    prefix: fn-
# from ../app/composition.yaml
- apiVersion: builtin
  fieldSpecs:
  - path: metadata/name
  kind: PrefixSuffixTransformer
  metadata:
    name: prefix-suffix-transformer
  prefix: p-
# from composition.yaml
- apiVersion: example.com/v1
  kind: Box
  metadata:
    annotations:
      note: kept
    name: box
  provider:
    container:
      image: example/box:v1
      network: true
`;

describe('printComposition and consolidateComposition', () => {
  onBoth('the consolidated list printed as a flat Composition, each transformer under the file it came from', TREE, (t) => {
    assert.equal(printComposition({ transformers: consolidate(t.at('staging')), catalogs: [] }), PRINTED);
  });

  test('pasted back as a flat Composition, it consolidates to the same list', async () => {
    const fs = MemoryFileSystem.from({ ...TREE, 'flat/composition.yaml': PRINTED });
    const flat = await consolidateComposition('/flat', { fs });
    const staged = await consolidateComposition('staging', { fs, cwd: '/' });
    assert.deepEqual(flat.transformers.map((t) => t.config), staged.transformers.map((t) => t.config));
    assert.equal(flat.yaml, PRINTED.replaceAll('# from ../app/composition.yaml', '# from composition.yaml'));
  });

  test('an empty Composition prints an empty list', async () => {
    const { yaml, transformers } = await consolidateComposition('/e', { fs: MemoryFileSystem.from({ 'e/composition.yaml': 'kind: Composition\n' }) });
    assert.deepEqual(transformers, []);
    assert.equal(yaml, 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Composition\ntransformers: []\n');
  });

  test('block scalars keep their indentation inside the printed list', async () => {
    const text = 'transformers:\n- apiVersion: example.com/v1\n  kind: Script\n  source: |\n    line one\n\n    line three\n';
    const fs = MemoryFileSystem.from({ 's/composition.yaml': text });
    const { yaml } = await consolidateComposition('/s', { fs });
    const again = await consolidateComposition('/t', { fs: MemoryFileSystem.from({ 't/composition.yaml': yaml }) });
    assert.equal(again.transformers[0]!.config['source'], 'line one\n\nline three\n');
  });
});

describe('the consolidate command', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
  };

  test('prints the consolidated list of the Composition in DIR; the load restrictor flag is honoured', async () => {
    const root = writeTree(TREE);
    const { io: streams, out } = io();
    const code = await consolidateCommand.run!({ flags: new Map(), positional: [join(root, 'staging')] }, streams);
    assert.equal(code, 0);
    assert.equal(out.join(''), PRINTED);

    mkdirSync(join(root, 'escape'));
    writeFileSync(join(root, 'escape/composition.yaml'), 'transformers:\n- ../configs.yaml\n');
    writeFileSync(join(root, 'configs.yaml'), 'apiVersion: builtin\nkind: NamespaceTransformer\nnamespace: x\n');
    await assert.rejects(consolidateCommand.run!({ flags: new Map(), positional: [join(root, 'escape')] }, io().io), (e: unknown) => e instanceof KustomizeError && e.code === 'LOAD_RESTRICTED');
    const allowed = io();
    await consolidateCommand.run!({ flags: new Map([['load-restrictor', 'LoadRestrictionsNone']]), positional: [join(root, 'escape')] }, allowed.io);
    assert.match(allowed.out.join(''), /# from \.\.\/configs\.yaml\n- apiVersion: builtin\n {2}kind: NamespaceTransformer/);
  });

  test('usage errors: two directories, an unknown load restrictor', async () => {
    await assert.rejects(consolidateCommand.run!({ flags: new Map(), positional: ['a', 'b'] }, io().io), /specify one path to a Composition directory; got 2/);
    await assert.rejects(
      consolidateCommand.run!({ flags: new Map([['load-restrictor', 'Loose']]), positional: ['.'] }, io().io),
      /illegal flag value --load-restrictor Loose; legal values: \[LoadRestrictionsRootOnly LoadRestrictionsNone\]/,
    );
  });
});
