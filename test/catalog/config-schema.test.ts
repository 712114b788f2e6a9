/**
 * A catalog function's config is checked against its version's `schema.openAPIV3Schema` before
 * the function starts: what the schema refuses is FUNCTION_CONFIG_INVALID at the file, line and
 * column the value is written at (a file of configs, an inline config of a kustomization, a
 * Composition's inline entry), and the function never starts — each exec program touches a
 * marker file, and the container runtime is a program that does the same.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { main } from '../../src/cli/main.js';
import { KustomizeError } from '../../src/errors.js';
import { resourcesFromText } from '../../src/model/resource-factory.js';
import { catalogYaml, execRuntime, renamerScript, setup, sha256, tree } from './harness.js';

const work = mkdtempSync(join(tmpdir(), 'kts-catalog-schema-'));
const marker = (name: string) => join(work, `ran-${name}`);
const cacheDir = () => mkdtempSync(join(tmpdir(), 'kts-cache-'));
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n';
const SCHEMA_OF = `(schema of example.com/v1 SetReplicas in catalog 'catalog.yaml' (team))`;

/** The schema of SetReplicas v1 (YAML, indented under `openAPIV3Schema:`). */
const SCHEMA = `
          type: object
          required: [spec]
          properties:
            spec:
              type: object
              required: [replicas]
              properties:
                replicas: {type: integer, minimum: 0}
                strategy: {type: string, enum: [Rolling, Recreate]}
                selector:
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
`;

/** The `krmFunctions` entry of example.com/v1 SetReplicas: `runtime` (indented 8), and `schema` (none when null). */
function setReplicas(runtime: string, schema: string | null): string {
  return `  - group: example.com
    names:
      kind: SetReplicas
    versions:
    - name: v1
${schema === null ? '' : `      schema:\n        openAPIV3Schema:${schema}`}      runtime:
${runtime}`;
}

/**
 * A directory with `catalog.yaml`, whose SetReplicas runs a program that touches `marker(name)`
 * and prefixes names with `set-`, one ConfigMap, and `files`: a kustomization running
 * `transformers.yaml` unless they hold a kustomization or a Composition of their own.
 */
function app(name: string, files: Record<string, string>, schema: string | null = SCHEMA): string {
  const program = renamerScript(marker(name), 'set-');
  const own = 'kustomization.yaml' in files || 'composition.yaml' in files;
  return tree({
    'catalog.yaml': catalogYaml('team', setReplicas(execRuntime({ bin: 'program', uri: 'program', sha256: sha256(program) }), schema)),
    program,
    'cm.yaml': CM,
    ...(!own && { 'kustomization.yaml': 'catalogs:\n- catalog.yaml\nresources:\n- cm.yaml\ntransformers:\n- transformers.yaml\n' }),
    ...files,
  });
}

const config = (spec: string, name = 'scale') => `apiVersion: example.com/v1\nkind: SetReplicas\nmetadata:\n  name: ${name}\n${spec}`;

/** What a refused config must give: the error's place, and its message (one line per violation). */
interface Refused {
  file: string;
  line: number;
  column: number;
  field: string;
  message: string;
}

/** Builds `dir` with the library and with the CLI: both fail with `refused`, the CLI with exit 1 and nothing on stdout; the program never ran. */
async function assertRefused(dir: string, name: string, refused: Refused): Promise<void> {
  await assert.rejects(build(dir, { trustedCatalogs: ['team'], cacheDir: cacheDir() }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError, String(e));
    assert.equal(e.code, 'FUNCTION_CONFIG_INVALID', e.message);
    assert.equal(e.message, refused.message);
    assert.deepEqual({ file: e.file, line: e.line, column: e.column, field: e.field }, { file: refused.file, line: refused.line, column: refused.column, field: refused.field });
    return true;
  });
  let out = '';
  let err = '';
  const saved = process.env['XDG_CACHE_HOME'];
  process.env['XDG_CACHE_HOME'] = cacheDir();
  try {
    assert.equal(await main(['build', dir, '--trusted-catalog', 'team'], { out: (s) => (out += s), err: (s) => (err += s) }), 1);
  } finally {
    if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
    else process.env['XDG_CACHE_HOME'] = saved;
  }
  assert.equal(out, '');
  assert.equal(err, `Error: ${refused.message}\n`);
  assert.equal(existsSync(marker(name)), false, 'the function ran');
}

