/**
 * Reading Composition files: the KEP-2299 schema, the defaults (apiVersion, kind, names),
 * the runtime field, and errors that name the file and the field path.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { checkTransformerConfig, kebabCase, readComposition, type Composition } from '../../src/kinds/composition.js';

const FILE = '/c/composition.yaml';
const read = (text: string): Composition => readComposition(text, FILE);

/** Asserts reading `text` fails with COMPOSITION_INVALID at `field`, the message naming the file, the field and matching `problem`. */
function fails(text: string, field: string, problem: RegExp): void {
  assert.throws(
    () => read(text),
    (e: unknown) => {
      assert.ok(e instanceof KustomizeError, `not a KustomizeError: ${String(e)}`);
      assert.equal(e.code, 'COMPOSITION_INVALID');
      assert.equal(e.file, FILE);
      assert.equal(e.field ?? '', field);
      assert.ok(e.message.startsWith(`invalid Composition ${FILE}: ${field ? `${field}: ` : ''}`), e.message);
      assert.match(e.message, problem);
      return true;
    },
  );
}

const fn = (body: string) => `transformers:\n- apiVersion: example.com/v1\n  kind: Fn\n${body}`;

describe('readComposition', () => {
  test('a file without apiVersion and kind is a Composition; absent lists are empty; transformerOrder stays absent', () => {
    for (const text of ['', 'transformers: []\n']) {
      const c = read(text);
      assert.equal(c.apiVersion, 'kustomize.config.k8s.io/v1alpha1');
      assert.equal(c.kind, 'Composition');
      assert.deepEqual([c.transformers, c.transformersFrom, c.transformerOverrides, c.transformerOrder], [[], [], [], undefined]);
    }
  });

  test('v1alpha1 and v1beta1 are accepted; any other apiVersion or kind is refused', () => {
    assert.equal(read('apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Composition\n').apiVersion, 'kustomize.config.k8s.io/v1beta1');
    fails('apiVersion: kustomize.config.k8s.io/v1\n', 'apiVersion', /"kustomize.config.k8s.io\/v1" is not one of kustomize.config.k8s.io\/v1alpha1, kustomize.config.k8s.io\/v1beta1/);
    fails('kind: Kustomization\n', 'kind', /"Kustomization" is not Composition/);
  });

  test('unknown top-level fields are refused (resources: is a Kustomization field)', () => {
    fails('resources:\n- a.yaml\n', '', /json: unknown field "resources"/);
    fails('metadata:\n  name: x\n', '', /json: unknown field "metadata"/);
  });

  test('a list field holding something else is refused', () => {
    fails('transformers: fn.yaml\n', '', /cannot unmarshal string into Go struct field Composition.transformers of type \[\]interface \{\}/);
  });

  test('transformersFrom: path required, importMode prepend (default) or append, no other fields', () => {
    const c = read('transformersFrom:\n- path: ../a\n- path: ../b/composition.yaml\n  importMode: append\n');
    assert.deepEqual(c.transformersFrom, [
      { path: '../a', importMode: 'prepend' },
      { path: '../b/composition.yaml', importMode: 'append' },
    ]);
    fails('transformersFrom:\n- path: ../a\n- path: ../b\n  importMode: merge\n', 'transformersFrom[1].importMode', /"merge" is not prepend or append/);
    fails('transformersFrom:\n- importMode: append\n', 'transformersFrom[0].path', /required/);
    fails('transformersFrom:\n- path: ../a\n  mode: append\n', 'transformersFrom[0]', /json: unknown field "mode"/);
    fails('transformersFrom:\n- ../a\n', 'transformersFrom[0]', /cannot unmarshal string into Go value of type types.TransformerImport/);
  });

  test('transformers: strings name files; inline configs keep their fields and get a default name', () => {
    const c = read(fn('  spec:\n    x: 1\n') + '- fns.yaml\n');
    assert.deepEqual(c.transformers, [{ apiVersion: 'example.com/v1', kind: 'Fn', metadata: { name: 'fn' }, spec: { x: 1 } }, 'fns.yaml']);
    assert.deepEqual(read('transformers:\n- apiVersion: builtin\n  kind: PrefixSuffixTransformer\n  prefix: a-\n').transformers[0], {
      apiVersion: 'builtin',
      kind: 'PrefixSuffixTransformer',
      metadata: { name: 'prefix-suffix-transformer' },
      prefix: 'a-',
    });
    fails('transformers:\n- 3\n', 'transformers[0]', /must be a transformer config \(an object\) or a file name/);
  });

  test('a transformer needs apiVersion (builtin or the KEP pattern) and kind', () => {
    fails('transformers:\n- kind: Fn\n', 'transformers[0].apiVersion', /required/);
    fails('transformers:\n- apiVersion: Example.com/v1\n  kind: Fn\n', 'transformers[0].apiVersion', /"Example.com\/v1" is not builtin nor a group\/version/);
    fails('transformers:\n- apiVersion: v1\n  kind: Fn\n', 'transformers[0].apiVersion', /"v1" is not builtin/);
    fails('transformers:\n- apiVersion: example.com/v1\n', 'transformers[0].kind', /required/);
    fails('transformers:\n- apiVersion: example.com/v1\n  kind: ""\n', 'transformers[0].kind', /required/);
  });

  test('metadata.name must be a DNS subdomain name of at most 253 characters; metadata takes only ObjectMeta fields', () => {
    fails(fn('  metadata:\n    name: myFancyNamePrefixer\n'), 'transformers[0].metadata.name', /"myFancyNamePrefixer" is not a DNS subdomain name/);
    fails(fn(`  metadata:\n    name: ${'a'.repeat(254)}\n`), 'transformers[0].metadata.name', /longer than 253 characters/);
    assert.equal((read(fn(`  metadata:\n    name: ${'a'.repeat(253)}\n`)).transformers[0] as { metadata: { name: string } }).metadata.name.length, 253);
    fails(fn('  metadata:\n    name: 3\n'), 'transformers[0].metadata', /cannot unmarshal number into Go struct field ObjectMeta.name of type string/);
    fails(fn('  metadata:\n    labelz: {}\n'), 'transformers[0].metadata', /json: unknown field "labelz"/);
    fails('transformers:\n- apiVersion: example.com/v1\n  kind: Fn_X\n', 'transformers[0].metadata.name', /the kind "Fn_X" does not make a valid default name/);
  });

  test('the runtime: provider or runtime, exactly one of container, exec, starlark, each with its required field', () => {
    const provider = (c: Composition) => (c.transformers[0] as Record<string, unknown>)['provider'];
    assert.deepEqual(provider(read(fn('  provider: {container: {image: example/fn:v1}}\n'))), { container: { image: 'example/fn:v1' } });
    const fromRuntime = read(fn('  runtime:\n    exec:\n      path: ./fn.sh\n      args: [a]\n'));
    assert.deepEqual(provider(fromRuntime), { exec: { path: './fn.sh', args: ['a'] } });
    assert.equal((fromRuntime.transformers[0] as Record<string, unknown>)['runtime'], undefined, 'runtime: is moved to provider:');
    assert.deepEqual(provider(read(fn('  provider: {starlark: {path: fn.star}}\n'))), { starlark: { path: 'fn.star' } });
    fails(fn('  provider: {exec: {path: a}}\n  runtime: {exec: {path: a}}\n'), 'transformers[0]', /provider or as runtime, not both/);
    fails(fn('  provider: {}\n'), 'transformers[0].provider', /needs exactly one of container, exec, starlark/);
    fails(fn('  provider: {exec: {path: a}, container: {image: b}}\n'), 'transformers[0].provider', /needs exactly one of/);
    fails(fn('  runtime: {container: {network: true}}\n'), 'transformers[0].runtime.container.image', /required/);
    fails(fn('  provider: {exec: {}}\n'), 'transformers[0].provider.exec.path', /required/);
    fails(fn('  provider: {starlark: {name: x}}\n'), 'transformers[0].provider.starlark.path or url', /required/);
    assert.deepEqual(provider(read(fn('  provider: {starlark: {url: "https://example.com/fn.star", name: fn}}\n'))), { starlark: { url: 'https://example.com/fn.star', name: 'fn' } });
    fails(fn('  provider: {exec: {path: a, workdir: b}}\n'), 'transformers[0].provider', /json: unknown field "workdir"/);
    fails(
      fn('  metadata:\n    annotations:\n      config.kubernetes.io/function: "exec: {path: a}"\n  provider: {exec: {path: a}}\n'),
      'transformers[0].provider',
      /the runtime is given twice: by provider and by the config.kubernetes.io\/function annotation/,
    );
  });

  test('transformerOverrides are checked like transformers (and get the same default names)', () => {
    const c = read('transformerOverrides:\n- apiVersion: example.com/v1\n  kind: JavaApplication\n  spec: {version: v2}\n');
    assert.deepEqual(c.transformerOverrides, [{ apiVersion: 'example.com/v1', kind: 'JavaApplication', metadata: { name: 'java-application' }, spec: { version: 'v2' } }]);
    fails('transformerOverrides:\n- kind: X\n', 'transformerOverrides[0].apiVersion', /required/);
  });

  test('transformerOrder: name required and a valid name; kind and apiVersion optional, apiVersion checked', () => {
    const c = read('transformerOrder:\n- name: a\n- name: b\n  kind: B\n  apiVersion: builtin\n');
    assert.deepEqual(c.transformerOrder, [{ name: 'a' }, { name: 'b', kind: 'B', apiVersion: 'builtin' }]);
    assert.deepEqual(read('transformerOrder: []\n').transformerOrder, []);
    fails('transformerOrder:\n- kind: A\n', 'transformerOrder[0].name', /required/);
    fails('transformerOrder:\n- name: a\n- name: B\n', 'transformerOrder[1].name', /"B" is not a DNS subdomain name/);
    fails('transformerOrder:\n- name: a\n  apiVersion: x\n', 'transformerOrder[0].apiVersion', /"x" is not builtin nor a group\/version/);
    fails('transformerOrder:\n- name: a\n  namespace: x\n', 'transformerOrder[0]', /json: unknown field "namespace"/);
  });

  test('more than one document, or invalid YAML, is refused naming the file', () => {
    assert.throws(() => read('transformers: []\n---\ntransformers: []\n'), (e: unknown) => e instanceof KustomizeError && e.message.includes(FILE));
    assert.throws(() => read('transformers: [\n'), (e: unknown) => e instanceof KustomizeError && e.code === 'YAML_INVALID' && e.message.includes(FILE));
  });
});

describe('checkTransformerConfig', () => {
  test('does not change the object it is given', () => {
    const raw = { apiVersion: 'example.com/v1', kind: 'Fn', runtime: { exec: { path: 'a' } } };
    const copy = structuredClone(raw);
    checkTransformerConfig(raw, FILE, 'x');
    assert.deepEqual(raw, copy);
  });
});

test('kebabCase: the kind in kebab case, runs of capitals kept together', () => {
  const cases: [string, string][] = [
    ['PrefixSuffixTransformer', 'prefix-suffix-transformer'],
    ['JavaApplication', 'java-application'],
    ['Logger', 'logger'],
    ['IAMPolicyGenerator', 'iam-policy-generator'],
    ['HelmChartInflationGenerator', 'helm-chart-inflation-generator'],
    ['ResourceAccumulator', 'resource-accumulator'],
    ['Kustomization', 'kustomization'],
    ['S3Bucket', 's3-bucket'],
    ['fn', 'fn'],
  ];
  for (const [kind, name] of cases) assert.equal(kebabCase(kind), name, kind);
});
