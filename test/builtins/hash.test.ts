/**
 * The content-hash name suffix of generated ConfigMaps and Secrets. KUBECTL_OUTPUT is what the
 * real `kubectl kustomize` (kubectl v1.32.4, kustomize v5.5.0) printed for GENERATORS (with
 * TEXT_FILE and BIN_FILE next to it): every name there ends in kustomize's hash of the object.
 *
 * (Tests are top-level, not grouped in describe(): node 20 fails a suite whose todo test fails.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { contentHash } from '../../src/builtins/HashTransformer.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { resourcesFromText } from '../../src/model/resource-factory.js';
import type { Resource } from '../../src/model/resource.js';

const GENERATORS = `configMapGenerator:
- name: empty
- name: one
  literals: [a=b]
- name: two
  literals: [b=2, a=1]
- name: unicode
  literals: ["greeting=héllo ✓", 'quote="x"']
- name: withfile
  files: [text.txt]
- name: binary
  files: [bin.dat]
- name: mixed
  literals: [k=v]
  files: [bin.dat]
- name: labelled
  literals: [a=b]
  options:
    labels: {x: z}
    annotations: {p: q}
- name: frozen
  literals: [a=b]
  options:
    immutable: true
secretGenerator:
- name: s-empty
- name: s-one
  literals: [a=b]
- name: s-tls
  type: kubernetes.io/tls
  literals: [tls.crt=CERT, tls.key=KEY]
- name: s-binary
  files: [bin.dat]
`;
const TEXT_FILE = 'line1\nline2\n';
const BIN_FILE = new Uint8Array([0xff, 0xfe, 0x00, 0x01]);

const KUBECTL_OUTPUT = `apiVersion: v1
binaryData:
  bin.dat: //4AAQ==
kind: ConfigMap
metadata:
  name: binary-dkm7d49g7k
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: empty-6ct58987ht
---
apiVersion: v1
data:
  a: b
immutable: true
kind: ConfigMap
metadata:
  name: frozen-4h2mbtbbt6
---
apiVersion: v1
data:
  a: b
kind: ConfigMap
metadata:
  annotations:
    p: q
  labels:
    x: z
  name: labelled-4h2mbtbbt6
---
apiVersion: v1
binaryData:
  bin.dat: //4AAQ==
data:
  k: v
kind: ConfigMap
metadata:
  name: mixed-6k27dhm9d5
---
apiVersion: v1
data:
  a: b
kind: ConfigMap
metadata:
  name: one-4h2mbtbbt6
---
apiVersion: v1
data:
  a: "1"
  b: "2"
kind: ConfigMap
metadata:
  name: two-7gdc49gk6d
---
apiVersion: v1
data:
  greeting: héllo ✓
  quote: x
kind: ConfigMap
metadata:
  name: unicode-5ckchkht7f
---
apiVersion: v1
data:
  text.txt: |
    line1
    line2
kind: ConfigMap
metadata:
  name: withfile-c5dc5hbk2d
---
apiVersion: v1
data:
  bin.dat: //4AAQ==
kind: Secret
metadata:
  name: s-binary-m6gfg897b5
type: Opaque
---
apiVersion: v1
data: {}
kind: Secret
metadata:
  name: s-empty-46f8b28mk5
type: Opaque
---
apiVersion: v1
data:
  a: Yg==
kind: Secret
metadata:
  name: s-one-k695gkmbtk
type: Opaque
---
apiVersion: v1
data:
  tls.crt: Q0VSVA==
  tls.key: S0VZ
kind: Secret
metadata:
  name: s-tls-4b255hm948
type: kubernetes.io/tls
`;

/** kubectl's objects, each with its name split into the generator's name and the hash. */
const kubectl = resourcesFromText(KUBECTL_OUTPUT, 'kubectl-output.yaml').map((r) => {
  const full = r.name;
  const dash = full.lastIndexOf('-');
  return { resource: r, base: full.slice(0, dash), hash: full.slice(dash + 1), full };
});

function withName(r: Resource, name: string): Resource {
  const copy = r.clone();
  copy.setName(name);
  return copy;
}

for (const { resource, base, hash } of kubectl) {
  test(`contentHash of ${resource.kind} ${base} is kubectl's ${hash}`, () => {
    assert.equal(contentHash(withName(resource, base)), hash);
  });
}

test('the hash ignores the name, labels, annotations and immutable, but not the data', () => {
  const one = kubectl.find((k) => k.base === 'one')!;
  assert.equal(contentHash(withName(one.resource, 'another-name')), one.hash);
  const two = kubectl.find((k) => k.base === 'two')!;
  assert.notEqual(one.hash, two.hash);
  const sOne = kubectl.find((k) => k.base === 's-one')!;
  assert.notEqual(one.hash, sOne.hash, 'kind is part of the hash');
  assert.match(one.hash, /^[0-9a-z]{10}$/);
  // kustomize's encoding never uses 0, 1, 3, a, e
  for (const k of kubectl) assert.doesNotMatch(k.hash, /[013ae]/);
});

const built = (async () => {
  const fs = MemoryFileSystem.from({ 'k/kustomization.yaml': GENERATORS, 'k/text.txt': TEXT_FILE, 'k/bin.dat': BIN_FILE });
  return build('/k', { fs, reorder: 'legacy' });
})();

for (const { base, full } of kubectl) {
  test(`the generators name ${base} ${full}, as kubectl`, async () => {
    const names = (await built).resources.map((r) => r.name);
    assert.ok(names.includes(full), `${full} not among ${names.join(', ')}`);
  });
}

test('the whole build equals kubectl output but for the empty Secret', async () => {
  const { yaml } = await built;
  const strip = (s: string): string => s.split('---\n').filter((d) => !d.includes('s-empty')).join('---\n');
  assert.equal(strip(yaml), strip(KUBECTL_OUTPUT));
});
