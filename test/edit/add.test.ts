/**
 * `edit add …`, run in-process through the CLI on an in-memory project. Messages are those of
 * kustomize's own tests (kustomize/commands/edit/add/*_test.go); each edited kustomization is
 * built to show it is still valid.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEPLOYMENT, SERVICE, project } from './helpers.js';

const BASE = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

describe('edit add resource', () => {
  test('expands globs and appends in directory order, keeping the rest of the file; a new field goes at the end', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}# the app\nnamePrefix: dev-\n`, 'web-deploy.yaml': DEPLOYMENT, 'web-svc.yaml': SERVICE });
    await p.ok('edit', 'add', 'resource', 'web-*.yaml');
    assert.equal(p.read(), `${BASE}# the app\nnamePrefix: dev-\nresources:\n- web-deploy.yaml\n- web-svc.yaml\n`);
    assert.match(await p.built(), /name: dev-web/);
  });

  test('an entry already there is reported, not repeated; the kustomization file itself is never added', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}resources:\n- web.yaml\n`, 'web.yaml': DEPLOYMENT });
    const r = await p.ok('edit', 'add', 'resource', 'web.yaml', 'kustomization.yaml');
    assert.equal(r.err, 'resource web.yaml already in kustomization file\n');
    assert.equal(p.read(), `${BASE}resources:\n- web.yaml\n`);
  });

  test('a path that matches nothing fails unless it is a remote URL or --no-verify is given', async () => {
    const p = project({ 'kustomization.yaml': BASE, 'web.yaml': DEPLOYMENT });
    await p.fails("missing.yaml has no match: must build at directory: not a valid directory: 'missing.yaml' doesn't exist", 'edit', 'add', 'resource', 'missing.yaml');
    await p.ok('edit', 'add', 'resource', 'https://github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v5.0.0');
    await p.ok('edit', 'add', 'resource', '--no-verify', 'later.yaml');
    assert.equal(p.read(), `${BASE}resources:\n- https://github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v5.0.0\n- later.yaml\n`);
  });

  test('no argument', async () => {
    await project({ 'kustomization.yaml': BASE }).fails('must specify a resource file', 'edit', 'add', 'resource');
  });

  test('without a kustomization file', async () => {
    await project({ 'web.yaml': DEPLOYMENT }).fails("Missing kustomization file 'kustomization.yaml'.", 'edit', 'add', 'resource', 'web.yaml');
  });
});

describe('edit add component|base|transformer|generator|configuration', () => {
  test('component directories are added and built', async () => {
    const p = project({
      'kustomization.yaml': `${BASE}resources:\n- web.yaml\n`,
      'web.yaml': DEPLOYMENT,
      'comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nnamePrefix: c-\n',
    });
    await p.ok('edit', 'add', 'component', 'comp');
    assert.equal(p.read(), `${BASE}resources:\n- web.yaml\ncomponents:\n- comp\n`);
    assert.match(await p.built(), /name: c-web/);
    await p.fails('must specify a component file', 'edit', 'add', 'component');
  });

  test('bases: comma-separated, must exist, never twice', async () => {
    const p = project({ 'kustomization.yaml': BASE, 'a/kustomization.yaml': 'resources:\n- web.yaml\n', 'a/web.yaml': DEPLOYMENT, 'b/kustomization.yaml': 'resources:\n- svc.yaml\n', 'b/svc.yaml': SERVICE });
    await p.ok('edit', 'add', 'base', 'a,b');
    assert.equal(p.read(), `${BASE}resources:\n- a\n- b\n`);
    assert.match(await p.built(), /kind: Deployment[\s\S]*kind: Service/);
    await p.fails('base a already in kustomization file', 'edit', 'add', 'base', 'a');
    await p.fails('c does not exist', 'edit', 'add', 'base', 'c');
    await p.fails('must specify a base directory', 'edit', 'add', 'base');
  });

  test('transformers, generators and configurations take globs; a pattern without match is reported and skipped', async () => {
    const p = project({
      'kustomization.yaml': `${BASE}resources:\n- web.yaml\n`,
      'web.yaml': DEPLOYMENT,
      't1.yaml': 'apiVersion: builtin\nkind: PrefixTransformer\nmetadata:\n  name: p\nprefix: t-\nfieldSpecs:\n- path: metadata/name\n',
      'g1.yaml': 'apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: gen\nliterals:\n- a=b\n',
      'conf.yaml': 'namePrefix:\n- path: metadata/name\n',
    });
    await p.ok('edit', 'add', 'transformer', 't*.yaml');
    await p.ok('edit', 'add', 'generator', 'g1.yaml');
    await p.ok('edit', 'add', 'configuration', 'conf.yaml');
    const r = await p.ok('edit', 'add', 'transformer', 'nothing*.yaml');
    assert.equal(r.err, 'nothing*.yaml has no match\n');
    // each command appends its new field after the fields the file has
    assert.equal(p.read(), `${BASE}resources:\n- web.yaml\ntransformers:\n- t1.yaml\ngenerators:\n- g1.yaml\nconfigurations:\n- conf.yaml\n`);
    const yaml = await p.built();
    assert.match(yaml, /name: t-gen-/);
    assert.match(yaml, /name: t-web/);
    await p.fails('must specify a yaml file which contains a transformer plugin resource', 'edit', 'add', 'transformer');
    await p.fails('must specify a yaml file which contains a generator plugin resource', 'edit', 'add', 'generator');
    await p.fails('must specify a yaml file which contains a configuration resource', 'edit', 'add', 'configuration');
  });
});

describe('edit add configmap|secret', () => {
  test('literals, files (with and without key, globs) and behavior; a second add extends the same entry', async () => {
    const p = project({ 'kustomization.yaml': BASE, 'app.properties': 'x=1\n', 'conf/a.txt': 'A', 'conf/b.txt': 'B' });
    await p.ok('edit', 'add', 'configmap', 'cm', '--from-literal=k=v', '--from-file=props=app.properties', '--behavior=create');
    await p.ok('edit', 'add', 'configmap', 'cm', '--from-file', 'conf/*.txt', '--disableNameSuffixHash');
    assert.equal(
      p.read(),
      `${BASE}configMapGenerator:\n- behavior: create\n  files:\n  - props=app.properties\n  - conf/a.txt\n  - conf/b.txt\n  literals:\n  - k=v\n  name: cm\n  options:\n    disableNameSuffixHash: true\n`,
    );
    assert.equal(
      await p.built(),
      'apiVersion: v1\ndata:\n  a.txt: A\n  b.txt: B\n  k: v\n  props: |\n    x=1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
    );
  });

  test('env files, namespaces and secret types', async () => {
    const p = project({ 'kustomization.yaml': BASE, 'db.env': 'USER=admin\n' });
    await p.ok('edit', 'add', 'secret', 'db', '--from-env-file=db.env', '--namespace=prod');
    await p.ok('edit', 'add', 'secret', 'tls', '--from-literal=tls.crt=x', '--from-literal=tls.key=y', '--type=kubernetes.io/tls');
    assert.equal(p.read(), `${BASE}secretGenerator:\n- envs:\n  - db.env\n  name: db\n  namespace: prod\n  type: Opaque\n- literals:\n  - tls.crt=x\n  - tls.key=y\n  name: tls\n  type: kubernetes.io/tls\n`);
    assert.match(await p.built(), /USER: YWRtaW4=/);
  });

  test('errors, as kustomize words them, leave the file alone', async () => {
    const p = project({ 'kustomization.yaml': BASE, 'db.env': 'A=1\n' });
    await p.fails('failed to validate flags: name must be specified once', 'edit', 'add', 'configmap', '--from-literal=a=b');
    await p.fails('failed to validate flags: at least from-env-file, or from-file or from-literal must be set', 'edit', 'add', 'configmap', 'cm');
    await p.fails('failed to validate flags: from-env-file cannot be combined with from-file or from-literal', 'edit', 'add', 'configmap', 'cm', '--from-env-file=db.env', '--from-literal=a=b');
    await p.fails('failed to validate flags: invalid behavior: must be one of "create", "merge", or "replace"', 'edit', 'add', 'configmap', 'cm', '--from-literal=a=b', '--behavior=upsert');
    await p.fails('failed to create configmap: configmap cm illegally repeats the key `a`', 'edit', 'add', 'configmap', 'cm', '--from-literal=a=b', '--from-literal=a=c');
    p.fs.writeFile('/app/x.env', 'B=2\n');
    await p.fails("failed to expand file source: 'pattern 'k=*.env' catches files [db.env x.env], should catch only one", 'edit', 'add', 'configmap', 'cm', '--from-file=k=*.env');
  });
});

describe('edit add label|annotation', () => {
  test('commonLabels by default; --force overwrites; a value like `on` is quoted so it stays a string', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}resources:\n- web.yaml\n`, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'add', 'label', 'team:a', 'enabled:on');
    await p.fails('label team already in kustomization file. Use --force to override.', 'edit', 'add', 'label', 'team:b');
    await p.ok('edit', 'add', 'label', '--force', 'team:b');
    assert.equal(p.read(), `${BASE}resources:\n- web.yaml\ncommonLabels:\n  enabled: "on"\n  team: b\n`);
    assert.match(await p.built(), /matchLabels:\n      app: web\n      enabled: "on"\n      team: b/);
  });

  test('--without-selector adds a `labels` entry that leaves selectors alone; --include-templates one for templates', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}resources:\n- web.yaml\n`, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'add', 'label', '--without-selector', 'owner:me');
    await p.ok('edit', 'add', 'label', '--without-selector', 'tier:web');
    await p.ok('edit', 'add', 'label', '--without-selector', '--include-templates', 'ver:v1');
    assert.equal(p.read(), `${BASE}resources:\n- web.yaml\nlabels:\n- pairs:\n    owner: me\n    tier: web\n- includeTemplates: true\n  pairs:\n    ver: v1\n`);
    const yaml = await p.built();
    assert.match(yaml, /matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n        ver: v1/);
    await p.fails('--without-selector flag must be specified for --include-templates to work', 'edit', 'add', 'label', '--include-templates', 'x:y');
  });

  test('argument errors', async () => {
    const p = project({ 'kustomization.yaml': BASE });
    await p.fails('must specify label', 'edit', 'add', 'label');
    await p.fails("invalid label: ':nokey' (need k:v pair where v may be quoted)", 'edit', 'add', 'label', ':nokey');
    await p.fails("invalid annotation: ':nokey' (need k:v pair where v may be quoted)", 'edit', 'add', 'annotation', ':nokey');
  });

  test('any key and value is written, as kustomize writes them; what Kubernetes would refuse is warned about', async () => {
    const p = project({ 'kustomization.yaml': BASE });
    const r = await p.ok('edit', 'add', 'label', 'key:v1:v2', 'owls:not cute');
    assert.equal(p.read(), `${BASE}commonLabels:\n  key: v1:v2\n  owls: not cute\n`);
    assert.equal(
      r.err,
      'Warning: metadata.labels: Invalid value: "v1:v2": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (written as given; Kubernetes will refuse it)\n' +
        'Warning: metadata.labels: Invalid value: "not cute": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (written as given; Kubernetes will refuse it)\n',
    );
    const a = await p.ok('edit', 'add', 'annotation', 'key:v1:v2', 'owls:not cute', 'bad key!:x');
    assert.equal(p.read(), `${BASE}commonLabels:\n  key: v1:v2\n  owls: not cute\ncommonAnnotations:\n  bad key!: x\n  key: v1:v2\n  owls: not cute\n`);
    assert.match(a.err, /^Warning: metadata.annotations: Invalid value: "bad key!": name part must consist of alphanumeric characters/);
    await p.ok('edit', 'set', 'label', 'owls:cute');
    await p.ok('edit', 'remove', 'label', 'key');
    assert.equal(p.read(), `${BASE}commonLabels:\n  owls: cute\ncommonAnnotations:\n  bad key!: x\n  key: v1:v2\n  owls: not cute\n`);
  });

  test('annotations take any value', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}resources:\n- web.yaml\n`, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'add', 'annotation', 'note:"hello, world"', 'example.com/x:1');
    assert.equal(p.read(), `${BASE}resources:\n- web.yaml\ncommonAnnotations:\n  example.com/x: "1"\n  note: hello, world\n`);
    assert.match(await p.built(), /annotations:\n    example.com\/x: "1"\n    note: hello, world/);
    await p.fails('annotation note already in kustomization file. Use --force to override.', 'edit', 'add', 'annotation', 'note:x');
  });
});

describe('edit add patch', () => {
  test('a patch file or an inline patch with a target; the same patch is not added twice', async () => {
    const p = project({
      'kustomization.yaml': `${BASE}resources:\n- web.yaml\n`,
      'web.yaml': DEPLOYMENT,
      'replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n',
    });
    await p.ok('edit', 'add', 'patch', '--path', 'replicas.yaml');
    await p.ok('edit', 'add', 'patch', '--patch', '- op: add\n  path: /spec/minReadySeconds\n  value: 5', '--kind', 'Deployment', '--name', 'web', '--group', 'apps', '--version', 'v1');
    const again = await p.ok('edit', 'add', 'patch', '--path', 'replicas.yaml');
    assert.equal(again.err, 'patch {"path":"replicas.yaml"} already in kustomization file\n');
    assert.equal(
      p.read(),
      `${BASE}resources:\n- web.yaml\npatches:\n- path: replicas.yaml\n- patch: |-\n    - op: add\n      path: /spec/minReadySeconds\n      value: 5\n  target:\n    group: apps\n    kind: Deployment\n    name: web\n    version: v1\n`,
    );
    assert.match(await p.built(), /spec:\n  minReadySeconds: 5\n  replicas: 3/);
    await p.fails("patch and path can't be set at the same time", 'edit', 'add', 'patch', '--path', 'a', '--patch', 'b');
    await p.fails('must provide either patch or path', 'edit', 'add', 'patch', '--kind', 'Deployment');
  });
});

describe('edit add buildmetadata', () => {
  test('options, comma-separated; never twice; only known ones', async () => {
    const p = project({ 'kustomization.yaml': `${BASE}resources:\n- web.yaml\n`, 'web.yaml': DEPLOYMENT });
    await p.ok('edit', 'add', 'buildmetadata', 'originAnnotations,managedByLabel');
    assert.equal(p.read(), `${BASE}resources:\n- web.yaml\nbuildMetadata:\n- originAnnotations\n- managedByLabel\n`);
    assert.match(await p.built(), /config.kubernetes.io\/origin: \|\n      path: web.yaml/);
    await p.fails('buildMetadata option originAnnotations already in kustomization file', 'edit', 'add', 'buildmetadata', 'originAnnotations');
    await p.fails('invalid buildMetadata option: invalid_option', 'edit', 'add', 'buildmetadata', 'invalid_option');
    await p.fails('too many arguments: [option1 option2]; to provide multiple buildMetadata options, please separate options by comma', 'edit', 'add', 'buildmetadata', 'option1', 'option2');
    await p.fails('must specify a buildMetadata option', 'edit', 'add', 'buildmetadata');
  });
});
