/**
 * Consolidating a Composition: imports (prepend/append, recursive, own roots, cycles),
 * overrides, duplicates, transformerOrder, files of configs; every case in memory and on disk.
 */
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { consolidate } from '../../src/composition/consolidate.js';
import type { ConsolidatedTransformer } from '../../src/composition/consolidated-transformer.js';
import { throwsError } from './expect-error.js';
import { onBoth } from './trees.js';

/** KEP-2299's two stories, as files. */
const STORIES = {
  'app/composition.yaml': `# app/composition.yaml
kind: Composition

transformers:
# generate resources for a Java application
- apiVersion: example.com/v1
  kind: JavaApplication
  provider: {container: {image: docker.example.co/kustomize_transformers/java:v1.0.0}}
  metadata:
    name: my-app
  spec:
    application: team/my-app
    version: v1.0
# transform resources to inject a logger
- apiVersion: example.com/v1
  kind: Logger
  provider: {container: {image: docker.example.co/kustomize_transformers/logger:v1.0.3}}
  metadata:
    name: logger
`,
  'staging/composition.yaml': `# staging/composition.yaml
kind: Composition

transformersFrom:
# import the JavaApplication and Logger transformers
- path: ../app/composition.yaml
  importMode: prepend

transformerOverrides:
# override the JavaApplication version before the function is run
- apiVersion: example.com/v1
  kind: JavaApplication
  metadata:
    name: my-app
  spec:
    version: v1.1-beta

transformers:
# transform resources from imported transformers to inject metrics
- apiVersion: example.com/v1
  kind: Prometheus
  provider: {container: {image: docker.example.co/kustomize_transformers/prometheus:v1.0.2}}
  metadata:
    name: metrics
  spec:
    prefix: my-app-
`,
};

/** `Kind/name` of each transformer, in order. */
const ids = (list: ConsolidatedTransformer[]) => list.map((t) => `${t.config['kind']}/${(t.config['metadata'] as { name: string }).name}`);

/** A Composition of `Fn` transformers named by `names` (`kind:name` picks another kind). */
const fns = (names: string[], extra = '') =>
  `transformers:\n${names.map((n) => {
    const [kind, name] = n.includes(':') ? n.split(':') : ['Fn', n];
    return `- apiVersion: example.com/v1\n  kind: ${kind}\n  metadata:\n    name: ${name}\n`;
  }).join('')}${extra}`;

describe('consolidate: the KEP stories', () => {
  onBoth('story 1: the list as written, names kept, provider in place', STORIES, (t) => {
    const list = consolidate(t.at('app'));
    assert.deepEqual(ids(list), ['JavaApplication/my-app', 'Logger/logger']);
    assert.deepEqual(list[0]!.config['provider'], { container: { image: 'docker.example.co/kustomize_transformers/java:v1.0.0' } });
  });

  onBoth('story 2: imports prepended, the override merged into the imported transformer, own transformers after', STORIES, (t) => {
    const list = consolidate(t.at('staging'));
    assert.deepEqual(ids(list), ['JavaApplication/my-app', 'Logger/logger', 'Prometheus/metrics']);
    assert.deepEqual(list[0]!.config['spec'], { application: 'team/my-app', version: 'v1.1-beta' });
    assert.deepEqual(list[0]!.config['provider'], { container: { image: 'docker.example.co/kustomize_transformers/java:v1.0.0' } });
    assert.equal(list[0]!.file, t.fs.realPath(`${t.root}/app/composition.yaml`));
    assert.equal(list[0]!.loader.root, t.fs.realPath(`${t.root}/app`), 'an imported transformer belongs to its own directory');
    assert.equal(list[2]!.loader.root, t.fs.realPath(`${t.root}/staging`));
  });

  onBoth('an import may name the directory instead of the file', { ...STORIES, 'staging/composition.yaml': STORIES['staging/composition.yaml'].replace('../app/composition.yaml', '../app') }, (t) => {
    assert.deepEqual(ids(consolidate(t.at('staging'))), ['JavaApplication/my-app', 'Logger/logger', 'Prometheus/metrics']);
  });
});

