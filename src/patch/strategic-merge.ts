/**
 * kustomize's strategic-merge patch (`patchesStrategicMerge:` and SMP entries of `patches:`): the
 * kyaml `merge2` walker with `ListIncreaseDirection: prepend`, as kustomize v5 runs it, on plain
 * values. It is not Kubernetes' apimachinery SMP: what kyaml does is what this does, e.g.
 *
 * - maps merge recursively; `null` in the patch deletes a field; nulls already in the target
 *   disappear too (any field whose merged value is null is dropped); `{}` and `[]` are kept;
 * - lists whose schema strategy includes `merge` are merged by the list map keys (else the patch
 *   merge key); the patch's elements come first, in patch order, then the target's other
 *   elements; a target element lacking a key, or a null one, collapses the list (kept quirk);
 * - merge lists without a key (e.g. `finalizers`) are merged as sets of scalars, patch first;
 * - every other list, and every list of a kind the schema does not know (CRDs), is replaced;
 * - `$patch: delete | replace | merge` work on maps (also list elements and the whole resource),
 *   but `$patch: replace` on a list element is undone by the list merge, and list-level
 *   directives, `$setElementOrder/…`, `$retainKeys`, `$deleteFromPrimitiveList/…` are not
 *   interpreted: they stay in the output as ordinary fields/elements, as kustomize prints them.
 *
 * The schema of the resource comes from the target's apiVersion/kind (else the patch's), and
 * again from any nested map with apiVersion/kind where the schema is unknown. With `--crd-merge`
 * a custom resource's comes from its CRD instead, its list types read as patch strategies
 * (see `listTypeStrategy`): its lists then merge as those of a built-in kind do, directives
 * included (and those above left as they are).
 */
import type { NodeKind as YamlNodeKind } from '../yaml/node.js';
import { KustomizeError } from '../errors.js';
import { isMergeList, patchStrategyAndKeys, type OpenApiSchema, type SchemaNode } from '../openapi/schema.js';
import { nodeText } from '../yaml/node.js';
import { readsAsNonString11, setUntaggedField } from '../yaml/string-styles.js';
import {
  carrySourceText,
  cloneValue,
  forgetUntagged,
  hasUntagged,
  isMap,
  isSeq,
  isStyled,
  isWrittenEmpty,
  owned,
  scalarSourceText,
  setKey,
  setStyled,
  unshared,
  untaggedText,
  type Value,
  type YMap,
} from '../yaml/value.js';
import { resolvePlainScalar, resolvePlainScalar11 } from '../yaml/resolve.js';
import { takeDirective } from './smp-directive.js';
import {
  appendListNode,
  elementKeyValues,
  findElement,
  isEmptyMap,
  isMissingOrNull,
  isNilOrEmpty,
  scalarText,
  setElement,
  wrongKind,
} from './smp-list-ops.js';

/** Returned when the patch deletes the whole resource (`$patch: delete` at the top). */
export const DELETED: unique symbol = Symbol('kustomize-ts.smp.deleted');
type SmpResult = YMap | typeof DELETED;

/**
 * Applies one strategic-merge patch to one resource.
 *
 * The target is mutated in place and returned (kustomize keeps the target node and sees only the
 * walk's edits to it, so `$patch: replace` at the top changes nothing): pass a copy if the
 * original must survive. Shared parts below it (see `shareValue`) are copied where the walk
 * changes them, and stay shared elsewhere. The
 * patch is not mutated (it is copied first, like kustomize copies it per target), so one patch
 * can be applied to many resources. Returns {@link DELETED} when the result is null or `{}`
 * (kustomize then drops the resource).
 *
 * This is the bare merge; see {@link applySmpToResource} for what kustomize does around it.
 * @throws KustomizeError PATCH_FAILED on node kind mismatches and unknown `$patch` values.
 */
export function applyStrategicMerge(target: YMap, patch: YMap, schema: OpenApiSchema): SmpResult {
  return merged(target, new Walker(schema).walk(target, cloneValue(patch), undefined));
}

export interface SmpResourceOptions {
  /** the patch's `options.allowNameChange` (PatchTransformer); default false */
  allowNameChange?: boolean;
  /** the patch's `options.allowKindChange`; default false */
  allowKindChange?: boolean;
  /**
   * the schema of the resource's type, instead of the one `schema` has for its apiVersion and
   * kind: a custom resource's, with its CRD's list types (`--crd-merge`)
   */
  typeSchema?: SchemaNode;
}

