import { KustomizeError } from '../errors.js';
import type { Selector } from '../model/selector.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { ResourceSelector } from '../model/selector.js';
import { applySmpToResource, isDeleted, type SmpResourceOptions } from '../patch/strategic-merge.js';
import { mergedOnlyLists, type MergedOnlyList } from '../patch/replaced-lists.js';
import { builtinSchema, type OpenApiSchema } from '../openapi/schema.js';
import type { CustomResourceSchema, CustomResourceTypes, PluginContext, ReplacedList } from '../plugins/plugin.js';
import { resourcesFromValues } from '../model/resource-factory.js';
import type { ParseDocuments } from '../yaml/parse.js';
import { cloneValue, isMap, isSeq, jsonRoundTrip, valuesEqual, type Value, type YMap } from '../yaml/value.js';
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

/** Which patch of a step's patches a patch is (see {@link ReplacedList}). */
export type PatchPlace = Pick<ReplacedList, 'patchFile' | 'document'>;

/**
 * Applies a strategic-merge patch (the one at `place` in its step) to each of `targets` in
 * place, recording renames for name references; resources the patch deletes are removed from
 * the map. A custom resource's lists merge as its CRD says with `--crd-merge`; without it, those
 * the patch replaced where they would have merged are told of (see `CustomResourceTypes`).
 */
export function applySmpTo(
  resources: ResourceMap,
  targets: Resource[],
  patch: YMap,
  ctx: Pick<PluginContext, 'openapi' | 'customResources'>,
  options: SmpResourceOptions,
  place: PatchPlace,
): void {
  const schema = ctx.openapi.schema();
  const customSchemaOf = customSchemas(ctx.customResources, resources);
  const deleted: Resource[] = [];
  for (const r of targets) {
    if (options.allowNameChange || options.allowKindChange) r.storePreviousId();
    const obj = objectWithBuildState(r);
    const custom = customSchemaOf(r);
    let result;
    if (custom === undefined) result = applySmpToResource(obj, patch, schema, options);
    else if (ctx.customResources.crdMerge) result = applySmpToResource(obj, patch, schema, { ...options, typeSchema: custom.node });
    else result = mergeNoticingReplacedLists(r, obj, patch, schema, options, custom, (list) => ctx.customResources.listReplaced({ ...place, ...list }));
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
 * The schema of a target's type when it is a custom resource's (a type kustomize's built-in
 * schema does not have) that the step can find, each type looked up once per patch.
 */
function customSchemas(types: CustomResourceTypes, resources: ResourceMap): (r: Resource) => CustomResourceSchema | undefined {
  const found = new Map<string, CustomResourceSchema | undefined>();
  return (r) => {
    const { apiVersion, kind } = r;
    if (apiVersion === '' || kind === '' || builtinSchema().resourceSchema(apiVersion, kind) !== undefined) return undefined;
    const key = `${apiVersion} ${kind}`;
    if (!found.has(key)) found.set(key, types.schemaOf(apiVersion, kind, resources));
    return found.get(key);
  };
}

/**
 * kustomize's merge of a custom resource, saying which lists it replaced where `--crd-merge`
 * would have merged them into something else: when the patch gives such lists, the merge is
 * made again, on a copy, the way `--crd-merge` makes it, and the two compared.
 */
function mergeNoticingReplacedLists(
  r: Resource,
  obj: YMap,
  patch: YMap,
  schema: OpenApiSchema,
  options: SmpResourceOptions,
  custom: CustomResourceSchema,
  say: (list: Omit<ReplacedList, 'patchFile' | 'document'>) => void,
): ReturnType<typeof applySmpToResource> {
  const lists = mergedOnlyLists(patch, schema.resourceSchema(r.apiVersion, r.kind), custom.node, schema);
  if (lists.length === 0) return applySmpToResource(obj, patch, schema, options);
  const resource = { apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace, name: r.name };
  const before = cloneValue(obj);
  const result = applySmpToResource(obj, patch, schema, options);
  let merged;
  try {
    merged = applySmpToResource(before, patch, schema, { ...options, typeSchema: custom.node });
  } catch {
    // what --crd-merge would make of it is for a build with --crd-merge to say, as an error
    return result;
  }
  if (isDeleted(result) || isDeleted(merged)) return result;
  for (const list of lists) {
    if (valuesEqual(valueAt(result, list.path), valueAt(merged, list.path))) continue;
    say({ message: replacedMessage(list, valueAt(patch, list.path), resource, custom), path: list.path, resource });
  }
  return result;
}

/**
 * What a notice says of a replaced list. A patch's `- $patch: replace` item (one of nothing
 * else: the list's directive, not an item's) asks for the replacement, but kyaml keeps it as an
 * item of a list it does not merge.
 */
function replacedMessage(list: MergedOnlyList, patchList: Value | undefined, r: { kind: string; name: string }, custom: CustomResourceSchema): string {
  const how = list.keys.length === 0 ? 'as a set' : `by ${list.keys.join(' and ')}`;
  const replacing = isSeq(patchList) && patchList.some((item) => isMap(item) && item['$patch'] === 'replace' && Object.keys(item).length === 1);
  const [kept, instead] = replacing ? [', its "$patch: replace" item kept as an item', 'the directive would apply'] : ['', 'it would be merged'];
  return `${list.path.join('.')} of ${r.kind}/${r.name} was replaced by the patch's list${kept}; its ${custom.crd ? 'CRD' : 'schema'} merges it ${how}: with --crd-merge ${instead}`;
}

function valueAt(obj: YMap, path: readonly string[]): Value | undefined {
  let v: Value | undefined = obj;
  for (const key of path) v = isMap(v) ? v[key] : undefined;
  return v;
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
