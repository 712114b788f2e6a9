#!/usr/bin/env node
// Writes a CRD-heavy kustomization tree, the shape of operator installs (argo-workflows,
// kube-prometheus, cert-manager): a base with `crds` CustomResourceDefinitions whose
// openAPIV3Schema is large and nested, their descriptions folded over several lines as
// controller-gen writes them, plus the operator's Deployment, ServiceAccount and RBAC; an
// overlay sets a namespace, labels and an image. Deterministic (depends only on `crds`).
//
//   node bench/generate-crds.mjs DIR CRDS      (builds DIR/overlay)

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const WORDS = 'the of a field that is to be in for object specifies reference value when must this name which list defines resource may kubernetes container volume selector'.split(' ');

function description(seed, words, indent) {
  const text = Array.from({ length: words }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]).join(' ');
  // controller-gen's wrapping: continuation lines indented two more than the key
  const lines = [];
  for (let rest = text; rest.length > 0; ) {
    const cut = rest.length <= 70 ? rest.length : rest.lastIndexOf(' ', 70);
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut + 1);
  }
  return lines.map((l, i) => (i === 0 ? l : `${' '.repeat(indent + 2)}${l}`)).join('\n');
}

function schema(seed, depth, indent) {
  const pad = ' '.repeat(indent);
  const out = [`${pad}description: ${description(seed, 12 + (seed % 30), indent)}`];
  if (depth === 0 || seed % 5 === 0) {
    out.push(`${pad}type: ${['string', 'integer', 'boolean'][seed % 3]}`);
    return out.join('\n');
  }
  if (seed % 7 === 0) {
    out.push(`${pad}items:`, schema(seed * 3 + 1, depth - 1, indent + 2), `${pad}type: array`);
    return out.join('\n');
  }
  out.push(`${pad}properties:`);
  for (let i = 0; i < 3 + (seed % 4); i++) {
    out.push(`${pad}  field${(seed + i) % 97}x${i}:`, schema(seed * 5 + i + 1, depth - 1, indent + 4));
  }
  out.push(`${pad}type: object`);
  return out.join('\n');
}

function crd(i) {
  const kind = `Thing${i}`;
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.14.0
  name: thing${i}s.example.com
spec:
  group: example.com
  names:
    kind: ${kind}
    listKind: ${kind}List
    plural: thing${i}s
    singular: thing${i}
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
${schema(i + 11, 6, 8)}
    served: true
    storage: true
    subresources:
      status: {}
`;
}

const OPERATOR = `apiVersion: v1
kind: ServiceAccount
metadata:
  name: operator
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: operator
rules:
- apiGroups:
  - example.com
  resources:
  - '*'
  verbs:
  - '*'
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: operator
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: operator
subjects:
- kind: ServiceAccount
  name: operator
  namespace: default
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: operator
spec:
  selector:
    matchLabels:
      app: operator
  template:
    metadata:
      labels:
        app: operator
    spec:
      containers:
      - args:
        - --leader-elect
        image: example.com/operator:v1.0.0
        name: operator
      serviceAccountName: operator
`;

export function generateCrdTree(dir, crds) {
  const base = path.join(dir, 'base');
  const overlay = path.join(dir, 'overlay');
  fs.mkdirSync(base, { recursive: true });
  fs.mkdirSync(overlay, { recursive: true });
  const files = [];
  for (let i = 0; i < crds; i++) {
    files.push(`crd-${i}.yaml`);
    fs.writeFileSync(path.join(base, `crd-${i}.yaml`), crd(i));
  }
  fs.writeFileSync(path.join(base, 'operator.yaml'), OPERATOR);
  fs.writeFileSync(path.join(base, 'kustomization.yaml'), `resources:\n${[...files, 'operator.yaml'].map((f) => `- ${f}`).join('\n')}\n`);
  fs.writeFileSync(
    path.join(overlay, 'kustomization.yaml'),
    'namespace: operators\nresources:\n- ../base\nlabels:\n- pairs:\n    app.kubernetes.io/part-of: operator\nimages:\n- name: example.com/operator\n  newTag: v1.2.3\n',
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) generateCrdTree(process.argv[2], Number(process.argv[3] ?? 20));