/**
 * kustomize's `Resource.ApplySmPatch` around the merge: the patch's apiVersion is first set to
 * the target's (kustomize patches a copy whose GVK is the target's, kind kept), then after the
 * merge the target's kind and `metadata.name` are restored unless the options allow a change,
 * and `metadata.namespace` is always restored (removed when the target had none).
 */
export function applySmpToResource(target: YMap, patch: YMap, schema: OpenApiSchema, options: SmpResourceOptions = {}): SmpResult {
  const meta = isMap(target['metadata']) ? target['metadata'] : undefined;
  const name = meta?.['name'];
  const namespace = meta?.['namespace'];
  const kind = target['kind'];
  const p = cloneValue(patch);
  if (Object.prototype.hasOwnProperty.call(target, 'apiVersion')) setKey(p, 'apiVersion', target['apiVersion']!);
  else delete p['apiVersion'];
  const result = merged(target, new Walker(schema).walk(target, p, options.typeSchema));
  if (result === DELETED) return DELETED;
  if (!options.allowKindChange) setKey(result, 'kind', kind === undefined || isNilOrEmpty(kind) ? '' : kind);
  // kustomize writes the name and namespace back as untagged scalars, in the fields' styles
  let m = result['metadata'];
  if (!options.allowNameChange) {
    if (!isMap(m)) setKey(result, 'metadata', (m = {}));
    if (isMap(name) || isSeq(name)) setKey(m, 'name', name);
    else setUntaggedField(m, 'name', name === undefined || isNilOrEmpty(name) ? '' : scalarText(name));
  }
  m = result['metadata'];
  if (namespace === undefined || isNilOrEmpty(namespace) || scalarText(namespace) === '') {
    if (isMap(m)) delete m['namespace'];
  } else {
    if (!isMap(m)) setKey(result, 'metadata', (m = {}));
    setUntaggedField(m, 'namespace', scalarText(namespace));
  }
  return result;
}

/**
 * kustomize keeps the target node and only sees the walk's in-place edits: the walk's own result
 * matters only when it is nothing (deleted). So `$patch: replace` at the top changes nothing.
 */
function merged(target: YMap, walked: Node): SmpResult {
  return isMissingOrNull(walked) || isEmptyMap(target) ? DELETED : target;
}

export function isDeleted(r: SmpResult): r is typeof DELETED {
  return r === DELETED;
}

/** A node of the walk: undefined is a missing node, null a YAML null. */
type Node = Value | undefined;

function own(m: Node, k: string): Node {
  return isMap(m) && Object.prototype.hasOwnProperty.call(m, k) ? m[k] : undefined;
}

type NodeKind = 'map' | 'seq' | 'scalar';

function kindOf(v: Value): NodeKind {
  return isMap(v) ? 'map' : isSeq(v) ? 'seq' : 'scalar';
}

const KIND_NAMES: Record<NodeKind, YamlNodeKind> = { map: 'MappingNode', seq: 'SequenceNode', scalar: 'ScalarNode' };

/** Up to this many keys are sorted by insertion (a map's keys are few); more go to Array.prototype.sort. */
const INSERTION_SORT_MAX = 16;

/**
 * Sorts a map's keys in place in `<` order. The walk sorts the keys of every map of every
 * target, and Array.prototype.sort allocates a work array per call: small lists are sorted here.
 */
function sortKeys(keys: string[]): void {
  if (keys.length > INSERTION_SORT_MAX) {
    keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > k; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = k;
  }
}

/** kyaml `walk.Walker` over two sources (destination, patch) with the merge2 visitor. */
class Walker {
  /** values of merge keys by `${key}\0${text}`, to re-create a key field with its type */
  private readonly typed = new Map<string, Value>();

  constructor(private readonly schema: OpenApiSchema) {}

