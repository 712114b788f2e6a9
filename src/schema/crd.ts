/**
 * CustomResourceDefinitions as schemas: each version a CRD defines, with the structural schema
 * of its resources (`apiextensions.k8s.io/v1`'s `spec.versions[].schema.openAPIV3Schema`, or
 * v1beta1's per-version or top-level `validation`).
 */
import { SchemaDocument } from './document.js';
import type { SchemaNode } from './node.js';

/** The schema of one version of a custom resource. */
interface CrdVersion {
  group: string;
  version: string;
  kind: string;
  /** `apiVersion` as its resources write it */
  apiVersion: string;
  /** its structural schema; undefined when the CRD gives none for this version */
  schema: SchemaNode | undefined;
  /** where the schema is in the CRD, as a JSON pointer (`/spec/versions/0/schema/openAPIV3Schema`) */
  pointer: string;
  /** the first place its schema is not structural, with why; undefined when it is */
  unstructural: { pointer: string; why: string } | undefined;
}

type Raw = Record<string, unknown>;

function isObject(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `doc` is a CustomResourceDefinition. */
export function isCrd(doc: unknown): boolean {
  return isObject(doc) && doc['kind'] === 'CustomResourceDefinition' && typeof doc['apiVersion'] === 'string' && doc['apiVersion'].startsWith('apiextensions.k8s.io/');
}

/** The versions a CRD defines (none when it lacks a group or kind); `file` names it in schema errors. */
export function crdVersions(crd: Raw, file: string): CrdVersion[] {
  const spec = isObject(crd['spec']) ? crd['spec'] : {};
  const group = spec['group'];
  const names = isObject(spec['names']) ? spec['names'] : {};
  const kind = names['kind'];
  if (typeof group !== 'string' || typeof kind !== 'string') return [];
  const doc = SchemaDocument.of(crd, file);
  const topLevel = isObject(spec['validation']) ? '/spec/validation/openAPIV3Schema' : undefined;
  const versions = Array.isArray(spec['versions']) ? spec['versions'] : typeof spec['version'] === 'string' ? [{ name: spec['version'] }] : [];
  const out: CrdVersion[] = [];
  versions.forEach((v, i) => {
    if (!isObject(v) || typeof v['name'] !== 'string') return;
    const own = isObject(v['schema']) && isObject(v['schema']['openAPIV3Schema']) ? `/spec/versions/${i}/schema/openAPIV3Schema` : undefined;
    const pointer = own ?? topLevel ?? `/spec/versions/${i}/schema/openAPIV3Schema`;
    const raw = own || topLevel ? atRaw(crd, pointer) : undefined;
    out.push({
      group,
      version: v['name'],
      kind,
      apiVersion: `${group}/${v['name']}`,
      schema: raw === undefined ? undefined : doc.node(`#${pointer}`),
      pointer,
      unstructural: raw === undefined ? { pointer, why: 'no openAPIV3Schema' } : isObject(raw) && raw['type'] !== 'object' ? { pointer, why: 'the type at the root must be object' } : structuralProblem(raw, pointer),
    });
  });
  return out;
}

function atRaw(root: Raw, pointer: string): unknown {
  let v: unknown = root;
  for (const part of pointer.slice(1).split('/')) v = isObject(v) ? v[part] : Array.isArray(v) ? v[Number(part)] : undefined;
  return v;
}

/**
 * The first place a schema breaks the rules Kubernetes sets for structural schemas that matter
 * here: every node says its type (but those that keep unknown fields or take an int or a string),
 * and there are no `$ref`s.
 */
function structuralProblem(raw: unknown, pointer: string): { pointer: string; why: string } | undefined {
  // (walked with a stack of keys, the pointer written only for a problem: a CRD's schema has thousands of nodes)
  const at: string[] = [];
  const problem = (why: string) => ({ pointer: `${pointer}${at.map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`, why });
  const walk = (node: unknown): { pointer: string; why: string } | undefined => {
    if (!isObject(node)) return problem('a schema must be an object');
    if (typeof node['$ref'] === 'string') return problem('$ref is not allowed');
    if (typeof node['type'] !== 'string' && node['x-kubernetes-int-or-string'] !== true && node['x-kubernetes-preserve-unknown-fields'] !== true) return problem('type is required');
    const props = node['properties'];
    if (isObject(props)) {
      for (const k in props) {
        at.push('properties', k);
        const found = walk(props[k]);
        at.length -= 2;
        if (found) return found;
      }
    }
    for (const key of ['additionalProperties', 'items']) {
      if (!isObject(node[key])) continue;
      at.push(key);
      const found = walk(node[key]);
      at.pop();
      if (found) return found;
    }
    return undefined;
  };
  return walk(raw);
}
