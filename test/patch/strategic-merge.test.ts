/**
 * Strategic-merge patch engine against kustomize itself: every `expected` below is what
 * `kubectl kustomize --reorder none` (kustomize v5.5.0) printed for a kustomization with the
 * resources and, in order, the patches of the row (`patches: [- path: pN.yaml]`); `error` is the
 * message it failed with. Patches go to the resource with the patch's kind and name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import { KustomizeError } from '../../src/errors.js';
import { builtinSchema, OpenApiSchema } from '../../src/openapi/schema.js';
import { applySmpToResource, applyStrategicMerge, DELETED, isDeleted } from '../../src/patch/strategic-merge.js';
import { cloneValue, isMap, type Value, type YMap } from '../../src/yaml/value.js';

interface Row {
  name: string;
  resources: string;
  patches: string[];
  expected?: string;
  error?: string;
}

function docs(text: string): YMap[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Value)
    .filter((d): d is YMap => isMap(d));
}

function build(row: Row): YMap[] {
  let list = docs(row.resources);
  const schema = builtinSchema();
  for (const text of row.patches) {
    for (const patch of docs(text)) {
      const meta = patch['metadata'] as YMap;
      const i = list.findIndex((r) => r['kind'] === patch['kind'] && (r['metadata'] as YMap)['name'] === meta['name']);
      assert.ok(i >= 0, `no target for patch in ${row.name}`);
      const before = cloneValue(patch);
      const result = applySmpToResource(list[i]!, patch, schema);
      assert.deepEqual(patch, before, 'the patch must not be mutated');
      if (result === DELETED) list = list.filter((_, j) => j !== i);
      else list[i] = result;
    }
  }
  return list;
}

const TABLE: Row[] = [
  {
    name: "containers-merge-order",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - {name: a, image: a}
      - {name: b, image: b}
      - {name: c, image: c}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: c, image: c2}
      - {name: z, image: z}
      - {name: a, image: a2}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    spec:
      containers:
      - image: c2
        name: c
      - image: z
        name: z
      - image: a2
        name: a
      - image: b
        name: b
`,
  },
  {
    name: "null-deletes",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  replicas: 2
  template:
    metadata: {labels: {a: b, c: d}}
    spec:
      containers:
      - {name: a, image: a, args: [x, y]}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: null
  template:
    metadata: {labels: {a: null}}
    spec:
      containers:
      - {name: a, args: null, command: [sh]}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    metadata:
      labels:
        c: d
    spec:
      containers:
      - command:
        - sh
        image: a
        name: a
`,
  },
  {
    name: "patch-delete-element",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - {name: a, image: a}
      - {name: b, image: b}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: a, $patch: delete}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    spec:
      containers:
      - image: b
        name: b
`,
  },
  {
    name: "patch-replace-map",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    metadata: {labels: {a: b, c: d}}
    spec:
      containers:
      - {name: a, image: a}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    metadata:
      labels:
        $patch: replace
        x: y`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    metadata:
      labels:
        x: "y"
    spec:
      containers:
      - image: a
        name: a
`,
  },
  {
    name: "patch-replace-spec",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  replicas: 3
  template:
    spec:
      containers:
      - {name: a, image: a}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  $patch: replace
  replicas: 1`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  replicas: 1
`,
  },
  {
    name: "patch-delete-top",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  replicas: 3
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
$patch: delete
`,
    ],
    expected: `apiVersion: v1
kind: ConfigMap
metadata:
  name: c
`,
  },
  {
    name: "finalizers-merge",
    resources: `apiVersion: v1
kind: Namespace
metadata:
  name: n
  finalizers: [a, b]
spec:
  finalizers: [x, y]
`,
    patches: [
      `apiVersion: v1
kind: Namespace
metadata:
  name: n
  finalizers: [c, a]
spec:
  finalizers: [z]
`,
    ],
    expected: `apiVersion: v1
kind: Namespace
metadata:
  finalizers:
  - c
  - a
  - b
  name: "n"
spec:
  finalizers:
  - z
`,
  },
  {
    name: "env-merge",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - name: a
        env:
        - {name: A, value: "1"}
        - {name: B, value: "2"}
        envFrom:
        - configMapRef: {name: x}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - name: a
        env:
        - {name: B, value: "3"}
        - {name: C, value: "4"}
        envFrom:
        - configMapRef: {name: y}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    spec:
      containers:
      - env:
        - name: B
          value: "3"
        - name: C
          value: "4"
        - name: A
          value: "1"
        envFrom:
        - configMapRef:
            name: "y"
        name: a
`,
  },
  {
    name: "volumes-retainkeys",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      volumes:
      - name: v
        emptyDir: {}
      - name: w
        configMap: {name: c}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      volumes:
      - name: v
        emptyDir: null
        persistentVolumeClaim: {claimName: p}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    spec:
      volumes:
      - name: v
        persistentVolumeClaim:
          claimName: p
      - configMap:
          name: c
        name: w
`,
  },
  {
    name: "setelementorder-kept",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - {name: a, image: a}
      - {name: b, image: b}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      $setElementOrder/containers:
      - name: b
      - name: a
      containers:
      - {name: a, image: a2}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    spec:
      $setElementOrder/containers:
      - name: b
      - name: a
      containers:
      - image: a2
        name: a
      - image: b
        name: b
`,
  },
  {
    name: "ports-multi-key",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - name: a
        ports:
        - {containerPort: 80, protocol: TCP}
        - {containerPort: 80, protocol: UDP}
        - {containerPort: 90}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - name: a
        ports:
        - {containerPort: 80, protocol: UDP, name: u}
        - {containerPort: 90, name: n}
        - {containerPort: 100}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    spec:
      containers:
      - name: a
        ports:
        - containerPort: 100
        - containerPort: 80
          protocol: TCP
        - containerPort: 80
          name: u
          protocol: UDP
        - containerPort: 90
          name: "n"
`,
  },
  {
    name: "empty-maps-lists",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - {name: a, image: a, args: []}
      volumes:
      - {name: v, emptyDir: {}}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    metadata: {annotations: {}}
    spec:
      containers:
      - {name: a, command: []}
      nodeSelector: {}
      tolerations: []`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    metadata:
      annotations: {}
    spec:
      containers:
      - args: []
        command: []
        image: a
        name: a
      nodeSelector: {}
      tolerations: []
      volumes:
      - emptyDir: {}
        name: v
`,
  },
  {
    name: "target-nulls-dropped",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  replicas: null
  template:
    metadata:
      labels: {a: null}
    spec:
      containers:
      - {name: a, image: null}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  paused: true`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  paused: true
  replicas: null
  template:
    metadata:
      labels:
        a: null
    spec:
      containers:
      - image: null
        name: a
`,
  },
  {
    name: "crd-list-replaced",
    resources: `apiVersion: example.com/v1
kind: Foo
metadata: {name: f}
spec:
  items:
  - {name: a, v: 1}
  - {name: b, v: 2}
  nested: {x: 1, y: [1, 2]}
`,
    patches: [
      `apiVersion: example.com/v1
kind: Foo
metadata: {name: f}
spec:
  items:
  - {name: b, v: 3}
  nested: {y: [3], z: null}
`,
    ],
    expected: `apiVersion: example.com/v1
kind: Foo
metadata:
  name: f
spec:
  items:
  - name: b
    v: 3
  nested:
    x: 1
    "y":
    - 3
`,
  },
  {
    name: "service-ports",
    resources: `apiVersion: v1
kind: Service
metadata: {name: s}
spec:
  ports:
  - {port: 80, targetPort: 8080, name: http}
  - {port: 443, name: https}
`,
    patches: [
      `apiVersion: v1
kind: Service
metadata: {name: s}
spec:
  ports:
  - {port: 443, targetPort: 8443}
  - {port: 9000, name: m}
`,
    ],
    expected: `apiVersion: v1
kind: Service
metadata:
  name: s
spec:
  ports:
  - name: https
    port: 443
    targetPort: 8443
  - name: m
    port: 9000
  - name: http
    port: 80
    targetPort: 8080
`,
  },
  {
    name: "metadata-name-kind",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  replicas: 1`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {b: c}
  annotations: {x: y}
spec:
  replicas: 2
`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    x: "y"
  labels:
    app: x
    b: c
  name: d
spec:
  replicas: 2
`,
  },
  {
    name: "multiple-patches-seq",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - {name: a, image: a}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: b, image: b}`,
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: c, image: c}
      - {name: a, $patch: delete}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    spec:
      containers:
      - image: c
        name: c
      - image: b
        name: b
`,
  },
  {
    name: "unknown-directive",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  replicas: 1
  template: {spec: {}}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    $patch: foo
    spec: {}`,
    ],
    error: "unknown patch strategy 'foo'",
  },
  {
    name: "kind-mismatch",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  replicas: 1`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: {a: b}`,
    ],
    error: "wrong node kind: expected ScalarNode but got MappingNode: node contents:",
  },
  {
    name: "list-patch-replace-elem",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - {name: a, image: a}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - $patch: replace
      - {name: b, image: b}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    spec:
      containers:
      - image: b
        name: b
`,
  },
  {
    name: "dup-keys-in-target",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - name: a
        ports:
        - {containerPort: 8080, name: x}
        - {containerPort: 8080, name: y}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: 2`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: a
        ports:
        - containerPort: 8080
          name: "y"
`,
  },
  {
    name: "primitive-list-nonmerge",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  template:
    spec:
      containers:
      - {name: a, args: [a, b]}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: a, args: [c]}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  template:
    spec:
      containers:
      - args:
        - c
        name: a
`,
  },
  {
    name: "add-new-subtree-with-nulls",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  labels: {app: x}
spec:
  replicas: 1`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    metadata: {labels: {a: null, b: c}}
    spec:
      containers:
      - {name: a, image: null, env: [{name: x, value: null}]}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: x
  name: d
spec:
  replicas: 1
  template:
    metadata:
      labels:
        b: c
    spec:
      containers:
      - env:
        - name: x
        name: a
`,
  },
  {
    name: "tnull-pmap",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template: null`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template: {metadata: {labels: {a: b}}}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    metadata:
      labels:
        a: b
`,
  },
  {
    name: "tnull-pscalar",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: null`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: 3`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: 3
`,
  },
  {
    name: "tnull-pnull",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: null
  paused: ~`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: null`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  paused: null
`,
  },
  {
    name: "tnull-plist",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template: {spec: {containers: null, volumes: null}}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template: {spec: {containers: [{name: a}], volumes: [{name: v, emptyDir: {}}]}}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - name: a
      volumes:
      - emptyDir: {}
        name: v
`,
  },
  {
    name: "tnull-in-mergelist",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template: {spec: {containers: [{name: a, image: null, args: [null, x]}, null]}}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template: {spec: {containers: [{name: a, image: b}]}}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - args:
        - null
        - x
        image: b
        name: a
`,
  },
  {
    name: "tnull-nested-untouched",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template: {metadata: {labels: {a: null}}, spec: {containers: [{name: a, env: [{name: x, value: null}]}]}}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: 2`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: 2
  template:
    metadata:
      labels:
        a: null
    spec:
      containers:
      - env:
        - name: x
          value: null
        name: a
`,
  },
  {
    name: "missing-key-collapses",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: a, image: a}
      - {image: x}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: a, image: y}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - image: x
`,
  },
  {
    name: "replace-element-undone",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: a, image: a, args: [x]}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: a, image: b, $patch: replace}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - args:
        - x
        image: a
        name: a
`,
  },
  {
    name: "service-port-two-protocols",
    resources: `apiVersion: v1
kind: Service
metadata: {name: s}
spec:
  ports:
  - {port: 80, protocol: TCP, name: a}
  - {port: 80, protocol: UDP, name: b}
`,
    patches: [
      `apiVersion: v1
kind: Service
metadata: {name: s}
spec:
  ports:
  - {port: 80, targetPort: 8080}
`,
    ],
    expected: `apiVersion: v1
kind: Service
metadata:
  name: s
spec:
  ports:
  - name: a
    port: 80
    protocol: TCP
  - name: b
    port: 80
    protocol: UDP
`,
  },
  {
    name: "retainkeys-deletefromprimitive-kept",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      volumes:
      - {name: v, emptyDir: {}}
      containers:
      - {name: a, args: [x, y]}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      volumes:
      - name: v
        $retainKeys: [name, hostPath]
        hostPath: {path: /x}
      containers:
      - name: a
        $deleteFromPrimitiveList/args: [x]`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - $deleteFromPrimitiveList/args:
        - x
        args:
        - x
        - "y"
        name: a
      volumes:
      - $retainKeys:
        - name
        - hostPath
        emptyDir: {}
        hostPath:
          path: /x
        name: v
`,
  },
  {
    name: "nested-gvk-schema",
    resources: `apiVersion: example.com/v1
kind: Foo
metadata: {name: f}
spec:
  embedded:
    apiVersion: apps/v1
    kind: Deployment
    spec:
      template:
        spec:
          containers:
          - {name: a, image: a}
          - {name: b, image: b}
  plain:
    containers:
    - {name: a, image: a}
    - {name: b, image: b}
`,
    patches: [
      `apiVersion: example.com/v1
kind: Foo
metadata: {name: f}
spec:
  embedded:
    spec:
      template:
        spec:
          containers:
          - {name: b, image: b2}
  plain:
    containers:
    - {name: b, image: b2}
`,
    ],
    expected: `apiVersion: example.com/v1
kind: Foo
metadata:
  name: f
spec:
  embedded:
    apiVersion: apps/v1
    kind: Deployment
    spec:
      template:
        spec:
          containers:
          - image: b2
            name: b
          - image: a
            name: a
  plain:
    containers:
    - image: b2
      name: b
`,
  },
  {
    name: "top-replace",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  namespace: ns
  labels: {a: b}
spec:
  replicas: 3`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
$patch: replace
metadata:
  name: d
  namespace: ns
spec:
  paused: true`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    a: b
  name: d
  namespace: ns
spec:
  replicas: 3
`,
  },
  {
    name: "namespace-kept",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  namespace: ns
spec:
  replicas: 3`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  namespace: ns
  labels: {x: y}
spec:
  replicas: 1`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    x: "y"
  name: d
  namespace: ns
spec:
  replicas: 1
`,
  },
  {
    name: "dup-patch-elements",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: a, image: a}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: b, image: b1}
      - {name: b, image: b2, args: [z]}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - image: b1
        name: b
      - image: a
        name: a
`,
  },
  {
    name: "add-list-to-missing",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: 1`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      containers:
      - {name: a, image: a}
      - {name: a, image: dup}
      - {name: c, $patch: delete}
      tolerations:
      - {key: k, operator: Exists}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: 1
  template:
    spec:
      containers:
      - image: dup
        name: a
      tolerations:
      - key: k
        operator: Exists
`,
  },
  {
    name: "merge-directive-elided",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    metadata: {labels: {a: b}}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    metadata:
      $patch: merge
      labels: {c: d}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    metadata:
      labels:
        a: b
        c: d
`,
  },
  {
    name: "delete-nested-map",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  strategy:
    rollingUpdate: {$patch: delete}
    type: Recreate`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  strategy:
    type: Recreate
`,
  },
  {
    name: "scalar-list-merge-finalizers-dups",
    resources: `apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  finalizers: [a, b, a]
data: {x: "1"}
`,
    patches: [
      `apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  finalizers: [b, c, c]
data: {y: "2", x: null}
`,
    ],
    expected: `apiVersion: v1
data:
  "y": "2"
kind: ConfigMap
metadata:
  finalizers:
  - b
  - c
  - a
  name: c
`,
  },
  {
    name: "env-valuefrom-replace",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      initContainers:
      - name: i
        env:
        - {name: A, valueFrom: {secretKeyRef: {name: s, key: k}}}`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      initContainers:
      - name: i
        env:
        - {name: A, value: plain, valueFrom: null}`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      initContainers:
      - env:
        - name: A
          value: plain
        name: i
`,
  },
  {
    name: "tolerations-replaced",
    resources: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      tolerations:
      - {key: a, operator: Exists}
      imagePullSecrets:
      - name: x`,
    patches: [
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      tolerations:
      - {key: b, operator: Exists}
      imagePullSecrets:
      - name: y`,
    ],
    expected: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  template:
    spec:
      imagePullSecrets:
      - name: "y"
      - name: x
      tolerations:
      - key: b
        operator: Exists
`,
  },
  {
    name: "numeric-string-keys",
    resources: `apiVersion: v1
kind: Service
metadata: {name: s}
spec:
  ports:
  - {port: 80, name: a}
`,
    patches: [
      `apiVersion: v1
kind: Service
metadata: {name: s}
spec:
  ports:
  - {port: "80", name: b}
`,
    ],
    expected: `apiVersion: v1
kind: Service
metadata:
  name: s
spec:
  ports:
  - name: b
    port: "80"
`,
  },
];

for (const row of TABLE) {
  test(`kustomize agrees: ${row.name}`, () => {
    if (row.error !== undefined) {
      assert.throws(
        () => build(row),
        (e: unknown) => e instanceof KustomizeError && e.code === 'PATCH_FAILED' && e.message.includes(row.error!),
      );
      return;
    }
    assert.deepEqual(build(row), docs(row.expected!));
  });
}

test('$patch: delete at the top deletes the resource; the bare merge reports it', () => {
  const target: YMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } };
  const r = applyStrategicMerge(target, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, $patch: 'delete' }, builtinSchema());
  assert.equal(r, DELETED);
  assert.ok(isDeleted(r));
});

test('one patch applied to many targets: the patch is copied, targets are edited in place', () => {
  const patch: YMap = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers: [{ name: 'a', image: 'new', $patch: 'merge' }] } } } };
  const t1: YMap = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers: [{ name: 'a', image: 'x' }] } } } };
  const t2 = cloneValue(t1);
  const r1 = applyStrategicMerge(t1, patch, builtinSchema());
  const r2 = applyStrategicMerge(t2, patch, builtinSchema());
  assert.equal(r1, t1);
  assert.deepEqual(r1, r2);
  assert.deepEqual((patch['spec'] as YMap)['template'], { spec: { containers: [{ name: 'a', image: 'new', $patch: 'merge' }] } });
  // the result shares no node with the patch
  ((((r1 as YMap)['spec'] as YMap)['template'] as YMap)['spec'] as YMap)['containers'] = [];
  assert.equal(((((patch['spec'] as YMap)['template'] as YMap)['spec'] as YMap)['containers'] as Value[]).length, 1);
});

test('applySmpToResource restores name, kind and namespace unless allowed to change', () => {
  const target = (): YMap => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'old', namespace: 'ns' }, spec: { replicas: 1 } });
  const patch: YMap = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'new', namespace: 'other' }, spec: { replicas: 2 } };
  assert.deepEqual(applySmpToResource(target(), patch, builtinSchema()), {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'old', namespace: 'ns' },
    spec: { replicas: 2 },
  });
  assert.deepEqual(applySmpToResource(target(), patch, builtinSchema(), { allowNameChange: true, allowKindChange: true }), {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'new', namespace: 'ns' },
    spec: { replicas: 2 },
  });
  const noNs: YMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
  assert.deepEqual(applySmpToResource(noNs, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'x' }, data: { a: 'b' } }, builtinSchema()), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c' },
    data: { a: 'b' },
  });
});

test('without a schema every list is replaced; a custom schema makes a CRD list mergeable', () => {
  const target = (): YMap => ({ apiVersion: 'example.com/v1', kind: 'Foo', metadata: { name: 'f' }, spec: { items: [{ name: 'a', v: 1 }, { name: 'b', v: 2 }] } });
  const patch: YMap = { apiVersion: 'example.com/v1', kind: 'Foo', metadata: { name: 'f' }, spec: { items: [{ name: 'b', v: 3 }] } };
  assert.deepEqual(((applyStrategicMerge(target(), patch, builtinSchema()) as YMap)['spec'] as YMap)['items'], [{ name: 'b', v: 3 }]);
  const custom = OpenApiSchema.fromDocument({
    definitions: {
      Foo: {
        'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Foo' }],
        properties: { spec: { properties: { items: { type: 'array', items: { type: 'object' }, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' } } } },
      },
    },
  });
  assert.deepEqual(((applyStrategicMerge(target(), patch, custom) as YMap)['spec'] as YMap)['items'], [
    { name: 'b', v: 3 },
    { name: 'a', v: 1 },
  ]);
});
