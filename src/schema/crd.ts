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
  if (!isObject(raw)) return { pointer, why: 'a schema must be an object' };
  if (typeof raw['$ref'] === 'string') return { pointer, why: '$ref is not allowed' };
  const typed = typeof raw['type'] === 'string' || raw['x-kubernetes-int-or-string'] === true || raw['x-kubernetes-preserve-unknown-fields'] === true;
  if (!typed) return { pointer, why: 'type is required' };
  const below: [string, unknown][] = [];
  if (isObject(raw['properties'])) for (const [k, v] of Object.entries(raw['properties'])) below.push([`${pointer}/properties/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, v]);
  if (isObject(raw['additionalProperties'])) below.push([`${pointer}/additionalProperties`, raw['additionalProperties']]);
  if (isObject(raw['items'])) below.push([`${pointer}/items`, raw['items']]);
  for (const [at, v] of below) {
    const problem = structuralProblem(v, at);
    if (problem) return problem;
  }
  return undefined;
}
