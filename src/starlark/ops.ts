/**
 * The operators: arithmetic, bitwise, membership, concatenation and repetition, indexing and
 * slicing, with the spec's typing rules and starlark-go's messages.
 */
import type { Thread } from './function.js';
import { formatFloat, percentFormat } from './format.js';
import {
  intAdd, intAnd, intFloorDiv, intMod, intMul, intNeg, intNot, intOr, intShl, intShr, intSub, intToFloat, intXor,
  toBig, type Int,
} from './int.js';
import { Struct } from './struct.js';
import { Bytes, Dict, Fail, Float, HashTable, List, Range, StarlarkObject, StarlarkSet, Tuple, compare, equals, hasBinary, isInt, typeOf, type Value } from './value.js';

function isNumber(v: Value): v is Int | Float {
  return isInt(v) || v instanceof Float;
}

function checkedFloat(x: Int): number {
  const f = intToFloat(x);
  if (!Number.isFinite(f)) throw new Fail('int too large to convert to float');
  return f;
}

function floatOp(op: string, x: Int | Float, y: Int | Float): Value {
  const a = x instanceof Float ? x.v : checkedFloat(x);
  const b = y instanceof Float ? y.v : checkedFloat(y);
  switch (op) {
    case '+': return new Float(a + b);
    case '-': return new Float(a - b);
    case '*': return new Float(a * b);
    case '/':
      if (b === 0) throw new Fail('floating-point division by zero');
      return new Float(a / b);
    case '//':
      if (b === 0) throw new Fail('floored division by zero');
      return new Float(Math.floor(a / b));
    case '%': {
      if (b === 0) throw new Fail('floating-point modulo by zero');
      let r = a % b;
      if (r !== 0 && (r < 0) !== (b < 0)) r += b;
      else if (r === 0) r = b < 0 ? -0 : 0;
      return new Float(r);
    }
  }
  throw unknownBinary(op, x, y);
}

/** A binary operator a host type defines (HasBinary), tried with the host value on either side. */
function hostBinary(op: string, x: Value, y: Value): Value | undefined {
  if (x instanceof StarlarkObject && hasBinary(x)) {
    const r = x.binaryOp(op, y, 'left');
    if (r !== undefined) return r;
  }
  if (y instanceof StarlarkObject && hasBinary(y)) return y.binaryOp(op, x, 'right');
  return undefined;
}

function unknownBinary(op: string, x: Value, y: Value): Fail {
  return new Fail(`unknown binary op: ${typeOf(x)} ${op} ${typeOf(y)}`);
}

function shiftCount(y: Int): number {
  if (y < 0) throw new Fail('negative shift count: ' + y);
  if (y >= 512) throw new Fail('shift count too large: ' + y);
  return Number(y);
}

