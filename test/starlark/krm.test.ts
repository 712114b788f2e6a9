import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { starlarkRunConfig } from '../../src/kinds/function-spec.js';
import { fromStarlark, runStarlarkFunction, toStarlark } from '../../src/starlark/index.js';
import type { YMap } from '../../src/yaml/value.js';

const deployment = (name: string): YMap => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { app: name } },
  spec: { replicas: 3, template: { spec: { containers: [{ name: 'c', image: 'nginx:1.8', resources: { limits: { cpu: 0.5 } } }] } } },
});

const SET_LABEL = `
def set_label(items, key, value):
    for r in items:
        r["metadata"].setdefault("labels", {})[key] = value

cfg = ctx.resource_list["functionConfig"]
set_label(ctx.resource_list["items"], cfg["data"]["key"], cfg["data"]["value"])
`;

test('a transformer: edits labels; ints stay ints, floats floats, key order kept', () => {
  const out = runStarlarkFunction({
    source: SET_LABEL,
    filename: 'fn/set-label.star',
    resourceList: { items: [deployment('a'), deployment('b')], functionConfig: { kind: 'ConfigMap', data: { key: 'team', value: 'blue' } } },
  });
  assert.equal(out.items.length, 2);
  const meta = out.items[0]!['metadata'] as YMap;
  assert.deepEqual(meta['labels'], { app: 'a', team: 'blue' });
  assert.deepEqual(Object.keys(out.items[0]!), ['apiVersion', 'kind', 'metadata', 'spec']);
  const spec = out.items[1]!['spec'] as YMap;
  assert.equal(spec['replicas'], 3);
  assert.ok(Number.isInteger(spec['replicas']));
  assert.equal((((((spec['template'] as YMap)['spec'] as YMap)['containers'] as YMap[])[0]!['resources'] as YMap)['limits'] as YMap)['cpu'], 0.5);
});

test('a generator adds items; results are returned; ctx.environment and ctx.open_api are visible', () => {
  const out = runStarlarkFunction({
    source: `
ctx.resource_list["items"].append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": ctx.environment["NAME"]}, "data": {"defs": str(len(ctx.open_api["definitions"]))}})
ctx.resource_list["results"] = [{"message": "generated", "severity": "info"}]
`,
    filename: 'gen.star',
    resourceList: { items: [] },
    environment: { NAME: 'generated' },
    openApi: { definitions: { a: {}, b: {} } },
  });
  assert.deepEqual(out.items, [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'generated' }, data: { defs: '2' } }]);
  assert.deepEqual(out.results, [{ message: 'generated', severity: 'info' }]);
});

test('a validator fails with the script file:line:col and a backtrace', () => {
  const source = 'def check(r):\n    if "team" not in r["metadata"].get("labels", {}):\n        fail("missing team label on " + r["metadata"]["name"])\n\nfor r in ctx.resource_list["items"]:\n    check(r)\n';
  assert.throws(
    () => runStarlarkFunction({ source, filename: 'validate.star', resourceList: { items: [deployment('web')] } }),
    (e: unknown) => {
      assert.ok(e instanceof KustomizeError);
      assert.equal(e.code, 'PLUGIN_FAILED');
      assert.equal(e.file, 'validate.star');
      assert.match(e.message, /validate\.star:3:13: fail: missing team label on web/);
      assert.match(e.message, /validate\.star:6:10: in <toplevel>/);
      return true;
    },
  );
});

test('step and time limits stop a runaway function', () => {
  const forever = { source: 'while True:\n    pass\n', filename: 'loop.star', resourceList: { items: [] } };
  assert.throws(() => runStarlarkFunction({ ...forever, limits: { maxSteps: 1000 } }), /loop\.star:\d+:\d+: Starlark computation cancelled: too many steps/);
  // a clock that moves one tick a read: the deadline comes at a known step, not after a time
  let ticks = 0;
  assert.throws(() => runStarlarkFunction({ ...forever, limits: { deadline: 1, now: () => ticks++ } }), /loop\.star:\d+:\d+: Starlark computation cancelled: deadline exceeded/);
});

test('the output must be a list of maps', () => {
  assert.throws(() => runStarlarkFunction({ source: 'ctx.resource_list["items"] = 1\n', filename: 'x.star', resourceList: { items: [] } }), /must be a list, not int/);
  assert.throws(() => runStarlarkFunction({ source: 'ctx.resource_list["items"].append(b"x")\n', filename: 'x.star', resourceList: { items: [] } }), /items\[0\]: bytes cannot be written as YAML/);
});

test('load: json.star built in, other modules from the host', () => {
  const out = runStarlarkFunction({
    source: 'load("json.star", "json")\nload("lib.star", "prefix")\nfor r in ctx.resource_list["items"]:\n    r["metadata"]["name"] = prefix + json.encode(r["metadata"]["labels"])\n',
    filename: 'main.star',
    resourceList: { items: [{ kind: 'X', metadata: { name: 'a', labels: { z: 1, a: 'é' } } }] },
    load: (m) => (m === 'lib.star' ? 'prefix = "p-"\n' : ''),
  });
  assert.equal((out.items[0]!['metadata'] as YMap)['name'], 'p-{"a":"é","z":1}');
});

test('YAML values round-trip through Starlark exactly', () => {
  const v = { s: 'ünïcode', i: 42, big: 12345678901234567890n, f: 1.25, n: null, b: true, list: [1, 'two', [3]], nested: { z: 1, a: 2 } };
  const back = fromStarlark(toStarlark(v), 'v');
  assert.deepEqual(back, v);
  assert.deepEqual(Object.keys((back as YMap)['nested'] as YMap), ['z', 'a']);
});

test("kpt's StarlarkRun config is recognised", () => {
  assert.deepEqual(starlarkRunConfig({ apiVersion: 'fn.kpt.dev/v1alpha1', kind: 'StarlarkRun', metadata: { name: 'set-ns' }, source: 'pass\n', params: { ns: 'x' } }), { source: 'pass\n', name: 'set-ns' });
  assert.equal(starlarkRunConfig({ apiVersion: 'v1', kind: 'ConfigMap' }), undefined);
  const fc = { apiVersion: 'fn.kpt.dev/v1alpha1', kind: 'StarlarkRun', metadata: { name: 'ns' }, source: 'for r in ctx.resource_list["items"]:\n    r["metadata"]["namespace"] = ctx.resource_list["functionConfig"]["params"]["ns"]\n', params: { ns: 'prod' } };
  const cfg = starlarkRunConfig(fc)!;
  const out = runStarlarkFunction({ source: cfg.source, filename: cfg.name, resourceList: { items: [deployment('a')], functionConfig: fc } });
  assert.equal((out.items[0]!['metadata'] as YMap)['namespace'], 'prod');
});

test('1,000 resources: a label-editing function', () => {
  const items = Array.from({ length: 1000 }, (_, i) => deployment(`d${i}`));
  const out = runStarlarkFunction({ source: SET_LABEL, filename: 'set-label.star', resourceList: { items, functionConfig: { data: { key: 'k', value: 'v' } } } });
  assert.equal(out.items.length, 1000);
  assert.equal(((out.items[999]!['metadata'] as YMap)['labels'] as YMap)['k'], 'v');
});
