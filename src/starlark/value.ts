/**
 * Starlark values. Scalars are JS values: None is `null`, bool a boolean, int a number or
 * bigint (int.ts), string a byte string (text.ts). float is a `Float` (so 1.0 is not 1), and
 * every other type is a class with a `typeName`.
 */
import { type Int, bigOrSmall, intCmp, toBig } from './int.js';
import { decodeRune } from './text.js';

export type Value = null | boolean | Int | string | Float | StarlarkObject;

/** An error raised by an operation; the evaluator adds the position and backtrace. */
export class Fail extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** A host type's refusal of a field (`x.f = v`): the evaluator adds a "did you mean" hint. */
export class NoSuchAttr extends Fail {}

export abstract class StarlarkObject {
  abstract readonly typeName: string;
  /** freeze this value and everything reachable from it */
  freeze(): void {}
}

export class Float extends StarlarkObject {
  readonly typeName = 'float';
  constructor(readonly v: number) {
    super();
  }
}

export class Bytes extends StarlarkObject {
  readonly typeName = 'bytes';
  /** a byte string, one char per byte */
  constructor(readonly b: string) {
    super();
  }
}

/** Mutable containers: frozen, and not to be mutated while iterated. */
abstract class Mutable extends StarlarkObject {
  frozen = false;
  iterating = 0;
  checkMutable(verb: string): void {
    if (this.frozen) throw new Fail(`cannot ${verb} frozen ${this.kindName}`);
    if (this.iterating > 0) throw new Fail(`cannot ${verb} ${this.kindName} during iteration`);
  }
  protected abstract get kindName(): string;
}

export class List extends Mutable {
  readonly typeName = 'list';
  constructor(public elems: Value[]) {
    super();
  }
  protected get kindName(): string {
    return 'list';
  }
  override freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const e of this.elems) freeze(e);
  }
}

export class Tuple extends StarlarkObject {
  readonly typeName = 'tuple';
  constructor(readonly elems: readonly Value[]) {
    super();
  }
  override freeze(): void {
    for (const e of this.elems) freeze(e);
  }
}

interface Entry {
  k: Value;
  v: Value;
}

/**
 * The key under which a hashable value is kept in a JS Map: strings as themselves, ints and
 * integral floats as the Int, other floats as the number, bool/None as themselves, and
 * everything else as a string that starts with U+0100 (no byte string holds that character).
 */
export function hashKey(v: Value): unknown {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || v === null) return v;
  if ((v as { identityHash?: boolean }).identityHash) return v;
  if (v instanceof Float) {
    const x = v.v;
    if (Number.isInteger(x)) return Number.isSafeInteger(x) ? x : BigInt(x);
    return x;
  }
  return '\u0100' + compositeKey(v);
}

function compositeKey(v: Value): string {
  if (v instanceof Tuple) return `(${v.elems.map((e) => keyString(e)).join(',')})`;
  if (v instanceof Bytes) return 'b' + v.b;
  if (v instanceof Range) throw new Fail('unhashable: range');
  if (v instanceof StarlarkObject) {
    const h = (v as { hashKey?: () => string }).hashKey;
    if (h) return h.call(v);
  }
  throw new Fail(`unhashable type: ${typeOf(v)}`);
}

function keyString(v: Value): string {
  const k = hashKey(v);
  if (typeof k === 'string') return JSON.stringify(k);
  if (typeof k === 'bigint') return `${k}n`;
  return String(k);
}

/** An insertion-ordered hash table (dict and set). */
export class HashTable extends Mutable {
  readonly typeName: string = 'dict';
  readonly map = new Map<unknown, Entry>();
  protected get kindName(): string {
    return 'hash table';
  }
  get size(): number {
    return this.map.size;
  }
  get(k: Value): Value | undefined {
    const e = this.map.get(hashKey(k));
    return e === undefined ? undefined : e.v;
  }
  has(k: Value): boolean {
    return this.map.has(hashKey(k));
  }
  set(k: Value, v: Value): void {
    const key = hashKey(k);
    if (this.frozen) throw new Fail('cannot insert into frozen hash table');
    if (this.iterating > 0) throw new Fail('cannot insert into hash table during iteration');
    const e = this.map.get(key);
    if (e) e.v = v;
    else this.map.set(key, { k, v });
  }
  delete(k: Value): Value | undefined {
    const key = hashKey(k);
    if (this.frozen) throw new Fail('cannot delete from frozen hash table');
    if (this.iterating > 0) throw new Fail('cannot delete from hash table during iteration');
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    return e.v;
  }
  clear(): void {
    if (this.frozen) throw new Fail('cannot clear frozen hash table');
    if (this.iterating > 0) throw new Fail('cannot clear hash table during iteration');
    this.map.clear();
  }
  keys(): Value[] {
    const out: Value[] = [];
    for (const e of this.map.values()) out.push(e.k);
    return out;
  }
  entries(): IterableIterator<Entry> {
    return this.map.values();
  }
  override freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const e of this.map.values()) {
      freeze(e.k);
      freeze(e.v);
    }
  }
}