export function binary(thread: Thread, op: string, x: Value, y: Value): Value {
  if (typeof x === 'number' && typeof y === 'number') {
    switch (op) {
      case '+': return intAdd(x, y);
      case '-': return intSub(x, y);
      case '*': return intMul(x, y);
    }
  }
  switch (op) {
    case '+':
      if (typeof x === 'string' && typeof y === 'string') {
        thread.checkSize(x.length + y.length, 'string concatenation');
        return x + y;
      }
      if (isInt(x) && isInt(y)) return intAdd(x, y);
      if (isNumber(x) && isNumber(y)) return floatOp(op, x, y);
      if (x instanceof List && y instanceof List) {
        thread.checkSize(x.elems.length + y.elems.length, 'list concatenation');
        return new List(x.elems.concat(y.elems));
      }
      if (x instanceof Tuple && y instanceof Tuple) {
        thread.checkSize(x.elems.length + y.elems.length, 'tuple concatenation');
        return new Tuple(x.elems.concat(y.elems));
      }
      if (x instanceof Struct && y instanceof Struct) return x.plus(y);
      if (x instanceof Bytes && y instanceof Bytes) {
        thread.checkSize(x.b.length + y.b.length, 'bytes concatenation');
        return new Bytes(x.b + y.b);
      }
      break;
    case '-':
      if (isInt(x) && isInt(y)) return intSub(x, y);
      if (isNumber(x) && isNumber(y)) return floatOp(op, x, y);
      if (x instanceof StarlarkSet && y instanceof StarlarkSet) return setOp(x, y, (inX, inY) => inX && !inY);
      break;
    case '*':
      if (isInt(x) && isInt(y)) return intMul(x, y);
      if (isNumber(x) && isNumber(y)) return floatOp(op, x, y);
      if (isInt(y)) {
        const r = repeat(thread, x, y);
        if (r !== undefined) return r;
      }
      if (isInt(x)) {
        const r = repeat(thread, y, x);
        if (r !== undefined) return r;
      }
      break;
    case '/':
      if (isNumber(x) && isNumber(y)) {
        if (isInt(x) && isInt(y)) {
          if (y === 0 || y === 0n) throw new Fail('floating-point division by zero');
          if (typeof x === 'bigint' || typeof y === 'bigint') return new Float(bigDivide(toBig(x), toBig(y)));
        }
        return floatOp(op, x, y);
      }
      break;
    case '//':
      if (isInt(x) && isInt(y)) {
        if (y === 0 || y === 0n) throw new Fail('floored division by zero');
        return intFloorDiv(x, y);
      }
      if (isNumber(x) && isNumber(y)) return floatOp(op, x, y);
      break;
    case '%':
      if (isInt(x) && isInt(y)) {
        if (y === 0 || y === 0n) throw new Fail('integer modulo by zero');
        return intMod(x, y);
      }
      if (isNumber(x) && isNumber(y)) return floatOp(op, x, y);
      if (typeof x === 'string') return percentFormat(x, y);
      break;
    case '&':
      if (isInt(x) && isInt(y)) return intAnd(x, y);
      if (x instanceof StarlarkSet && y instanceof StarlarkSet) return setOp(x, y, (inX, inY) => inX && inY);
      break;
    case '|':
      if (isInt(x) && isInt(y)) return intOr(x, y);
      if (x instanceof StarlarkSet && y instanceof StarlarkSet) return setOp(x, y, (inX, inY) => inX || inY);
      if (x instanceof Dict && y instanceof Dict) {
        const d = new Dict();
        for (const e of x.entries()) d.set(e.k, e.v);
        for (const e of y.entries()) d.set(e.k, e.v);
        return d;
      }
      break;
    case '^':
      if (isInt(x) && isInt(y)) return intXor(x, y);
      if (x instanceof StarlarkSet && y instanceof StarlarkSet) return setOp(x, y, (inX, inY) => inX !== inY);
      break;
    case '<<':
      if (isInt(x) && isInt(y)) {
        const r = intShl(x, shiftCount(y));
        return r;
      }
      break;
    case '>>':
      if (isInt(x) && isInt(y)) return intShr(x, shiftCount(y));
      break;
    case 'in':
      return contains(y, x);
    case 'not in':
      return !contains(y, x);
    case '==':
      return equals(x, y);
    case '!=':
      return !equals(x, y);
    case '<':
    case '<=':
    case '>':
    case '>=': {
      if (x instanceof StarlarkSet && y instanceof StarlarkSet) return setOrder(op, x, y);
      const c = compare(op, x, y);
      return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    }
  }
  const r = hostBinary(op, x, y);
  if (r !== undefined) return r;
  throw unknownBinary(op, x, y);
}

/** Exact int/int true division, correctly rounded. */
function bigDivide(a: bigint, b: bigint): number {
  const fa = Number(a);
  const fb = Number(b);
  if (Number.isFinite(fa) && Number.isFinite(fb) && Math.abs(fa) < 2 ** 53 && Math.abs(fb) < 2 ** 53) return fa / fb;
  if (!Number.isFinite(fa) || !Number.isFinite(fb)) {
    // scale down both by a power of two to stay within range
    const shift = BigInt(Math.max(a.toString(2).length, b.toString(2).length) - 1000);
    if (shift > 0n) return Number(a >> shift) / Number(b >> shift);
  }
  return fa / fb;
}

/** Sets are ordered by inclusion: <= is subset, < proper subset. */
function setOrder(op: string, x: StarlarkSet, y: StarlarkSet): boolean {
  const [small, big] = op[0] === '<' ? [x, y] : [y, x];
  if (small.size > big.size || (op.length === 1 && small.size === big.size)) return false;
  for (const e of small.entries()) if (!big.has(e.k)) return false;
  return true;
}

function setOp(x: StarlarkSet, y: StarlarkSet, keep: (inX: boolean, inY: boolean) => boolean): StarlarkSet {
  const out = new StarlarkSet();
  for (const e of x.entries()) if (keep(true, y.has(e.k))) out.set(e.k, null);
  for (const e of y.entries()) if (!x.has(e.k) && keep(false, true)) out.set(e.k, null);
  return out;
}

