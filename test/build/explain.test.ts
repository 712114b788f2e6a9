/**
 * `explain` and `build(dir, { provenance: true })`. The cases in test/explain/<case> are laid out
 * as the fixtures are (input/, options.json: build options, explain.yaml: known answers) and
 * cover the steps that run programs: helm, a KRM function, Starlark and a Composition (the last
 * two's input/ are links to the examples they explain). The
 * builtin transformers' known answers are in test/fixtures/<case>/explain.yaml, checked with
 * every fixture in test/pipeline/fixtures.test.ts. Here too: every value printed has its record.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from '../../src/build/build.js';
import { helm, skipHelm } from '../helm/helm-env.js';
import { runCommand, type Run } from '../cli/run-command.js';
import { checkExplanation, checkKnownAnswers } from './explain-checks.js';

const CASES = fileURLToPath(new URL('../../../test/explain/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));

const cli = (args: string[]): Promise<Run> => runCommand(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' } });

describe('explain cases', () => {
  for (const name of nodeFs.readdirSync(CASES).sort()) {
    const dir = nodePath.join(CASES, name);
    const options = JSON.parse(nodeFs.readFileSync(nodePath.join(dir, 'options.json'), 'utf8')) as BuildOptions;
    const usesHelm = options.enableHelm === true;
    test(name, { skip: usesHelm && skipHelm }, async () => {
      const opts: BuildOptions = { ...options, ...(usesHelm && { helmCommand: helm() }), warn: () => {} };
      const input = nodePath.join(dir, 'input');
      const explained = await build(input, { ...opts, provenance: true });
      checkExplanation(await build(input, opts), explained, input);
      checkKnownAnswers(explained, nodeFs.readFileSync(nodePath.join(dir, 'explain.yaml'), 'utf8'));
    });
  }
});

describe('explain on the command line', () => {
  const overlay = nodePath.join(FIXTURES, 'base-overlay-affixes', 'input', 'overlay');

  test('text: the output with who wrote each line, like git blame', async () => {
    const [explained, built] = await Promise.all([cli(['explain', overlay]), cli(['build', overlay])]);
    assert.equal(explained.status, 0, explained.stderr);
    const lines = explained.stdout.split('\n');
    // the YAML is build's, each line with a value followed by its origin
    assert.equal(lines.map((l) => l.replace(/ +# .*$/, '')).join('\n'), built.stdout);
    assert.ok(lines.includes('  name: staging-web-v2                       # nameSuffix kustomization.yaml:4:13'), explained.stdout);
    assert.ok(lines.some((l) => /^ {4}app: web +# resource \.\.\/base\/deployment\.yaml:6:10$/.test(l)), explained.stdout);
  });

  test('json: the library records, in the fixed shape', async () => {
    const r = await cli(['explain', overlay, '--format', 'json']);
    assert.equal(r.status, 0, r.stderr);
    const printed = JSON.parse(r.stdout) as { resources: unknown[] };
    const library = await build(overlay, { reorder: 'legacy', provenance: true });
    assert.deepEqual(printed, { resources: library.provenance });
    const deployment = library.provenance!.find((p) => p.kind === 'Deployment')!;
    assert.deepEqual(Object.keys(deployment), ['apiVersion', 'kind', 'namespace', 'name', 'fields']);
    assert.deepEqual(Object.keys(deployment.fields[0]!), ['path', 'value', 'by', 'history']);
  });

  test('--resource and --field: one field with its history', async () => {
    const r = await cli(['explain', overlay, '--resource', 'Deployment/staging/staging-web-v2', '--field', 'metadata.name']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        'apps/v1 Deployment staging/staging-web-v2',
        '  metadata.name: "staging-web-v2"  # nameSuffix kustomization.yaml:4:13',
        '    was "staging-web"  # namePrefix kustomization.yaml:3:13',
        '    was "web"  # resource ../base/deployment.yaml:4:9',
        '',
      ].join('\n'),
    );
  });

  test('--resource or --field that selects nothing is an error naming what there is', async () => {
    const resource = await cli(['explain', overlay, '--resource', 'Deployment/nope']);
    assert.equal(resource.status, 1);
    assert.match(resource.stderr, /--resource 'Deployment\/nope' matches no resource of the output; it has: .*Deployment\/staging\/staging-web-v2/);
    const field = await cli(['explain', overlay, '--resource', 'Service/staging-web-v2', '--field', 'spec.nope']);
    assert.equal(field.status, 1);
    assert.match(field.stderr, /--field 'spec\.nope' matches no field of 'Service\/staging-web-v2'; its fields: apiVersion, kind, .*spec\.ports\[0\]\.port/);
  });

  test('a tree that fails to build fails as build does', async () => {
    for (const name of ['err-missing-resource', 'err-patch-no-target-match', 'err-var-unmapped']) {
      const dir = nodePath.join(FIXTURES, name, 'input');
      const [explained, built] = await Promise.all([cli(['explain', dir]), cli(['build', dir])]);
      assert.notEqual(built.status, 0);
      assert.deepEqual({ status: explained.status, stderr: explained.stderr, stdout: explained.stdout }, { status: built.status, stderr: built.stderr, stdout: '' }, name);
    }
  });
});
