/** The universal built-in functions of the specification (the "universe" block). */
import { noKwargs, unpackArgs } from './args.js';
import { getAttr } from './attrs.js';
import { Builtin, Callable, type BuiltinImpl, type Thread } from './function.js';
import { repr, str } from './format.js';
import { bigOrSmall, intNeg, type Int } from './int.js';
import { updateDict, methodsOf } from './methods.js';
import { decodeRune, decodeUtf8, encodeRune } from './text.js';
import {
  Bytes, Dict, Fail, Float, List, Range, StarlarkSet, Tuple, codepointCount, compare, floatToInt, hasAttrs, isInt, iterate, lengthOf, toArray, truth, typeOf,
  type Value,
} from './value.js';

function callValue(thread: Thread, f: Value, args: Value[]): Value {
  if (!(f instanceof Callable)) throw new Fail(`got ${typeOf(f)}, want callable`);
  return f.call(thread, args, undefined);
}

function iterableOf(v: Value, what: string): Iterable<Value> {
  const it = iterate(v);
  if (it === undefined) throw new Fail(`${what}got ${typeOf(v)}, want iterable`);
  return it;
}

function toInt(v: Value, base: Value | undefined): Int {
  if (typeof v === 'string') return parseIntString(v, base === undefined ? 10 : Number(base as Int));
  if (base !== undefined) throw new Fail(`can't convert non-string with explicit base`);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isInt(v)) return v;
  if (v instanceof Float) return floatToInt(v.v);
  throw new Fail(`got ${typeOf(v)}, want string, number, or bool`);
}

function parseIntString(s0: string, base: number): Int {
  const bad = (): never => {
    throw new Fail(`invalid literal with base ${base}: ${s0}`);
  };
  if (base !== 0 && (base < 2 || base > 36)) throw new Fail('base must be an integer >= 2 && <= 36');
  let s = s0;
  let neg = false;
  if (s.startsWith('+') || s.startsWith('-')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  const prefix = s.slice(0, 2).toLowerCase();
  const prefixBase = prefix === '0x' ? 16 : prefix === '0o' ? 8 : prefix === '0b' ? 2 : 0;
  if (prefixBase && (base === 0 || base === prefixBase)) {
    // a prefix of another base is read as digits ("0b0" in base 16 is 0xb0)
    base = prefixBase;
    s = s.slice(2);
  } else if (base === 0) {
    if (s.length > 1 && s[0] === '0') {
      if (/^0+$/.test(s)) return 0;
      bad();
    }
    base = 10;
  }
  if (s === '') bad();
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, base);
  let r = 0n;
  const b = BigInt(base);
  for (const c of s.toLowerCase()) {
    const d = digits.indexOf(c);
    if (d < 0) bad();
    r = r * b + BigInt(d);
  }
  const v = bigOrSmall(r);
  return neg ? intNeg(v) : v;
}

function toFloat(v: Value): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isInt(v)) {
    const f = Number(v);
    if (!Number.isFinite(f)) throw new Fail('int too large to convert to float');
    return f;
  }
  if (v instanceof Float) return v.v;
  if (typeof v === 'string') {
    const t = v.toLowerCase();
    if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(t)) return NaN;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) throw new Fail(`invalid float literal: ${v}`);
    const f = Number(t);
    if (!Number.isFinite(f)) throw new Fail('floating-point number too large');
    return f;
  }
  throw new Fail(`got ${typeOf(v)}, want number or string`);
}

function minMax(name: string, sign: number): BuiltinImpl {
  return (thread, args, kw) => {
    const [key, dflt] = unpackArgs([], kw, ['key?', 'default?']);
    if (args.length === 0) throw new Fail(`${name} requires at least one positional argument`);
    if (args.length === 1 && iterate(args[0]!) === undefined) throw new Fail(`${typeOf(args[0]!)} value is not iterable`);
    const items = args.length === 1 ? toArray(args[0]!, '') : args;
    if (items.length === 0) {
      if (dflt !== undefined) return dflt;
      throw new Fail(`${name}: argument is an empty sequence`);
    }
    let best = items[0]!;
    let bestKey = key && key !== null ? callValue(thread, key, [best]) : best;
    for (let i = 1; i < items.length; i++) {
      const k = key && key !== null ? callValue(thread, key, [items[i]!]) : items[i]!;
      if (compare(sign < 0 ? '<' : '>', k, bestKey) * sign > 0) {
        best = items[i]!;
        bestKey = k;
      }
    }
    return best;
  };
}

