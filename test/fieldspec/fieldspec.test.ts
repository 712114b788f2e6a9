/**
 * Field specs: which fields of which kinds a transformer touches. The expectations are what
 * the real `kubectl kustomize` (kubectl v1.32.4, kustomize v5.5.0) printed for the same objects
 * with `labels: [{pairs: {owner: ci}}]` and these custom `configurations:` field specs for a
 * made-up kind Thing (labels create the field when `create: true`):
 *
 *   labels:
 *   - {kind: Thing, path: spec/selector/matchLabels, create: true}
 *   - {kind: Thing, path: spec/items/labels, create: true}
 *   - {kind: Thing, path: spec/nullHere/labels, create: true}
 *   - {kind: Thing, path: spec/noCreate/labels}
 *   - {kind: Thing, path: spec/seq[]/labels, create: true}
 *   nameReference: ConfigMap cfg (renamed x-cfg) from Thing
 *   - metadata/annotations/example.com\/config, spec/refs/name, spec/seq[]/configMap
 *
 * Here the same visits are made with visitField and a visitor doing what those transformers do.
 *
 * (Known differences are top-level tests: node 20 fails a suite whose todo test fails.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { defaultTransformerConfig } from '../../src/fieldspec/defaults.js';
import { kustomizeProfile as profileOf } from '../../src/versions/profiles.js';
import { fieldSpecSelects, specsSelecting, splitFieldPath, visitField, type FieldSpec } from '../../src/fieldspec/fieldspec.js';
import { emptyTransformerConfig, mergeFieldSpecs, mergeTransformerConfigs } from '../../src/fieldspec/transformer-config.js';
import { isMap, type YMap } from '../../src/yaml/value.js';

/** kustomize 5.8.1's default field specs */
const DEFAULT_TRANSFORMER_CONFIG = defaultTransformerConfig(profileOf('5.8.1', 'test'));

const LABEL_SPECS: FieldSpec[] = [
  { kind: 'Thing', path: 'spec/selector/matchLabels', create: true },
  { kind: 'Thing', path: 'spec/items/labels', create: true },
  { kind: 'Thing', path: 'spec/nullHere/labels', create: true },
  { kind: 'Thing', path: 'spec/noCreate/labels' },
  { kind: 'Thing', path: 'spec/seq[]/labels', create: true },
];
const NAME_SPECS: FieldSpec[] = [
  { kind: 'Thing', path: 'metadata/annotations/example.com\\/config' },
  { kind: 'Thing', path: 'spec/refs/name' },
  { kind: 'Thing', path: 'spec/seq[]/configMap' },
];

/** what the label transformer does with a field: a map gets the label */
const addLabel = (holder: YMap, key: string): void => {
  const cur = holder[key];
  holder[key] = { ...(isMap(cur) ? cur : {}), owner: 'ci' };
};
/** what the name reference transformer does: cfg becomes x-cfg */
const rename = (holder: YMap, key: string): void => {
  if (holder[key] === 'cfg') holder[key] = 'x-cfg';
};

function apply(obj: YMap): YMap {
  for (const fs of LABEL_SPECS) visitField(obj, fs, 'map', addLabel);
  for (const fs of NAME_SPECS) visitField(obj, fs, undefined, rename);
  return obj;
}

describe('visitField', () => {
  test('a full object: sequences are crossed, nulls become maps, escaped slashes address one key', () => {
    const obj: YMap = {
      metadata: { name: 'full', annotations: { 'example.com/config': 'cfg' } },
      spec: {
        items: [{ a: 1 }, { b: 2 }],
        nullHere: null,
        refs: [{ name: 'cfg' }, { name: 'other' }],
        seq: [{ configMap: 'cfg' }, { configMap: 'nope' }],
      },
    };
    // kubectl's output for Thing "full" (its metadata labels and name aside)
    assert.deepEqual(apply(obj), {
      metadata: { name: 'full', annotations: { 'example.com/config': 'x-cfg' } },
      spec: {
        items: [
          { a: 1, labels: { owner: 'ci' } },
          { b: 2, labels: { owner: 'ci' } },
        ],
        nullHere: { labels: { owner: 'ci' } },
        refs: [{ name: 'x-cfg' }, { name: 'other' }],
        selector: { matchLabels: { owner: 'ci' } },
        seq: [
          { configMap: 'x-cfg', labels: { owner: 'ci' } },
          { configMap: 'nope', labels: { owner: 'ci' } },
        ],
      },
    });
  });

  test('a bare object: create makes the path as maps, but not through a missing `name[]` sequence nor without create', () => {
    // kubectl's output for Thing "bare": items/nullHere/selector created, no seq, no noCreate
    assert.deepEqual(apply({ metadata: { name: 'bare' } }), {
      metadata: { name: 'bare' },
      spec: {
        selector: { matchLabels: { owner: 'ci' } },
        items: { labels: { owner: 'ci' } },
        nullHere: { labels: { owner: 'ci' } },
      },
    });
  });

  test('a scalar on the way is an error naming the path', () => {
    assert.throws(
      () => visitField({ metadata: { name: 'bad' }, kind: 'Thing', spec: { items: 'just-a-string' } }, LABEL_SPECS[1]!, 'map', addLabel),
      (e: unknown) => e instanceof KustomizeError && e.message.startsWith("considering field 'spec/items/labels' of object ") && e.message.endsWith('expected sequence or mapping node'),
    );
  });

  test('createKind scalar creates a null leaf (no file wrote a string there)', () => {
    const obj: YMap = {};
    visitField(obj, { path: 'spec/image', create: true }, 'scalar', (h, k) => {
      assert.equal(h[k], null);
      h[k] = 'x';
    });
    assert.deepEqual(obj, { spec: { image: 'x' } });
  });

  test('the visitor sees every instance, in order', () => {
    const seen: string[] = [];
    const obj: YMap = { spec: { containers: [{ image: 'a' }, { image: 'b' }], initContainers: [{ image: 'c' }] } };
    for (const path of ['spec/containers[]/image', 'spec/initContainers/image']) {
      visitField(obj, { path }, undefined, (h, k) => seen.push(String(h[k])));
    }
    assert.deepEqual(seen, ['a', 'b', 'c']);
  });
});

