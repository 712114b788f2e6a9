import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { readCatalog } from '../../src/catalog/catalog.js';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { readKustomization } from '../../src/kinds/kustomization.js';
import { kustomizeProfile } from '../../src/versions/profiles.js';

/** the default profile: what these tests read kustomizations as */
const PROFILE = kustomizeProfile('5.8.1', 'test');

const FILE = '/app/catalog.yaml';
const HEX = 'a'.repeat(64);

// The KEP's full example, with its placeholders made concrete.
const KEP_EXAMPLE = `apiVersion: config.kubernetes.io/v1alpha1
kind: Catalog
metadata:
  name: "example-co-functions"
  labels:
    author: ExampleCo
spec:
  krmFunctions:
  - group: example.com
    names:
      kind: SetNamespace
    description: "A short description of the KRM function"
    publisher: example.com
    versions:
      - name: v1
        schema:
          openAPIV3Schema: {type: object}
        idempotent: true
        runtime:
          container:
            image: docker.example.co/functions/set-namespace:v1.2.3
            sha256: ${HEX}
            requireNetwork: true
            requireStorageMount: false
        usage: https://example.com/usage.md
        examples:
          - https://example.com/example1.md
        license: Apache 2.0
    maintainers:
      - foo@example.com
    tags:
      - mutator
      - namespace
  - group: example.com
    names:
      kind: SetLogger
    publisher: example.com
    versions:
      - name: v1
        runtime:
          exec:
            platforms:
              - bin: foo-amd64-linux
                os: linux
                arch: amd64
                uri: https://example.com/foo-amd64-linux.tar.gz
                sha256: sha256:${HEX}
    home: https://example.com/home
`;

describe('readCatalog', () => {
  test("the KEP's example reads, every field kept", () => {
    const c = readCatalog(KEP_EXAMPLE, FILE);
    assert.equal(c.kind, 'Catalog');
    assert.deepEqual(c.metadata, { name: 'example-co-functions', labels: { author: 'ExampleCo' } });
    const [ns, logger] = c.spec.krmFunctions;
    assert.equal(ns!.names.kind, 'SetNamespace');
    assert.deepEqual(ns!.tags, ['mutator', 'namespace']);
    assert.deepEqual(ns!.versions[0]!.runtime.container, { image: 'docker.example.co/functions/set-namespace:v1.2.3', sha256: HEX, requireNetwork: true, requireStorageMount: false });
    assert.deepEqual(ns!.versions[0]!.schema, { openAPIV3Schema: { type: 'object' } });
    assert.equal(ns!.versions[0]!.idempotent, true);
    assert.equal(ns!.versions[0]!.license, 'Apache 2.0');
    assert.equal(logger!.versions[0]!.runtime.exec!.platforms[0]!.bin, 'foo-amd64-linux');
    assert.equal(logger!.home, 'https://example.com/home');
  });

  test('a runtime written once at the function level (the KEP prose form) applies to each version; a version runtime wins', () => {
    const c = readCatalog(
      `apiVersion: config.kubernetes.io/v1alpha1
kind: KRMFunctionCatalog
spec:
  krmFunctions:
  - group: example.com
    names: {kind: JavaApplication}
    versions:
    - name: v1
    - name: v2
      runtime: {starlark: fn.star}
    runtime:
      container:
        image: example/java:v1.0.0
`,
      FILE,
    );
    assert.equal(c.kind, 'KRMFunctionCatalog');
    const versions = c.spec.krmFunctions[0]!.versions;
    assert.deepEqual(versions[0]!.runtime, { container: { image: 'example/java:v1.0.0' } });
    assert.deepEqual(versions[1]!.runtime, { starlark: 'fn.star' });
    assert.ok(!('runtime' in c.spec.krmFunctions[0]!), 'the function-level runtime is folded into the versions');
  });

  const minimal = (fn: string) => `apiVersion: config.kubernetes.io/v1alpha1\nkind: Catalog\nspec:\n  krmFunctions:\n${fn}`;
  const platform = (fields: string) => minimal(`  - group: g\n    names: {kind: K}\n    versions:\n    - name: v1\n      runtime:\n        exec:\n          platforms:\n          - {${fields}}\n`);
  const full = `bin: b, os: linux, arch: amd64, uri: b.tar.gz, sha256: ${HEX}`;

  const cases: [string, string, string, RegExp][] = [
    ['wrong apiVersion', 'apiVersion: v1\nkind: Catalog\nspec: {krmFunctions: []}\n', 'apiVersion', /must be config\.kubernetes\.io\/v1alpha1/],
    ['wrong kind', 'apiVersion: config.kubernetes.io/v1alpha1\nkind: Kustomization\n', 'kind', /must be Catalog or KRMFunctionCatalog/],
    ['no functions', 'apiVersion: config.kubernetes.io/v1alpha1\nkind: Catalog\nspec: {krmFunctions: []}\n', 'spec.krmFunctions', /at least one function/],
    ['an unknown field', minimal('  - group: g\n    names: {kind: K}\n    versions:\n    - name: v1\n      runtim: {}\n'), 'spec.krmFunctions[0].versions[0].runtim', /unknown field "runtim"/],
    ['a wrong type', minimal('  - group: g\n    names: {kind: K}\n    versions:\n    - name: v1\n      idempotent: "yes"\n      runtime: {starlark: s}\n'), 'spec.krmFunctions[0].versions[0].idempotent', /cannot unmarshal string .* of type bool/],
    ['no group', minimal('  - names: {kind: K}\n    versions: [{name: v1, runtime: {starlark: s}}]\n'), 'spec.krmFunctions[0].group', /is required/],
    ['no kind', minimal('  - group: g\n    names: {}\n    versions: [{name: v1, runtime: {starlark: s}}]\n'), 'spec.krmFunctions[0].names.kind', /is required/],
    ['no versions', minimal('  - group: g\n    names: {kind: K}\n'), 'spec.krmFunctions[0].versions', /at least one version/],
    ['a version without a name', minimal('  - group: g\n    names: {kind: K}\n    versions: [{runtime: {starlark: s}}]\n'), 'spec.krmFunctions[0].versions[0].name', /is required/],
    ['no runtime anywhere', minimal('  - group: g\n    names: {kind: K}\n    versions: [{name: v1}]\n'), 'spec.krmFunctions[0].versions[0].runtime', /is required/],
    ['an empty runtime', minimal('  - group: g\n    names: {kind: K}\n    versions: [{name: v1, runtime: {}}]\n'), 'spec.krmFunctions[0].versions[0].runtime', /one of container, exec or starlark/],
    ['a container without an image', minimal('  - group: g\n    names: {kind: K}\n    versions: [{name: v1, runtime: {container: {sha256: x}}}]\n'), 'spec.krmFunctions[0].versions[0].runtime.container.image', /is required/],
    ['a container with a bad digest', minimal('  - group: g\n    names: {kind: K}\n    versions: [{name: v1, runtime: {container: {image: i, sha256: abc}}}]\n'), 'spec.krmFunctions[0].versions[0].runtime.container.sha256', /'abc' is not a sha256 digest/],
    ['exec without platforms', minimal('  - group: g\n    names: {kind: K}\n    versions: [{name: v1, runtime: {exec: {}}}]\n'), 'spec.krmFunctions[0].versions[0].runtime.exec.platforms', /at least one platform/],
    ['a platform without a uri', platform(`bin: b, os: linux, arch: amd64, sha256: ${HEX}`), 'spec.krmFunctions[0].versions[0].runtime.exec.platforms[0].uri', /is required/],
    ['a platform without a bin', platform(`os: linux, arch: amd64, uri: u, sha256: ${HEX}`), 'spec.krmFunctions[0].versions[0].runtime.exec.platforms[0].bin', /is required/],
    ['an os the schema does not list', platform(full.replace('os: linux', 'os: plan9')), 'spec.krmFunctions[0].versions[0].runtime.exec.platforms[0].os', /'plan9' is not one of linux, darwin, windows/],
    ['an arch the schema does not list', platform(full.replace('arch: amd64', 'arch: riscv64')), 'spec.krmFunctions[0].versions[0].runtime.exec.platforms[0].arch', /'riscv64' is not one of amd64, arm64/],
    ['a platform without a digest', platform('bin: b, os: linux, arch: amd64, uri: b.tar.gz'), 'spec.krmFunctions[0].versions[0].runtime.exec.platforms[0].sha256', /is required: an exec function is only run when its digest is known/],
    ['a platform with a malformed digest', platform(full.replace(HEX, 'z'.repeat(64))), 'spec.krmFunctions[0].versions[0].runtime.exec.platforms[0].sha256', /is not a sha256 digest/],
  ];
  for (const [name, text, field, message] of cases) {
    test(`refused: ${name}, naming the file and ${field}`, () => {
      assert.throws(
        () => readCatalog(text, FILE),
        (e: unknown) => {
          assert.ok(e instanceof KustomizeError, String(e));
          assert.equal(e.code, 'CATALOG_INVALID');
          assert.equal(e.file, FILE);
          assert.equal(e.field, field);
          assert.ok(e.message.startsWith(`invalid Catalog ${FILE}: ${field}: `), e.message);
          assert.match(e.message, message);
          return true;
        },
      );
    });
  }
});

