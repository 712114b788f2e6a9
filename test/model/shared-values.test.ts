/**
 * With a cache, resources share what was parsed from their files with other builds, frozen
 * (`shareValue`), and each step copies the part it writes. Here every kind of writer works on
 * a shared object: it must give what it gives on a private copy, leave the shared object as it
 * was, and keep sharing what it did not write (the cache's later comparisons and the memory
 * saved depend on that).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { visitField } from '../../src/fieldspec/fieldspec.js';
import { Resource } from '../../src/model/resource.js';
import { builtinSchema } from '../../src/openapi/schema.js';
import { applyJsonPatch, type JsonPatchOp } from '../../src/patch/json6902.js';
import { applySmpToResource } from '../../src/patch/strategic-merge.js';
import { applyReplacements } from '../../src/replacements/apply.js';
import { parseYamlDocuments } from '../../src/yaml/parse.js';
import { cloneValue, isShared, isWrittenEmpty, owned, scalarSourceText, shareValue, writableChild, type YMap } from '../../src/yaml/value.js';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
  annotations:
    build: 0123
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports:
        - containerPort: 80
      volumes:
      - name: config
        configMap:
          name: settings
        emptyHint:
`;

function parsed(text = DEPLOYMENT): YMap {
  return parseYamlDocuments(text, 'deployment.yaml')[0] as YMap;
}

/** The object shared and frozen, and a private copy of it to compare with. */
function sharedAndPrivate(text = DEPLOYMENT): { shared: YMap; before: YMap } {
  const shared = shareValue(parsed(text));
  return { shared, before: cloneValue(shared) };
}

function at(v: YMap, ...keys: (string | number)[]): unknown {
  return keys.reduce<unknown>((node, k) => (node as Record<string | number, unknown>)[k], v);
}

test('shareValue freezes the whole value: a write anywhere in it throws', () => {
  const shared = shareValue(parsed());
  assert.ok(isShared(shared) && isShared(at(shared, 'spec', 'template', 'spec', 'containers', 0) as YMap));
  assert.throws(() => {
    (at(shared, 'spec', 'template', 'spec', 'containers', 0) as YMap)['image'] = 'x';
  }, TypeError);
  assert.throws(() => (at(shared, 'spec', 'template', 'spec', 'containers') as unknown[]).push({}), TypeError);
});

test('a field visit copies the maps and sequences on its path only, keeping the marks of what it copies', () => {
  const { shared, before } = sharedAndPrivate();
  const root = { ...shared };
  const visited: YMap[] = [];
  visitField(root, { path: 'spec/template/spec/volumes/name' }, undefined, (holder, key) => {
    holder[key] = 'changed';
    visited.push(holder);
  });
  assert.deepEqual(shared, before, 'the shared value is unchanged');
  assert.equal(at(root, 'spec', 'template', 'spec', 'volumes', 0), visited[0], 'the copy the visitor wrote is the one in place');
  assert.equal(at(root, 'spec', 'template', 'spec', 'volumes', 0, 'name'), 'changed');
  assert.ok(!isShared(at(root, 'spec', 'template') as YMap));
  assert.equal(at(root, 'spec', 'selector'), at(shared, 'spec', 'selector'), 'a sibling off the path is still the shared one');
  assert.equal(at(root, 'spec', 'template', 'spec', 'containers'), at(shared, 'spec', 'template', 'spec', 'containers'));
  assert.equal(at(root, 'spec', 'template', 'spec', 'volumes', 0, 'configMap'), at(shared, 'spec', 'template', 'spec', 'volumes', 0, 'configMap'));
  assert.ok(isWrittenEmpty(visited[0]!, 'emptyHint'), 'a key written with no value is still known as one in the copy');
});

test('owned copies every shared part, and keeps what was already writable', () => {
  const { shared, before } = sharedAndPrivate();
  const root = { ...shared };
  const meta = writableChild(root, 'metadata');
  const own = owned(root);
  assert.equal(own, root);
  assert.equal(own['metadata'], meta);
  assert.ok(!isShared(at(own, 'spec', 'template', 'spec', 'containers', 0) as YMap));
  assert.deepEqual(own, before);
  assert.equal(scalarSourceText(at(own, 'metadata', 'annotations') as YMap, 'build'), '0123', 'annotation texts as written survive the copy');
});

test('a resource owns its top level, metadata, labels and annotations; ownPath makes a path writable and what it leads to throughout', () => {
  const { shared, before } = sharedAndPrivate();
  const r = new Resource(shared);
  r.setName('renamed');
  r.setStringMapEntry('labels', 'team', 'a');
  r.setStringMapEntry('annotations', 'note', 'b');
  assert.equal(r.view['spec'], shared['spec'], 'spec is still the shared one');
  r.ownPath(['spec', 'template', 'spec', 'containers', '0', 'image']);
  const containers = at(r.view, 'spec', 'template', 'spec', 'containers') as YMap[];
  containers[0]!['image'] = 'nginx:2';
  assert.equal(at(r.view, 'spec', 'selector'), at(shared, 'spec', 'selector'));
  assert.deepEqual(shared, before);
  const own = r.obj;
  assert.ok(!isShared(at(own, 'spec', 'selector') as YMap));
  assert.equal(at(own, 'metadata', 'name'), 'renamed');
});

