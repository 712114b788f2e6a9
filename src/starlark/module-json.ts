/** The `json` module: encode, decode, indent, encode_indent (starlark-go's lib/json). */
import { unpackArgs } from './args.js';
import { Builtin, Callable, type Thread } from './function.js';
import { formatFloat } from './format.js';
import { bigOrSmall } from './int.js';
import { Struct, Module } from './struct.js';
import { decodeUtf8, encodeUtf8 } from './text.js';
import { Dict, Fail, Float, HashTable, List, Tuple, isInt, iterate, typeOf, type Value } from './value.js';

function encodeString(s: string): string {
  // JSON-quote the text the bytes encode; invalid UTF-8 becomes U+FFFD
  return encodeUtf8(JSON.stringify(decodeUtf8(s)));
}

export function jsonEncode(thread: Thread, v: Value, path: string[] = [], seen = new Set<object>()): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (isInt(v)) return String(v);
  if (typeof v === 'string') return encodeString(v);
  if (v instanceof Float) {
    if (!Number.isFinite(v.v)) throw new Fail(`cannot encode non-finite float ${formatFloat(v.v, 'g')}`);
    return Number.isInteger(v.v) && Math.abs(v.v) < 1e21 ? String(v.v) + '' : formatFloat(v.v, 'g');
  }
  if (seen.has(v)) throw new Fail(`cycle in JSON structure`);
  if (v instanceof HashTable && !(v.typeName === 'set')) {
    seen.add(v);
    const entries = [...v.entries()];
    for (const e of entries) if (typeof e.k !== 'string') throw new Fail(`${pathText(path)}dict has ${typeOf(e.k)} key, want string`);
    entries.sort((a, b) => ((a.k as string) < (b.k as string) ? -1 : (a.k as string) > (b.k as string) ? 1 : 0));
    const parts = entries.map((e) => {
      try {
        return encodeString(e.k as string) + ':' + jsonEncode(thread, e.v, [], seen);
      } catch (err) {
        if (err instanceof Fail && !err.message.startsWith('in ')) throw new Fail(`in dict key ${JSON.stringify(e.k)}: ${err.message}`);
        throw err;
      }
    });
    seen.delete(v);
    return '{' + parts.join(',') + '}';
  }
  if (v instanceof List || v instanceof Tuple) {
    seen.add(v);
    const parts = v.elems.map((e, i) => {
      try {
        return jsonEncode(thread, e, [], seen);
      } catch (err) {
        if (err instanceof Fail && !err.message.startsWith('at ')) throw new Fail(`at ${v.typeName} index ${i}: ${err.message}`);
        throw err;
      }
    });
    seen.delete(v);
    return '[' + parts.join(',') + ']';
  }
  if (v instanceof Struct || v instanceof Module) {
    const names = v.attrNames();
    return '{' + names.map((k) => encodeString(k) + ':' + jsonEncode(thread, v.attr(k)!, [], seen)).join(',') + '}';
  }
  const it = v instanceof Callable ? undefined : iterate(v);
  if (it) return '[' + Array.from(it, (e) => jsonEncode(thread, e, [], seen)).join(',') + ']';
  throw new Fail(`cannot encode ${typeOf(v)} as JSON`);
}

function pathText(path: string[]): string {
  return path.length ? path.join('') + ': ' : '';
}

/** JSON text (as a byte string) to a Starlark value. */
export function jsonDecode(s: string): Value {
  let text: unknown;
  const src = decodeUtf8(s);
  try {
    text = JSON.parse(src, (_k, v, ctx?: { source?: string }) => (typeof v === 'number' && ctx?.source !== undefined ? { __num: ctx.source } : v));
  } catch (e) {
    throw new Fail(jsonErrorMessage(src, e));
  }
  return toStarlark(text);
}

function jsonErrorMessage(src: string, e: unknown): string {
  const m = /position (\d+)/.exec(String((e as Error).message));
  if (src.trim() === '') return 'unexpected end of file';
  if (m) {
    const pos = Number(m[1]);
    if (pos >= src.length) return 'unexpected end of file';
    return `unexpected character ${JSON.stringify(src[pos])} at offset ${pos}`;
  }
  return (e as Error).message;
}

function toStarlark(v: unknown): Value {
  if (v === null) return null;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return encodeUtf8(v);
  if (Array.isArray(v)) return new List(v.map(toStarlark));
  if (typeof v === 'object') {
    const num = (v as { __num?: string }).__num;
    if (typeof num === 'string' && Object.keys(v as object).length === 1) {
      if (/^-?\d+$/.test(num)) return bigOrSmall(BigInt(num));
      return new Float(Number(num));
    }
    const d = new Dict();
    for (const [k, x] of Object.entries(v as object)) d.set(encodeUtf8(k), toStarlark(x));
    return d;
  }
  if (typeof v === 'number') return Number.isInteger(v) ? v : new Float(v);
  throw new Fail('invalid JSON');
}

function indent(s: string, prefix: string, ind: string): string {
  const v = JSON.parse(decodeUtf8(s), (_k, x, ctx?: { source?: string }) => (typeof x === 'number' && ctx?.source !== undefined ? new RawNumber(ctx.source) : x));
  return encodeUtf8(pretty(v, prefix, ind, ''));
}

class RawNumber {
  constructor(readonly src: string) {}
}

function pretty(v: unknown, prefix: string, ind: string, cur: string): string {
  if (v instanceof RawNumber) return v.src;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const inner = cur + ind;
    return '[\n' + v.map((e) => prefix + inner + pretty(e, prefix, ind, inner)).join(',\n') + '\n' + prefix + cur + ']';
  }
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 0) return '{}';
    const inner = cur + ind;
    return '{\n' + keys.map((k) => prefix + inner + JSON.stringify(k) + ': ' + pretty((v as Record<string, unknown>)[k], prefix, ind, inner)).join(',\n') + '\n' + prefix + cur + '}';
  }
  return JSON.stringify(v);
}

export function jsonModule(): Module {
  const m = new Map<string, Value>();
  m.set('encode', new Builtin('json.encode', (t, args, kw) => jsonEncode(t, unpackArgs(args, kw, ['x'])[0]!)));
  m.set('decode', new Builtin('json.decode', (_t, args, kw) => {
    const [x, dflt] = unpackArgs(args, kw, ['x', 'default?']);
    if (typeof x !== 'string') throw new Fail(`got ${typeOf(x!)}, want string`);
    try {
      return jsonDecode(x);
    } catch (e) {
      if (dflt !== undefined && e instanceof Fail) return dflt;
      throw e;
    }
  }));
  m.set('indent', new Builtin('json.indent', (_t, args, kw) => {
    const [x, prefix, ind] = unpackArgs(args, kw, ['str', 'prefix?', 'indent?']);
    if (typeof x !== 'string') throw new Fail(`got ${typeOf(x!)}, want string`);
    try {
      return indent(x, (prefix as string) ?? '', (ind as string) ?? '\t');
    } catch (e) {
      if (e instanceof Fail) throw e;
      throw new Fail(jsonErrorMessage(decodeUtf8(x), e));
    }
  }));
  m.set('encode_indent', new Builtin('json.encode_indent', (t, args, kw) => {
    const [x, prefix, ind] = unpackArgs(args, kw, ['x', 'prefix?', 'indent?']);
    return indent(jsonEncode(t, x!), (prefix as string) ?? '', (ind as string) ?? '\t');
  }));
  return new Module('json', m);
}