describe('splitFieldPath', () => {
  test('splits on unescaped slashes', () => {
    assert.deepEqual(splitFieldPath('metadata/annotations/example.com\\/config'), ['metadata', 'annotations', 'example.com/config']);
    assert.deepEqual(splitFieldPath('spec/template/spec/containers[]/image'), ['spec', 'template', 'spec', 'containers[]', 'image']);
    assert.deepEqual(splitFieldPath('a'), ['a']);
  });
});

describe('fieldSpecSelects', () => {
  const thingV1 = { group: 'example.com', version: 'v1', kind: 'Thing' };
  test('empty parts match anything; given parts must be equal', () => {
    assert.equal(fieldSpecSelects({ kind: 'Thing' }, thingV1), true);
    // kubectl left kind Other (example.com/v2) alone with the Thing specs above
    assert.equal(fieldSpecSelects({ kind: 'Thing' }, { group: 'example.com', version: 'v2', kind: 'Other' }), false);
    assert.equal(fieldSpecSelects({}, thingV1), true);
    assert.equal(fieldSpecSelects({ group: 'example.com' }, thingV1), true);
    assert.equal(fieldSpecSelects({ group: 'apps' }, thingV1), false);
    assert.equal(fieldSpecSelects({ version: 'v2', kind: 'Thing' }, thingV1), false);
    assert.equal(fieldSpecSelects({ group: 'example.com', version: 'v1', kind: 'Thing' }, thingV1), true);
    assert.equal(fieldSpecSelects({ kind: 'thing' }, thingV1), false);
  });
});

describe('specsSelecting', () => {
  test('the specs that select a GVK, in order, worked out once per GVK', () => {
    const specs: FieldSpec[] = [{ path: 'a' }, { kind: 'Thing', path: 'b' }, { group: 'apps', path: 'c' }, { kind: 'Thing', version: 'v2', path: 'd' }];
    const specsFor = specsSelecting(specs);
    const thing = specsFor({ group: 'example.com', version: 'v1', kind: 'Thing' });
    assert.deepEqual(thing.map((s) => s.path), ['a', 'b']);
    assert.deepEqual(specsFor({ group: 'apps', version: 'v1', kind: 'Deployment' }).map((s) => s.path), ['a', 'c']);
    assert.deepEqual(specsFor({ group: 'example.com', version: 'v2', kind: 'Thing' }).map((s) => s.path), ['a', 'b', 'd']);
    assert.equal(specsFor({ group: 'example.com', version: 'v1', kind: 'Thing' }), thing, 'asked again, the same list');
  });
});

describe('mergeFieldSpecs', () => {
  const general: FieldSpec = { path: 'spec/selector', create: true };
  const specific: FieldSpec = { kind: 'Thing', path: 'spec/selector', create: true };
  test('a covered spec is dropped; a merge that adds nothing returns its input itself', () => {
    const merged = mergeFieldSpecs([specific], [general, { path: 'other' }]);
    assert.deepEqual(merged, [specific, { path: 'other' }]);
    assert.equal(mergeFieldSpecs(merged, merged), merged);
    assert.equal(mergeFieldSpecs(merged, [{ path: 'other' }, { kind: 'Thing', path: 'spec/selector', create: true }]), merged);
    assert.deepEqual(mergeFieldSpecs(merged, [{ kind: 'Thing', path: 'other' }]), [...merged, { kind: 'Thing', path: 'other' }], 'a narrower spec is kept');
    const fresh = [general, specific];
    assert.equal(mergeFieldSpecs([], fresh), fresh);
    assert.throws(() => mergeFieldSpecs([{ ...specific, create: false }], [general]), /^KustomizeError: conflicting fieldspecs for path 'spec\/selector'$/);
  });

  test('configs: the defaults merged into themselves come back as they are', () => {
    const once = mergeTransformerConfigs(emptyTransformerConfig(), DEFAULT_TRANSFORMER_CONFIG);
    const twice = mergeTransformerConfigs(once, mergeTransformerConfigs(emptyTransformerConfig(), DEFAULT_TRANSFORMER_CONFIG));
    assert.equal(twice.commonLabels, DEFAULT_TRANSFORMER_CONFIG.commonLabels);
    assert.equal(twice.nameReference, once.nameReference);
    const extra = mergeTransformerConfigs(twice, { ...emptyTransformerConfig(), nameReference: [{ gvk: { kind: 'Thing' }, fieldSpecs: [{ path: 'spec/ref' }] }] });
    assert.equal(extra.nameReference.length, DEFAULT_TRANSFORMER_CONFIG.nameReference.length + 1);
    assert.equal(DEFAULT_TRANSFORMER_CONFIG.nameReference.length, twice.nameReference.length, 'the defaults are not edited');
  });
});