export class Dict extends HashTable {
  override readonly typeName = 'dict';
}

export class StarlarkSet extends HashTable {
  override readonly typeName = 'set';
  hashKey(): string {
    throw new Fail('unhashable type: set');
  }
}

export class Range extends StarlarkObject {
  readonly typeName = 'range';
  constructor(readonly start: number, readonly stop: number, readonly step: number) {
    super();
  }
  get length(): number {
    const { start, stop, step } = this;
    if (step > 0) return start < stop ? Math.floor((stop - start - 1) / step) + 1 : 0;
    return start > stop ? Math.floor((start - stop - 1) / -step) + 1 : 0;
  }
  at(i: number): number {
    return this.start + i * this.step;
  }
}

/** Anything with attributes (`x.f`): struct, module, and host objects. */
export interface HasAttrs {
  attr(name: string): Value | undefined;
  attrNames(): string[];
}

/** A host type that defines binary operators with other values (`side`: where the host value is). */
export interface HasBinary {
  binaryOp(op: string, other: Value, side: 'left' | 'right'): Value | undefined;
}

export function hasBinary(v: StarlarkObject): v is StarlarkObject & HasBinary {
  return typeof (v as Partial<HasBinary>).binaryOp === 'function';
}

export function hasAttrs(v: Value): v is StarlarkObject & HasAttrs {
  return v instanceof StarlarkObject && typeof (v as Partial<HasAttrs>).attr === 'function';
}

export function freeze(v: Value): void {
  if (v instanceof StarlarkObject) v.freeze();
}

/** float → int, truncating toward zero; NaN and the infinities have no int. */
export function floatToInt(x: number): Int {
  if (Number.isNaN(x)) throw new Fail('cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw new Fail('cannot convert float infinity to integer');
  const t = Math.trunc(x);
  return Number.isSafeInteger(t) ? (t === 0 ? 0 : t) : bigOrSmall(BigInt(t));
}

export function isInt(v: Value): v is Int {
  return typeof v === 'number' || typeof v === 'bigint';
}

export function typeOf(v: Value): string {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'boolean': return 'bool';
    case 'number':
    case 'bigint': return 'int';
    case 'string': return 'string';
  }
  return v.typeName;
}

export function truth(v: Value): boolean {
  if (v === null || v === false || v === 0 || v === '') return false;
  if (v === true || typeof v === 'number' || typeof v === 'string') return true;
  if (typeof v === 'bigint') return v !== 0n;
  if (v instanceof Float) return v.v !== 0;
  if (v instanceof List) return v.elems.length > 0;
  if (v instanceof Tuple) return v.elems.length > 0;
  if (v instanceof HashTable) return v.size > 0;
  if (v instanceof Bytes) return v.b.length > 0;
  if (v instanceof Range) return v.length > 0;
  const t = (v as { truth?: () => boolean }).truth;
  return t ? t.call(v) : true;
}

/** Starlark `len`, or undefined for a value without a length. */
export function lengthOf(v: Value): number | undefined {
  if (typeof v === 'string') return v.length;
  if (v instanceof List || v instanceof Tuple) return v.elems.length;
  if (v instanceof HashTable) return v.size;
  if (v instanceof Bytes) return v.b.length;
  if (v instanceof Range) return v.length;
  const len = (v as { len?: () => number } | null)?.len;
  return len ? len.call(v) : undefined;
}

// ---------------------------------------------------------------- comparison

/**
 * How deep == and < look into nested containers before failing, as starlark-go's CompareLimit
 * does (there 10; here deeper, so that nested Kubernetes objects compare). A cyclic list fails
 * rather than comparing equal to itself, as in starlark-go.
 */
const COMPARE_LIMIT = 100;

function tooDeep(): Fail {
  return new Fail('comparison exceeded maximum recursion depth');
}