describe('consolidate: transformersFrom', () => {
  onBoth(
    'prepended imports go before the own transformers and appended ones after, each group in the order listed',
    {
      'a/composition.yaml': fns(['a1', 'a2']),
      'b/composition.yaml': fns(['b1']),
      'c/composition.yaml': fns(['c1']),
      'top/composition.yaml': `transformersFrom:\n- path: ../a\n- path: ../b\n  importMode: append\n- path: ../c/composition.yaml\n${fns(['own'])}`,
    },
    (t) => assert.deepEqual(ids(consolidate(t.at('top'))), ['Fn/a1', 'Fn/a2', 'Fn/c1', 'Fn/own', 'Fn/b1']),
  );

  onBoth(
    "recursively: an imported Composition's own imports, overrides and order are applied before it is imported",
    {
      'base/composition.yaml': fns(['one', 'two']).replace('name: one\n', 'name: one\n  spec: {level: base, keep: yes}\n'),
      'mid/composition.yaml': `transformersFrom:\n- path: ../base\ntransformerOverrides:\n- apiVersion: example.com/v1\n  kind: Fn\n  metadata: {name: one}\n  spec: {level: mid}\ntransformerOrder:\n- name: two\n- name: mine\n- name: one\n${fns(['mine'])}`,
      'top/composition.yaml': `transformersFrom:\n- path: ../mid\ntransformerOverrides:\n- apiVersion: example.com/v1\n  kind: Fn\n  metadata: {name: one}\n  spec: {level: top}\n${fns(['last'])}`,
    },
    (t) => {
      const mid = consolidate(t.at('mid'));
      assert.deepEqual(ids(mid), ['Fn/two', 'Fn/mine', 'Fn/one']);
      assert.deepEqual(mid[2]!.config['spec'], { level: 'mid', keep: 'yes' });
      const top = consolidate(t.at('top'));
      assert.deepEqual(ids(top), ['Fn/two', 'Fn/mine', 'Fn/one', 'Fn/last']);
      assert.deepEqual(top[2]!.config['spec'], { level: 'top', keep: 'yes' }, "the importer's override comes last");
      assert.equal(top[0]!.loader.root, t.fs.realPath(`${t.root}/base`));
      assert.equal(top[1]!.loader.root, t.fs.realPath(`${t.root}/mid`));
    },
  );

  onBoth(
    'files named in an imported Composition resolve from its own directory, under its own root',
    {
      'app/composition.yaml': 'transformers:\n- fns.yaml\n',
      'app/fns.yaml': fns(['from-app']).replace('transformers:\n', '').replace(/^- /gm, '---\n').replace(/^ {2}/gm, ''),
      'app/escape/composition.yaml': 'transformers:\n- ../fns.yaml\n',
      'fns.yaml': 'apiVersion: example.com/v1\nkind: Fn\nmetadata: {name: from-top}\n',
      'top/composition.yaml': 'transformersFrom:\n- path: ../app\n',
      'top/escaping/composition.yaml': 'transformersFrom:\n- path: ../../app/escape\n',
    },
    (t) => {
      const list = consolidate(t.at('top'));
      assert.deepEqual(ids(list), ['Fn/from-app']);
      assert.equal(list[0]!.file, t.fs.realPath(`${t.root}/app/fns.yaml`));
      // the import itself is outside top/, but gets its own root; a file outside *that* root is refused
      throwsError(() => consolidate(t.at('top/escaping')), 'LOAD_RESTRICTED', /is not in or below '.*\/app\/escape'/);
      assert.deepEqual(ids(consolidate(t.at('top/escaping', 'none'))), ['Fn/from-app']);
    },
  );

  onBoth(
    'a Composition may import one in its parent directory, or another file in its own directory',
    {
      'composition.yaml': fns(['parent']),
      'child/composition.yaml': `transformersFrom:\n- path: ../composition.yaml\n- path: extra.yaml\n  importMode: append\n${fns(['child'])}`,
      'child/extra.yaml': fns(['extra']),
    },
    (t) => assert.deepEqual(ids(consolidate(t.at('child'))), ['Fn/parent', 'Fn/child', 'Fn/extra']),
  );

  onBoth(
    'an import cycle is an error showing the cycle',
    {
      'a/composition.yaml': 'transformersFrom:\n- path: ../b\n',
      'b/composition.yaml': 'transformersFrom:\n- path: ../c/composition.yaml\n',
      'c/composition.yaml': 'transformersFrom:\n- path: ../a\n',
      'self/composition.yaml': 'transformersFrom:\n- path: .\n',
    },
    (t) => {
      const e = throwsError(() => consolidate(t.at('a')), 'CYCLE', 'Composition import cycle: composition.yaml -> ../b/composition.yaml -> ../c/composition.yaml -> composition.yaml');
      assert.equal(e.field, 'transformersFrom');
      throwsError(() => consolidate(t.at('b')), 'CYCLE', 'composition.yaml -> ../c/composition.yaml -> ../a/composition.yaml -> composition.yaml');
      throwsError(() => consolidate(t.at('self')), 'CYCLE', 'Composition import cycle: composition.yaml -> composition.yaml');
    },
  );

  onBoth(
    'an import of nothing, of a directory without a Composition, or from a directory with two Composition files, is an error naming it',
    {
      'missing/composition.yaml': 'transformersFrom:\n- path: ../nowhere\n',
      'empty/composition.yaml': 'transformersFrom:\n- path: ../plain\n',
      'plain/kustomization.yaml': 'resources: []\n',
      'two/composition.yaml': 'transformersFrom:\n- path: ../both\n',
      'both/composition.yaml': '',
      'both/Composition': '',
    },
    (t) => {
      const e = throwsError(() => consolidate(t.at('missing')), 'COMPOSITION_INVALID', 'missing/composition.yaml: transformersFrom[0].path: ../nowhere: no such file or directory');
      assert.equal(e.field, 'transformersFrom[0].path');
      throwsError(() => consolidate(t.at('empty')), 'KUSTOMIZATION_NOT_FOUND', /unable to find one of 'composition.yaml', 'composition.yml', 'Composition' in directory '.*\/plain'/);
      throwsError(() => consolidate(t.at('two')), 'COMPOSITION_INVALID', /Found multiple composition files under: .*\/both \(composition.yaml, Composition\)/);
      throwsError(() => consolidate(t.at('plain')), 'KUSTOMIZATION_NOT_FOUND', /unable to find one of 'composition.yaml'/);
    },
  );
});