  walk(dest: Node, origin: Node, s: SchemaNode | undefined): Node {
    const schema = s ?? this.schemaOf(dest) ?? this.schemaOf(origin);
    const first = isMissingOrNull(dest) ? origin : dest;
    if (isMissingOrNull(first)) return this.walkMap(dest, origin, schema);
    const kind = kindOf(first);
    const other = first === dest ? origin : dest;
    if (!isMissingOrNull(other) && kindOf(other) !== kind) {
      throw wrongKind(KIND_NAMES[kind], other);
    }
    switch (kind) {
      case 'map':
        return this.walkMap(dest, origin, schema);
      case 'seq':
        if (schema !== undefined && isMergeList(schema)) return this.walkMergeList(dest, origin, schema);
        return origin !== undefined ? origin : dest;
      default:
        return origin !== undefined ? origin : dest;
    }
  }

  /** kyaml `Walker.GetSchema` without a field schema: the schema of a map's apiVersion/kind. */
  private schemaOf(v: Node): SchemaNode | undefined {
    if (!isMap(v)) return undefined;
    const apiVersion = v['apiVersion'];
    const kind = v['kind'];
    if (isNilOrEmpty(apiVersion) || isNilOrEmpty(kind)) return undefined;
    const av = scalarText(apiVersion);
    const k = scalarText(kind);
    if (av === '' || k === '') return undefined;
    return this.schema.resourceSchema(av, k);
  }

  private walkMap(dest: Node, origin: Node, s: SchemaNode | undefined): Node {
    let d = this.visitMap(dest, origin);
    if (d === undefined) return undefined;
    if (!isMap(d)) return d;
    const keys = Object.keys(d);
    // the patch's map here, when it has one of its own (often not: most of a target is untouched)
    const patch = isMap(origin) && origin !== d ? origin : undefined;
    // the patch's map taken whole (the target had none, or `$patch: replace`), and the maps in
    // it: kyaml still sets their fields one by one, as fields it adds
    const added = patch === undefined && origin === d;
    if (patch) {
      for (const k of Object.keys(patch)) if (!Object.prototype.hasOwnProperty.call(d, k)) keys.push(k);
    }
    sortKeys(keys);
    const untagged = hasUntagged(d);
    for (const key of keys) {
      // without the patch's keys, every key is the target's own
      const dv = patch ? own(d, key) : d[key];
      const ov = origin === d ? dv : patch ? own(patch, key) : undefined;
      if (untagged && ov === undefined && (dv === null || typeof dv !== 'object')) {
        const text = quotedUntagged(d as YMap, key);
        if (text !== undefined) {
          setKey((d = unshared(d)), key, text);
          forgetUntagged(d, key);
          setStyled(d, key, true);
          continue;
        }
      }
      // A null the target already has survives when the patch does not mention the field
      // (observed with kustomize v5.5.0 for `null`/`~`); a key written with no value (`key:`)
      // is dropped, wherever the walk goes (maps, elements of merge lists).
      if (dv === null && ov === undefined && !isWrittenEmpty(d as YMap, key)) continue;
      // a scalar the patch does not mention comes out of the walk as it is (most of a target is such scalars)
      if (ov === undefined && dv !== null && typeof dv !== 'object') continue;
      const fieldSchema = s === undefined ? undefined : this.schema.field(s, key);
      let val = this.walk(dv, ov, fieldSchema);
      const had = Object.prototype.hasOwnProperty.call(d, key);
      if ((patch || added) && !isMissingOrNull(val) && typeof val !== 'object') {
        const styled = patch ? (had ? isStyled(d as YMap, key) : newFieldStyled(patch, key, val)) : newFieldStyled(d as YMap, key, val);
        if (patch && styled && had && val === ov && !isStyled(patch, key)) val = scalarSourceText(patch, key) ?? nodeText(val);
        if (styled !== isStyled(d as YMap, key)) setStyled((d = unshared(d)), key, styled);
      }
      // a shared map (a cache's parsed file) is copied before its first change; the copy is returned, for the caller to put in place
      if (isMissingOrNull(val)) {
        if (had) {
          delete (d = unshared(d))[key];
          setStyled(d, key, false);
        }
      } else if (val !== dv) {
        setKey((d = unshared(d)), key, val);
        if (patch && val === ov && typeof val !== 'object') carrySourceText(d as YMap, key, patch);
      }
    }
    return d;
  }

  /** merge2 `VisitMap` */
  private visitMap(dest: Node, origin: Node): Node {
    if (isMissingOrNull(dest)) {
      return takeDirective(origin).directive === 'delete' ? undefined : origin;
    }
    if (origin === null) return undefined;
    const { directive, value } = takeDirective(origin);
    switch (directive) {
      case 'delete':
        return undefined;
      case 'replace':
        return origin;
      case 'unknown':
        throw new KustomizeError('PATCH_FAILED', `unknown patch strategy '${value ?? ''}'`);
      default:
        return dest;
    }
  }

