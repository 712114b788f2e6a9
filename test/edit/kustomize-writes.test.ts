/**
 * Every edit writes the file kustomize's `edit` writes (issue 28): the file read through
 * kustomize's FixKustomization, empty fields dropped, the fields the file has kept in its
 * order and new ones appended in kustomize's, block style, comments kept; labels and
 * annotations taken as kustomize takes them; and what we keep beyond kustomize (a field the
 * edit does not change stays as written, comments inside lists stay there).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEPLOYMENT, project } from './helpers.js';

const V = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';
const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.25\n';

describe("every edit reads the file as kustomize's FixKustomization does", () => {
  test('imageTags: set image updates the entry the build uses, so the build takes the new tag', async () => {
    const p = project({ 'kustomization.yaml': `${V}resources:\n- pod.yaml\nimageTags:\n- name: nginx\n  newTag: "1.26"\n`, 'pod.yaml': POD });
    assert.match(await p.built(), /image: nginx:1.26/);
    await p.ok('edit', 'set', 'image', 'nginx:1.27');
    assert.equal(p.read(), `${V}resources:\n- pod.yaml\nimages:\n- name: nginx\n  newTag: "1.27"\n`);
    assert.match(await p.built(), /image: nginx:1.27/);
  });

  test('bases join resources, a generator env its envs, helmChartInflationGenerator becomes helmCharts; a missing apiVersion and kind are added at the end', async () => {
    const p = project({
      'kustomization.yaml': '# the base\nbases:\n- base\nconfigMapGenerator:\n- name: cm\n  env: a.env\nhelmChartInflationGenerator:\n- chartName: app\n  chartHome: charts\n',
      'a.env': 'A=1\n',
      'base/kustomization.yaml': 'resources:\n- pod.yaml\n',
      'base/pod.yaml': POD,
    });
    await p.ok('edit', 'set', 'namespace', 'prod');
    assert.equal(
      p.read(),
      `# the base\nconfigMapGenerator:\n- envs:\n  - a.env\n  name: cm\n${V}resources:\n- base\nnamespace: prod\nhelmCharts:\n- name: app\nhelmGlobals:\n  chartHome: charts\n`,
    );
  });

  test('a Component without apiVersion gets the Component apiVersion', async () => {
    const p = project({ 'kustomization.yaml': 'kind: Component\nnamePrefix: c-\n' });
    await p.ok('edit', 'set', 'namesuffix', '--', '-x');
    assert.equal(p.read(), 'kind: Component\nnamePrefix: c-\napiVersion: kustomize.config.k8s.io/v1alpha1\nnameSuffix: -x\n');
  });

  test('a key written in another case is written as kustomize spells it', async () => {
    const p = project({ 'kustomization.yaml': `${V}RESOURCES:\n- pod.yaml\nnameprefix: a-\n`, 'pod.yaml': POD });
    await p.ok('edit', 'set', 'namesuffix', '--', '-b');
    assert.equal(p.read(), `${V}resources:\n- pod.yaml\nnamePrefix: a-\nnameSuffix: -b\n`);
  });
});

describe('what is written', () => {
  test('removing the last resource, then adding a label: the emptied field goes, the new one is in block style', async () => {
    const p = project({ 'kustomization.yaml': `${V}resources:\n- pod.yaml\n`, 'pod.yaml': POD });
    await p.ok('edit', 'remove', 'resource', 'pod.yaml');
    assert.equal(p.read(), V);
    await p.ok('edit', 'add', 'label', 'foo:bar');
    assert.equal(p.read(), `${V}commonLabels:\n  foo: bar\n`);
  });

  test('a field the edit does not change stays as written, flow style included', async () => {
    const p = project({ 'kustomization.yaml': `${V}resources: [pod.yaml]\ncommonLabels: {app: web}  # the app\nimages:\n  - name: nginx\n    newTag: '1.25'\n`, 'pod.yaml': POD });
    await p.ok('edit', 'set', 'namespace', 'prod');
    assert.equal(p.read(), `${V}resources: [pod.yaml]\ncommonLabels: {app: web}  # the app\nimages:\n  - name: nginx\n    newTag: '1.25'\nnamespace: prod\n`);
    // a field it changes is written in block style, as kustomize writes it
    await p.ok('edit', 'add', 'label', 'tier:front');
    assert.equal(p.read(), `${V}resources: [pod.yaml]\ncommonLabels:\n  # the app\n  app: web\n  tier: front\nimages:\n  - name: nginx\n    newTag: '1.25'\nnamespace: prod\n`);
    assert.match(await p.built(), /namespace: prod/);
  });

  test('empty fields are dropped, the comments above them kept', async () => {
    const p = project({ 'kustomization.yaml': `${V}resources: []\n# generators to come\nconfigMapGenerator: []\nnamePrefix: ""\n# end\n`, 'pod.yaml': POD });
    await p.ok('edit', 'add', 'resource', 'pod.yaml');
    assert.equal(p.read(), `${V}resources:\n- pod.yaml\n# generators to come\n# end\n`);
  });

  test('comments inside a list the edit changes stay inside it (kustomize moves them above the field)', async () => {
    const p = project({ 'kustomization.yaml': `${V}resources:\n# the workload\n- web.yaml # main\n`, 'web.yaml': DEPLOYMENT, 'pod.yaml': POD });
    await p.ok('edit', 'add', 'resource', 'pod.yaml');
    assert.equal(p.read(), `${V}resources:\n# the workload\n- web.yaml # main\n- pod.yaml\n`);
  });

  test('where kustomize writes nothing (no entry matched, the patch is not there), the file stays as it is', async () => {
    const text = 'resources:\n  - pod.yaml\npatches:\n- path: p.yaml\n';
    const p = project({ 'kustomization.yaml': text, 'pod.yaml': POD, 'p.yaml': POD });
    await p.ok('edit', 'remove', 'resource', 'other.yaml');
    await p.ok('edit', 'remove', 'patch', '--path', 'q.yaml');
    const r = await p.ok('edit', 'add', 'patch', '--path', 'p.yaml');
    assert.equal(r.err, 'patch {"path":"p.yaml"} already in kustomization file\n');
    await p.ok('edit', 'add', 'transformer', 'none*.yaml');
    assert.equal(p.read(), text);
  });
});

describe('the command line', () => {
  test('edit add with an unknown kind prints the help of edit add and exits 0, as kustomize (cobra) does', async () => {
    const p = project({ 'kustomization.yaml': V });
    const r = await p.run('edit', 'add', 'nothing');
    assert.equal(r.code, 0);
    assert.equal(r.err, '');
    assert.match(r.out, /^Adds an item to the kustomization file\n\nUsage:\n {2}kustomize-ts edit add \[command\]/);
    const edit = await p.run('edit', 'nothing');
    assert.equal(edit.code, 0);
    assert.match(edit.out, /^Edits a kustomization file/);
    const root = await p.run('nothing');
    assert.equal(root.code, 1);
    assert.match(root.err, /^Error: unknown command "nothing" for "kustomize-ts"/);
    assert.equal(p.read(), V);
  });
});
