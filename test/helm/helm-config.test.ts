/**
 * The parts of `helmCharts` that need no real helm: gating, configuration errors, the values
 * file kustomize writes, and helm's process handling (with small stand-in scripts). The expected
 * texts are what kubectl v1.33 (kustomize v5.6.0) printed for the same input.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { inlineValuesFile } from '../../src/helm/values.js';
import { OpenApiSchemaSetting } from '../../src/openapi/schema.js';
import { DUMP_CHART_VALUES } from './charts.js';

function tree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kts-helm-config-')));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text, { mode: path.endsWith('.sh') ? 0o755 : 0o644 });
  }
  return root;
}

async function buildError(dir: string, options: Parameters<typeof build>[1] = {}): Promise<KustomizeError> {
  try {
    await build(dir, options);
  } catch (e) {
    assert.ok(e instanceof KustomizeError, String(e));
    return e;
  }
  assert.fail('the build succeeded');
}

const chart = {
  'charts/c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
  'charts/c/values.yaml': 'replicaCount: 1\n',
};

test('without --enable-helm a helmCharts entry is refused first, with the config kustomize passes the plugin', async () => {
  const dir = tree({
    'kustomization.yaml': [
      // a generator that would fail too: kustomize configures helm before it runs any generator
      'configMapGenerator:',
      '- name: x',
      '  files: [missing.txt]',
      'helmGlobals:',
      '  configHome: /tmp/helm-config',
      'helmCharts:',
      '- name: demo',
      '  releaseName: x',
      '  includeCRDs: false',
      '  apiVersions: []',
      '  valuesInline:',
      '    n: ~',
      '    t: 2020-01-01',
      '    f: 1.0',
      '    s: "yes"',
      '',
    ].join('\n'),
  });
  const e = await buildError(dir);
  assert.equal(e.code, 'PLUGIN_DISABLED');
  assert.equal(
    e.message,
    'trouble configuring builtin HelmChartInflationGenerator with config: `\nconfigHome: /tmp/helm-config\nname: demo\nreleaseName: x\nvaluesInline:\n  f: 1\n  "false": null\n  s: "yes"\n  t: "2020-01-01"\n`: must specify --enable-helm',
  );
});

test('the builtin plugin form needs --enable-helm too', async () => {
  const dir = tree({
    'kustomization.yaml': 'generators:\n- |-\n  apiVersion: builtin\n  kind: HelmChartInflationGenerator\n  metadata:\n    name: foo\n  name: demo\n',
  });
  const e = await buildError(dir);
  assert.match(e.message, /plugin HelmChartInflationGenerator\.builtin\.\[noGrp\]\/foo\.\[noNs\] fails configuration: must specify --enable-helm$/);
});

test("configuration errors in kustomize's words", async () => {
  const cases: [string, string][] = [
    ['helmCharts:\n- releaseName: x\n', 'trouble configuring builtin HelmChartInflationGenerator with config: `\nreleaseName: x\n`: chart name cannot be empty'],
    [
      'helmCharts:\n- name: demo\n  valuesMerge: bogus\n',
      'trouble configuring builtin HelmChartInflationGenerator with config: `\nname: demo\nvaluesMerge: bogus\n`: valuesMerge must be one of [merge override replace]',
    ],
  ];
  for (const [k, message] of cases) {
    const e = await buildError(tree({ 'kustomization.yaml': k }), { enableHelm: true });
    assert.equal(e.message, message);
  }
  // the plugin's config is read as kustomize reads it: `metadata.name` does not name the chart
  const plugin = tree({ 'kustomization.yaml': 'generators:\n- |-\n  apiVersion: builtin\n  kind: HelmChartInflationGenerator\n  metadata:\n    name: demo\n' });
  assert.match((await buildError(plugin, { enableHelm: true })).message, /fails configuration: chart name cannot be empty$/);
});

test('values files are read under the load restriction', async () => {
  const root = tree({ 'outside/v.yaml': 'a: 1\n', ...prefixed('app/', chart) });
  writeFileSync(join(root, 'app/kustomization.yaml'), 'helmCharts:\n- name: c\n  additionalValuesFiles: [../outside/v.yaml]\n');
  const e = await buildError(join(root, 'app'), { enableHelm: true });
  assert.equal(e.code, 'LOAD_RESTRICTED');
  assert.equal(
    e.message,
    `trouble configuring builtin HelmChartInflationGenerator with config: \`\nadditionalValuesFiles:\n- ../outside/v.yaml\nname: c\n\`: could not load additionalValuesFile: security; file '${root}/outside/v.yaml' is not in or below '${root}/app'`,
  );
});

// ---------------------------------------------------------------------------------------------
// The values file (expected texts: the files kustomize v5.6.0 wrote for helm)

const schema = new OpenApiSchemaSetting().schema();
const chartValues = DUMP_CHART_VALUES;
// `valuesInline` as kustomize decodes it (`on: on` is `"true": true` in YAML 1.1)
const inline = {
  a: { b: 5, c: null, d: null },
  list: [{ name: 'w' }],
  plain: null,
  nested: { deep: null },
  newnull: null,
  str: 'yes',
  ts: '2020-01-01',
  true: true,
  f: 1.5,
};

test('valuesMerge: override puts the inline values over the chart values', () => {
  assert.equal(
    inlineValuesFile(inline, 'override', chartValues, 'values.yaml', schema),
    'a:\n  b: 5\nf: 1.5\nlist:\n- name: w\nnested: {}\nstr: "yes"\nt: "2020-01-01T00:00:00Z"\n"true": true\nts: "2020-01-01"\nyes1: "yes"\nz: null\nzero: 5\n',
  );
});

test('valuesMerge: merge puts the chart values over the inline values', () => {
  assert.equal(
    inlineValuesFile(inline, 'merge', chartValues, 'values.yaml', schema),
    'a:\n  c: 2\n  d: null\nf: 1.5\nlist:\n- name: x\nnested:\n  deep:\n    k: v\nnewnull: null\nplain:\n- 1\n- 2\nstr: "yes"\nt: "2020-01-01T00:00:00Z"\n"true": true\nts: "2020-01-01"\nyes1: "yes"\nzero: 5\n',
  );
});

test('valuesMerge: replace gives the inline values alone', () => {
  assert.equal(
    inlineValuesFile(inline, 'replace', undefined, 'values.yaml', schema),
    'a:\n  b: 5\n  c: null\n  d: null\nf: 1.5\nlist:\n- name: w\nnested:\n  deep: null\nnewnull: null\nplain: null\nstr: "yes"\n"true": true\nts: "2020-01-01"\n',
  );
});

test('values files kustomize cannot merge', () => {
  assert.throws(() => inlineValuesFile({ a: 1 }, 'override', '# only a comment\n', 'values.yaml', schema), /^KustomizeError: could not parse values file into rnode: EOF$/);
  assert.throws(
    () => inlineValuesFile({ a: 1 }, 'override', '- a\n', 'values.yaml', schema),
    /^KustomizeError: could not merge values: wrong node kind: expected SequenceNode but got MappingNode: node contents:\na: 1$/,
  );
  assert.throws(
    () => inlineValuesFile({ k: { m: [1], y: 1 } }, 'override', 'k:\n  m: scalar\n', 'values.yaml', schema),
    /^KustomizeError: could not merge values: wrong node kind: expected ScalarNode but got SequenceNode: node contents:\n- 1$/,
  );
  assert.throws(() => inlineValuesFile({ a: 1 }, 'override', 'inf: .inf\n', 'values.yaml', schema), /^KustomizeError: error marshaling into JSON: json: unsupported value: \+Inf$/);
});

// ---------------------------------------------------------------------------------------------
// helm as a process (stand-in scripts)

const fakeHelm = (template: string) =>
  `#!/bin/sh\nif [ "$1" = version ]; then echo v3.18.0+gcc58e3f; exit 0; fi\nif [ "$1" = template ]; then\n${template}\nfi\nexit 9\n`;

test('helm gets the values file, its homes, and the arguments kustomize gives it; what it prints becomes resources', async () => {
  const dir = tree({
    ...chart,
    'more.yaml': 'x: 1\n',
    'helm.sh': fakeHelm(
      [
        'cat <<EOF',
        'some chatter before the first document',
        '---',
        '# Source: c/templates/cm.yaml',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: out',
        'data:',
        '  args: "$*"',
        '  home: "$HELM_CONFIG_HOME|$HELM_CACHE_HOME|$HELM_DATA_HOME"',
        '---',
        'EOF',
        'exit 0',
      ].join('\n'),
    ),
    'kustomization.yaml': [
      'helmGlobals:',
      '  configHome: /cfg',
      'helmCharts:',
      '- name: c',
      '  releaseName: r',
      '  namespace: ns',
      '  nameTemplate: tpl',
      '  additionalValuesFiles: [more.yaml]',
      '  apiVersions: [a/v1, b/v1]',
      '  kubeVersion: "1.30"',
      '  includeCRDs: true',
      '  skipTests: true',
      '  skipHooks: true',
      '  debug: true',
      '  devel: true',
      '',
    ].join('\n'),
  });
  const { resources } = await build(dir, { enableHelm: true, helmCommand: join(dir, 'helm.sh') });
  assert.equal(resources.length, 1);
  const data = resources[0]!.obj['data'] as Record<string, string>;
  assert.match(
    data['args']!,
    new RegExp(
      `^template --namespace ns --name-template tpl -f /\\S+/kustomize-helm-\\w+/c-kustomize-values\\.yaml -f ${dir}/more\\.yaml ` +
        `--api-versions a/v1 --api-versions b/v1 --kube-version 1\\.30 --include-crds --skip-tests --no-hooks --debug --devel -- r ${dir}/charts/c$`,
    ),
  );
  assert.equal(data['home'], '/cfg|/cfg/.cache|/cfg/.data');
});

test('a failing helm: its stderr before the command and the exit status', async () => {
  const dir = tree({ ...chart, 'helm.sh': fakeHelm('echo "Error: something broke" >&2\nexit 2'), 'kustomization.yaml': 'helmCharts:\n- name: c\n' });
  const e = await buildError(dir, { enableHelm: true, helmCommand: join(dir, 'helm.sh') });
  assert.equal(e.code, 'PLUGIN_FAILED');
  assert.match(
    e.message,
    new RegExp(
      `^Error: something broke\\n: unable to run: '${dir}/helm\\.sh template -f (\\S+)/c-kustomize-values\\.yaml --generate-name -- ${dir}/charts/c' ` +
        `with env=\\[HELM_CONFIG_HOME=\\1/helm HELM_CACHE_HOME=\\1/helm/\\.cache HELM_DATA_HOME=\\1/helm/\\.data\\] \\(is '${dir}/helm\\.sh' installed\\?\\): exit status 2$`,
    ),
  );
});

test('only helm 3 (or 4) will do', async () => {
  const dir = tree({ ...chart, 'helm.sh': '#!/bin/sh\necho v2.17.0\n', 'kustomization.yaml': 'helmCharts:\n- name: c\n' });
  const e = await buildError(dir, { enableHelm: true, helmCommand: join(dir, 'helm.sh') });
  assert.equal(e.message, 'this plugin requires helm V3 or V4 but got v2.17.0');
});

function prefixed(prefix: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [prefix + k, v]));
}
