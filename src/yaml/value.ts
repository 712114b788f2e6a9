/**
 * The data a resource is made of once read: what kustomize's yaml.v3 decode into
 * `interface{}` produces. Comments, anchors, tags and key order are not kept, because
 * kustomize's output does not keep them either (it goes through JSON on the way out). What of
 * how a scalar was written changes what later steps make of it (no value, quotes, no tag) is
 * kept as marks on the map or list holding it, not enumerable.
 *
 * Numbers: a JS number, or a bigint for integers outside the safe range (yaml.v3 keeps
 * int64/uint64 exact, and so must we). Timestamps are already strings in Go's RFC 3339 form.
 */
import { encodedWithStyle } from './scalar-style.js';

export type Scalar = null | boolean | number | bigint | string;
export interface YMap {
  [key: string]: Value;
}
export type YSeq = Value[];
export type Value = Scalar | YMap | YSeq;

export function isMap(v: Value | undefined): v is YMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isSeq(v: Value | undefined): v is YSeq {
  return Array.isArray(v);
}

/**
 * The keys of a map that were written with no value at all (`key:`), as opposed to `key: null`
 * or `key: ~`: both read as null, but kustomize's strategic merge drops only the former. Kept on
 * the map itself, not enumerable, so nothing else sees it.
 */
const WRITTEN_EMPTY = Symbol('keys written with no value');
/**
 * The text annotation (and label) values were written with, when they read as something else
 * (`0123`, `1.10`, `True`, `2024-01-02`, `null`): kustomize prints annotation values as that
 * text, and turns a patch's labels into it (see patchAsCopied). Kept on the map, not
 * enumerable, like the keys written empty.
 */
const SOURCE_TEXTS = Symbol('annotation values as written');
/**
 * Scalars a replacement wrote with no YAML tag (kustomize creates nodes untagged), by key or
 * index, with their text: kyaml reads such a node's text as plain YAML wherever it is read next,
 * in this transformer or a later one, and a later replacement keeps it untagged. Kept on the
 * parent map or list, not enumerable, and valid while the value is still the one the text reads as.
 */
const UNTAGGED_TEXTS = Symbol('scalars written untagged');
/**
 * The keys of a map whose scalar was written with a style (single- or double-quoted, literal or
 * folded block): kyaml gives the node a patch writes over it the same style, so a plain `5`
 * written there is the string "5". Kept on the map, not enumerable; never changed in place
 * (copies share it, a write makes a new set: see {@link setStyled}).
 */
const STYLED = Symbol('keys of scalars written quoted or as block scalars');
type Marked = YMap & {
  [WRITTEN_EMPTY]?: Set<string>;
  [SOURCE_TEXTS]?: Readonly<Record<string, string>>;
  [UNTAGGED_TEXTS]?: Map<string | number, string>;
  [STYLED]?: ReadonlySet<string>;
};
type MarkedSeq = YSeq & { [UNTAGGED_TEXTS]?: Map<string | number, string> };

/**
 * A copy of a value as kustomize's JSON round trip leaves it (a JSON 6902 patch marshals the
 * whole resource to JSON and back): nothing of how it was written is kept, neither the keys
 * written empty nor the annotation and label texts nor the untagged scalars, and an annotation
 * or label that is null reads "null" (its text after the trip). The styles are those the encoder
 * gives the strings when kyaml turns the JSON back into nodes.
 */
export function jsonRoundTrip<T extends Value>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(jsonRoundTrip) as T;
  const out: YMap = {};
  let styled: Set<string> | undefined;
  for (const k of Object.keys(v)) {
    const child = (v as YMap)[k]!;
    setKey(out, k, jsonRoundTrip(child));
    if (typeof child === 'string' && encodedWithStyle(child)) (styled ??= new Set()).add(k);
  }
  if (styled) markStyled(out, styled);
  const meta = out['metadata'];
  if (isMap(meta)) {
    for (const field of ['annotations', 'labels']) {
      const m = ownValue(meta, field);
      if (!isMap(m)) continue;
      const nulls = Object.keys(m).filter((k) => m[k] === null);
      if (nulls.length) markSourceTexts(m, Object.fromEntries(nulls.map((k) => [k, 'null'])));
    }
  }
  return out as T;
}