test('catalogs: is a Kustomization and Component field', () => {
  const k = readKustomization('catalogs:\n- catalog.yaml\n- oci://r.example/c:v1\nresources:\n- a.yaml\n', '/k/kustomization.yaml', '/k', { program: 'kustomize-ts', warn: () => {} }, PROFILE);
  assert.deepEqual(k.catalogs, ['catalog.yaml', 'oci://r.example/c:v1']);
  const c = readKustomization('apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncatalogs:\n- c.yaml\n', '/k/kustomization.yaml', '/k', { program: 'kustomize-ts', warn: () => {} }, PROFILE);
  assert.deepEqual(c.catalogs, ['c.yaml']);
});

test('a kustomization listing catalogs no step needs builds without fetching them (unreachable or missing)', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'catalogs:\n- http://127.0.0.1:1/catalog.yaml\n- oci://127.0.0.1:1/catalogs/c:v1\n- missing.yaml\nresources:\n- cm.yaml\nnamePrefix: p-\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
  });
  assert.equal((await build('/app', { fs })).yaml, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: p-cm\n');
});

test('offline, a catalog in an OCI registry is not pulled: without a remote cache to read it from, the error says so', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'catalogs:\n- oci://127.0.0.1:1/catalogs/c:v1\ntransformers:\n- fn.yaml\n',
    'app/fn.yaml': 'apiVersion: example.com/v1\nkind: Renamer\nmetadata:\n  name: r\n',
  });
  await assert.rejects(build('/app', { fs, offline: true }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.match(e.message, /loading catalog 'oci:\/\/127\.0\.0\.1:1\/catalogs\/c:v1': offline: 'oci:\/\/127\.0\.0\.1:1\/catalogs\/c:v1' is not in a remote cache \(none was given: --remote-cache DIR\)/);
    return true;
  });
});
