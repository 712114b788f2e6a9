/**
 * `helmCharts` with a real helm (scripts/setup-helm.sh), checked against the reference: the
 * same trees built by `kubectl kustomize --enable-helm` of kubectl v1.33 (kustomize v5.6.0),
 * byte for byte, plus focused assertions on what each option does.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { parseYamlDocuments } from '../../src/yaml/parse.js';
import { isMap } from '../../src/yaml/value.js';
import { dumpChart, richChart } from './charts.js';
import { requireTool } from '../require-tool.js';
import { copyTree, errorText, helm, helmEnv, listTree, ours, runHelm, serveDirectory, skipHelm, writeTree, type Outcome } from './helm-env.js';

const kubectl = requireTool('kubectl');
/** The `skip` option of tests that compare with kubectl kustomize. */
const skipKubectl = skipHelm || kubectl.skip;

/**
 * `kubectl kustomize DIR --enable-helm --helm-command <helm> ...`: kustomize v5.6.0. Asynchronous,
 * so that a chart repository served by this process can answer it.
 */
function theirs(dir: string, flags: string[] = []): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(kubectl.path, ['kustomize', dir, '--enable-helm', '--helm-command', helm(), ...flags], { env: helmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Builds the tree with both; they must agree on the output (and on success). */
async function sameAsKubectl(dir: string, flags: string[] = []): Promise<Outcome> {
  const mine = await ours(dir, flags);
  const ref = await theirs(dir, flags);
  assert.equal(ref.code, 0, `kubectl failed: ${ref.stderr}`);
  assert.equal(mine.stderr, '', 'kustomize-ts printed on stderr');
  assert.equal(mine.code, 0);
  assert.equal(mine.stdout, ref.stdout);
  return mine;
}

/** The values helm rendered a dump chart's ConfigMap with. */
function dumpedValues(yaml: string, release: string): Record<string, unknown> {
  const doc = parseYamlDocuments(yaml).find((d) => isMap(d) && isMap(d['metadata']) && d['metadata']['name'] === `${release}-dump`);
  assert.ok(isMap(doc) && isMap(doc['data']), `no ConfigMap ${release}-dump in\n${yaml}`);
  return JSON.parse(String(doc['data']['values'])) as Record<string, unknown>;
}

let demoChart: string;
before(() => {
  if (skipHelm) return;
  // a real chart, as `helm create` makes it
  demoChart = mkdtempSync(join(tmpdir(), 'kts-helm-create-'));
  runHelm(['create', 'demo'], demoChart);
});

test('a chart made by helm create builds like kubectl: releaseName, namespace, valuesInline, with the overlay fields on top', { skip: skipKubectl }, async () => {
  const dir = copyTree(demoChart);
  writeTree(
    {
      'kustomization.yaml': [
        'helmGlobals:',
        '  chartHome: .',
        'helmCharts:',
        '- name: demo',
        '  releaseName: web',
        '  namespace: ns1',
        '  valuesInline:',
        '    replicaCount: 3',
        '    service:',
        '      port: 8080',
        'namespace: other',
        'namePrefix: p-',
        'labels:',
        '- pairs: {team: a}',
        'buildMetadata: [originAnnotations]',
        '',
      ].join('\n'),
    },
    dir,
  );
  // helm create left the chart in <dir>/demo; chartHome: . finds it there
  const { stdout } = await sameAsKubectl(dir);
  assert.match(stdout, /name: p-web-demo\n  namespace: other\n/);
  assert.match(stdout, /replicas: 3\n/);
  assert.match(stdout, /port: 8080\n/);
  assert.match(stdout, /configuredBy:\n        apiVersion: builtin\n        kind: HelmChartInflationGenerator\n/);
});

test('valuesMerge override, merge and replace give helm the values kustomize gives it', { skip: skipKubectl }, async () => {
  const inline = [
    '  valuesInline:',
    '    replicaCount: 3',
    '    a:',
    '      b: 5',
    '      c: null',
    '    list:',
    '    - name: w',
    '    plain: null',
    '    nested:',
    '      deep: null',
    '    newnull: null',
    '    str: "yes"',
    '    ts: 2020-01-01',
    '    on: on',
    '    f: 1.50',
  ];
  const dir = writeTree({
    ...dumpChart(),
    'kustomization.yaml': [
      'helmCharts:',
      '- name: dump',
      '  releaseName: over',
      ...inline,
      '- name: dump',
      '  releaseName: merged',
      '  valuesMerge: merge',
      ...inline,
      '- name: dump',
      '  releaseName: replaced',
      '  valuesMerge: replace',
      ...inline,
      '- name: dump',
      '  releaseName: defaults',
      '',
    ].join('\n'),
  });
  const { stdout } = await sameAsKubectl(dir);
  const over = dumpedValues(stdout, 'over');
  const merged = dumpedValues(stdout, 'merged');
  const replaced = dumpedValues(stdout, 'replaced');
  const defaults = dumpedValues(stdout, 'defaults');
  // override: inline values win; a null removes the chart's value from the file (helm's default comes back)
  assert.equal(over['replicaCount'], 3);
  assert.deepEqual(over['a'], { b: 5, c: 2 });
  assert.deepEqual(over['plain'], [1, 2]);
  // merge: the chart's values win, inline ones only add
  assert.equal(merged['replicaCount'], 1);
  assert.deepEqual(merged['plain'], [1, 2]);
  assert.equal(merged['newnull'], null);
  // replace: the inline values alone, over helm's own defaults: there a null deletes
  assert.equal(replaced['replicaCount'], 3);
  assert.ok(!('plain' in replaced));
  assert.deepEqual(replaced['a'], { b: 5 });
  assert.equal(defaults['replicaCount'], 1);
});

test('valuesFile, additionalValuesFiles, includeCRDs, skipHooks, skipTests, kubeVersion, apiVersions, nameTemplate', { skip: skipKubectl }, async () => {
  const dir = writeTree({
    ...richChart(),
    ...dumpChart(),
    'values-prod.yaml': 'replicas: 3\nextraLabels:\n  tier: web\n',
    'more.yaml': 'config:\n  greeting: hi\n',
    'kustomization.yaml': [
      'helmCharts:',
      '- name: rich',
      '  releaseName: web',
      '  namespace: apps',
      '  valuesFile: values-prod.yaml',
      '  additionalValuesFiles: [more.yaml]',
      '  includeCRDs: true',
      '- name: rich',
      '  releaseName: nohooks',
      '  skipHooks: true',
      '- name: rich',
      '  releaseName: notests',
      '  skipTests: true',
      '  kubeVersion: "1.30.1"',
      '- name: dump',
      '  nameTemplate: templated',
      '  apiVersions: [example.com/v1]',
      '  kubeVersion: v1.28.0',
      '',
    ].join('\n'),
  });
  const { stdout } = await sameAsKubectl(dir);
  const names = [...stdout.matchAll(/^kind: (\S+)\nmetadata:\n(?:  [^\n]*\n)*?  name: (\S+)/gm)].map((m) => `${m[1]}/${m[2]}`);
  // the CRD only once (includeCRDs on one chart), lists expanded, empty templates and NOTES.txt dropped
  assert.equal(names.filter((n) => n === 'CustomResourceDefinition/widgets.example.com').length, 1);
  assert.ok(names.includes('ConfigMap/web-l1') && names.includes('ConfigMap/web-l2'));
  assert.ok(!stdout.includes('name: never') && !stdout.includes('Thanks for installing'));
  // hooks unless skipHooks; test hooks unless skipTests or skipHooks
  assert.ok(names.includes('Job/web-migrate') && !names.includes('Job/nohooks-migrate'));
  assert.ok(names.includes('Pod/web-test') && !names.includes('Pod/nohooks-test') && !names.includes('Pod/notests-test'));
  // the values files, in order
  assert.match(stdout, /replicas: 3\n/);
  assert.match(stdout, /greeting: hi\n/);
  assert.match(stdout, /tier: web\n/);
  assert.match(stdout, /kube: v1\.30\.1\n/);
  assert.match(stdout, /name: templated-dump\n/);
  assert.match(stdout, /hasWidgets: "true"\n  kubeVersion: v1\.28\.0\n/);
});

test('--helm-kube-version, --helm-api-versions and --helm-debug apply to the charts that set none', { skip: skipKubectl }, async () => {
  const dir = writeTree({
    ...dumpChart(),
    'kustomization.yaml': 'helmCharts:\n- name: dump\n  releaseName: cli\n- name: dump\n  releaseName: own\n  kubeVersion: "1.21"\n',
  });
  const { stdout } = await sameAsKubectl(dir, ['--helm-kube-version', '1.29.3', '--helm-api-versions', 'example.com/v1', '--helm-debug']);
  assert.match(stdout, /hasWidgets: "true"\n  kubeVersion: v1\.29\.3\n[^]*name: cli-dump/);
  assert.match(stdout, /hasWidgets: "true"\n  kubeVersion: v1\.21\.0\n[^]*name: own-dump/);
});

test("--helm-api-versions shares its values with the charts that set apiVersions, kustomize's quirk", { skip: skipKubectl }, async () => {
  const dir = writeTree({
    ...dumpChart(),
    'kustomization.yaml': [
      'helmCharts:',
      '- name: dump',
      '  releaseName: cli',
      '- name: dump',
      '  releaseName: own',
      '  apiVersions: [other.example.com/v1]',
      '- name: dump',
      '  releaseName: long',
      '  apiVersions: [x.example.com/v1, example.com/v1]',
      '',
    ].join('\n'),
  });
  // kustomize: the flag's slice is overwritten by the charts' own lists, and the earlier charts see that
  const { stdout } = await sameAsKubectl(dir, ['--helm-api-versions', 'example.com/v1']);
  assert.match(stdout, /hasWidgets: "false"\n[^]*name: cli-dump/);
  assert.match(stdout, /hasWidgets: "false"\n[^]*name: own-dump/);
  assert.match(stdout, /hasWidgets: "true"\n[^]*name: long-dump/);
  // without the flag each chart has its own
  const plain = await sameAsKubectl(dir);
  assert.match(plain.stdout, /hasWidgets: "false"\n[^]*name: cli-dump/);
});

test('the builtin plugin form in generators: works like the field', { skip: skipKubectl }, async () => {
  const dir = writeTree({
    ...dumpChart('vendor'),
    'kustomization.yaml': [
      'generators:',
      '- |-',
      '  apiVersion: builtin',
      '  kind: HelmChartInflationGenerator',
      '  metadata:',
      '    name: anything',
      '  name: dump',
      '  chartHome: vendor',
      '  releaseName: plug',
      '  valuesInline:',
      '    replicaCount: 7',
      'buildMetadata: [originAnnotations]',
      '',
    ].join('\n'),
  });
  const { stdout } = await sameAsKubectl(dir);
  assert.match(stdout, /name: plug-dump/);
  assert.match(stdout, /kind: HelmChartInflationGenerator\n        name: anything\n/);
});

test('a base with helmCharts under an overlay, and a component with its own chart home', { skip: skipKubectl }, async () => {
  const dir = writeTree({
    ...richChart('base/charts'),
    ...dumpChart('shared'),
    'base/kustomization.yaml': 'helmCharts:\n- name: rich\n  releaseName: web\n  valuesInline:\n    replicas: 2\n',
    'comp/kustomization.yaml': [
      'apiVersion: kustomize.config.k8s.io/v1alpha1',
      'kind: Component',
      'helmGlobals:',
      '  chartHome: ../shared',
      'helmCharts:',
      '- name: dump',
      '  releaseName: comp',
      '  valuesMerge: replace',
      '  valuesInline: {replicaCount: 5}',
      '',
    ].join('\n'),
    'overlay/kustomization.yaml': [
      'resources: [../base]',
      'components: [../comp]',
      'namespace: prod',
      'namePrefix: x-',
      'images:',
      '- name: nginx',
      '  newTag: "1.27"',
      'configMapGenerator:',
      '- name: web-config',
      '  behavior: merge',
      '  literals: [extra=1]',
      '',
    ].join('\n'),
  });
  const { stdout } = await sameAsKubectl(join(dir, 'overlay'));
  assert.match(stdout, /image: nginx:1\.27\n/);
  assert.match(stdout, /name: x-comp-dump\n  namespace: prod\n/);
  assert.match(stdout, /extra: "1"\n/);
});

test('an absolute chart home needs LoadRestrictionsNone for its values file, as in kustomize', { skip: skipKubectl }, async () => {
  const charts = writeTree(dumpChart('.'));
  const dir = writeTree({ 'kustomization.yaml': `helmGlobals:\n  chartHome: ${charts}\nhelmCharts:\n- name: dump\n  releaseName: abs\n` });
  const refused = await ours(dir);
  assert.equal(refused.code, 1);
  assert.equal(errorText(refused.stderr), errorText((await theirs(dir)).stderr));
  assert.match(refused.stderr, /security; file '.*\/dump\/values\.yaml' is not in or below/);
  await sameAsKubectl(dir, ['--load-restrictor', 'LoadRestrictionsNone']);
});

// ---------------------------------------------------------------------------------------------
// Pulling charts from a chart repository (served from 127.0.0.1)

let repo: { url: string; close: () => void } | undefined;
before(async () => {
  if (skipHelm) return;
  const dir = mkdtempSync(join(tmpdir(), 'kts-helm-repo-'));
  writeTree(dumpChart('src', 'demo'), dir);
  runHelm(['package', 'src/demo', '-d', '.'], dir);
  writeFileSync(join(dir, 'src/demo/Chart.yaml'), 'apiVersion: v2\nname: demo\nversion: 0.2.0\n');
  runHelm(['package', 'src/demo', '-d', '.'], dir);
  const { url, server } = await serveDirectory(dir);
  runHelm(['repo', 'index', '.', '--url', url], dir);
  let open = true;
  repo = {
    url,
    close: () => {
      if (open) server.close();
      open = false;
    },
  };
});
after(() => repo?.close());

test('charts missing from the chart home are pulled from their repository, each version in its own directory', { skip: skipKubectl }, async () => {
  const tree = writeTree({
    'kustomization.yaml': [
      'helmCharts:',
      '- name: demo',
      `  repo: ${repo!.url}`,
      '  version: 0.1.0',
      '  releaseName: old',
      '  valuesInline: {replicaCount: 4}',
      '- name: demo',
      `  repo: ${repo!.url.replace(/\/$/, '')}`,
      '  releaseName: latest',
      '',
    ].join('\n'),
  });
  const mine = copyTree(tree);
  const ref = copyTree(tree);
  const a = await ours(mine);
  const b = await theirs(ref);
  assert.equal(b.code, 0, b.stderr);
  assert.equal(a.stderr, '');
  assert.equal(a.stdout, b.stdout);
  // the same files were pulled to the same places
  assert.deepEqual(listTree(mine), listTree(ref));
  assert.ok(existsSync(join(mine, 'charts/demo-0.1.0/demo/Chart.yaml')), listTree(mine).join('\n'));
  assert.ok(existsSync(join(mine, 'charts/demo/Chart.yaml')));
  assert.match(a.stdout, /"replicaCount":4/);
  // a second build uses what is there (no repository needed any more)
  repo!.close();
  const again = await ours(mine);
  assert.equal(again.stdout, a.stdout);
});

test('a failing pull shows helm\'s error', { skip: skipHelm }, async () => {
  const dir = writeTree({ 'kustomization.yaml': 'helmCharts:\n- name: nope\n  repo: http://127.0.0.1:9/charts\n  version: 1.0.0\n' });
  const r = await ours(dir);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /: unable to run: '\S+ pull --destination \S+\/pulled --repo http:\/\/127\.0\.0\.1:9\/charts --version 1\.0\.0 -- nope' with env=\[HELM_CONFIG_HOME=/);
});

// ---------------------------------------------------------------------------------------------
// Failures

test('helm failing: its stderr, then the command run, as kubectl prints it (our command puts the positionals after --)', { skip: skipKubectl }, async () => {
  const dir = writeTree({ ...dumpChart(), 'kustomization.yaml': 'helmCharts:\n- name: dump\n  releaseName: r\n  nameTemplate: t\n' });
  const mine = await ours(dir);
  assert.equal(mine.code, 1);
  const withoutArgs = (stderr: string) => errorText(stderr).replace(/ template [^']*'/, " template ARGS'");
  assert.equal(withoutArgs(mine.stderr), withoutArgs((await theirs(dir)).stderr));
  assert.match(mine.stderr, /^Error: Error: cannot set --name-template and also specify a name\n: unable to run: '\S+ template --name-template t -f \S+ -- r \S+\/charts\/dump' with env=\[/);
});

test('no chart in the chart home and no repo to pull it from', { skip: skipKubectl }, async () => {
  const dir = writeTree({ 'kustomization.yaml': 'helmCharts:\n- name: absent\n' });
  const mine = await ours(dir);
  assert.equal(mine.stderr, "Error: no repo specified for pull, no chart found at ''\n");
  assert.equal(errorText(mine.stderr), errorText((await theirs(dir)).stderr));
});

test('a helm command that is not there', { skip: skipHelm }, async () => {
  const dir = writeTree({ ...dumpChart(), 'kustomization.yaml': 'helmCharts:\n- name: dump\n' });
  await assert.rejects(
    build(dir, { enableHelm: true, helmCommand: 'kts-no-such-helm' }),
    /^KustomizeError: unable to run: 'kts-no-such-helm version --short' with env=\[HELM_CONFIG_HOME=\S+\/helm HELM_CACHE_HOME=\S+\/helm\/\.cache HELM_DATA_HOME=\S+\/helm\/\.data\] \(is 'kts-no-such-helm' installed\?\): exec: "kts-no-such-helm": executable file not found in \$PATH$/,
  );
});

// the template command sleeps past the test's own timeout: a build that waited for it fails the test
test('helm is stopped after the plugin timeout', { skip: skipHelm, timeout: 60_000 }, async () => {
  const dir = writeTree({ ...dumpChart(), 'kustomization.yaml': 'helmCharts:\n- name: dump\n  releaseName: slow\n' });
  const slow = join(dir, 'slow-helm');
  writeFileSync(slow, `#!/bin/sh\nif [ "$1" = template ]; then exec sleep 1000; fi\nexec '${helm()}' "$@"\n`, { mode: 0o755 });
  await assert.rejects(build(dir, { enableHelm: true, helmCommand: slow, pluginTimeout: 1 }), /slow-helm template .* -- slow .*: stopped after the plugin timeout of 1s$/);
});

test('helm needs the charts on the disk: an in-memory build says so', { skip: skipHelm }, async () => {
  const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': 'helmCharts:\n- name: dump\n', ...prefixed('app/', dumpChart()) });
  await assert.rejects(build('/app', { fs, enableHelm: true, helmCommand: helm() }), /helm works on files on the disk/);
});

test('the library: build() with enableHelm and helmCommand, in input order', { skip: skipHelm }, async () => {
  const dir = writeTree({ ...dumpChart(), 'kustomization.yaml': 'helmCharts:\n- name: dump\n  releaseName: lib\n  namespace: lib-ns\n' });
  const { resources } = await build(dir, { enableHelm: true, helmCommand: helm() });
  assert.deepEqual(
    resources.map((r) => `${r.kind}/${r.name}/${r.namespace}`),
    ['ConfigMap/lib-dump/lib-ns'],
  );
});

function prefixed(prefix: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [prefix + k, v]));
}

test('a release name that looks like a flag stays a release name (no --post-renderer reaches helm)', { skip: skipHelm }, async () => {
  const marker = join(mkdtempSync(join(tmpdir(), 'kts-helm-inject-')), 'PWNED');
  const dir = writeTree({ ...dumpChart(), 'evil.sh': `#!/bin/sh\ntouch ${marker}\ncat\n` });
  chmodSync(join(dir, 'evil.sh'), 0o755);
  writeFileSync(join(dir, 'kustomization.yaml'), `helmCharts:\n- name: dump\n  releaseName: --post-renderer=${join(dir, 'evil.sh')}\n`);
  const outcome = await ours(dir, []);
  assert.notEqual(outcome.code, 0);
  assert.equal(existsSync(marker), false);
});
