import { KustomizeError } from '../errors.js';
import type { Selector } from '../model/selector.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { ResourceSelector } from '../model/selector.js';
import { applySmpToResource, isDeleted, type SmpResourceOptions } from '../patch/strategic-merge.js';
import type { OpenApiSchema } from '../openapi/schema.js';
import { resourcesFromValues } from '../model/resource-factory.js';
import type { ParseDocuments } from '../yaml/parse.js';
import { cloneValue, isMap, jsonRoundTrip, type YMap } from '../yaml/value.js';
import { stringMapText } from '../yaml/string-map.js';
import { objectWithBuildState, takeObjectWithBuildState } from '../model/build-state-annotations.js';
import { applyJsonPatch, type JsonPatchOp } from '../patch/json6902.js';

/**
 * The strategic-merge patches in a patch text (several documents allowed; none if empty), read
 * keeping the texts of their plain values: written over a value written quoted, a value is its text.
 */
export function smpPatchesFromText(text: string, file: string, parse: ParseDocuments): Resource[] {
  return resourcesFromValues(parse(text, file, PATCH_READING), file);
}

const PATCH_READING = { sourceTexts: true } as const;

/**
 * The same, or undefined when a document is not an object (a JSON patch's list, say), without
 * building the error: a `patches` entry tries its text both ways, and argo-cd applies one JSON
 * patch file through 45 entries.
 */
export function smpPatchesIfObjects(text: string, file: string, parse: ParseDocuments): Resource[] | undefined {
  const docs = parse(text, file, PATCH_READING);
  return docs.every((d) => d === null || isMap(d)) ? resourcesFromValues(docs, file) : undefined;
}

/**
 * The one resource a patch without a target applies to: the one that has, or had, the
 * patch's own id. kustomize's wording when there is none or several.
 */
export function targetByPatchId(resources: ResourceMap, patch: Resource): Resource {
  const id = patch.originalId;
  try {
    return resources.demandOne(id);
  } catch (e) {
    throw new KustomizeError('PATCH_FAILED', `${(e as Error).message}; failed to find unique target for patch ${id}`, { cause: e });
  }
}

export function selectTargets(resources: ResourceMap, target: Selector): Resource[] {
  return new ResourceSelector(target).select(resources);
}

/**
 * Applies a strategic-merge patch to each of `targets` in place, recording renames for
 * name references; resources the patch deletes are removed from the map.
 */
export function applySmpTo(resources: ResourceMap, targets: Resource[], patch: YMap, schema: OpenApiSchema, options: SmpResourceOptions): void {
  const deleted: Resource[] = [];
  for (const r of targets) {
    if (options.allowNameChange || options.allowKindChange) r.storePreviousId();
    const result = applySmpToResource(objectWithBuildState(r), patch, schema, options);
    if (isDeleted(result)) deleted.push(r);
    else takeObjectWithBuildState(r, result);
  }
  resources.removeAll(deleted);
  resources.edited(deleted.length === 0 ? targets : targets.filter((r) => !deleted.includes(r)));
  if (!options.allowNameChange && !options.allowKindChange) return;
  for (const r of targets) {
    if (resources.byCurrentId(r.id).length > 1) {
      throw new KustomizeError('RESOURCE_CONFLICT', `may not add resource with an already registered id: ${r.id}`);
    }
  }
}

/**
 * The patch as kustomize's resWrangler.ApplySmPatch applies it (for `patchesStrategicMerge`, and
 * for a `patches` entry with a target): a copy whose labels and annotations went through a
 * string map (CopyMergeMetaDataFieldsFrom). Each value becomes its text, so `gone: null` sets
 * the string "null" rather than deleting, and `n: 1` sets "1"; a null or empty map, or one
 * that is no map, goes, so `labels: null` deletes nothing. (A `patches` entry without a target
 * applies the patch itself.)
 */
export function patchAsCopied(patch: YMap): YMap {
  const meta = patch['metadata'];
  if (!isMap(meta) || (!Object.hasOwn(meta, 'labels') && !Object.hasOwn(meta, 'annotations'))) return patch;
  const copy = cloneValue(patch);
  const copiedMeta = copy['metadata'] as YMap;
  for (const field of ['labels', 'annotations']) {
    if (!Object.hasOwn(copiedMeta, field)) continue;
    const m = copiedMeta[field];
    const texts: YMap = {};
    if (isMap(m)) for (const k of Object.keys(m)) texts[k] = stringMapText(m, k, m[k]!);
    if (Object.keys(texts).length > 0) copiedMeta[field] = texts;
    else delete copiedMeta[field];
  }
  return copy;
}

/**
 * Applies a JSON patch to each of `targets`, as kustomize does: the patch sees the build state
 * and the origins in the annotations; the build state is put back afterwards. `patch` names it
 * in the error for a patch that leaves no object.
 */
export function applyJsonPatchTo(targets: readonly Resource[], ops: JsonPatchOp[], patch: string): void {
  for (const r of targets) {
    const out = applyJsonPatch(objectWithBuildState(r, { origins: true }), ops);
    if (!isMap(out)) throw new KustomizeError('PATCH_FAILED', `json patch must leave an object${patch}`);
    // kustomize applies the patch to the resource's JSON, and reads the result back
    takeObjectWithBuildState(r, jsonRoundTrip(out), { restore: true, origins: true });
  }
}
