/**
 * ResourceMap: lookups by current id and by any earlier id, kept in indexes (no scans per
 * lookup) that `settle()` brings up to date after a step renamed resources. Error texts are kustomize's, as the real
 * `kubectl kustomize` (kubectl v1.32.4, kustomize v5.5.0) printed them: `may not add resource
 * with an already registered id: ConfigMap.v1.[noGrp]/settings.default` (two files defining
 * ConfigMap settings, the second in namespace default) and `no matches for Id
 * Deployment.v1.apps/absent.[noNs]` (a patch for a missing Deployment), `multiple matches for Id
 * ConfigMap.v1.[noGrp]/a.[noNs]` (a patch for ConfigMap a, when a base renamed its `a` to `p-a`
 * and the overlay added another `a`).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { ResId } from '../../src/model/resid.js';
import { ResourceMap } from '../../src/model/resource-map.js';
import { Resource } from '../../src/model/resource.js';

function res(kind: string, name: string, namespace?: string, apiVersion = kind === 'Deployment' ? 'apps/v1' : 'v1'): Resource {
  return new Resource({ apiVersion, kind, metadata: { name, ...(namespace !== undefined && { namespace }) } });
}
const id = (kind: string, name: string, namespace = '', group = kind === 'Deployment' ? 'apps' : ''): ResId => new ResId({ group, version: 'v1', kind }, name, namespace);

/** A resource that counts how often its ids are read, to prove lookups do not scan. */
class CountingResource extends Resource {
  static reads = 0;
  override get id(): ResId {
    CountingResource.reads++;
    return super.id;
  }
}

