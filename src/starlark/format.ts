/**
 * Turning values into text: str, repr (starlark-go's spelling), float formatting, and the
 * `%` operator on strings.
 */
import { Builtin, Callable } from './function.js';
import { decodeRune, encodeRune } from './text.js';
import { Bytes, Dict, Fail, Float, HashTable, List, Range, StarlarkObject, StarlarkSet, Tuple, floatToInt, hasAttrs, isInt, typeOf, type Value } from './value.js';
import { toBig, type Int } from './int.js';

export function str(v: Value): string {
  return typeof v === 'string' ? v : repr(v);
}

export function repr(v: Value, seen: Set<object> = new Set()): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean': return v ? 'True' : 'False';
    case 'number': return String(v);
    case 'bigint': return v.toString();
    case 'string': return quote(v, false);
  }
  if (v instanceof Float) return formatFloat(v.v, 'g');
  if (v instanceof Bytes) return 'b' + quote(v.b, true);
  if (seen.has(v)) return v instanceof List ? '[...]' : v instanceof Dict ? '{...}' : '...';
  if (v instanceof List) {
    seen.add(v);
    const s = '[' + v.elems.map((e) => repr(e, seen)).join(', ') + ']';
    seen.delete(v);
    return s;
  }
  if (v instanceof Tuple) {
    const inner = v.elems.map((e) => repr(e, seen)).join(', ');
    return v.elems.length === 1 ? `(${inner},)` : `(${inner})`;
  }
  if (v instanceof StarlarkSet) {
    seen.add(v);
    const s = 'set([' + v.keys().map((e) => repr(e, seen)).join(', ') + '])';
    seen.delete(v);
    return s;
  }
  if (v instanceof HashTable) {
    seen.add(v);
    const parts: string[] = [];
    for (const e of v.entries()) parts.push(`${repr(e.k, seen)}: ${repr(e.v, seen)}`);
    seen.delete(v);
    return '{' + parts.join(', ') + '}';
  }
  if (v instanceof Range) {
    if (v.step !== 1) return `range(${v.start}, ${v.stop}, ${v.step})`;
    return v.start !== 0 ? `range(${v.start}, ${v.stop})` : `range(${v.stop})`;
  }
  const custom = (v as { repr?: (seen: Set<object>) => string }).repr;
  if (custom) {
    seen.add(v);
    const s = custom.call(v, seen);
    seen.delete(v);
    return s;
  }
  if (v instanceof Builtin && v.recv !== null) return `<built-in method ${v.name} of ${typeOf(v.recv)} value>`;
  if (v instanceof Callable) {
    return v.typeName === 'function' ? `<function ${v.name}>` : `<built-in function ${v.name}>`;
  }
  if (hasAttrs(v)) return `<${v.typeName}>`;
  return `<${(v as StarlarkObject).typeName}>`;
}

/** A Go-style quoted string: printable runes as themselves, others escaped. */
export function quote(s: string, isBytes: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      i++;
      switch (c) {
        case 0x07: out += '\\a'; continue;
        case 0x08: out += '\\b'; continue;
        case 0x0c: out += '\\f'; continue;
        case 0x0a: out += '\\n'; continue;
        case 0x0d: out += '\\r'; continue;
        case 0x09: out += '\\t'; continue;
        case 0x0b: out += '\\v'; continue;
        case 0x22: out += '\\"'; continue;
        case 0x5c: out += '\\\\'; continue;
      }
      out += c < 0x20 || c === 0x7f ? '\\x' + c.toString(16).padStart(2, '0') : String.fromCharCode(c);
      continue;
    }
    const [cp, n] = decodeRune(s, i);
    if (cp < 0) {
      out += '\\x' + c.toString(16).padStart(2, '0');
      i++;
      continue;
    }
    if (isPrintable(cp)) out += s.slice(i, i + n);
    else out += cp > 0xffff ? '\\U' + cp.toString(16).padStart(8, '0') : '\\u' + cp.toString(16).padStart(4, '0');
    i += n;
    void isBytes;
  }
  return out + '"';
}

function isPrintable(cp: number): boolean {
  if (cp >= 0x80 && cp < 0xa0) return false;
  if (cp === 0xad || (cp >= 0x2028 && cp <= 0x2029) || cp === 0xfeff) return false;
  return !/\p{C}|\p{Zl}|\p{Zp}/u.test(String.fromCodePoint(cp)) || cp === 0x20;
}

