/** `edit set …` and `edit remove …`, in-process on an in-memory project; each result is built. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEPLOYMENT, SERVICE, project } from './helpers.js';

const BASE = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- web.yaml\n';
const DIGEST = 'sha256:24a0c4b4a4c0eb97a1aabb8e29f18e917d05abfe1b7a7c07857230879ce7d3d3';

describe('edit set image', () => {
  // the argument forms of kustomize's setimage_test.go, each with the entry it writes
  const cases: [string, string][] = [
    ['nginx=my-image1:my-tag', '- name: nginx\n  newName: my-image1\n  newTag: my-tag\n'],
    ['nginx=my-image1:1234', '- name: nginx\n  newName: my-image1\n  newTag: "1234"\n'],
    ['nginx=my-image1:3.2e2', '- name: nginx\n  newName: my-image1\n  newTag: "3.2e2"\n'],
    [`nginx=my-image1@${DIGEST}`, `- digest: ${DIGEST}\n  name: nginx\n  newName: my-image1\n`],
    ['nginx:my-tag', '- name: nginx\n  newTag: my-tag\n'],
    [`nginx@${DIGEST}`, `- digest: ${DIGEST}\n  name: nginx\n`],
    [`nginx:my-tag@${DIGEST}`, `- digest: ${DIGEST}\n  name: nginx\n  newTag: my-tag\n`],
    [`nginx=my-image1:my-tag@${DIGEST}`, `- digest: ${DIGEST}\n  name: nginx\n  newName: my-image1\n  newTag: my-tag\n`],
    ['nginx=localhost:5000/my-project/ngnix', '- name: nginx\n  newName: localhost:5000/my-project/ngnix\n'],
    ['nginx=localhost:5000/my-project/ngnix:dev-01', '- name: nginx\n  newName: localhost:5000/my-project/ngnix\n  newTag: dev-01\n'],
  ];
  for (const [arg, entry] of cases) {
    test(arg, async () => {
      const p = project({ 'kustomization.yaml': BASE, 'web.yaml': DEPLOYMENT });
      await p.ok('edit', 'set', 'image', arg);
      assert.equal(p.read(), `${BASE}images:\n${entry}`);
      await p.built();
    });
  }

  test('replaces the entry of the same name, keeps others, sorts by name, and builds', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}images:\n- name: zeta\n  newTag: z\n# the web image\n- name: nginx\n  newName: old\n  newTag: my-tag\n`, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'set', 'image', 'nginx:v2', 'alpine=alpine:3');
    assert.equal(p.read(), `${BASE}images:\n- name: alpine\n  newName: alpine\n  newTag: "3"\n# the web image\n- name: nginx\n  newTag: v2\n- name: zeta\n  newTag: z\n`);
    assert.match(await p.built(), /image: nginx:v2/);
  });

  test('`*` keeps the name, tag or digest already set', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}images:\n- name: nginx\n  newName: reg/nginx\n  newTag: t1\n`, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'set', 'image', 'nginx=*:t2');
    assert.equal(p.read(), `${BASE}images:\n- name: nginx\n  newName: reg/nginx\n  newTag: t2\n`);
    await p.ok('edit', 'set', 'image', `nginx=other:*@${DIGEST}`);
    assert.equal(p.read(), `${BASE}images:\n- digest: ${DIGEST}\n  name: nginx\n  newName: other\n  newTag: t2\n`);
    assert.match(await p.built(), new RegExp(`image: other:t2@${DIGEST}`));
  });

  test('errors', async () => {
    const p = project({ 'kustomization.yaml': BASE, 'web.yaml': DEPLOYMENT });
    await p.fails('no image specified', 'edit', 'set', 'image');
    await p.fails(
      'invalid format of image, use one of the following options:\n- <image>=<newimage>:<newtag>\n- <image>=<newimage>@<digest>\n- <image>=<newimage>:<newtag>@<digest>\n- <image>=<newimage>\n- <image>:<newtag>\n- <image>:<newtag>@<digest>\n- <image>@<digest>',
      'edit', 'set', 'image', 'bad', 'args',
    );
  });
});

describe('edit set replicas|namespace|nameprefix|namesuffix|label|annotation|buildmetadata', () => {
  test('replicas: sorted by name, counts replaced', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}- api.yaml\nreplicas:\n- count: 1\n  name: web\n`, 'web.yaml': DEPLOYMENT, 'api.yaml': DEPLOYMENT.replace(/web/g, 'api') });
    await p.ok('edit', 'set', 'replicas', 'web=3', 'api=2');
    assert.equal(p.read(), `${BASE}- api.yaml\nreplicas:\n- count: 2\n  name: api\n- count: 3\n  name: web\n`);
    assert.match(await p.built(), /replicas: 3/);
    await p.fails('invalid format of replica, use the following format: <name>=<count>', 'edit', 'set', 'replicas', 'web=three');
    await p.fails('no replicas specified', 'edit', 'set', 'replicas');
  });

  test('namespace, prefix and suffix are replaced in place, or added after the fields the file has', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}# prod\nnamespace: old\n`, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'set', 'namespace', 'staging');
    await p.ok('edit', 'set', 'nameprefix', 'acme-');
    await p.ok('edit', 'set', 'namesuffix', '--', '-v1');
    assert.equal(p.read(), `${BASE}# prod\nnamespace: staging\nnamePrefix: acme-\nnameSuffix: -v1\n`);
    assert.match(await p.built(), /name: acme-web-v1\n  namespace: staging/);
    await p.fails('must specify exactly one namespace value', 'edit', 'set', 'namespace');
    await p.fails('must specify exactly one prefix value', 'edit', 'set', 'nameprefix', 'a', 'b');
    await p.fails('must specify exactly one suffix value', 'edit', 'set', 'namesuffix');
    await p.fails(
      '"/badnamespace/" is not a valid namespace name: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character',
      'edit', 'set', 'namespace', '/badnamespace/',
    );
  });

  test('labels and annotations are set, overwriting', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}commonLabels:\n  app: a # the app\n`, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'set', 'label', 'app:b', 'env:prod');
    await p.ok('edit', 'set', 'annotation', 'owner:me');
    assert.equal(p.read(), `${BASE}commonLabels:\n  app: b # the app\n  env: prod\ncommonAnnotations:\n  owner: me\n`);
    assert.match(await p.built(), /labels:\n    app: b\n    env: prod/);
    await p.fails('must specify label', 'edit', 'set', 'label');
  });

  test('buildmetadata replaces the list', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}buildMetadata:\n- originAnnotations\n`, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'set', 'buildmetadata', 'managedByLabel');
    assert.equal(p.read(), `${BASE}buildMetadata:\n- managedByLabel\n`);
    assert.match(await p.built(), /app.kubernetes.io\/managed-by: kustomize-ts-v/);
  });
});

describe('edit set configmap|secret', () => {
  const CM = `${BASE}configMapGenerator:\n- literals:\n  - a=1\n  - b=2\n  name: cm\n`;
  test('new values for existing keys, in place; a new namespace', async () => {
    const p = project({ 'kustomization.yaml': CM, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'set', 'configmap', 'cm', '--from-literal=b=3', '--namespace=default', '--new-namespace=prod');
    assert.equal(p.read(), `${BASE}configMapGenerator:\n- literals:\n  - a=1\n  - b=3\n  name: cm\n  namespace: prod\n`);
    assert.match(await p.built(), /b: "3"\nkind: ConfigMap\nmetadata:\n  name: cm-\w+\n  namespace: prod/);
  });

  test('errors', async () => {
    const p = project({ 'kustomization.yaml': CM, 'web.yaml': DEPLOYMENT });
    await p.fails('failed to create configmap: could not set new ConfigMap value: unable to find ConfigMap with name "nope"', 'edit', 'set', 'configmap', 'nope', '--from-literal=a=2');
    await p.fails("failed to create configmap: failed to update literal sources: key 'c' not found in resource", 'edit', 'set', 'configmap', 'cm', '--from-literal=c=2');
    await p.fails('failed to create secret: could not set new Secret value: unable to find Secret with name "cm"', 'edit', 'set', 'secret', 'cm', '--from-literal=a=2');
    await p.fails('failed to validate flags: at least one of [--from-literal, --new-namespace] must be specified', 'edit', 'set', 'configmap', 'cm');
    await p.fails(
      'failed to create configmap: failed to update literal sources: failed to update resource: invalid format: literal values must be specified in the key=value format',
      'edit', 'set', 'configmap', 'cm', '--from-literal=a',
    );
  });
});

describe('edit remove …', () => {
  test('resources, components and transformers by name or pattern; an emptied list goes', async () => {
    const p = project({
      'kustomization.yaml': `${BASE}- svc.yaml\n- extra/a.yaml\ntransformers:\n- t.yaml\n`,
      'web.yaml': DEPLOYMENT,
      'svc.yaml': SERVICE,
    });
    await p.ok('edit', 'remove', 'resource', 'extra/*.yaml', 'svc.yaml');
    await p.ok('edit', 'remove', 'transformer', 't.yaml');
    await p.ok('edit', 'remove', 'component', 'none');
    assert.equal(p.read(), BASE);
    assert.doesNotMatch(await p.built(), /Service/);
    await p.fails('must specify a resource file', 'edit', 'remove', 'resource');
  });

  test('configmaps and secrets by name and namespace; names not found are reported', async () => {
    const p = project({
      'kustomization.yaml': `${BASE}configMapGenerator:\n- literals:\n  - a=1\n  name: one\n- literals:\n  - a=1\n  name: two\n  namespace: prod\nsecretGenerator:\n- literals:\n  - a=1\n  name: s\n`,
      'web.yaml': DEPLOYMENT,
    });
    const r = await p.ok('edit', 'remove', 'configmap', 'one,three');
    assert.equal(r.err, "configmap three doesn't exist in kustomization file\n");
    await p.fails('no specified configmap(s) were found in the kustomization.yaml file', 'edit', 'remove', 'configmap', 'two');
    await p.ok('edit', 'remove', 'configmap', 'two', '--namespace=prod');
    await p.ok('edit', 'remove', 'secret', 's');
    assert.equal(p.read(), BASE);
    await p.built();
    await p.fails('at least one secret name must be specified', 'edit', 'remove', 'secret');
    await p.fails('too many arguments: [a b]; to provide multiple configmaps to remove, please separate configmap names by commas', 'edit', 'remove', 'configmap', 'a', 'b');
  });

  test('labels and annotations', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}commonLabels:\n  a: "1"\n  b: "2"\n`, 'web.yaml': DEPLOYMENT });
    await p.fails('label c is not defined in kustomization file', 'edit', 'remove', 'label', 'c');
    await p.ok('edit', 'remove', 'label', 'a,c', '-i');
    assert.equal(p.read(), `${BASE}commonLabels:\n  b: "2"\n`);
    await p.ok('edit', 'remove', 'label', 'b');
    assert.equal(p.read(), BASE);
    await p.fails('commonAnnotations is not defined in kustomization file', 'edit', 'remove', 'annotation', 'x');
    await p.fails('labels must be comma-separated, with no spaces', 'edit', 'remove', 'label', 'a', 'b');
    await p.fails("invalid label: '' (name is empty)", 'edit', 'remove', 'label', 'a,');
    await p.built();
  });

  test('patches that match exactly; buildmetadata options', async () => {
    const p = project({
      'kustomization.yaml': `${BASE}patches:\n- path: p.yaml\n  target:\n    kind: Deployment\n- path: p.yaml\nbuildMetadata:\n- originAnnotations\n- managedByLabel\n`,
      'web.yaml': DEPLOYMENT,
      'p.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n',
    });
    const none = await p.ok('edit', 'remove', 'patch', '--path', 'p.yaml', '--kind', 'Service');
    assert.equal(none.err, 'patch {"path":"p.yaml","target":{"kind":"Service"}} doesn\'t exist in kustomization file\n');
    await p.ok('edit', 'remove', 'patch', '--path', 'p.yaml', '--kind', 'Deployment');
    await p.ok('edit', 'remove', 'buildmetadata', 'managedByLabel');
    assert.equal(p.read(), `${BASE}patches:\n- path: p.yaml\nbuildMetadata:\n- originAnnotations\n`);
    assert.match(await p.built(), /replicas: 2/);
  });
});
