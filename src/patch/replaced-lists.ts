/**
 * Where kustomize's strategic merge and `--crd-merge` part ways: the lists of a patch that kyaml
 * replaces and a custom type's schema merges (by its list types, see `listTypeStrategy`).
 */
import { isMergeList, patchStrategyAndKeys, type OpenApiSchema, type SchemaNode } from '../openapi/schema.js';
import { isMap, isSeq, type YMap } from '../yaml/value.js';

/** A list a patch gives that only the merge schema merges: its field, and the keys it merges by (none: a set). */
export interface MergedOnlyList {
  readonly path: readonly string[];
  readonly keys: readonly string[];
}

/**
 * The lists `patch` gives that kyaml replaces (by `kyaml`, the schema it has of the type, if any)
 * and `merging` merges: those the patch reaches through maps (a list inside a replaced list goes
 * with it). Fields `merging` does not describe are replaced either way.
 */
export function mergedOnlyLists(patch: YMap, kyaml: SchemaNode | undefined, merging: SchemaNode, schema: OpenApiSchema): MergedOnlyList[] {
  const out: MergedOnlyList[] = [];
  const visit = (map: YMap, replacing: SchemaNode | undefined, merge: SchemaNode, path: readonly string[]): void => {
    for (const key of Object.keys(map)) {
      const field = schema.field(merge, key);
      if (field === undefined) continue;
      const value = map[key];
      const kyamlField = replacing && schema.field(replacing, key);
      if (isMap(value)) visit(value, kyamlField, field, [...path, key]);
      else if (isSeq(value) && isMergeList(field) && !(kyamlField && isMergeList(kyamlField))) out.push({ path: [...path, key], keys: patchStrategyAndKeys(field).keys });
    }
  };
  visit(patch, kyaml, merging, []);
  return out;
}