/** Notes that the scalars at `keys` of `m` were written with a style (quoted or block); `keys` is the map's from now on. */
export function markStyled(m: YMap, keys: ReadonlySet<string>): void {
  Object.defineProperty(m, STYLED, { value: keys, enumerable: false, configurable: true });
}

/** Whether the scalar at `key` of `m` was written with a style: quoted or as a block scalar. */
export function isStyled(m: YMap, key: string): boolean {
  return (m as Marked)[STYLED]?.has(key) ?? false;
}

/** Notes whether the node at `key` of `m` (writable) has a style, leaving the set other copies share as it is. */
export function setStyled(m: YMap, key: string, styled: boolean): void {
  const keys = (m as Marked)[STYLED];
  if ((keys?.has(key) ?? false) === styled) return;
  const next = new Set(keys);
  if (styled) next.add(key);
  else next.delete(key);
  markStyled(m, next);
}

/** Notes that the scalar at `key` of `parent` was written untagged, as `text`. */
export function markUntagged(parent: YMap | YSeq, key: string | number, text: string): void {
  const marked = parent as Marked | MarkedSeq;
  if (!marked[UNTAGGED_TEXTS]) Object.defineProperty(marked, UNTAGGED_TEXTS, { value: new Map(), enumerable: false, configurable: true });
  marked[UNTAGGED_TEXTS]!.set(key, text);
}

/**
 * The text of an untagged scalar at `key` of `parent`, while it still holds what `read` gives for
 * that text. An untagged scalar written with a style (the images transformer keeps the old
 * image's quotes) is no such scalar: yaml.v3 reads it as a string, whatever its text.
 */
export function untaggedText(parent: YMap | YSeq, key: string | number, read: (text: string) => Value): string | undefined {
  const text = (parent as Marked | MarkedSeq)[UNTAGGED_TEXTS]?.get(key);
  if (text === undefined || (!Array.isArray(parent) && isStyled(parent, key as string))) return undefined;
  const current = Array.isArray(parent) ? parent[key as number] : ownValue(parent, key as string);
  return current !== undefined && valuesEqual(read(text), current) ? text : undefined;
}

/** Whether a map or list holds scalars written untagged (see {@link markUntagged}). */
export function hasUntagged(parent: YMap | YSeq): boolean {
  return ((parent as Marked | MarkedSeq)[UNTAGGED_TEXTS]?.size ?? 0) > 0;
}

/** Forgets that the scalar at `key` of `parent` was written untagged (it has a tag now). */
export function forgetUntagged(parent: YMap | YSeq, key: string | number): void {
  (parent as Marked | MarkedSeq)[UNTAGGED_TEXTS]?.delete(key);
}

function withUntaggedOf<T extends YMap | YSeq>(from: YMap | YSeq, out: T): T {
  const untagged = (from as Marked | MarkedSeq)[UNTAGGED_TEXTS];
  if (untagged) Object.defineProperty(out, UNTAGGED_TEXTS, { value: new Map(untagged), enumerable: false, configurable: true });
  return out;
}

/** Notes that `key` of `m` was written with no value. */
export function markWrittenEmpty(m: YMap, key: string): void {
  const marked = m as Marked;
  if (!marked[WRITTEN_EMPTY]) Object.defineProperty(marked, WRITTEN_EMPTY, { value: new Set<string>(), enumerable: false });
  marked[WRITTEN_EMPTY]!.add(key);
}

/** Whether `key` of `m` holds the null of a key written with no value (`key:`). */
export function isWrittenEmpty(m: YMap, key: string): boolean {
  return ownValue(m, key) === null && ((m as Marked)[WRITTEN_EMPTY]?.has(key) ?? false);
}

/**
 * Whether a map under `key` is one kustomize reads as a `map[string]string`, taking each value's
 * text as written: labels, annotations (kyaml's GetLabels/GetAnnotations), and a ConfigMap's or
 * Secret's data (GetDataMap, which a generator's `behavior: merge` reads). Such maps keep the
 * text of their plain values that read as something else (see scalarSourceText).
 */