test('visitField copies the path to the fields it visits, the fields and what is in them', () => {
  const { shared, before } = sharedAndPrivate();
  const r = new Resource(shared);
  visitField(r.view, { path: 'spec/template/metadata/labels', create: true }, 'map', (holder, key) => {
    (holder[key] as YMap)['team'] = 'a';
  });
  visitField(r.view, { path: 'spec/template/spec/volumes/configMap/name' }, 'lenient', (holder, key) => {
    holder[key] = `app-${String(holder[key])}`;
  });
  visitField(r.view, { path: 'spec/strategy/type', create: true }, 'scalar', (holder, key) => {
    holder[key] = 'Recreate';
  });
  assert.deepEqual(shared, before);
  assert.deepEqual(at(r.view, 'spec', 'template', 'metadata', 'labels'), { app: 'web', team: 'a' });
  assert.equal(at(r.view, 'spec', 'template', 'spec', 'volumes', 0, 'configMap', 'name'), 'app-settings');
  assert.equal(at(r.view, 'spec', 'strategy', 'type'), 'Recreate');
  assert.equal(at(r.view, 'spec', 'template', 'spec', 'containers'), at(shared, 'spec', 'template', 'spec', 'containers'), 'the containers were not visited');
  assert.equal(at(r.view, 'spec', 'selector'), at(shared, 'spec', 'selector'));
});

test('a field whose value an earlier visit copied in part is writable throughout when visited', () => {
  const shared = shareValue(parsed('apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\nsubjects:\n- kind: User\n  name: a\n  namespace: old\n- kind: ServiceAccount\n  name: b\n'));
  const r = new Resource(shared);
  // the first visit copies the list and its first item only (the second has no namespace)
  visitField(r.view, { path: 'subjects/namespace' }, 'lenient', (holder, key) => {
    holder[key] = 'new';
  });
  assert.equal((r.view['subjects'] as YMap[])[1], (shared['subjects'] as YMap[])[1]);
  visitField(r.view, { path: 'subjects' }, 'lenient', (holder, key) => {
    for (const s of holder[key] as YMap[]) s['name'] = `x-${String(s['name'])}`;
  });
  assert.deepEqual(r.view['subjects'], [
    { kind: 'User', name: 'x-a', namespace: 'new' },
    { kind: 'ServiceAccount', name: 'x-b' },
  ]);
  assert.deepEqual(shared['subjects'], [
    { kind: 'User', name: 'a', namespace: 'old' },
    { kind: 'ServiceAccount', name: 'b' },
  ]);
});

const SMP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx:2
      - name: sidecar
        image: envoy
`;

test('a strategic-merge patch on a shared object gives what it gives on a private copy, and shares what it did not change', () => {
  const { shared, before } = sharedAndPrivate();
  const patch = parseYamlDocuments(SMP, 'patch.yaml')[0] as YMap;
  const expected = applySmpToResource(cloneValue(before), patch, builtinSchema());
  const r = new Resource(shared);
  const result = applySmpToResource(r.view, patch, builtinSchema()) as YMap;
  assert.deepEqual(result, expected);
  assert.deepEqual(shared, before);
  assert.equal(result['spec'] === shared['spec'], false);
  assert.equal(at(result, 'spec', 'selector'), at(shared, 'spec', 'selector'), 'the selector was not patched');
  // the merge drops keys written with no value wherever it walks, copying what it changes
  assert.equal(Object.prototype.hasOwnProperty.call(at(result, 'spec', 'template', 'spec', 'volumes', 0), 'emptyHint'), false);
  assert.ok(Object.prototype.hasOwnProperty.call(at(shared, 'spec', 'template', 'spec', 'volumes', 0), 'emptyHint'));
});

test('a JSON patch on a shared object copies the paths its operations take', () => {
  const { shared, before } = sharedAndPrivate();
  const ops: JsonPatchOp[] = [
    { op: 'replace', path: '/spec/replicas', value: 3 },
    { op: 'add', path: '/spec/template/spec/containers/0/args', value: ['--v=2'] },
    { op: 'remove', path: '/metadata/labels/app' },
    { op: 'move', from: '/spec/template/metadata/labels', path: '/spec/template/metadata/moved' },
  ];
  const expected = applyJsonPatch(cloneValue(before), structuredClone(ops));
  const r = new Resource(shared);
  const result = applyJsonPatch(r.view, ops) as YMap;
  assert.deepEqual(result, expected);
  assert.deepEqual(shared, before);
  assert.equal(at(result, 'spec', 'selector'), at(shared, 'spec', 'selector'));
  assert.equal(at(result, 'spec', 'template', 'spec', 'volumes'), at(shared, 'spec', 'template', 'spec', 'volumes'));
});

test('a replacement on a shared object writes to copies of the fields it targets', () => {
  const { shared, before } = sharedAndPrivate();
  const source = new Resource(parsed('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: src\ndata:\n  image: nginx:3\n  ns: team-a\n'));
  const r = new Resource(shared);
  applyReplacements(
    [source, r],
    [
      { source: { kind: 'ConfigMap', fieldPath: 'data.image' }, targets: [{ select: { kind: 'Deployment' }, fieldPaths: ['spec.template.spec.containers.[name=web].image'] }] },
      { source: { kind: 'ConfigMap', fieldPath: 'data.ns' }, targets: [{ select: { kind: 'Deployment' }, fieldPaths: ['metadata.annotations.[example.com/ns]'], options: { create: true } }] },
    ],
    { replacementTargetSelectors: 'anchored-regex', replacementIntoStrings: true },
  );
  assert.deepEqual(shared, before);
  assert.equal(at(r.view, 'spec', 'template', 'spec', 'containers', 0, 'image'), 'nginx:3');
  assert.equal(at(r.view, 'metadata', 'annotations', 'example.com/ns'), 'team-a');
  assert.equal(at(r.view, 'spec', 'selector'), at(shared, 'spec', 'selector'));
  assert.equal(at(r.view, 'spec', 'template', 'spec', 'volumes'), at(shared, 'spec', 'template', 'spec', 'volumes'));
});