describe('consolidate: transformerOverrides', () => {
  const base = { 'base/composition.yaml': fns(['one', 'two']).replace('name: one\n', 'name: one\n  provider: {container: {image: fn:v1}}\n  spec: {list: [a, b], n: 1}\n') };
  const over = (body: string) => ({ ...base, 'top/composition.yaml': `transformersFrom:\n- path: ../base\ntransformerOverrides:\n${body}` });

  onBoth(
    'an override is a strategic merge patch: maps merge, lists are replaced, null deletes, the provider can be changed',
    over('- apiVersion: example.com/v1\n  kind: Fn\n  metadata: {name: one}\n  provider: {container: {image: fn:v2}}\n  spec: {list: [c], n: null, added: true}\n'),
    (t) => {
      const [one] = consolidate(t.at('top'));
      assert.deepEqual(one!.config['spec'], { list: ['c'], added: true });
      assert.deepEqual(one!.config['provider'], { container: { image: 'fn:v2' } });
    },
  );

  onBoth(
    "an override with `$patch: delete` removes the imported transformer",
    over('- apiVersion: example.com/v1\n  kind: Fn\n  metadata: {name: one}\n  $patch: delete\n'),
    (t) => assert.deepEqual(ids(consolidate(t.at('top'))), ['Fn/two']),
  );

  onBoth(
    'an override that matches no imported transformer is an error naming it (own transformers cannot be overridden)',
    {
      ...over('- apiVersion: example.com/v1\n  kind: Fn\n  metadata: {name: three}\n'),
      'own/composition.yaml': `${fns(['mine'])}transformerOverrides:\n- apiVersion: example.com/v1\n  kind: Fn\n  metadata: {name: mine}\n`,
      'kind/composition.yaml': 'transformersFrom:\n- path: ../base\ntransformerOverrides:\n- apiVersion: example.com/v2\n  kind: Fn\n  metadata: {name: one}\n',
    },
    (t) => {
      const e = throwsError(
        () => consolidate(t.at('top')),
        'COMPOSITION_INVALID',
        'top/composition.yaml: transformerOverrides[0]: Fn three (example.com/v1) matches no imported transformer (imported: Fn one (example.com/v1), Fn two (example.com/v1))',
      );
      assert.equal(e.field, 'transformerOverrides[0]');
      throwsError(() => consolidate(t.at('own')), 'COMPOSITION_INVALID', 'Fn mine (example.com/v1) matches no imported transformer (nothing is imported)');
      throwsError(() => consolidate(t.at('kind')), 'COMPOSITION_INVALID', 'Fn one (example.com/v2) matches no imported transformer');
    },
  );

  onBoth(
    'the overridden config is checked again: a second runtime is refused',
    over('- apiVersion: example.com/v1\n  kind: Fn\n  metadata: {name: one}\n  provider: {exec: {path: ./fn.sh}}\n'),
    (t) => {
      throwsError(() => consolidate(t.at('top')), 'COMPOSITION_INVALID', 'transformerOverrides[0].provider: needs exactly one of container, exec, starlark');
    },
  );
});

