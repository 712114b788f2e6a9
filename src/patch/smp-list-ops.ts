/**
 * kyaml's sequence primitives that strategic merge is built from, on plain values: matching list
 * elements by key fields (compared as YAML scalar text), the element setter (replace / delete /
 * append by keys, which also drops null and `{}` elements), and the key-value tuples of elements.
 * Their quirks are kustomize's behaviour and are kept on purpose (see the comments).
 *
 * Lists are mutated in place: their identity matters to the merge (the destination list is both
 * read and edited while elements are merged).
 */
import { wrongKindMessage, type NodeKind } from '../yaml/node.js';
import { KustomizeError } from '../errors.js';
import { isMap, isSeq, type Value, type YMap } from '../yaml/value.js';

/**
 * The text of a scalar node (yaml.v3 `Node.Value`): strings as they are, numbers and booleans
 * in their canonical form (the source spelling is not kept: `0x10` reads `16`), null and
 * collections as the empty string.
 */
export function scalarText(v: Value | undefined): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(v);
    default:
      return '';
  }
}

/** kyaml `IsMissingOrNull` */
export function isMissingOrNull(v: Value | undefined): v is null | undefined {
  return v === undefined || v === null;
}

/** kyaml `IsEmptyMap`: missing, null, or a map without fields. */
export function isEmptyMap(v: Value | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (!isMap(v)) return false;
  for (const _ in v) return false;
  return true;
}

/** kyaml `RNode.IsNilOrEmpty`: missing, null, `{}` or `[]`. */
export function isNilOrEmpty(v: Value | undefined): boolean {
  return isEmptyMap(v) || (isSeq(v) && v.length === 0);
}

function hasOwn(m: YMap, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, k);
}

/** kyaml's error for a node of the wrong kind in a merge (the node in flow style, as kustomize v5.5.0 prints it there). */
export function wrongKind(expected: NodeKind, v: Value): KustomizeError {
  return new KustomizeError('PATCH_FAILED', wrongKindMessage(expected, v, flowText));
}

/** A one-line YAML flow rendering of a node, for error messages. */
function flowText(v: Value): string {
  if (isSeq(v)) return `[${v.map(flowText).join(', ')}]`;
  if (isMap(v)) return `{${Object.keys(v).map((k) => `${k}: ${flowText(v[k]!)}`).join(', ')}}`;
  return v === null ? 'null' : scalarText(v);
}

/**
 * kyaml `FieldMatcher{Name, StringValue}` applied to a list element: a named field (any value
 * when `value` is "", else one whose text equals it), or with an empty name a scalar whose text
 * equals `value`. Wrong node kinds are errors, as in kyaml.
 */
function fieldMatches(elem: Value, name: string, value: string): boolean {
  if (name === '') {
    if (isMap(elem) || isSeq(elem)) throw wrongKind('ScalarNode', elem);
    return scalarText(elem) === value;
  }
  if (!isMap(elem)) throw wrongKind('MappingNode', elem);
  if (!hasOwn(elem, name)) return false;
  return value === '' || scalarText(elem[name]) === value;
}

/**
 * kyaml `ElementSetter{Element, Keys, Values}` on `list` (in place): every element matching all
 * key/value pairs is replaced by `element` (or removed when `element` is undefined/null); when
 * none matched, a non-null `element` is appended. Null and empty-map elements are dropped on the
 * way. Quirks kept: an empty value matches any element that has the key; with fewer values than
 * keys the extra keys are not checked; with no values at all, non-matching elements are dropped.
 */
export function setElement(list: Value[], element: Value | undefined, keys: readonly string[], values: readonly string[]): void {
  const ks = keys.length === 0 ? [''] : keys;
  const mappingSetter = ks[0] !== '' && values.length > 0 && values[0] !== '';
  const out: Value[] = [];
  let matched = false;
  for (const elem of list) {
    if (isEmptyMap(elem)) continue;
    if (mappingSetter && !isMap(elem)) {
      out.push(elem);
      continue;
    }
    let found = true;
    let last = false;
    for (let j = 0; j < ks.length; j++) {
      if (j < values.length) last = fieldMatches(elem, ks[j]!, values[j]!);
      if (!last) {
        found = false;
        break;
      }
    }
    if (!found) {
      if (values.length > 0) out.push(elem);
      continue;
    }
    matched = true;
    if (element === undefined) continue;
    out.push(element);
  }
  list.length = 0;
  for (const e of out) list.push(e);
  if (isMissingOrNull(element)) return;
  if (!matched) list.push(element);
}

/**
 * kyaml `ElementMatcher` (`RNode.ElementList`): the first element whose key fields all have
 * exactly these texts; with an empty first key, the first element whose own text equals the
 * first value. Undefined when none (or `list` is not a list).
 */
export function findElement(list: Value | undefined, keys: readonly string[], values: readonly string[]): Value | undefined {
  if (!isSeq(list)) return undefined;
  const ks = keys.length === 0 ? [''] : keys;
  const vs = values.length === 0 ? [''] : values;
  if (ks[0] === '') {
    for (const item of list) if (scalarText(item) === vs[0]) return item;
    return undefined;
  }
  if (ks.length !== vs.length) {
    throw new KustomizeError('PATCH_FAILED', 'length of keys must equal length of values when MatchAnyValue is false');
  }
  for (const item of list) {
    if (!isMap(item)) continue;
    let all = true;
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i]!;
      if (!hasOwn(item, k) || scalarText(item[k]) !== vs[i]) {
        all = false;
        break;
      }
    }
    if (all) return item;
  }
  return undefined;
}

/**
 * kyaml `RNode.ElementValuesList`: per element, the texts of its key fields ("" where the field
 * is missing, null, `{}` or `[]`). `typed` collects, per key and text, the first value seen, so
 * that a key kyaml re-creates from its text gets its original type back.
 */
export function elementKeyValues(list: Value | undefined, keys: readonly string[], typed: Map<string, Value>): string[][] {
  if (!isSeq(list)) return [];
  const out: string[][] = [];
  for (const elem of list) {
    const tuple: string[] = [];
    for (const k of keys) {
      const v = isMap(elem) && hasOwn(elem, k) ? elem[k] : undefined;
      if (isNilOrEmpty(v)) {
        tuple.push('');
      } else {
        const t = scalarText(v);
        tuple.push(t);
        const tk = `${k}\u0000${t}`;
        if (!typed.has(tk)) typed.set(tk, v!);
      }
    }
    out.push(tuple);
  }
  return out;
}

/**
 * kyaml `appendListNode(dst, src, keys)`: puts each element of `src` into `dst` by its key
 * values (replacing matches, else appending). Quirks kept: an element missing a key is appended
 * once per missing key before being set; with several keys matching elements are first removed
 * (so they move to the end).
 */
export function appendListNode(dst: Value[], src: readonly Value[], keys: readonly string[]): Value[] {
  for (const elem of [...src]) {
    if (keys[0] === '') {
      setElement(dst, elem, [''], [scalarText(elem)]);
      continue;
    }
    const v: string[] = [];
    for (const key of keys) {
      if (isMissingOrNull(elem)) {
        dst.push(elem);
        continue;
      }
      if (!isMap(elem)) throw wrongKind('MappingNode', elem);
      if (!hasOwn(elem, key)) {
        dst.push(elem);
        continue;
      }
      v.push(scalarText(elem[key]));
    }
    if (keys.length > 1) setElement(dst, undefined, keys, v);
    setElement(dst, elem, keys, v);
  }
  return dst;
}