/** Refused configs (a build names files relative to the directory built). */
const CASES: { name: string; files: Record<string, string>; refused: Refused }[] = [
  {
    name: 'wrong-type',
    files: { 'transformers.yaml': config('spec:\n  replicas: three\n') },
    refused: {
      file: 'transformers.yaml',
      line: 6,
      column: 13,
      field: 'spec.replicas',
      message: `transformers.yaml:6:13: spec.replicas of SetReplicas/scale: expected an integer, got string "three" ${SCHEMA_OF}`,
    },
  },
  {
    name: 'missing-nested',
    files: { 'transformers.yaml': config('spec:\n  strategy: Rolling\n') },
    // a field an object lacks is placed where the object is written
    refused: {
      file: 'transformers.yaml',
      line: 6,
      column: 3,
      field: 'spec.replicas',
      message: `transformers.yaml:6:3: spec of SetReplicas/scale: missing required field "replicas" ${SCHEMA_OF}`,
    },
  },
  {
    name: 'missing-top',
    files: { 'transformers.yaml': config('') },
    // ... and a field the config lacks at its top, at its `kind:`
    refused: { file: 'transformers.yaml', line: 2, column: 7, field: 'spec', message: `transformers.yaml:2:7: SetReplicas/scale: missing required field "spec" ${SCHEMA_OF}` },
  },
  {
    name: 'enum-and-unknown',
    files: { 'transformers.yaml': config('spec:\n  replicas: 2\n  strategy: Fast\n  replica: 3\n') },
    refused: {
      file: 'transformers.yaml',
      line: 7,
      column: 13,
      field: 'spec.strategy',
      message:
        `transformers.yaml:7:13: spec.strategy of SetReplicas/scale: unsupported value "Fast": must be one of "Rolling", "Recreate" ${SCHEMA_OF}\n` +
        `transformers.yaml:8:12: spec.replica of SetReplicas/scale: unknown field "replica" ${SCHEMA_OF}`,
    },
  },
  {
    name: 'second-document',
    files: { 'transformers.yaml': `${config('spec:\n  replicas: 1\n', 'first')}---\n${config('spec:\n  replicas: 1.5\n', 'second')}` },
    refused: {
      file: 'transformers.yaml',
      line: 13,
      column: 13,
      field: 'spec.replicas',
      message: `transformers.yaml:13:13: spec.replicas of SetReplicas/second: expected an integer, got number 1.5 ${SCHEMA_OF}`,
    },
  },
  {
    name: 'kustomization-inline',
    files: {
      'kustomization.yaml': `catalogs:\n- catalog.yaml\nresources:\n- cm.yaml\ntransformers:\n- |-\n${config('spec:\n  replicas: -1\n', 'inline').replace(/^/gm, '  ')}`,
    },
    refused: {
      file: 'kustomization.yaml',
      line: 12,
      column: 15,
      field: 'spec.replicas',
      message: `kustomization.yaml:12:15: spec.replicas of SetReplicas/inline: must be at least 0, got -1 ${SCHEMA_OF}`,
    },
  },
  {
    name: 'composition-inline',
    files: {
      'composition.yaml':
        'catalogs:\n- catalog.yaml\ntransformers:\n- apiVersion: builtin\n  kind: ResourceAccumulator\n  paths: [cm.yaml]\n' +
        `- ${config('spec:\n  replicas: "3"\n').replace(/\n(?!$)/g, '\n  ')}`,
    },
    refused: {
      file: 'composition.yaml',
      line: 12,
      column: 15,
      field: 'spec.replicas',
      message: `composition.yaml:12:15: spec.replicas of SetReplicas/scale: expected an integer, got string "3" ${SCHEMA_OF}`,
    },
  },
  {
    name: 'composition-inline-unnamed',
    files: {
      'composition.yaml': 'catalogs:\n- catalog.yaml\ntransformers:\n- apiVersion: example.com/v1\n  kind: SetReplicas\n',
    },
    // the Composition names it after its kind
    refused: {
      file: 'composition.yaml',
      line: 5,
      column: 9,
      field: 'spec',
      message: `composition.yaml:5:9: SetReplicas/set-replicas: missing required field "spec" ${SCHEMA_OF}`,
    },
  },
];