describe('consolidate: duplicates and transformerOrder', () => {
  onBoth(
    'two transformers with the same apiVersion, kind and name are an error naming them and their files',
    {
      'own/composition.yaml': 'transformers:\n- apiVersion: builtin\n  kind: LabelTransformer\n  labels: {a: b}\n- apiVersion: builtin\n  kind: LabelTransformer\n  labels: {c: d}\n',
      'base/composition.yaml': fns(['x']),
      'top/composition.yaml': `transformersFrom:\n- path: ../base\n${fns(['x'])}`,
      'ok/composition.yaml': fns(['x', 'Other:x']),
    },
    (t) => {
      throwsError(() => consolidate(t.at('own')), 'COMPOSITION_INVALID', /duplicate transformer LabelTransformer label-transformer \(builtin\) \(from .*own\/composition.yaml and .*own\/composition.yaml\): give one a different metadata.name/);
      throwsError(() => consolidate(t.at('top')), 'COMPOSITION_INVALID', /duplicate transformer Fn x \(example.com\/v1\) \(from .*base\/composition.yaml and .*top\/composition.yaml\)/);
      assert.deepEqual(ids(consolidate(t.at('ok'))), ['Fn/x', 'Other/x'], 'the same name with another kind is another transformer');
    },
  );

  onBoth(
    'transformerOrder reorders the whole list; kind or apiVersion tell apart transformers of the same name',
    {
      'base/composition.yaml': fns(['a', 'b']),
      'top/composition.yaml': `transformersFrom:\n- path: ../base\n${fns(['c', 'Other:a'])}transformerOrder:\n- name: c\n- name: a\n  kind: Other\n- name: b\n- name: a\n  apiVersion: example.com/v1\n  kind: Fn\n`,
    },
    (t) => assert.deepEqual(ids(consolidate(t.at('top'))), ['Fn/c', 'Other/a', 'Fn/b', 'Fn/a']),
  );

  onBoth(
    'transformerOrder must name every transformer exactly once: every problem is reported',
    {
      'missing/composition.yaml': `${fns(['a', 'b', 'c'])}transformerOrder:\n- name: b\n`,
      'unknown/composition.yaml': `${fns(['a'])}transformerOrder:\n- name: a\n- name: z\n`,
      'ambiguous/composition.yaml': `${fns(['a', 'Other:a'])}transformerOrder:\n- name: a\n`,
      'twice/composition.yaml': `${fns(['a', 'b'])}transformerOrder:\n- name: a\n- name: b\n- name: a\n  kind: Fn\n`,
      'empty/composition.yaml': `${fns(['a'])}transformerOrder: []\n`,
    },
    (t) => {
      const e = throwsError(() => consolidate(t.at('missing')), 'COMPOSITION_INVALID', 'transformerOrder: must name every transformer exactly once: Fn a (example.com/v1) is missing; Fn c (example.com/v1) is missing');
      assert.equal(e.field, 'transformerOrder');
      throwsError(() => consolidate(t.at('unknown')), 'COMPOSITION_INVALID', 'transformerOrder[1] (name z) names no transformer');
      const amb = throwsError(() => consolidate(t.at('ambiguous')), 'COMPOSITION_INVALID', 'transformerOrder[0] (name a) is ambiguous: it matches Fn a (example.com/v1), Other a (example.com/v1); add kind or apiVersion');
      assert.ok(!amb.message.includes('missing'), 'transformers an ambiguous entry matched are not also reported missing');
      throwsError(() => consolidate(t.at('twice')), 'COMPOSITION_INVALID', 'Fn a (example.com/v1) is named more than once: transformerOrder[0], transformerOrder[2]');
      throwsError(() => consolidate(t.at('empty')), 'COMPOSITION_INVALID', 'Fn a (example.com/v1) is missing');
    },
  );
});

