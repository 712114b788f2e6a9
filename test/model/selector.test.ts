/**
 * Patch/replacement target selectors. The table is what the real `kubectl kustomize`
 * (kubectl v1.32.4, kustomize v5.5.0) selected: RESOURCES were built with one JSON6902 patch per
 * row, `target:` set to the row's selector, adding an annotation; the names listed are the
 * resources kubectl printed with that annotation.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import type { Selector } from '../../src/model/selector.js';
import { resourcesFromText } from '../../src/model/resource-factory.js';
import { ResourceMap } from '../../src/model/resource-map.js';
import { ResourceSelector } from '../../src/model/selector.js';

const RESOURCES = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  labels: {tier: frontend, env: prod}
  annotations: {team: a}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web2
  labels: {tier: backend, env: prod, canary: 'true'}
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  namespace: prod
  labels: {tier: backend}
  annotations: {team: b}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  labels: {env: dev}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
---
apiVersion: example.com/v1beta1
kind: Widget
metadata:
  name: w
  labels: {tier: frontend}
`;

/** [target, names kubectl patched] */
const TABLE: [Selector, string[]][] = [
  [{ kind: 'Deployment' }, ['web', 'web2']],
  [{ name: 'web' }, ['web']],
  [{ name: 'web.*' }, ['web', 'web2', 'web-config']],
  [{ name: 'web|db' }, ['web', 'db']],
  [{ kind: 'Deploy.*' }, ['web', 'web2']],
  [{ group: 'apps' }, ['web', 'web2', 'db']],
  [{ version: 'v1' }, ['web', 'web2', 'db', 'web-config', 'migrate']],
  [{ group: '' }, ['web', 'web2', 'db', 'web-config', 'migrate', 'w']],
  [{ namespace: 'prod' }, ['web', 'db']],
  [{ namespace: 'default' }, ['web2', 'web-config', 'migrate', 'w']],
  [{ namespace: '' }, ['web', 'web2', 'db', 'web-config', 'migrate', 'w']],
  [{ labelSelector: 'tier=backend' }, ['web2', 'db']],
  [{ labelSelector: 'tier==frontend' }, ['web', 'w']],
  [{ labelSelector: 'tier!=backend' }, ['web', 'web-config', 'migrate', 'w']],
  [{ labelSelector: 'tier in (frontend,backend)' }, ['web', 'web2', 'db', 'w']],
  [{ labelSelector: 'tier notin (frontend)' }, ['web2', 'db', 'web-config', 'migrate']],
  [{ labelSelector: 'canary' }, ['web2']],
  [{ labelSelector: '!canary' }, ['web', 'db', 'web-config', 'migrate', 'w']],
  [{ labelSelector: 'tier=backend,env=prod' }, ['web2']],
  [{ labelSelector: 'env in (prod), tier!=frontend' }, ['web2']],
  [{ annotationSelector: 'team=a' }, ['web']],
  [{ annotationSelector: 'team' }, ['web', 'db']],
  [{ kind: 'Deployment', labelSelector: 'env=prod' }, ['web', 'web2']],
  [{ group: 'example.com', version: 'v1beta1' }, ['w']],
  [{ name: '[a-z]+' }, ['web', 'db', 'migrate', 'w']],
  [{ name: 'eb' }, []],
  [{ name: 'WEB' }, []],
];

describe('ResourceSelector', () => {
  const map = new ResourceMap(resourcesFromText(RESOURCES, 'r.yaml'));
  for (const [selector, names] of TABLE) {
    test(`${JSON.stringify(selector)} selects ${JSON.stringify(names)}`, () => {
      assert.deepEqual(
        new ResourceSelector(selector).select(map).map((r) => r.name),
        names,
      );
    });
  }

  test('names and namespaces match the original id as well as the current one', () => {
    // kubectl: a base with namePrefix p- and namespace ns1 over ConfigMap `web`; an overlay's
    // patch targeting name web, name p-web, namespace ns1 or namespace default hit it; name other did not
    const [r] = resourcesFromText('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n', 'r.yaml');
    r!.storePreviousId();
    r!.setName('p-web');
    r!.setNamespace('ns1');
    const hits = (s: Selector): boolean => new ResourceSelector(s).matches(r!);
    assert.equal(hits({ name: 'web' }), true);
    assert.equal(hits({ name: 'p-web' }), true);
    assert.equal(hits({ name: 'other' }), false);
    assert.equal(hits({ namespace: 'ns1' }), true);
    assert.equal(hits({ namespace: 'default' }), true);
    assert.equal(hits({ name: 'p-web', namespace: 'ns1' }), true);
    assert.equal(hits({ name: 'web', namespace: 'default' }), true);
    assert.equal(hits({ kind: 'Secret' }), false);
  });

  test('an invalid regular expression is a KustomizeError', () => {
    assert.throws(() => new ResourceSelector({ name: 'web(' }), KustomizeError);
  });
});