/** Go's strconv.FormatFloat(x, conv, prec) for conv g/e/f, with starlark's `.0` for `g`. */
export function formatFloat(x: number, conv: 'g' | 'e' | 'f' | 'G' | 'E' | 'F', prec = -1): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? '+inf' : '-inf';
  const lower = conv.toLowerCase();
  let s: string;
  // toFixed prints 1e21 and above in exponent form; those are integers, so print them exactly
  if (lower === 'f') s = Math.abs(x) >= 1e21 ? `${BigInt(x)}.${'0'.repeat(prec < 0 ? 6 : prec)}` : x.toFixed(prec < 0 ? 6 : prec);
  else if (lower === 'e') s = goExp(prec < 0 ? x.toExponential() : x.toExponential(prec));
  else {
    // Go's shortest %g: exponent form when the exponent is < -4 or >= 6
    const e = x.toExponential();
    const exp = Number(e.split('e')[1]);
    if (exp < -4 || exp >= (prec < 0 ? 6 : prec)) s = goExp(e);
    else s = prec < 0 ? plainDecimal(x) : x.toPrecision(prec);
    if (prec < 0 && !s.includes('.') && !s.includes('e')) s += '.0';
  }
  // JS drops the sign of a negative number that rounds to zero (and of -0)
  if ((x < 0 || Object.is(x, -0)) && !s.startsWith('-')) s = '-' + s;
  if (conv === 'G' || conv === 'E' || conv === 'F') s = s.toUpperCase();
  return s;
}

function plainDecimal(x: number): string {
  if (Object.is(x, -0)) return '-0';
  const s = String(x);
  if (!s.includes('e')) return s;
  // small magnitudes that JS prints with an exponent (>= 1e-7 handled by caller's choice)
  return x.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

/** JS exponent notation to Go's: at least two exponent digits, explicit sign. */
function goExp(s: string): string {
  const [m, e] = s.split('e') as [string, string];
  const sign = e.startsWith('-') ? '-' : '+';
  const digits = e.replace(/^[+-]/, '');
  return `${m}e${sign}${digits.padStart(2, '0')}`;
}

// ---------------------------------------------------------------- the % operator

export function percentFormat(format: string, arg: Value): string {
  let args: readonly Value[];
  let dict: Value | undefined;
  if (arg instanceof Tuple) args = arg.elems;
  else {
    args = [arg];
    dict = arg;
  }
  let argi = 0;
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    i++;
    if (i >= format.length) throw new Fail('incomplete format');
    let key: string | undefined;
    if (format[i] === '(') {
      const j = format.indexOf(')', i);
      if (j < 0) throw new Fail('incomplete format key');
      key = format.slice(i + 1, j);
      i = j + 1;
    }
    const verb = format[i];
    if (verb === '%') {
      out += '%';
      continue;
    }
    let v: Value;
    if (key !== undefined) {
      if (!(dict instanceof HashTable)) throw new Fail('format requires a mapping');
      const got = dict.get(key);
      if (got === undefined) throw new Fail(`key ${repr(key)} not in dict`);
      v = got;
    } else {
      if (argi >= args.length) throw new Fail('not enough arguments for format string');
      v = args[argi++]!;
    }
    out += formatVerb(verb ?? '', v);
  }
  if (key0(args, argi, arg)) throw new Fail('too many arguments for format string');
  return out;
}

/** Arguments left over, unless the one argument is a mapping that %(key)s reads from. */
function key0(args: readonly Value[], used: number, arg: Value): boolean {
  return used < args.length && !(arg instanceof Dict);
}

function formatVerb(verb: string, v: Value): string {
  switch (verb) {
    case 's': return str(v);
    case 'r': return repr(v);
    case 'd':
    case 'i':
    case 'o':
    case 'x':
    case 'X': {
      let n: Int;
      if (typeof v === 'boolean') throw new Fail('cannot convert bool to int');
      if (isInt(v)) n = v;
      else if (v instanceof Float) {
        n = floatToInt(v.v);
      } else throw new Fail(`%${verb} format requires integer: ${typeOf(v)}`);
      const b = toBig(n);
      const radix = verb === 'o' ? 8 : verb === 'x' || verb === 'X' ? 16 : 10;
      const s = b.toString(radix);
      return verb === 'X' ? s.toUpperCase() : s;
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      let x: number;
      if (v instanceof Float) x = v.v;
      else if (isInt(v)) x = Number(v);
      else throw new Fail(`%${verb} format requires float, not ${typeOf(v)}`);
      return formatFloat(x, verb, verb === 'g' || verb === 'G' ? -1 : 6);
    }
    case 'c': {
      if (typeof v === 'string') {
        const [, n] = v.length ? decodeRune(v, 0) : [0, 0];
        if (v.length === 0 || n !== v.length) throw new Fail(`%c format requires a single-character string`);
        return v;
      }
      if (isInt(v)) {
        const cp = Number(v);
        if (cp < 0 || cp > 0x10ffff) throw new Fail(`%c format requires a valid Unicode code point, got ${cp}`);
        return encodeRune(cp);
      }
      throw new Fail(`%c format requires int or single-character string, not ${typeOf(v)}`);
    }
  }
  if (verb === '') throw new Fail('incomplete format');
  throw new Fail(`unknown conversion %${verb}`);
}