  /** kyaml `walkAssociativeSequence` (merge2 `VisitList` for associative lists first). */
  private walkMergeList(dest: Node, origin: Node, s: SchemaNode): Node {
    let d: Node;
    if (isMissingOrNull(dest)) d = origin;
    else if (origin === null) return undefined;
    else d = dest;
    if (!isSeq(d)) return d === null ? undefined : d;
    const { keys } = patchStrategyAndKeys(s);
    if (origin === undefined && this.isPlainKeyedList(d, keys)) {
      // Fast path, same result: a list the patch does not touch whose elements all have
      // distinct, complete keys comes out of kyaml's element merge unchanged, in order
      // (an element comes back as another only when it was shared and the walk copied it).
      const elementSchema = this.schema.elements(s);
      for (let i = 0; i < d.length; i++) {
        const e = d[i]!;
        const walked = this.walk(e, undefined, elementSchema);
        if (walked !== e && isMap(walked)) (d = unshared(d))[i] = walked;
      }
      return d;
    }
    // the merge below edits the list and its elements in place
    d = owned(d);
    const sources = [origin, d]; // prepend: the patch's elements come first
    const values: string[][] = [];
    const seen = new Set<string>();
    if (keys.length > 0) {
      for (const src of sources) {
        for (const tuple of elementKeyValues(src, keys, this.typed)) {
          const id = tuple.join('\u0000');
          if (seen.has(id)) continue;
          seen.add(id);
          values.push(tuple);
        }
      }
      return this.setElements(values, keys, d, origin, s);
    }
    for (const src of sources) {
      if (!isSeq(src)) continue;
      for (const item of src) {
        const t = scalarText(item);
        if (seen.has(t)) continue;
        seen.add(t);
        values.push([t]);
      }
    }
    return this.setElements(values, [''], d, origin, s);
  }

  /** Every element a map (or, without keys, a scalar) with distinct, complete key values. */
  private isPlainKeyedList(list: Value[], keys: readonly string[]): boolean {
    const seen = new DistinctStrings(list.length);
    for (const e of list) {
      let id: string;
      if (keys.length === 0) {
        if (e === null || isMap(e) || isSeq(e)) return false;
        id = scalarText(e);
        if (id === '') return false;
      } else {
        if (!isMap(e)) return false;
        id = '';
        for (const k of keys) {
          const v = own(e, k);
          if (v === undefined || v === null || isMap(v) || isSeq(v)) return false;
          const t = scalarText(v);
          if (t === '') return false;
          id = keys.length === 1 ? t : id + t + '\u0000';
        }
      }
      if (!seen.add(id)) return false;
    }
    return true;
  }

  /** kyaml `setAssociativeSequenceElements` */
  private setElements(valuesList: string[][], keys: readonly string[], dest: Value[], origin: Node, s: SchemaNode): Node {
    const items: Value[] = [];
    const elementSchema = this.schema.elements(s);
    if (keys.length > 1) mergeValues(valuesList);
    let validKeys: readonly string[] = keys;
    let validValues: readonly string[] = [];
    for (const values of valuesList) {
      if (values.length === 0) continue;
      [validKeys, validValues] = validateKeys(valuesList, values, keys);
      const [findKeys, findValues] = validateKeys([validValues], validValues, validKeys);
      const val = this.walk(findElement(dest, findKeys, findValues), findElement(origin, findKeys, findValues), elementSchema);
      let gone = false;
      for (let i = 0; i < validKeys.length; i++) {
        const key = validKeys[i]!;
        if (isMissingOrNull(val) || isEmptyMap(val)) {
          setElement(dest, undefined, validKeys, validValues);
          gone = true;
        } else if (validValues[i] !== '' && !(isMap(val) && Object.prototype.hasOwnProperty.call(val, key))) {
          this.setKeyField(val, key, validValues[i]!);
        }
      }
      if (gone) continue;
      setElement(items, val, validKeys, validValues);
    }
    const result = valuesList.length > 0 ? appendListNode(items, dest, validKeys) : dest;
    return result;
  }

