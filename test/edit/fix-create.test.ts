/** `edit fix` and `create`, in-process on an in-memory project; each result is built. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEPLOYMENT, SERVICE, project } from './helpers.js';

const V = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

describe('edit fix', () => {
  test('patchesJson6902 becomes patches, and the missing apiVersion and kind are added (kustomize fix_test)', async () => {
    const p = project({
      'kustomization.yaml': 'resources:\n- web.yaml\npatchesJson6902:\n- path: patch1.yaml\n  target:\n    group: apps\n    kind: Deployment\n    name: web\n    version: v1\n',
      'web.yaml': DEPLOYMENT,
      'patch1.yaml': '- op: replace\n  path: /spec/replicas\n  value: 2\n',
    });
    const before = await p.built();
    const r = await p.ok('edit', 'fix');
    assert.match(r.out, /Fixed fields:\n {2}patchesJson6902 -> patches/);
    assert.doesNotMatch(r.out, /Warning/);
    // as kustomize writes it: the fields the file has first, then the new ones in kustomize's order
    assert.equal(p.read(), `resources:\n- web.yaml\n${V}patches:\n- path: patch1.yaml\n  target:\n    group: apps\n    kind: Deployment\n    name: web\n    version: v1\n`);
    assert.equal(await p.built(), before);
  });

  test('patchesStrategicMerge: files become paths, anything else inline patches; commonLabels become labels with selectors', async () => {
    const p = project({
      'kustomization.yaml': `${V}# labels for everything\ncommonLabels:\n  team: a\nresources:\n- web.yaml\npatchesStrategicMerge:\n- smp.yaml\n- |-\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\n  spec:\n    minReadySeconds: 3\n`,
      'web.yaml': DEPLOYMENT,
      'smp.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 4\n',
    });
    const before = await p.built();
    await p.ok('edit', 'fix');
    assert.equal(
      p.read(),
      `${V}# labels for everything\nresources:\n- web.yaml\nlabels:\n- includeSelectors: true\n  pairs:\n    team: a\npatches:\n- path: smp.yaml\n- patch: |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: web\n    spec:\n      minReadySeconds: 3\n`,
    );
    assert.equal(await p.built(), before);
  });

  test('bases join resources, imageTags images, a generator env its envs', async () => {
    const p = project({
      'kustomization.yaml': `${V}resources:\n- web.yaml\nbases:\n- base\nimageTags:\n- name: nginx\n  newTag: "2"\nconfigMapGenerator:\n- name: cm\n  env: a.env\n`,
      'web.yaml': DEPLOYMENT,
      'a.env': 'A=1\n',
      'base/kustomization.yaml': 'resources:\n- svc.yaml\n',
      'base/svc.yaml': SERVICE,
    });
    const before = await p.built();
    await p.ok('edit', 'fix');
    assert.equal(p.read(), `${V}resources:\n- web.yaml\n- base\nconfigMapGenerator:\n- envs:\n  - a.env\n  name: cm\nimages:\n- name: nginx\n  newTag: "2"\n`);
    assert.equal(await p.built(), before);
  });

  test('a label in both commonLabels and labels is an error', async () => {
    const p = project({ 'kustomization.yaml': `${V}commonLabels:\n  a: "1"\nlabels:\n- pairs:\n    a: "2"\n` });
    await p.fails("label name 'a' exists in both commonLabels and labels", 'edit', 'fix');
  });
});

describe('create', () => {
  test('with resources (globs), namespace, affixes, labels and annotations', async () => {
    const p = project({ 'web.yaml': DEPLOYMENT, 'svc.yaml': SERVICE });
    await p.ok('create', '--resources', '*.yaml', '--namespace', 'staging', '--nameprefix', 'acme-', '--namesuffix=-x', '--labels', 'app:web,tier:"front"', '--annotations', 'note:hi');
    assert.equal(
      p.read(),
      `${V}resources:\n- svc.yaml\n- web.yaml\nnamePrefix: acme-\nnameSuffix: -x\nnamespace: staging\ncommonLabels:\n  app: web\n  tier: front\ncommonAnnotations:\n  note: hi\n`,
    );
    assert.match(await p.built(), /name: acme-web-x\n  namespace: staging/);
  });

  test('--autodetect adds the files holding resources; --recursive adds subdirectories, a kustomization as its directory', async () => {
    const p = project({
      'web.yaml': DEPLOYMENT,
      'notes.txt': 'not a resource',
      'values.yaml': 'replicas: 3\n',
      'more/svc.yaml': SERVICE,
      'base/kustomization.yaml': 'resources:\n- cm.yaml\n',
      'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
    });
    await p.ok('init', '--autodetect', '--recursive');
    assert.equal(p.read(), `${V}resources:\n- base\n- more/svc.yaml\n- web.yaml\n`);
    assert.match(await p.built(), /kind: ConfigMap[\s\S]*kind: Service[\s\S]*kind: Deployment/);
  });

  test('refuses to overwrite a kustomization; an unknown resource fails', async () => {
    const p = project({ 'kustomization.yaml': V, 'web.yaml': DEPLOYMENT });
    await p.fails('kustomization file already exists', 'create', '--resources', 'web.yaml');
    const q = project({});
    await q.fails("nope.yaml has no match: must build at directory: not a valid directory: 'nope.yaml' doesn't exist", 'create', '--resources', 'nope.yaml');
    assert.equal(q.fs.exists('/app/kustomization.yaml'), false);
  });
});