function sortValues(thread: Thread, items: Value[], key: Value | undefined, reverse: boolean): Value[] {
  if (key !== undefined && !(key instanceof Callable)) throw new Fail(`for parameter key: got ${typeOf(key)}, want callable`);
  const keys = key !== undefined ? items.map((x) => callValue(thread, key, [x])) : items;
  const idx = items.map((_, i) => i);
  try {
    idx.sort((a, b) => {
      const c = compare('<', keys[a]!, keys[b]!);
      return reverse ? -c : c;
    });
  } catch (e) {
    // which pair the sort happened to compare is the engine's choice: report, as starlark-go's
    // insertion sort does, the last neighbours (later < earlier) that cannot be compared
    let last = e;
    if (e instanceof Fail) {
      for (let i = 1; i < keys.length; i++) {
        try {
          compare('<', keys[i]!, keys[i - 1]!);
        } catch (f) {
          last = f;
        }
      }
    }
    throw last;
  }
  return idx.map((i) => items[i]!);
}

const impls: Record<string, BuiltinImpl> = {
  abs: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    if (x instanceof Float) return new Float(Math.abs(x.v));
    if (isInt(x!)) return x! < 0 ? intNeg(x as Int) : x!;
    throw new Fail(`got ${typeOf(x!)}, want int or float`);
  },
  all: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    for (const e of iterableOf(x!, '')) if (!truth(e)) return false;
    return true;
  },
  any: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    for (const e of iterableOf(x!, '')) if (truth(e)) return true;
    return false;
  },
  bool: (_t, args, kw) => truth(unpackArgs(args, kw, ['x?'])[0] ?? false),
  bytes: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    if (x instanceof Bytes) return x;
    // invalid UTF-8 in a string becomes U+FFFD, as str(bytes) does the other way
    if (typeof x === 'string') return new Bytes(decodeLossy(x));
    const it = iterate(x!);
    if (it === undefined) throw new Fail(`want string, bytes, or iterable of ints, got ${typeOf(x!)}`);
    let b = '';
    for (const e of it) {
      if (!isInt(e)) throw new Fail(`at index ${b.length}, got ${typeOf(e)}, want int`);
      if (e < 0 || e > 255) throw new Fail(`at index ${b.length}, ${repr(e)} out of range (want value in unsigned 8-bit range)`);
      b += String.fromCharCode(Number(e));
    }
    return new Bytes(b);
  },
  chr: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['i']);
    if (!isInt(x!)) throw new Fail(`got ${typeOf(x!)}, want int`);
    const n = Number(x);
    if (n < 0) throw new Fail(`Unicode code point ${n} out of range (<0)`);
    if (n > 0x10ffff) throw new Fail(`Unicode code point U+${n.toString(16).toUpperCase()} out of range (>0x10FFFF)`);
    return encodeRune(n);
  },
  dict: (_t, args, kw) => {
    const d = new Dict();
    updateDict(d, args, kw, '');
    return d;
  },
  dir: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    const m = methodsOf(x!);
    if (m) return new List([...m.keys()].sort());
    if (hasAttrs(x!)) return new List(x.attrNames());
    return new List([]);
  },
  enumerate: (_t, args, kw) => {
    const [x, start] = unpackArgs(args, kw, ['x', 'start?']);
    let i = start === undefined ? 0 : Number(start as Int);
    return new List(Array.from(iterableOf(x!, ''), (e) => new Tuple([i++, e])));
  },
  fail: (_t, args, kw) => {
    let sep = ' ';
    for (const [k, v] of kw ?? []) {
      if (k === 'sep') sep = str(v);
      else throw new Fail(`unexpected keyword argument ${k}`);
    }
    throw new Fail(args.map(str).join(sep));
  },
  float: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x?']);
    return new Float(x === undefined ? 0 : toFloat(x));
  },
  getattr: (_t, args, kw) => {
    const [x, name, dflt] = unpackArgs(args, kw, ['x', 'name', 'default?']);
    if (typeof name !== 'string') throw new Fail(`got ${typeOf(name!)}, want string`);
    try {
      return getAttr(x!, name);
    } catch (e) {
      if (dflt !== undefined && e instanceof Fail) return dflt;
      throw e;
    }
  },
  hasattr: (_t, args, kw) => {
    const [x, name] = unpackArgs(args, kw, ['x', 'name']);
    if (typeof name !== 'string') throw new Fail(`got ${typeOf(name!)}, want string`);
    const m = methodsOf(x!);
    if (m) return m.has(name);
    return hasAttrs(x!) && x.attr(name) !== undefined;
  },
  hash: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    if (typeof x === 'string') {
      // Java's String.hashCode (over UTF-16 code units), as starlark-go does
      const u = decodeUtf8(x);
      let h = 0;
      for (let i = 0; i < u.length; i++) h = (Math.imul(h, 31) + u.charCodeAt(i)) | 0;
      return h;
    }
    if (x instanceof Bytes) {
      // 32-bit FNV-1a
      let h = 0x811c9dc5;
      for (let i = 0; i < x.b.length; i++) h = Math.imul(h ^ x.b.charCodeAt(i), 0x01000193);
      return h >>> 0;
    }
    throw new Fail(`got ${typeOf(x!)}, want string or bytes`);
  },
  int: (_t, args, kw) => {
    const [x, base] = unpackArgs(args, kw, ['x', 'base?']);
    return toInt(x!, base);
  },
  len: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    const n = lengthOf(x!);
    if (n === undefined) throw new Fail(`value of type ${typeOf(x!)} has no len`);
    return n;
  },
  list: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x?']);
    return new List(x === undefined ? [] : Array.from(iterableOf(x, '')));
  },
  max: minMax('max', 1),
  min: minMax('min', -1),
  ord: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['c']);
    if (typeof x === 'string') {
      if (x.length === 0) throw new Fail('string encodes 0 Unicode code points, want 1');
      const [cp, n] = decodeRune(x, 0);
      if (n !== x.length) throw new Fail(`string encodes ${codepointCount(x)} Unicode code points, want 1`);
      return cp < 0 ? 0xfffd : cp;
    }
    if (x instanceof Bytes) {
      if (x.b.length !== 1) throw new Fail(`bytes has length ${x.b.length}, want 1`);
      return x.b.charCodeAt(0);
    }
    throw new Fail(`got ${typeOf(x!)}, want string or bytes`);
  },
  print: (t, args, kw) => {
    let sep = ' ';
    for (const [k, v] of kw ?? []) {
      if (k === 'sep') sep = str(v);
      else throw new Fail(`unexpected keyword argument ${k}`);
    }
    t.print(args.map(str).join(sep));
    return null;
  },
  range: (_t, args, kw) => {
    noKwargs(kw);
    const params = args.length === 1 ? ['stop'] : ['start', 'stop', 'step'];
    const nums = args.map((a, i) => {
      if (!isInt(a)) throw new Fail(`got ${typeOf(a)}, want int`);
      if (a < -(2 ** 31) || a >= 2 ** 31) throw new Fail(`for parameter ${params[i]}: ${a} out of range (want value in signed 32-bit range)`);
      return Number(a);
    });
    if (nums.length === 0 || nums.length > 3) throw new Fail(`got ${nums.length} arguments, want 1-3`);
    const [start, stop, step] = nums.length === 1 ? [0, nums[0]!, 1] : [nums[0]!, nums[1]!, nums[2] ?? 1];
    if (step === 0) throw new Fail('step argument must not be zero');
    return new Range(start, stop, step);
  },
  repr: (_t, args, kw) => repr(unpackArgs(args, kw, ['x'])[0]!),
  reversed: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['sequence']);
    return new List(toArray(x!, '').reverse());
  },
  set: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x?']);
    const s = new StarlarkSet();
    if (x !== undefined) for (const e of iterableOf(x, '')) s.set(e, null);
    return s;
  },
  sorted: (t, args, kw) => {
    const [x, key, reverse] = unpackArgs(args, kw, ['iterable', 'key?', 'reverse?']);
    return new List(sortValues(t, toArray(x!, 'for parameter iterable: '), key, truth(reverse ?? false)));
  },
  str: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    if (x instanceof Bytes) return decodeLossy(x.b);
    return str(x!);
  },
  tuple: (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x?']);
    if (x instanceof Tuple) return x;
    return new Tuple(x === undefined ? [] : Array.from(iterableOf(x, '')));
  },
  type: (_t, args, kw) => typeOf(unpackArgs(args, kw, ['x'])[0]!),
  zip: (_t, args, kw) => {
    noKwargs(kw);
    const arrays = args.map((a, i) => {
      const it = iterate(a);
      if (it === undefined) throw new Fail(`argument #${i + 1} is not iterable: ${typeOf(a)}`);
      return Array.from(it);
    });
    const n = arrays.length ? Math.min(...arrays.map((a) => a.length)) : 0;
    const out: Value[] = [];
    for (let i = 0; i < n; i++) out.push(new Tuple(arrays.map((a) => a[i]!)));
    return new List(out);
  },
};

/** str(bytes): invalid UTF-8 sequences become U+FFFD. */
function decodeLossy(b: string): string {
  let out = '';
  for (let i = 0; i < b.length; ) {
    const [cp, n] = decodeRune(b, i);
    out += cp < 0 ? encodeRune(0xfffd) : b.slice(i, i + n);
    i += n;
  }
  return out;
}

/** The universe: every builtin function plus None, True and False. */
export function universe(): Map<string, Value> {
  const m = new Map<string, Value>([['None', null], ['True', true], ['False', false]]);
  for (const [k, f] of Object.entries(impls)) m.set(k, new Builtin(k, f));
  return m;
}
