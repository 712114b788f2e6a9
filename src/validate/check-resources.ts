/**
 * Checks the resources of a build's output against their types' schemas: Kubernetes' own,
 * the CRDs of the output and of `crds:`, and the schemas given. Says, for each resource, what is
 * wrong with it and where in it (a path in the object); where it was written is for the caller.
 */
import type { ValuePath, ViolationKind } from '../schema/check.js';
import { crdVersions, isCrd } from '../schema/crd.js';
import type { CustomSchema } from '../schema/custom-schemas.js';
import type { SchemaSet } from '../schema/schema-set.js';
import type { YMap } from '../yaml/value.js';

/** A problem with one resource: a violation of its schema, or its having none. */
export interface ResourceProblem {
  path: ValuePath;
  kind: ViolationKind | 'no-schema';
  message: string;
}

/** What the check found of one resource. */
export interface ResourceCheck {
  /** `skipped`: no schema for its type, and missing schemas are ignored */
  status: 'valid' | 'invalid' | 'skipped';
  problems: ResourceProblem[];
}

interface CheckResourcesOptions {
  strict: boolean;
  ignoreMissingSchemas: boolean;
}

/** The schemas of the CRDs among `objects`, and the problems of those whose schemas are not structural (by index of the object). */
function outputCrds(objects: readonly YMap[]): { schemas: CustomSchema[]; unstructural: Map<number, ResourceProblem[]> } {
  const schemas: CustomSchema[] = [];
  const unstructural = new Map<number, ResourceProblem[]>();
  objects.forEach((obj, i) => {
    if (!isCrd(obj)) return;
    const name = `CustomResourceDefinition ${String((obj['metadata'] as YMap | undefined)?.['name'] ?? '')}`;
    for (const v of crdVersions(obj, name)) {
      if (v.schema && !v.unstructural) schemas.push({ apiVersion: v.apiVersion, kind: v.kind, node: v.schema, file: name, crd: true });
      else {
        const at = v.unstructural ?? { pointer: v.pointer, why: 'no schema' };
        const problem = { path: pointerPath(at.pointer), kind: 'value' as const, message: `version ${v.version}: not a structural schema: ${at.why}` };
        unstructural.set(i, [...(unstructural.get(i) ?? []), problem]);
      }
    }
  });
  return { schemas, unstructural };
}

/** The path a JSON pointer names (a number for each part that is one). */
function pointerPath(pointer: string): ValuePath {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
}

/** Checks each object of an output against its type's schema in `set`, or in the CRDs the output holds. */
export function checkResources(objects: readonly YMap[], set: SchemaSet, options: CheckResourcesOptions): ResourceCheck[] {
  const crds = outputCrds(objects);
  const schemas = set.with(crds.schemas);
  return objects.map((obj, i) => {
    const apiVersion = String(obj['apiVersion'] ?? '');
    const kind = String(obj['kind'] ?? '');
    const schema = schemas.forType(apiVersion, kind);
    if (!schema) {
      if (options.ignoreMissingSchemas) return { status: 'skipped', problems: [] };
      const message = `no schema for ${apiVersion} ${kind}: give its CRD (in the build, in crds:, or with --schema), or ignore such resources with --ignore-missing-schemas`;
      return { status: 'invalid', problems: [{ path: [], kind: 'no-schema', message }] };
    }
    const problems: ResourceProblem[] = [...schemas.check(obj, schema, options), ...(crds.unstructural.get(i) ?? [])];
    return { status: problems.length === 0 ? 'valid' : 'invalid', problems };
  });
}

/** A path as a JSON pointer (RFC 6901). */
export function jsonPointer(path: ValuePath): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