for (const c of CASES) {
  test(`a config the schema refuses (${c.name}) fails the build at its place, and the function never starts`, async () => {
    const dir = app(c.name, c.files);
    await assertRefused(dir, c.name, c.refused);
  });
}

test('a config the schema takes runs as before: unknown fields where the schema keeps them, and any metadata', async () => {
  const valid = config('spec:\n  replicas: 2\n  strategy: Recreate\n  selector:\n    matchLabels: {app: web}\n').replace('  name: scale\n', '  name: scale\n  annotations:\n    team: web\n');
  const dir = app('valid', { 'transformers.yaml': valid });
  const { yaml } = await build(dir, { trustedCatalogs: ['team'], cacheDir: cacheDir() });
  assert.equal(yaml, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: set-cm\n');
  assert.ok(existsSync(marker('valid')));
});

test('a version without a schema takes any config', async () => {
  const dir = app('no-schema', { 'transformers.yaml': config('spec:\n  replicas: three\n  anything: [1]\n') }, null);
  const { yaml } = await build(dir, { trustedCatalogs: ['team'], cacheDir: cacheDir() });
  assert.equal(yaml, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: set-cm\n');
});

test('a schema that is not a schema is CATALOG_INVALID naming the catalog and the schema’s field; nothing runs', async () => {
  const dir = app('bad-schema', { 'transformers.yaml': config('spec:\n  replicas: 1\n') }, '\n          type: object\n          properties:\n            spec: {type: integr}\n');
  await assert.rejects(build(dir, { trustedCatalogs: ['team'], cacheDir: cacheDir() }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError, String(e));
    assert.equal(e.code, 'CATALOG_INVALID', e.message);
    assert.equal(e.message, `invalid Catalog ${join(dir, 'catalog.yaml')}: spec.krmFunctions[0].versions[0].schema.openAPIV3Schema: invalid schema at /properties/spec/type: unknown type "integr"`);
    assert.deepEqual([e.file, e.field], ['catalog.yaml', 'spec.krmFunctions[0].versions[0].schema.openAPIV3Schema']);
    return true;
  });
  assert.equal(existsSync(marker('bad-schema')), false);
});

test('$refs resolve within the schema: a definition checks the config, one that is not a schema is CATALOG_INVALID when first followed', async () => {
  const withSpec = (spec: string) => `\n          type: object\n          properties:\n            spec: {$ref: '#/definitions/Spec'}\n          definitions:\n            Spec: ${spec}\n`;
  const typed = app('ref', { 'transformers.yaml': config('spec:\n  replicas: three\n') }, withSpec('{type: object, properties: {replicas: {type: integer}}}'));
  await assert.rejects(build(typed, { trustedCatalogs: ['team'], cacheDir: cacheDir() }), (e: unknown) => e instanceof KustomizeError && e.code === 'FUNCTION_CONFIG_INVALID' && e.line === 6 && /expected an integer, got string "three"/.test(e.message));
  const broken = app('ref-broken', { 'transformers.yaml': config('spec:\n  replicas: 1\n') }, withSpec('{type: [object, 7]}'));
  await assert.rejects(build(broken, { trustedCatalogs: ['team'], cacheDir: cacheDir() }), (e: unknown) => e instanceof KustomizeError && e.code === 'CATALOG_INVALID' && /openAPIV3Schema: invalid schema at \/definitions\/Spec\/type: unknown type 7$/.test(e.message));
  assert.equal(existsSync(marker('ref')) || existsSync(marker('ref-broken')), false);
});

test('a container function whose config is refused never starts: its container runtime is not run', async () => {
  // the container runtime: a program that notes it ran and gives back what it was given
  const runtime = (name: string) => join(tree({ runtime: `#!/bin/sh\ntouch '${marker(name)}'\ncat\n` }), 'runtime');
  const container = '        container:\n          image: example.com/set-replicas:v1\n';
  const dir = (spec: string) =>
    tree({ 'catalog.yaml': catalogYaml('team', setReplicas(container, SCHEMA)), 'cm.yaml': CM, 'kustomization.yaml': 'catalogs:\n- catalog.yaml\nresources:\n- cm.yaml\ntransformers:\n- transformers.yaml\n', 'transformers.yaml': config(spec) });
  const refused = build(dir('spec:\n  replicas: three\n'), { trustedCatalogs: ['team'], containerRuntime: runtime('container-refused') });
  await assert.rejects(refused, (e: unknown) => e instanceof KustomizeError && e.code === 'FUNCTION_CONFIG_INVALID' && e.line === 6);
  assert.equal(existsSync(marker('container-refused')), false);
  // (the same build with a config the schema takes runs it)
  const { yaml } = await build(dir('spec:\n  replicas: 3\n'), { trustedCatalogs: ['team'], containerRuntime: runtime('container-taken') });
  assert.equal(yaml, CM);
  assert.ok(existsSync(marker('container-taken')));
});

test('a Starlark function from a catalog is checked before its script is even read; the resolver’s own error names the config’s file', async () => {
  const dir = tree({ 'catalog.yaml': catalogYaml('team', setReplicas('        starlark: set.star\n', SCHEMA)), 'set.star': '' });
  const started: string[] = [];
  const { ctx, resolver } = setup(dir, { trustedCatalogs: ['team'] }, (script) => {
    started.push(script.uri);
    return { transform: () => {} };
  });
  const resolve = (spec: string) => resolver(['catalog.yaml']).resolve(resourcesFromText(config(spec), 'fn.yaml')[0]!, 'fn.yaml', ctx);
  await assert.rejects(resolve('spec:\n  replicas: three\n'), (e: unknown) => {
    assert.ok(e instanceof KustomizeError && e.code === 'FUNCTION_CONFIG_INVALID', String(e));
    // where the config is written is the build's to say (it knows the file)
    assert.equal(e.message, `fn.yaml: spec.replicas of SetReplicas/scale: expected an integer, got string "three" ${SCHEMA_OF}`);
    assert.deepEqual([e.file, e.line, e.field], [undefined, undefined, 'spec.replicas']);
    return true;
  });
  assert.deepEqual(started, []);
  await resolve('spec:\n  replicas: 3\n');
  assert.deepEqual(started, ['set.star']);
});

test('a version’s schema is read once per build, when a config first needs it; a version without one has none', async () => {
  const dir = tree({ 'catalog.yaml': catalogYaml('team', `${setReplicas('        starlark: set.star\n', SCHEMA)}    - name: v2\n      runtime:\n        starlark: set.star\n`) });
  const { store, loader } = setup(dir);
  const loaded = await store.load('catalog.yaml', loader);
  const fn = loaded.catalog.spec.krmFunctions[0]!;
  const [v1, v2] = fn.versions;
  assert.ok(loaded.configSchema(fn, v1!));
  assert.equal(loaded.configSchema(fn, v1!), loaded.configSchema(fn, v1!));
  assert.equal(loaded.configSchema(fn, v2!), undefined);
});