describe('consolidate: files of transformer configs', () => {
  onBoth(
    'a transformers: string names a file of configs, every document in order, among inline ones',
    {
      'c/composition.yaml': `transformers:\n- apiVersion: builtin\n  kind: NamespaceTransformer\n  namespace: ns\n- configs.yaml\n${fns(['last']).replace('transformers:\n', '')}`,
      'c/configs.yaml': 'apiVersion: builtin\nkind: PrefixSuffixTransformer\nprefix: p-\n---\napiVersion: example.com/v1\nkind: Fn\nmetadata:\n  name: from-file\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./fn.sh\n',
    },
    (t) => {
      const list = consolidate(t.at('c'));
      assert.deepEqual(ids(list), ['NamespaceTransformer/namespace-transformer', 'PrefixSuffixTransformer/prefix-suffix-transformer', 'Fn/from-file', 'Fn/last']);
      assert.equal(list[1]!.file, t.fs.realPath(`${t.root}/c/configs.yaml`));
      assert.equal(list[0]!.file, t.fs.realPath(`${t.root}/c/composition.yaml`));
    },
  );

  onBoth(
    'a bad config in a file is an error naming the file and the document; a missing file names the entry',
    {
      'bad/composition.yaml': 'transformers:\n- configs.yaml\n',
      'bad/configs.yaml': 'apiVersion: builtin\nkind: A\n---\napiVersion: builtin\n',
      'missing/composition.yaml': 'transformers:\n- nope.yaml\n',
    },
    (t) => {
      const e = throwsError(() => consolidate(t.at('bad')), 'COMPOSITION_INVALID', /bad\/configs.yaml: \[1\].kind: required/);
      assert.match(e.file ?? '', /bad\/configs.yaml$/);
      throwsError(() => consolidate(t.at('missing')), 'FILE_NOT_FOUND', /missing\/composition.yaml: transformers\[0\]: evalsymlink failure on '.*missing\/nope.yaml'/);
    },
  );
});