export function isTextValuedField(key: string): boolean {
  return key === 'annotations' || key === 'labels' || key === 'data' || key === 'binaryData';
}

/** Notes the text the values of a map (an annotations map, or any map of a patch) were written with, where they read as something else. */
export function markSourceTexts(annotations: YMap, texts: Readonly<Record<string, string>>): void {
  Object.defineProperty(annotations, SOURCE_TEXTS, { value: texts, enumerable: false, configurable: true });
}

/** The text an annotation value (or a patch's value) was written with, when it read as something else. */
export function scalarSourceText(annotations: YMap, key: string): string | undefined {
  return (annotations as Marked)[SOURCE_TEXTS]?.[key];
}

/**
 * Carries the text a scalar was written with from the map it came from (a patch) to the map it
 * is written into, at `key`: kyaml moves the node, text and all. `to` is writable; the texts
 * other copies share are left as they are.
 */
export function carrySourceText(to: YMap, key: string, from: YMap): void {
  const text = scalarSourceText(from, key);
  if (text === scalarSourceText(to, key)) return;
  const texts: Record<string, string> = { ...(to as Marked)[SOURCE_TEXTS] };
  if (text === undefined) delete texts[key];
  else texts[key] = text;
  markSourceTexts(to, texts);
}

/** Deep copy (with the keys written empty, the annotation texts and the styles); scalars are immutable and shared. */
export function cloneValue<T extends Value>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return withUntaggedOf(v, v.map(cloneValue)) as T;
  const m = v as Marked;
  const out: YMap = {};
  // indexed, and the marks looked up once per map rather than per key: copies are most of what a cached build does
  const keys = Object.keys(m);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k === '__proto__') setKey(out, k, cloneValue(m[k]!));
    else out[k] = cloneValue(m[k]!);
  }
  return withMarksOf(m, out) as T;
}

/** `out` with the keys written empty, the annotation texts and the styles of `m`, whose copy it is. */
function withMarksOf(m: Marked, out: YMap): YMap {
  const empty = m[WRITTEN_EMPTY];
  if (empty) for (const k of empty) if (ownValue(out, k) === null) markWrittenEmpty(out, k);
  const texts = m[SOURCE_TEXTS];
  if (texts) markSourceTexts(out, texts);
  const styled = m[STYLED];
  if (styled) markStyled(out, styled);
  return withUntaggedOf(m, out);
}

/**
 * Freezes a value through and through, so that several builds can share it: a build that
 * writes to a part of it first replaces that part with a copy ({@link writableChild}, {@link unshared},
 * {@link owned}). Frozen, a write that forgot to copy throws instead of changing what a
 * later build reads.
 */
export function shareValue<T extends Value>(v: T): T {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return v;
  if (Array.isArray(v)) for (const item of v) shareValue(item);
  else for (const k of Object.keys(v)) shareValue(v[k]!);
  return Object.freeze(v);
}

/** Whether a value is a shared one (see {@link shareValue}): a map or sequence that must be copied before it is written. */
export function isShared(v: Value | undefined): v is YMap | YSeq {
  return typeof v === 'object' && v !== null && Object.isFrozen(v);
}

/** A writable copy of one map or sequence, its items and values still the same (and still shared where they were). */
function shallowCopy(v: YMap | YSeq): YMap | YSeq {
  if (Array.isArray(v)) return withUntaggedOf(v, [...v]);
  const out: YMap = {};
  for (const k of Object.keys(v)) setKey(out, k, v[k]!);
  return withMarksOf(v, out);
}

/** `v` itself when it is writable, else a shallow copy of it (see {@link shareValue}). */
export function unshared<T extends YMap | YSeq>(v: T): T {
  return (Object.isFrozen(v) ? shallowCopy(v) : v) as T;
}

/**
 * The map or sequence that `node` (writable) holds at `key`, writable: when shared, a shallow
 * copy of it takes its place, so what is shared below it stays shared.
 */
export function writableChild(node: YMap | YSeq, key: string | number): YMap | YSeq {
  const child = (node as Record<string | number, Value>)[key] as YMap | YSeq;
  if (!Object.isFrozen(child)) return child;
  const copy = shallowCopy(child);
  if (Array.isArray(node)) node[key as number] = copy;
  else setKey(node, key as string, copy);
  return copy;
}

