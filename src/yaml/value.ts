/**
 * The data a resource is made of once read: what kustomize's yaml.v3 decode into
 * `interface{}` produces. Comments, anchors, tags and key order are not kept, because
 * kustomize's output does not keep them either (it goes through JSON on the way out).
 *
 * Numbers: a JS number, or a bigint for integers outside the safe range (yaml.v3 keeps
 * int64/uint64 exact, and so must we). Timestamps are already strings in Go's RFC 3339 form.
 */
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
 * The text annotation values were written with, when they read as something else (`0123`,
 * `1.10`, `True`, `2024-01-02`): kustomize prints annotation values as that text. Kept on the
 * annotations map, not enumerable, like the keys written empty.
 */
const SOURCE_TEXTS = Symbol('annotation values as written');
type Marked = YMap & { [WRITTEN_EMPTY]?: Set<string>; [SOURCE_TEXTS]?: Readonly<Record<string, string>> };

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

/** Notes the text the values of an annotations map were written with, where they read as something else. */
export function markSourceTexts(annotations: YMap, texts: Readonly<Record<string, string>>): void {
  Object.defineProperty(annotations, SOURCE_TEXTS, { value: texts, enumerable: false, configurable: true });
}

/** The text an annotation value was written with, when it read as something else. */
export function scalarSourceText(annotations: YMap, key: string): string | undefined {
  return (annotations as Marked)[SOURCE_TEXTS]?.[key];
}

/** Deep copy (with the keys written empty and the annotation texts); scalars are immutable and shared. */
export function cloneValue<T extends Value>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneValue) as T;
  if (isMap(v)) {
    const out: YMap = {};
    for (const k of Object.keys(v)) {
      setKey(out, k, cloneValue(v[k]!));
      if (isWrittenEmpty(v, k)) markWrittenEmpty(out, k);
    }
    const texts = (v as Marked)[SOURCE_TEXTS];
    if (texts) markSourceTexts(out, texts);
    return out as T;
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
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !valuesEqual(a[k], b[k])) return false;
    return true;
  }
  // 1 and 1n are the same YAML integer
  return isInteger(a) && isInteger(b) && BigInt(a) === BigInt(b);
}