  /** kyaml sets a missing merge key back on a merged element from its text. */
  private setKeyField(val: Value, key: string, text: string): void {
    if (key === '') {
      // a scalar element is re-set to its own text: a no-op on plain values
      if (isMap(val) || isSeq(val)) throw wrongKind('ScalarNode', val);
      return;
    }
    if (!isMap(val)) throw wrongKind('MappingNode', val);
    setKey(val, key, this.typed.get(`${key}\u0000${text}`) ?? text);
  }
}

/** Up to this many strings are told apart by a scan; more go to a Set. */
const SCAN_MAX = 8;

/** Whether strings repeat, for the short lists of a resource (containers, ports, env) without a Set per list. */
class DistinctStrings {
  private readonly few: string[] = [];
  private readonly many: Set<string> | undefined;

  constructor(expected: number) {
    if (expected > SCAN_MAX) this.many = new Set();
  }

  /** Adds `s`; false when it was already there. */
  add(s: string): boolean {
    if (this.many) {
      if (this.many.has(s)) return false;
      this.many.add(s);
    } else {
      if (this.few.includes(s)) return false;
      this.few.push(s);
    }
    return true;
  }
}

/**
 * kyaml `mergeValues`: key tuples that agree where both are set and share at least one value
 * are unified (e.g. a port without protocol and the same port with `TCP`).
 */
function mergeValues(list: string[][]): void {
  for (let i = 0; i < list.length; i++) {
    const a = list[i]!;
    for (let j = 0; j < list.length; j++) {
      const b = list[j]!;
      if (a.length !== b.length) continue;
      let common = false;
      let ok = true;
      const res: string[] = [];
      for (let k = 0; k < a.length; k++) {
        if (a[k] === b[k]) {
          common = true;
          res.push(a[k]!);
        } else if (a[k] !== '' && b[k] !== '') {
          ok = false;
          break;
        } else {
          res.push(a[k] !== '' ? a[k]! : b[k]!);
        }
      }
      if (ok && common) {
        list[i] = res;
        list[j] = res;
      }
    }
  }
}

/**
 * kyaml `validateKeys`: the keys that have a value in any of the tuples (all keys when none has),
 * with the tuple's values for those keys.
 */
function validateKeys(valuesList: readonly (readonly string[])[], values: readonly string[], keys: readonly string[]): [readonly string[], readonly string[]] {
  const valid = new Set<string>();
  for (const vs of valuesList) for (let i = 0; i < vs.length; i++) if (vs[i] !== '') valid.add(keys[i]!);
  if (valid.size === 0) return [keys, values];
  const vk = keys.filter((k) => valid.has(k));
  const vv: string[] = [];
  for (let i = 0; i < values.length; i++) if (values[i] !== '' || valid.has(keys[i]!)) vv.push(values[i]!);
  return [vk, vv];
}

/**
 * kyaml's FieldSetter, which the walk calls for every field it passes, gives the scalar it sets
 * the style of the one it replaces: a plain scalar of the patch written over one written quoted
 * or as a block scalar is its text, a string (`0123`, `true`, `2001-12-14` as written). A field
 * the patch adds keeps the patch's style, and a plain string YAML 1.1 reads as no string (`yes`)
 * is double-quoted. Whether the scalar `value` the patch adds at `key` has a style.
 */
function newFieldStyled(patch: YMap, key: string, value: Value): boolean {
  if (isStyled(patch, key)) return true;
  // a plain scalar yaml.v3 reads as a string: its value is its text (a timestamp's is not)
  return typeof value === 'string' && scalarSourceText(patch, key) === undefined && readsAsNonString11(value);
}

/**
 * kyaml's FieldSetter, which the walk calls for every field it passes, double-quotes an untagged
 * scalar (one a replacement or the images transformer wrote) whose text YAML 1.1 reads as no
 * string: such a `true` or `0123` comes out of the walk as the string "true" or "0123". The
 * text, when the field's value changes so.
 */
function quotedUntagged(d: YMap, key: string): string | undefined {
  const text = untaggedText(d, key, resolvePlainScalar);
  if (text === undefined || text === '' || text.includes('\n')) return undefined;
  if (typeof resolvePlainScalar(text) === 'string' || typeof resolvePlainScalar11(text) === 'string') return undefined;
  return text;
}
