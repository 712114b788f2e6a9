import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { catalogCommand } from '../../src/cli/commands/catalog.js';
import { parseFlags } from '../../src/cli/flags.js';
import { KustomizeError } from '../../src/errors.js';
import { parseYamlDocument } from '../../src/yaml/parse.js';
import { startServer } from '../load/git-http-server.js';
import { tree } from './harness.js';

// `kustomize-ts catalog view REF`, run in-process through its Command.

const HEX = 'ab'.repeat(32);
const CATALOG = `apiVersion: config.kubernetes.io/v1alpha1
kind: Catalog
metadata:
  name: example-co-functions
  labels:
    author: ExampleCo
spec:
  krmFunctions:
  - group: example.com
    names:
      kind: SetNamespace
    description: Sets the namespace
    publisher: example.com
    versions:
    - name: v1
      idempotent: true
      license: Apache 2.0
      usage: https://example.com/usage.md
      runtime:
        container:
          image: docker.example.co/functions/set-namespace:v1.2.3
          sha256: ${HEX}
          requireNetwork: true
    maintainers: [foo@example.com]
    tags: [mutator]
  - group: banana.co
    names:
      kind: Split
    publisher: banana.co
    versions:
    - name: v1
    - name: v2
    runtime:
      exec:
        platforms:
        - {bin: split, os: linux, arch: amd64, uri: https://banana.co/split.tar.gz, sha256: ${HEX}}
`;

const dir = tree({ 'catalog.yaml': CATALOG });
let server: { url: string; close: () => Promise<void> };
before(async () => (server = await startServer(dir, dir)));
after(async () => server?.close());

const view = catalogCommand.subcommands!.find((c) => c.name === 'view')!;
async function run(args: string[]): Promise<string> {
  let out = '';
  const code = await view.run!(parseFlags(args, view.flags), { out: (s) => (out += s), err: () => {} });
  assert.equal(code, 0);
  return out;
}

test('catalog view prints the name, labels, publishers and, per function, kind, versions, runtime with digests, description and requirements', async () => {
  assert.equal(
    await run([join(dir, 'catalog.yaml')]),
    `Catalog:    example-co-functions
Reference:  ${join(dir, 'catalog.yaml')}
Labels:     author=ExampleCo
Publishers: example.com, banana.co
Functions:  2

example.com/SetNamespace
  description: Sets the namespace
  publisher: example.com
  maintainers: foo@example.com
  tags: mutator
  versions: v1
  v1:
    runtime: container docker.example.co/functions/set-namespace:v1.2.3 (sha256 ${HEX})
    requires: network (--network)
    idempotent: true
    license: Apache 2.0
    usage: https://example.com/usage.md

banana.co/Split
  publisher: banana.co
  versions: v1, v2
  v1:
    runtime: exec (runs a program on this machine, outside any container)
      linux/amd64: split from https://banana.co/split.tar.gz (sha256 ${HEX})
  v2:
    runtime: exec (runs a program on this machine, outside any container)
      linux/amd64: split from https://banana.co/split.tar.gz (sha256 ${HEX})
`,
  );
});

test('catalog view -o yaml and -o json print the catalog as read, runtimes on each version; a URL works like a path', async () => {
  const yaml = parseYamlDocument(await run([`${server.url}/catalog.yaml`, '-o', 'yaml'])) as Record<string, any>;
  const json = JSON.parse(await run(['--output=json', `${server.url}/catalog.yaml`]));
  assert.deepEqual(yaml, json);
  assert.equal(json.metadata.name, 'example-co-functions');
  assert.deepEqual(json.spec.krmFunctions[1].versions[1].runtime.exec.platforms[0].sha256, HEX);
  assert.equal(json.spec.krmFunctions[0].versions[0].runtime.container.requireNetwork, true);
});

test('catalog view: usage errors and an invalid catalog', async () => {
  const usage = (args: string[], pattern: RegExp) =>
    assert.rejects(run(args), (e: unknown) => e instanceof KustomizeError && e.code === 'USAGE' && pattern.test(e.message));
  await usage([], /takes one catalog reference; got 0/);
  await usage([join(dir, 'catalog.yaml'), '-o', 'xml'], /legal values: \[yaml json\]/);
  const bad = tree({ 'catalog.yaml': 'apiVersion: v1\nkind: Catalog\n' });
  await assert.rejects(run([join(bad, 'catalog.yaml')]), (e: unknown) => e instanceof KustomizeError && e.code === 'CATALOG_INVALID');
  assert.deepEqual(catalogCommand.subcommands!.map((c) => c.name), ['view']);
});