export function equals(a: Value, b: Value, depth = COMPARE_LIMIT): boolean {
  if (a === b && !(a instanceof Mutable)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    if (b instanceof Float && isInt(a)) return compareNumbers(a, b) === 0;
    if (a instanceof Float && isInt(b)) return compareNumbers(a, b) === 0;
    if (typeof a === 'bigint' || typeof b === 'bigint') return isInt(a) && isInt(b) && toBig(a) === toBig(b);
    return false;
  }
  // NaN equals NaN in Starlark (its order puts NaN above +Inf)
  if (a instanceof Float) return b instanceof Float ? a.v === b.v || (Number.isNaN(a.v) && Number.isNaN(b.v)) : false;
  if (a.typeName !== b.typeName) return false;
  if (a instanceof List || a instanceof Tuple) {
    const x = a.elems;
    const y = (b as List | Tuple).elems;
    if (x.length !== y.length) return false;
    if (depth < 1) throw tooDeep();
    for (let i = 0; i < x.length; i++) if (!equals(x[i]!, y[i]!, depth - 1)) return false;
    return true;
  }
  if (a instanceof StarlarkSet) {
    const y = b as StarlarkSet;
    if (a.size !== y.size) return false;
    for (const e of a.entries()) if (!y.has(e.k)) return false;
    return true;
  }
  if (a instanceof HashTable) {
    const y = b as HashTable;
    if (a.size !== y.size) return false;
    if (depth < 1) throw tooDeep();
    for (const e of a.entries()) {
      const v = y.get(e.k);
      if (v === undefined || !equals(e.v, v, depth - 1)) return false;
    }
    return true;
  }
  if (a instanceof Bytes) return a.b === (b as Bytes).b;
  if (a instanceof Range) {
    const y = b as Range;
    const n = a.length;
    if (n !== y.length) return false;
    if (n === 0) return true;
    if (a.start !== y.start) return false;
    return n === 1 || a.step === y.step;
  }
  const eq = (a as { equals?: (o: Value) => boolean }).equals;
  if (eq) return eq.call(a, b);
  return false;
}

function compareNumbers(a: Int | Float, b: Int | Float): number {
  if (a instanceof Float || b instanceof Float) {
    const x = a instanceof Float ? a.v : a;
    const y = b instanceof Float ? b.v : b;
    if (typeof x === 'number' && typeof y === 'number') {
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    // bigint vs float: compare exactly
    const [big, f, sign] = typeof x === 'bigint' ? [x, y as number, 1] : [y as bigint, x as number, -1];
    if (Number.isNaN(f)) return -sign;
    if (!Number.isFinite(f)) return f > 0 ? -sign : sign;
    const fi = BigInt(Math.trunc(f));
    if (big !== fi) return (big < fi ? -1 : 1) * sign;
    const frac = f - Math.trunc(f);
    return (frac > 0 ? -1 : frac < 0 ? 1 : 0) * sign;
  }
  return intCmp(a, b);
}

/** Three-way comparison for `<` etc., or a Fail for unordered types. */
export function compare(op: string, a: Value, b: Value, depth = COMPARE_LIMIT): number {
  if ((isInt(a) || a instanceof Float) && (isInt(b) || b instanceof Float)) return compareNumbers(a, b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Bytes && b instanceof Bytes) return a.b < b.b ? -1 : a.b > b.b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if ((a instanceof List && b instanceof List) || (a instanceof Tuple && b instanceof Tuple)) {
    const x = a.elems;
    const y = b.elems;
    if (depth < 1) throw tooDeep();
    for (let i = 0; i < x.length && i < y.length; i++) {
      if (!equals(x[i]!, y[i]!, depth - 1)) return compare(op, x[i]!, y[i]!, depth - 1);
    }
    return x.length - y.length;
  }
  const cmp = (a as { compareTo?: (o: Value) => number | undefined } | null)?.compareTo;
  if (cmp && typeOf(a) === typeOf(b)) {
    const r = cmp.call(a, b);
    if (r !== undefined) return r;
  }
  throw new Fail(`${typeOf(a)} ${op} ${typeOf(b)} not implemented`);
}

// ---------------------------------------------------------------- iteration

/** The elements of an iterable value, or undefined. Strings are not iterable. */
export function iterate(v: Value): Iterable<Value> | undefined {
  if (v instanceof List || v instanceof Tuple) return v.elems;
  if (v instanceof HashTable) return v.keys();
  if (v instanceof Range) return rangeIter(v);
  const it = (v as { iterate?: () => Iterable<Value> } | null)?.iterate;
  if (it) return it.call(v);
  return undefined;
}

function* rangeIter(r: Range): Iterable<Value> {
  const n = r.length;
  for (let i = 0; i < n; i++) yield r.at(i);
}

/** A snapshot of the elements of an iterable, or a Fail naming what was given. */
export function toArray(v: Value, what = ''): Value[] {
  if (v instanceof List || v instanceof Tuple) return v.elems.slice();
  const it = iterate(v);
  if (it === undefined) throw new Fail(`${what}got ${typeOf(v)}, want iterable`);
  return Array.from(it);
}

export function codepointCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i += decodeRune(s, i)[1]) n++;
  return n;
}