function repeat(thread: Thread, x: Value, n: Int): Value | undefined {
  if (!(typeof x === 'string' || x instanceof Bytes || x instanceof List || x instanceof Tuple)) return undefined;
  const count = n < 0 ? 0 : n;
  const len = typeof x === 'string' ? x.length : x instanceof Bytes ? x.b.length : x.elems.length;
  if (len > 0 && (typeof count === 'bigint' || count * len > thread.maxValueSize)) {
    if (typeof count === 'bigint' || count > 2 ** 31) throw new Fail(`repeat count ${n} too large`);
    throw new Fail(`excessive repeat (${len} * ${count} elements)`);
  }
  const c = Number(count);
  if (typeof x === 'string') return x.repeat(len ? c : 0);
  if (x instanceof Bytes) return new Bytes(x.b.repeat(len ? c : 0));
  const out: Value[] = [];
  for (let i = 0; i < c && len > 0; i++) for (const e of x.elems) out.push(e);
  return x instanceof List ? new List(out) : new Tuple(out);
}

function contains(container: Value, x: Value): boolean {
  if (typeof container === 'string') {
    if (typeof x !== 'string') throw new Fail(`'in <string>' requires string as left operand, not ${typeOf(x)}`);
    return container.includes(x);
  }
  if (container instanceof List || container instanceof Tuple) {
    for (const e of container.elems) if (equals(e, x)) return true;
    return false;
  }
  if (container instanceof Dict) {
    // as starlark-go: a key that cannot be looked up (unhashable) is not in the dict
    try {
      return container.has(x);
    } catch (e) {
      if (e instanceof Fail) return false;
      throw e;
    }
  }
  if (container instanceof HashTable) return container.has(x);
  if (container instanceof Bytes) {
    if (x instanceof Bytes) return container.b.includes(x.b);
    if (isInt(x)) {
      if (x < 0 || x > 255) throw new Fail(`int in bytes: ${x} out of range`);
      return container.b.includes(String.fromCharCode(Number(x)));
    }
    throw new Fail(`'in bytes' requires bytes or int as left operand, not ${typeOf(x)}`);
  }
  if (container instanceof Range) {
    if (x instanceof Float && Number.isInteger(x.v)) x = x.v;
    else if (x instanceof Float) return false;
    if (!isInt(x)) throw new Fail(`'in <range>' requires integer as left operand, not ${typeOf(x)}`);
    const v = Number(x);
    const { start, step } = container;
    const n = container.length;
    if (n === 0) return false;
    const last = container.at(n - 1);
    if (step > 0 ? v < start || v > last : v > start || v < last) return false;
    return (v - start) % step === 0;
  }
  throw new Fail(`unknown binary op: ${typeOf(x)} in ${typeOf(container)}`);
}

export function unary(op: string, x: Value): Value {
  switch (op) {
    case 'not':
      throw new Fail('unreachable');
    case '-':
      if (isInt(x)) return intNeg(x);
      if (x instanceof Float) return new Float(-x.v);
      break;
    case '+':
      if (isInt(x) || x instanceof Float) return x;
      break;
    case '~':
      if (isInt(x)) return intNot(x);
      break;
  }
  throw new Fail(`unknown unary op: ${op}${typeOf(x)}`);
}

// ---------------------------------------------------------------- indexing

/** An index into a sequence of length n, or a Fail (negative indexes count from the end). */
export function asIndex(v: Value, n: number, what: string): number {
  if (!isInt(v)) throw new Fail(`${what} index: got ${typeOf(v)}, want int`);
  let i = Number(v);
  const orig = i;
  if (i < 0) i += n;
  if (i < 0 || i >= n) {
    if (n === 0) throw new Fail(`index ${orig} out of range: empty ${what}`);
    throw new Fail(`${what === 'list' ? 'list ' : ''}index ${orig} out of range [${-n}:${n - 1}]`.replace(/^/, ''));
  }
  return i;
}

export function index(x: Value, i: Value): Value {
  if (x instanceof List) return x.elems[asIndex(i, x.elems.length, 'list')]!;
  if (x instanceof Tuple) return x.elems[asIndex(i, x.elems.length, 'tuple')]!;
  if (x instanceof HashTable && !(x instanceof StarlarkSet)) {
    const v = x.get(i);
    if (v === undefined) throw new Fail(`key ${reprKey(i)} not in dict`);
    return v;
  }
  if (typeof x === 'string') {
    const k = asIndex(i, x.length, 'string');
    return x[k]!;
  }
  if (x instanceof Bytes) return new Bytes(x.b[asIndex(i, x.b.length, 'bytes')]!);
  if (x instanceof Range) return x.at(asIndex(i, x.length, 'range'));
  const idx = (x as { index?: (i: Value) => Value } | null)?.index;
  if (idx) return idx.call(x, i);
  throw new Fail(`unhandled index operation ${typeOf(x)}[${typeOf(i)}]`);
}

