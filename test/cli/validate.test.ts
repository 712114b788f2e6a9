/**
 * `kustomize-ts validate` and `build --validate`, run as users run them (the launcher as a child
 * process): exit codes, files named from the working directory, each report format, `--all` over
 * a tree with a root that fails, and bad command lines.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCommand, type Run } from './run-command.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = nodePath.join(REPO, 'bin', 'kustomize-ts.js');

const DEPLOYMENT = (replicas: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n`;
const TREE: Record<string, string> = {
  'apps/good/kustomization.yaml': 'resources:\n- deployment.yaml\n',
  'apps/good/deployment.yaml': DEPLOYMENT('2'),
  'apps/bad/kustomization.yaml': 'resources:\n- ../good\npatches:\n- path: replicas.yaml\n',
  'apps/bad/replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: "three"\n',
  'apps/broken/kustomization.yaml': 'resources:\n- missing.yaml\n',
  'apps/custom/kustomization.yaml': 'resources:\n- widget.yaml\n',
  'apps/custom/widget.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: big\n',
  'crds/widget.yaml':
    'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              size: {type: integer}\n',
};

const top = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-cli-validate-'));
after(() => nodeFs.rmSync(top, { recursive: true, force: true }));
for (const [path, text] of Object.entries(TREE)) {
  nodeFs.mkdirSync(nodePath.dirname(nodePath.join(top, path)), { recursive: true });
  nodeFs.writeFileSync(nodePath.join(top, path), text);
}

function cli(args: string[], cwd = top): Promise<Run> {
  return runCommand(process.execPath, [BIN, ...args], { cwd, env: process.env });
}

test('validate: exit 0 and the totals for a valid output, exit 1 and each error at its line, named from the working directory', async () => {
  const good = await cli(['validate', 'apps/good']);
  assert.equal(good.status, 0, good.stderr);
  assert.equal(good.stdout, '1 resource: 1 valid, 0 skipped; 0 errors, 0 warnings\n');
  const bad = await cli(['validate', 'bad'], nodePath.join(top, 'apps'));
  assert.equal(bad.status, 1);
  assert.equal(bad.stdout, 'bad/replicas.yaml:6:13: Deployment/web: /spec/replicas: expected an integer, got string "three"\n1 resource: 0 valid, 0 skipped; 1 error, 0 warnings\n');
});

test('validate: a kind with no schema is an error unless ignored, and a CRD given with --schema checks it', async () => {
  const missing = await cli(['validate', 'apps/custom']);
  assert.equal(missing.status, 1);
  assert.match(missing.stdout, /^apps\/custom\/widget\.yaml:2:7: Widget\/w: no schema for example\.com\/v1 Widget/);
  const ignored = await cli(['validate', 'apps/custom', '--ignore-missing-schemas']);
  assert.equal(ignored.status, 0);
  assert.equal(ignored.stdout, '1 resource: 0 valid, 1 skipped; 0 errors, 0 warnings\n');
  const given = await cli(['validate', 'apps/custom', '--schema', 'crds']);
  assert.equal(given.status, 1);
  assert.equal(given.stdout, 'apps/custom/widget.yaml:6:9: Widget/w: /spec/size: expected an integer, got string "big"\n1 resource: 0 valid, 0 skipped; 1 error, 0 warnings\n');
});

test('validate --format json: the fixed shape', async () => {
  const r = await cli(['validate', 'apps/bad', '--format', 'json']);
  assert.equal(r.status, 1);
  assert.deepEqual(JSON.parse(r.stdout), {
    resources: 1,
    valid: 0,
    skipped: 0,
    errors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: '', name: 'web', pointer: '/spec/replicas', message: 'expected an integer, got string "three"', file: 'apps/bad/replicas.yaml', line: 6, column: 13, step: 'patches[0]' }],
    warnings: [],
  });
});

test('validate --format sarif: SARIF 2.1.0, the source as the location, the rendered resource as a related one', async () => {
  const r = await cli(['validate', 'apps/bad', '--format', 'sarif']);
  assert.equal(r.status, 1);
  const sarif = JSON.parse(r.stdout) as { version: string; runs: { tool: { driver: { name: string; rules: { id: string }[] } }; results: Record<string, unknown>[] }[] };
  assert.equal(sarif.version, '2.1.0');
  const [run] = sarif.runs;
  assert.equal(run!.tool.driver.name, 'kustomize-ts');
  assert.ok(run!.tool.driver.rules.some((rule) => rule.id === 'schema'));
  assert.deepEqual(run!.results, [
    {
      ruleId: 'schema',
      level: 'error',
      message: { text: 'Deployment/web: /spec/replicas: expected an integer, got string "three"' },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'apps/bad/replicas.yaml', uriBaseId: '%SRCROOT%' }, region: { startLine: 6, startColumn: 13 } } }],
      relatedLocations: [{ id: 1, message: { text: 'the rendered Deployment web at /spec/replicas' }, logicalLocations: [{ fullyQualifiedName: 'apps/v1/Deployment/web/spec/replicas', kind: 'resource' }] }],
      properties: { step: 'patches[0]', pointer: '/spec/replicas' },
    },
  ]);
});

test('validate --format junit: a case per resource, failed by its errors', async () => {
  const r = await cli(['validate', 'apps/bad', '--format', 'junit']);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="kustomize-ts validate" tests="1" failures="1" errors="0" skipped="0">\n  <testsuite name="apps\/bad" tests="1" failures="1"/);
  assert.match(r.stdout, /<testcase classname="apps\/bad: apps\/v1" name="Deployment\/web">\n      <failure type="schema" message="1 error: expected an integer, got string &quot;three&quot;">apps\/bad\/replicas.yaml:6:13: \/spec\/replicas: expected an integer, got string &quot;three&quot;<\/failure>/);
});

test('validate --all: every root, a root that fails to build an error of its own, exit 1', async () => {
  const r = await cli(['validate', '--all', '.', '--ignore-missing-schemas', '--jobs', '2']);
  assert.equal(r.status, 1);
  const lines = r.stdout.trimEnd().split('\n');
  assert.deepEqual(lines.slice(0, 2), ['apps/bad/replicas.yaml:6:13: Deployment/web: /spec/replicas: expected an integer, got string "three"', lines[1]]);
  assert.match(lines[1]!, /^apps\/broken\/missing\.yaml: accumulating resources: /);
  assert.equal(lines.at(-1), '4 roots (1 failed to build), 3 resources: 1 valid, 1 skipped; 2 errors, 0 warnings');
  const json = JSON.parse((await cli(['validate', '--all', '.', '--ignore-missing-schemas', '--format', 'json'])).stdout) as { roots: { path: string; errors: { step: string }[] }[] };
  assert.deepEqual(
    json.roots.map((root) => [root.path, root.errors.map((e) => e.step)]),
    [['apps/bad', ['patches[0]']], ['apps/broken', ['build']], ['apps/custom', []], ['apps/good', []]],
  );
});

test('build --validate: the output only when valid; else the report on stderr, nothing written, exit 1', async () => {
  const good = await cli(['build', '--validate', 'apps/good']);
  assert.equal(good.status, 0, good.stderr);
  assert.equal(good.stdout, (await cli(['build', 'apps/good'])).stdout);
  const out = nodePath.join(top, 'out.yaml');
  const bad = await cli(['build', '--validate', 'apps/bad', '-o', out]);
  assert.equal(bad.status, 1);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^apps\/bad\/replicas\.yaml:6:13: Deployment\/web: \/spec\/replicas: expected an integer/);
  assert.equal(nodeFs.existsSync(out), false);
});

test('bad command lines exit 2: an unknown format, an unknown Kubernetes version, --all flags without --all, validation flags without --validate', async () => {
  const format = await cli(['validate', 'apps/good', '--format', 'yaml']);
  assert.equal(format.status, 2);
  assert.match(format.stderr, /--format 'yaml': expected text, json, sarif, junit/);
  const version = await cli(['validate', 'apps/good', '--kubernetes-version', '1.19']);
  assert.equal(version.status, 2);
  assert.match(version.stderr, /unknown Kubernetes version '1\.19': the schemas shipped are those of 1\.36, 1\.32/);
  assert.equal((await cli(['validate', 'apps/good', '--jobs', '2'])).status, 2);
  const strict = await cli(['build', 'apps/good', '--strict']);
  assert.equal(strict.status, 1);
  assert.match(strict.stderr, /--strict goes with --validate/);
  const missingSchema = await cli(['validate', 'apps/good', '--schema', 'nowhere']);
  assert.notEqual(missingSchema.status, 0);
  assert.match(missingSchema.stderr, /--schema nowhere: no such file or directory/);
});