/** `v` writable throughout: each shared part in it replaced by a deep copy (the parts already writable are kept, not copied). */
export function owned<T extends Value>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Object.isFrozen(v)) return cloneValue(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const item = v[i]!;
      if (isShared(item)) v[i] = cloneValue(item);
      else owned(item);
    }
    return v;
  }
  // for-in lists the keys as Object.keys does (plain objects inherit none), with no array made
  for (const k in v) {
    const child = (v as YMap)[k]!;
    if (isShared(child)) setKey(v as YMap, k, cloneValue(child));
    else owned(child);
  }
  return v;
}

/** Sets a key without tripping over `__proto__`, which is an ordinary key in YAML. */
export function setKey(m: YMap, key: string, value: Value): void {
  if (key === '__proto__') Object.defineProperty(m, key, { value, enumerable: true, writable: true, configurable: true });
  else m[key] = value;
}

/** The value of a key the map itself holds (never one inherited from Object.prototype, such as `__proto__`). */
export function ownValue(m: YMap, key: string): Value | undefined {
  return Object.prototype.hasOwnProperty.call(m, key) ? m[key] : undefined;
}

function isInteger(v: Value | undefined): v is number | bigint {
  return typeof v === 'bigint' || Number.isInteger(v);
}

/** Structural equality of two values (map key order ignored). */
export function valuesEqual(a: Value | undefined, b: Value | undefined): boolean {
  return structurallyEqual(a, b, sameScalar);
}

/**
 * Whether two values print the same: structurally equal with their scalars identical (1 is not
 * 1n, 0 is not -0), as a printer that tells them apart needs.
 */
export function identicalValues(a: Value | undefined, b: Value | undefined): boolean {
  return structurallyEqual(a, b, Object.is);
}

// 1 and 1n are the same YAML integer
function sameScalar(a: Value | undefined, b: Value | undefined): boolean {
  return a === b || (isInteger(a) && isInteger(b) && BigInt(a) === BigInt(b));
}

/** Equal collections of equal keys and items, and scalars that `scalarsEqual` finds equal. */
function structurallyEqual(a: Value | undefined, b: Value | undefined, scalarsEqual: (a: Value | undefined, b: Value | undefined) => boolean): boolean {
  if (typeof a === 'object' && a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!structurallyEqual(a[i], b[i], scalarsEqual)) return false;
    return true;
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    // keys counted, not listed (no arrays made); an enumerable key inherited from a polluted prototype only makes them unequal
    let keys = 0;
    for (const k in a) {
      if (!Object.prototype.hasOwnProperty.call(b, k) || !structurallyEqual(a[k], b[k], scalarsEqual)) return false;
      keys++;
    }
    for (const _ in b) keys--;
    return keys === 0;
  }
  return (typeof b !== 'object' || b === null) && scalarsEqual(a, b);
}

/**
 * About how many bytes the values read from a text of `chars` characters holding `documents`
 * documents (or printed as it) take, without walking them: {@link estimatedBytes} of the
 * real-world trees' resources is about 1.1 bytes a character of their YAML and 1 kB a resource.
 * What a cache measures on every build, where a walk would cost a tenth of the build.
 */
export function estimatedBytesOfText(chars: number, documents: number): number {
  return Math.ceil(1.1 * chars) + 1024 * documents;
}

/**
 * About how many bytes a value takes in memory, from its shape: what a cache bounded in bytes
 * counts it as. Shared parts are counted wherever they are held, so a sum of estimates bounds
 * what it stands for from above.
 */
export function estimatedBytes(v: Value | undefined): number {
  if (typeof v === 'string') return 16 + v.length;
  if (typeof v !== 'object' || v === null) return 8;
  let size = 0;
  if (Array.isArray(v)) {
    size = 32 + 8 * v.length;
    for (const item of v) size += estimatedBytes(item);
  } else {
    const keys = Object.keys(v);
    size = 56;
    for (const k of keys) size += 24 + estimatedBytes(v[k]);
  }
  return size;
}
