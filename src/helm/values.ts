import { nodeKindName, wrongKindMessage } from '../yaml/node.js';
import { KustomizeError, messageOf } from '../errors.js';
import type { OpenApiSchema } from '../openapi/schema.js';
import { applyStrategicMerge, isDeleted } from '../patch/strategic-merge.js';
import { emitYaml } from '../yaml/emit.js';
import { parseYamlDocuments } from '../yaml/parse.js';
import { cloneValue, isMap, isSeq, type Value, type YMap } from '../yaml/value.js';
import type { ValuesMerge } from './chart-config.js';

/**
 * The values file kustomize hands to `helm template` when a chart has `valuesInline`:
 *
 * - `replace`: the inline values alone;
 * - `override`: the chart's values file (its first document, read as kyaml reads it) merged
 *   with the inline values on top;
 * - `merge`: the inline values with the values file's on top (the inline ones only add).
 *
 * The merge is kyaml's `merge2` (the same walk as a strategic-merge patch, without a schema
 * for plain values): maps merge recursively, lists and scalars are replaced, a `null` on top
 * removes a field, and a `null` underneath that nothing on top mentions is kept. Printed like
 * kustomize prints it (sigs.k8s.io/yaml: through JSON, so NaN and infinities are refused).
 *
 * @param valuesText the chart's values file, for `override` and `merge`
 */
export function inlineValuesFile(inline: YMap, mode: ValuesMerge, valuesText: string | undefined, valuesPath: string, schema: OpenApiSchema): string {
  let values: Value = inline;
  if (mode !== 'replace') {
    const file = parseValuesFile(valuesText ?? '', valuesPath);
    try {
      values = mode === 'override' ? mergeValues(file, inline, schema) : mergeValues(inline, file, schema);
    } catch (e) {
      throw new KustomizeError(e instanceof KustomizeError ? e.code : 'KUSTOMIZATION_INVALID', `could not merge values: ${messageOf(e)}`, { cause: e });
    }
  }
  const bad = nonFinite(values);
  if (bad !== undefined) {
    throw new KustomizeError('KUSTOMIZATION_INVALID', `error marshaling into JSON: json: unsupported value: ${bad}`);
  }
  return emitYaml(values);
}

/** kyaml `Parse`: the first document; an empty stream is `EOF`. */
function parseValuesFile(text: string, path: string): Value {
  let docs: Value[];
  try {
    docs = parseYamlDocuments(text, path);
  } catch (e) {
    throw new KustomizeError('YAML_INVALID', `could not parse values file into rnode: ${messageOf(e)}`, { cause: e, file: path });
  }
  if (docs.length === 0) throw new KustomizeError('YAML_INVALID', 'could not parse values file into rnode: EOF', { file: path });
  return docs[0]!;
}

/** merge2.Merge(top, under): `under` is the destination, `top` overrides it. */
function mergeValues(under: Value, top: Value, schema: OpenApiSchema): Value {
  if (under === null) return top === null ? {} : top;
  if (top === null) return {};
  if (!isMap(under) || !isMap(top)) throw wrongKind(under, top);
  if (top['$patch'] === 'replace') {
    // kyaml's result is then the top side merged with itself (its nulls dropped), not the side underneath
    const { $patch: _directive, ...rest } = top;
    return mergeValues(rest, rest, schema);
  }
  let result;
  try {
    result = applyStrategicMerge(cloneValue(under), top, schema);
  } catch (e) {
    // kyaml prints the offending node in block style: find it to say it the same way
    const mismatch = e instanceof KustomizeError && e.message.startsWith('wrong node kind') ? firstKindMismatch(under, top) : undefined;
    if (mismatch) throw wrongKind(mismatch[0], mismatch[1]);
    throw e;
  }
  return isDeleted(result) ? {} : result;
}

/** The first field (in the walk's order: sorted names, depth first) where the two sides are of different kinds. */
function firstKindMismatch(under: YMap, top: YMap): [Value, Value] | undefined {
  const keys = [...new Set([...Object.keys(under), ...Object.keys(top)])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const k of keys) {
    const u = Object.prototype.hasOwnProperty.call(under, k) ? under[k] : undefined;
    const t = Object.prototype.hasOwnProperty.call(top, k) ? top[k] : undefined;
    if (u === undefined || u === null || t === undefined || t === null) continue;
    if (nodeKindName(u) !== nodeKindName(t)) return [u, t];
    if (isMap(u) && isMap(t)) {
      const inner = firstKindMismatch(u, t);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** kyaml's error when the two sides are not both maps: the kind underneath is the one expected. */
function wrongKind(expected: Value, got: Value): KustomizeError {
  return new KustomizeError('KUSTOMIZATION_INVALID', wrongKindMessage(nodeKindName(expected), got, (v) => emitYaml(v).replace(/\n$/, '')));
}

/** The first NaN or infinity in a value, as Go's JSON encoder names it. */
function nonFinite(v: Value): string | undefined {
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
  if (isSeq(v)) {
    for (const e of v) {
      const bad = nonFinite(e);
      if (bad !== undefined) return bad;
    }
  } else if (isMap(v)) {
    for (const k of Object.keys(v)) {
      const bad = nonFinite(v[k]!);
      if (bad !== undefined) return bad;
    }
  }
  return undefined;
}