test(
  "a scalar on the way: kubectl's message names the object by id (`of object Thing.v1.example.com/x-bad.[noNs]: expected sequence or mapping node`)",
  () => {
    assert.throws(
      () =>
        visitField(
          { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'x-bad' }, spec: { items: 'just-a-string' } },
          LABEL_SPECS[1]!,
          'map',
          addLabel,
        ),
      (e: unknown) =>
        e instanceof Error && e.message === "considering field 'spec/items/labels' of object Thing.v1.example.com/x-bad.[noNs]: expected sequence or mapping node",
    );
  },
);

// Messages and outcomes as `kubectl kustomize` (kustomize v5.5.0) gave them for the same objects
// (labels with includeSelectors on a StatefulSet; namePrefix's name references on a Deployment).
describe('crossing sequences', () => {
  const thing = (spec: YMap): YMap => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' }, spec });
  const claims: FieldSpec = { path: 'spec/volumeClaimTemplates[]/metadata/labels', create: true };
  const message = (f: () => void): string => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return assert.fail('the visit should fail');
  };

  test('a null item is passed over, in every mode', () => {
    const obj = thing({ volumeClaimTemplates: [null, { metadata: {} }] });
    visitField(obj, claims, 'map', addLabel);
    assert.deepEqual(obj['spec'], { volumeClaimTemplates: [null, { metadata: { labels: { owner: 'ci' } } }] });
    const names = thing({ volumes: [null, { name: 'v', configMap: { name: 'cfg' } }] });
    visitField(names, { path: 'spec/volumes/configMap/name' }, 'lenient', rename);
    assert.deepEqual(names['spec'], { volumes: [null, { name: 'v', configMap: { name: 'x-cfg' } }] });
  });

  test('an error past a sequence names what was left of the path there, once per sequence crossed', () => {
    assert.equal(
      message(() => visitField(thing({ volumeClaimTemplates: ['oops'] }), claims, 'map', addLabel)),
      "considering field 'spec/volumeClaimTemplates[]/metadata/labels' of object StatefulSet.v1.apps/web.[noNs]: visit traversal on path: [metadata labels]: expected sequence or mapping node",
    );
    assert.equal(
      message(() => visitField(thing({ volumeClaimTemplates: [{ metadata: 'oops' }] }), claims, 'map', addLabel)),
      "considering field 'spec/volumeClaimTemplates[]/metadata/labels' of object StatefulSet.v1.apps/web.[noNs]: visit traversal on path: [metadata labels]: expected sequence or mapping node",
    );
    const env: FieldSpec = { path: 'spec/template/spec/containers/env/valueFrom/configMapKeyRef/name' };
    assert.equal(
      message(() => visitField(thing({ template: { spec: { containers: [{ name: 'a', env: ['oops'] }] } } }), env, 'lenient', rename)),
      "considering field 'spec/template/spec/containers/env/valueFrom/configMapKeyRef/name' of object StatefulSet.v1.apps/web.[noNs]: visit traversal on path: [env valueFrom configMapKeyRef name]: visit traversal on path: [valueFrom configMapKeyRef name]: expected sequence or mapping node",
    );
  });

  test('lenient (name references, vars) passes over a null on the path, not a scalar', () => {
    const volumes: FieldSpec = { path: 'spec/template/spec/volumes/configMap/name' };
    const withNull = thing({ template: { spec: { volumes: [{ name: 'v', configMap: null }] } } });
    visitField(withNull, volumes, 'lenient', rename);
    assert.deepEqual(withNull['spec'], { template: { spec: { volumes: [{ name: 'v', configMap: null }] } } });
    assert.equal(
      message(() => visitField(thing({ template: { spec: { volumes: 'oops' } } }), volumes, 'lenient', rename)),
      "considering field 'spec/template/spec/volumes/configMap/name' of object StatefulSet.v1.apps/web.[noNs]: expected sequence or mapping node",
    );
    assert.equal(
      message(() => visitField(thing({ template: { spec: { volumes: [{ name: 'v', configMap: 'oops' }] } } }), volumes, 'lenient', rename)),
      "considering field 'spec/template/spec/volumes/configMap/name' of object StatefulSet.v1.apps/web.[noNs]: visit traversal on path: [configMap name]: expected sequence or mapping node",
    );
  });
});