describe('ResourceMap', () => {
  test('keeps insertion order and finds resources by current id', () => {
    const m = new ResourceMap([res('ConfigMap', 'b'), res('Deployment', 'a')]);
    m.append(res('Service', 'c', 'ns'));
    assert.deepEqual(m.resources().map((r) => r.name), ['b', 'a', 'c']);
    assert.equal(m.size, 3);
    assert.deepEqual([...m].map((r) => r.name), ['b', 'a', 'c']);
    assert.equal(m.byCurrentId(id('Deployment', 'a'))[0]?.name, 'a');
    assert.equal(m.byCurrentId(id('Service', 'c', 'ns')).length, 1);
    assert.equal(m.byCurrentId(id('Service', 'c', 'other')).length, 0);
    assert.equal(m.byCurrentId(id('Deployment', 'a', '', 'extensions')).length, 0);
  });

  test('the CustomResourceDefinitions, in map order, as steps add, edit and remove resources', () => {
    const crd = (name: string) => res('CustomResourceDefinition', name, undefined, 'apiextensions.k8s.io/v1');
    const b = crd('b.example.com');
    const m = new ResourceMap([b, res('ConfigMap', 'x'), crd('a.example.com')]);
    const names = () => m.customResourceDefinitions().map((r) => r.name);
    assert.deepEqual(names(), ['b.example.com', 'a.example.com']);
    m.append(crd('c.example.com'));
    const cm = m.resources()[1]!;
    cm.obj['kind'] = 'CustomResourceDefinition';
    b.obj['kind'] = 'Thing';
    m.settle();
    assert.deepEqual(names(), ['x', 'a.example.com', 'c.example.com']);
    m.remove(cm);
    assert.deepEqual(names(), ['a.example.com', 'c.example.com']);
  });

  test('"" and "default" are the same namespace; cluster-scoped kinds ignore the namespace', () => {
    const m = new ResourceMap([res('ConfigMap', 'x'), res('Namespace', 'team', 'whatever')]);
    assert.equal(m.byCurrentId(id('ConfigMap', 'x', 'default')).length, 1);
    assert.equal(m.byCurrentId(id('Namespace', 'team')).length, 1);
    assert.equal(m.byCurrentId(id('Namespace', 'team', 'other')).length, 1);
  });

  test('an id already registered is refused, in kustomize\'s words', () => {
    const m = new ResourceMap([res('ConfigMap', 'settings')]);
    assert.throws(
      () => m.append(res('ConfigMap', 'settings', 'default')),
      (e: unknown) =>
        e instanceof KustomizeError &&
        e.code === 'RESOURCE_CONFLICT' &&
        e.message === 'may not add resource with an already registered id: ConfigMap.v1.[noGrp]/settings.default',
    );
    assert.equal(m.size, 1);
    m.append(res('ConfigMap', 'settings', 'other'));
    assert.equal(m.size, 2);
  });

  test('after a rename and settle(), the new id is current and the old one is still known', () => {
    const web = res('Deployment', 'web');
    const m = new ResourceMap([web, res('ConfigMap', 'cfg')]);
    assert.equal(m.byAnyId(id('Deployment', 'web'))[0], web); // build the indexes
    web.storePreviousId();
    web.setName('p-web');
    web.storePreviousId();
    web.setNamespace('prod');
    m.settle();
    assert.deepEqual(m.byCurrentId(id('Deployment', 'web')), []);
    assert.deepEqual(m.byCurrentId(id('Deployment', 'p-web')), []);
    assert.deepEqual(m.byCurrentId(id('Deployment', 'p-web', 'prod')), [web]);
    assert.deepEqual(m.byAnyId(id('Deployment', 'web')), [web]);
    assert.deepEqual(m.byAnyId(id('Deployment', 'p-web')), [web]);
    assert.deepEqual(m.byAnyId(id('Deployment', 'p-web', 'prod')), [web]);
    assert.deepEqual(m.byAnyId(id('Deployment', 'cfg')), []);
    assert.equal(web.originalId.name, 'web');
    assert.equal(m.demandOne(id('Deployment', 'web')), web);
  });

  test('after settle() a renamed resource frees its old id for a new resource', () => {
    const a = res('ConfigMap', 'a');
    const m = new ResourceMap([a]);
    m.byCurrentId(id('ConfigMap', 'a'));
    a.storePreviousId();
    a.setName('a-renamed');
    m.settle();
    m.append(res('ConfigMap', 'a'));
    assert.equal(m.size, 2);
    assert.equal(m.byAnyId(id('ConfigMap', 'a')).length, 2);
    assert.throws(() => m.demandOne(id('ConfigMap', 'a')), /^KustomizeError: multiple matches for Id ConfigMap.v1.\[noGrp\]\/a.\[noNs\]$/);
  });

  test('demandOne: kustomize\'s "no matches for Id" when nothing has the id', () => {
    const m = new ResourceMap([res('Deployment', 'present')]);
    assert.throws(
      () => m.demandOne(id('Deployment', 'absent')),
      (e: unknown) => e instanceof KustomizeError && e.message === 'no matches for Id Deployment.v1.apps/absent.[noNs]',
    );
  });

  test('appends after the indexes are built are found without settle()', () => {
    const m = new ResourceMap([res('ConfigMap', 'a')]);
    m.byCurrentId(id('ConfigMap', 'a'));
    m.byAnyId(id('ConfigMap', 'a'));
    const b = res('ConfigMap', 'b');
    m.append(b);
    assert.deepEqual(m.byCurrentId(id('ConfigMap', 'b')), [b]);
    assert.deepEqual(m.byAnyId(id('ConfigMap', 'b')), [b]);
  });

  test('remove, removeAll, replace and setAll keep the lookups right', () => {
    const [a, b, c] = [res('ConfigMap', 'a'), res('ConfigMap', 'b'), res('ConfigMap', 'c')];
    const m = new ResourceMap([a, b, c]);
    m.byAnyId(id('ConfigMap', 'a'));
    m.remove(b);
    assert.deepEqual(m.byCurrentId(id('ConfigMap', 'b')), []);
    assert.deepEqual(m.resources(), [a, c]);
    const a2 = res('ConfigMap', 'a2');
    m.replace(a, a2);
    assert.deepEqual(m.resources(), [a2, c]);
    assert.deepEqual(m.byAnyId(id('ConfigMap', 'a')), []);
    assert.deepEqual(m.byCurrentId(id('ConfigMap', 'a2')), [a2]);
    assert.equal(m.indexOf(c), 1);
    m.removeAll([a2, c]);
    assert.equal(m.size, 0);
    assert.deepEqual(m.byCurrentId(id('ConfigMap', 'c')), []);
    m.setAll([b]);
    assert.deepEqual(m.byCurrentId(id('ConfigMap', 'b')), [b]);
    assert.throws(() => m.replace(a, b));
  });

  test('withName: resources that are or were called the name, in map order, also after edits', () => {
    const [a, b, c] = [res('ConfigMap', 'a'), res('Deployment', 'x'), res('Service', 'a', 'ns')];
    const m = new ResourceMap([a, b, c]);
    assert.deepEqual(m.withName('a'), [a, c]);
    b.storePreviousId();
    b.setName('a');
    m.edited([b]);
    assert.deepEqual(m.withName('a'), [a, b, c]);
    assert.deepEqual(m.withName('x'), [b]);
    a.storePreviousId();
    a.setName('p-a');
    m.edited([a]);
    assert.deepEqual(m.withName('a'), [a, b, c], 'an earlier name still counts');
    assert.deepEqual(m.withName('p-a'), [a]);
    m.removeAll([a]);
    assert.deepEqual(m.withName('a'), [b, c]);
    assert.deepEqual(m.withName('p-a'), []);
  });

  test('edited() re-files the edited resources alone: other resources are not read again', () => {
    const n = 500;
    const list: Resource[] = [];
    for (let i = 0; i < n; i++) list.push(new CountingResource({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } }));
    const m = new ResourceMap(list);
    m.byCurrentId(id('ConfigMap', 'cm-0'));
    m.byAnyId(id('ConfigMap', 'cm-0'));
    m.withName('cm-0');
    const r = list[7]!;
    r.storePreviousId();
    r.setName('renamed');
    CountingResource.reads = 0;
    m.edited([r]);
    assert.deepEqual(m.byCurrentId(id('ConfigMap', 'renamed')), [r]);
    assert.deepEqual(m.byCurrentId(id('ConfigMap', 'cm-7')), []);
    assert.deepEqual(m.byAnyId(id('ConfigMap', 'cm-7')), [r]);
    assert.deepEqual(m.withName('renamed'), [r]);
    assert.deepEqual(m.byCurrentId(id('ConfigMap', 'cm-8')), [list[8]]);
    assert.ok(CountingResource.reads < 20, `re-filing one resource read ${CountingResource.reads} ids`);
    // a new resource may now take the freed id
    m.append(res('ConfigMap', 'cm-7'));
    assert.equal(m.byAnyId(id('ConfigMap', 'cm-7')).length, 2);
  });

  test('replace() and removeAll() keep the indexes: no rebuild, order kept', () => {
    const list: Resource[] = [];
    for (let i = 0; i < 300; i++) list.push(new CountingResource({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } }));
    const m = new ResourceMap(list);
    m.byAnyId(id('ConfigMap', 'cm-0'));
    m.withName('cm-0');
    const merged = new CountingResource({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-3' } });
    CountingResource.reads = 0;
    m.replace(list[3]!, merged);
    m.removeAll([list[5]!]);
    assert.deepEqual(m.byAnyId(id('ConfigMap', 'cm-3')), [merged]);
    assert.deepEqual(m.byAnyId(id('ConfigMap', 'cm-5')), []);
    assert.ok(CountingResource.reads < 20, `replace and removeAll read ${CountingResource.reads} ids`);
    const twin = res('ConfigMap', 'cm-3', 'other');
    m.append(twin);
    assert.deepEqual(m.withName('cm-3'), [merged, twin]);
    assert.equal(m.resources()[3], merged);
  });

  test('edited() files a renamed resource at once; edited() of a removed resource does not bring it back', () => {
    const [a, b] = [res('ConfigMap', 'a'), res('ConfigMap', 'b')];
    const m = new ResourceMap([a, b]);
    m.withName('a');
    b.storePreviousId();
    b.setName('b2');
    assert.deepEqual(m.withName('b2'), [], 'not filed yet: the step has not said, and has not ended');
    m.edited([b]);
    assert.deepEqual(m.withName('b2'), [b]);
    m.removeAll([a]);
    m.edited([a]);
    assert.deepEqual(m.withName('a'), []);
    assert.deepEqual(m.resources(), [b]);
  });

  test('settle() drops the resources a step emptied, whatever it said', () => {
    const [a, b] = [res('ConfigMap', 'a'), res('ConfigMap', 'b')];
    const m = new ResourceMap([a, b]);
    for (const key of Object.keys(a.obj)) delete a.obj[key];
    m.settle();
    assert.deepEqual(m.resources(), [b]);
  });

  test('lookups use the indexes: no resource is inspected per lookup once they are built', () => {
    const n = 2000;
    const list: Resource[] = [];
    for (let i = 0; i < n; i++) {
      const r = new CountingResource({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } });
      list.push(r);
    }
    const m = new ResourceMap(list);
    m.byCurrentId(id('ConfigMap', 'cm-0'));
    m.byAnyId(id('ConfigMap', 'cm-0'));
    CountingResource.reads = 0;
    for (let i = 0; i < n; i++) {
      assert.equal(m.byCurrentId(id('ConfigMap', `cm-${i}`))[0], list[i]);
      assert.equal(m.byAnyId(id('ConfigMap', `cm-${i}`))[0], list[i]);
    }
    assert.equal(CountingResource.reads, 0, 'lookups read resource ids: they scan');
    // after a rename, settle() reads each id once (linear) and re-files only the renamed resource
    list[5]!.storePreviousId();
    list[5]!.setName('renamed');
    CountingResource.reads = 0;
    m.settle();
    assert.equal(m.byCurrentId(id('ConfigMap', 'renamed'))[0], list[5]);
    assert.equal(m.byAnyId(id('ConfigMap', 'cm-5'))[0], list[5]);
    const settling = CountingResource.reads;
    assert.ok(settling <= n + 10, `settling read ${settling} ids for ${n} resources`);
    CountingResource.reads = 0;
    for (let i = 0; i < n; i++) m.byAnyId(id('ConfigMap', `cm-${i}`));
    assert.equal(CountingResource.reads, 0);
  });
});