function reprKey(k: Value): string {
  if (typeof k === 'string') return JSON.stringify(k);
  if (k instanceof Float) return formatFloat(k.v, 'g');
  return String(k);
}

export function setIndex(x: Value, i: Value, v: Value): void {
  if (x instanceof List) {
    if (x.frozen) throw new Fail('cannot assign to element of frozen list');
    if (x.iterating) throw new Fail('cannot assign to element of list during iteration');
    x.elems[asIndex(i, x.elems.length, 'list')] = v;
    return;
  }
  if (x instanceof Dict) {
    x.set(i, v);
    return;
  }
  throw new Fail(`${typeOf(x)} value does not support item assignment`);
}

function sliceIndex(v: Value | undefined, dflt: number, n: number, step: number, which: string): number {
  if (v === undefined || v === null) return dflt;
  if (!isInt(v)) throw new Fail(`invalid ${which} index: got ${typeOf(v)}, want int`);
  let i = typeof v === 'bigint' ? (v < 0n ? -Infinity : Infinity) : v;
  if (i < 0) {
    i += n;
    if (i < 0) i = step < 0 ? -1 : 0;
  } else if (i > n) {
    i = step < 0 ? n - 1 : n;
  }
  if (step < 0 && i >= n) i = n - 1;
  return i;
}

/** The indexes a slice selects from a sequence of length n. */
function sliceIndexes(n: number, lo: Value | undefined, hi: Value | undefined, stepV: Value | undefined): number[] {
  let step = 1;
  if (stepV !== undefined && stepV !== null) {
    if (!isInt(stepV)) throw new Fail(`invalid slice step: got ${typeOf(stepV)}, want int`);
    step = Number(stepV);
    if (step === 0) throw new Fail('zero is not a valid slice step');
  }
  const start = sliceIndex(lo, step > 0 ? 0 : n - 1, n, step, 'start');
  const end = sliceIndex(hi, step > 0 ? n : -1, n, step, 'end');
  const out: number[] = [];
  if (step > 0) for (let i = start; i < end; i += step) out.push(i);
  else for (let i = start; i > end; i += step) out.push(i);
  return out;
}

export function slice(x: Value, lo: Value | undefined, hi: Value | undefined, step: Value | undefined): Value {
  const simple = step === undefined || step === null || step === 1;
  if (typeof x === 'string') {
    if (simple) return sliceSimple(x.length, lo, hi, (a, b) => x.slice(a, b));
    return sliceIndexes(x.length, lo, hi, step).map((i) => x[i]).join('');
  }
  if (x instanceof Bytes) {
    if (simple) return sliceSimple(x.b.length, lo, hi, (a, b) => new Bytes(x.b.slice(a, b)));
    return new Bytes(sliceIndexes(x.b.length, lo, hi, step).map((i) => x.b[i]).join(''));
  }
  if (x instanceof List) {
    if (simple) return sliceSimple(x.elems.length, lo, hi, (a, b) => new List(x.elems.slice(a, b)));
    return new List(sliceIndexes(x.elems.length, lo, hi, step).map((i) => x.elems[i]!));
  }
  if (x instanceof Tuple) {
    if (simple) return sliceSimple(x.elems.length, lo, hi, (a, b) => new Tuple(x.elems.slice(a, b)));
    return new Tuple(sliceIndexes(x.elems.length, lo, hi, step).map((i) => x.elems[i]!));
  }
  if (x instanceof Range) {
    const idx = sliceIndexes(x.length, lo, hi, step);
    const st = step === undefined || step === null ? 1 : Number(step);
    if (idx.length === 0) return new Range(0, 0, 1);
    const start = x.at(idx[0]!);
    return new Range(start, start + idx.length * x.step * st, x.step * st);
  }
  throw new Fail(`invalid slice operand ${typeOf(x)}`);
}

function sliceSimple<T>(n: number, lo: Value | undefined, hi: Value | undefined, take: (a: number, b: number) => T): T {
  const a = sliceIndex(lo, 0, n, 1, 'start');
  const b = sliceIndex(hi, n, n, 1, 'end');
  return take(a, Math.max(a, b));
}
