/** The `json` module: encode, decode, indent, encode_indent (starlark-go's lib/json). */
import { unpackArgs } from './args.js';
import { Builtin, Callable, LimitFail, type Thread } from './function.js';
import { formatFloat, quote } from './format.js';
import { bigOrSmall } from './int.js';
import { Struct, Module } from './struct.js';
import { decodeUtf8, encodeUtf8 } from './text.js';
import { Dict, Fail, Float, HashTable, List, Tuple, isInt, iterate, typeOf, type Value } from './value.js';

function encodeString(s: string): string {
  // JSON-quote the text the bytes encode; invalid UTF-8 becomes U+FFFD
  return encodeUtf8(JSON.stringify(decodeUtf8(s)));
}

function jsonEncode(thread: Thread, v: Value, path: string[] = [], seen = new Set<object>()): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (isInt(v)) return String(v);
  if (typeof v === 'string') return encodeString(v);
  if (v instanceof Float) {
    if (!Number.isFinite(v.v)) throw new Fail(`cannot encode non-finite float ${formatFloat(v.v, 'g')}`);
    // str(float) always has a '.' or an exponent, so the float stays a float when decoded
    return formatFloat(v.v, 'g');
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
        if (err instanceof Fail && !(err instanceof LimitFail)) throw new Fail(`in dict key ${quote(e.k as string, false)}: ${err.message}`);
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
        if (err instanceof Fail && !(err instanceof LimitFail)) throw new Fail(`at ${v.typeName} index ${i}: ${err.message}`);
        throw err;
      }
    });
    seen.delete(v);
    return '[' + parts.join(',') + ']';
  }
  if (v instanceof Struct || v instanceof Module) {
    const names = v.attrNames();
    return '{' + names.map((k) => {
      try {
        return encodeString(k) + ':' + jsonEncode(thread, v.attr(k)!, [], seen);
      } catch (err) {
        if (err instanceof Fail && !(err instanceof LimitFail)) throw new Fail(`in field .${k}: ${err.message}`);
        throw err;
      }
    }).join(',') + '}';
  }
  const it = v instanceof Callable ? undefined : iterate(v);
  if (it) return '[' + Array.from(it, (e) => jsonEncode(thread, e, [], seen)).join(',') + ']';
  throw new Fail(`cannot encode ${typeOf(v)} as JSON`);
}

function pathText(path: string[]): string {
  return path.length ? path.join('') + ': ' : '';
}

/** Go's %q of one byte: 'x', with \\ and \' escaped and other non-printables in hex. */
function quoteByte(c: string): string {
  if (c === "'" || c === '\\') return `'\\${c}'`;
  const n = c.charCodeAt(0);
  return n >= 0x20 && n < 0x7f ? `'${c}'` : `'\\x${n.toString(16).padStart(2, '0')}'`;
}

/** A failure while reading JSON text, at a byte offset. */
class JsonSyntax extends Fail {
  constructor(
    readonly offset: number,
    readonly what: string,
  ) {
    super(`at offset ${offset}, ${what}`);
  }
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** JSON text (as a byte string) to a Starlark value, with starlark-go's messages. */
function jsonDecode(s: string): Value {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonSyntax(i, what);
  };
  const skipSpace = (): boolean => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
    return i < s.length;
  };
  const next = (): string => (skipSpace() ? s[i]! : fail('unexpected end of file'));
  const parse = (): Value => {
    const c = next();
    switch (c) {
      case '"': {
        let j = i + 1;
        let plain = true;
        for (; j < s.length && s[j] !== '"'; j++) {
          if (s[j] === '\\') {
            plain = false;
            j++;
            if (j < s.length && !'"\\/bfnrtu'.includes(s[j]!)) fail(`invalid character ${quoteByte(s[j]!)} in string escape code`);
          } else if (s.charCodeAt(j) < 0x20) fail(`invalid character ${quoteByte(s[j]!)} in string literal`);
        }
        if (j >= s.length) fail('unclosed string literal');
        const lit = s.slice(i, j + 1);
        i = j + 1;
        if (plain) return lit.slice(1, -1);
        try {
          return encodeUtf8(JSON.parse(decodeUtf8(lit)) as string);
        } catch {
          return fail('invalid string literal');
        }
      }
      case '[': {
        const elems: Value[] = [];
        i++;
        if (next() !== ']') {
          for (;;) {
            elems.push(parse());
            const d = next();
            if (d === ']') break;
            if (d !== ',') fail(`got ${quoteByte(d)}, want ',' or ']'`);
            i++;
          }
        }
        i++;
        return new List(elems);
      }
      case '{': {
        const dict = new Dict();
        i++;
        if (next() !== '}') {
          for (;;) {
            const key = parse();
            if (typeof key !== 'string') fail(`got ${typeOf(key)} for object key, want string`);
            const colon = next();
            if (colon !== ':') fail(`after object key, got ${quoteByte(colon)}, want ':' `);
            i++;
            dict.set(key, parse());
            const d = next();
            if (d === '}') break;
            if (d !== ',') fail(`in object, got ${quoteByte(d)}, want ',' or '}'`);
            i++;
          }
        }
        i++;
        return dict;
      }
    }
    for (const [word, v] of [['null', null], ['true', true], ['false', false]] as const) {
      if (s.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    if (isDigit(c) || c === '-') {
      let j = i + 1;
      while (j < s.length && (isDigit(s[j]) || '.eE+-'.includes(s[j]!))) j++;
      const num = s.slice(i, j);
      i = j;
      const digits = num.startsWith('-') ? num.slice(1) : num;
      // JSON has no leading zeros; Go's ParseFloat accepts "1." and "1e5"
      if (!/^(0|[1-9][0-9]*)(\.[0-9]*)?([eE][+-]?[0-9]+)?$/.test(digits)) fail(`invalid number: ${num}`);
      if (/^-?[0-9]+$/.test(num)) return bigOrSmall(BigInt(num));
      return new Float(Number(num));
    }
    return fail(`unexpected character ${quoteByte(c)}`);
  };
  const v = parse();
  if (skipSpace()) fail(`unexpected character ${quoteByte(s[i]!)} after value`);
  return v;
}

/**
 * Go's json.Indent: the same tokens, one element a line, each line after the first starting
 * with prefix and one indent per level; empty arrays and objects stay "[]" and "{}".
 */
function indent(s: string, prefix: string, ind: string): string {
  try {
    jsonDecode(s);
  } catch (e) {
    if (!(e instanceof JsonSyntax)) throw e;
    throw new Fail(e.offset >= s.length ? 'unexpected end of JSON input' : `invalid character ${quoteByte(s[e.offset]!)} (${e.what})`);
  }
  let out = '';
  let depth = 0;
  const newline = (): string => '\n' + prefix + ind.repeat(depth);
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (c === '"') {
      let j = i + 1;
      while (s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      out += s.slice(i, j + 1);
      i = j;
    } else if (c === '[' || c === '{') {
      let j = i + 1;
      while (' \t\n\r'.includes(s[j]!)) j++;
      if (s[j] === (c === '[' ? ']' : '}')) {
        out += c + s[j];
        i = j;
      } else {
        depth++;
        out += c + newline();
      }
    } else if (c === ']' || c === '}') {
      depth--;
      out += newline() + c;
    } else if (c === ',') out += ',' + newline();
    else if (c === ':') out += ': ';
    else out += c;
  }
  return out;
}

function str(v: Value | undefined, dflt: string): string {
  if (v === undefined) return dflt;
  if (typeof v !== 'string') throw new Fail(`got ${typeOf(v)}, want string`);
  return v;
}

export function jsonModule(): Module {
  const m = new Map<string, Value>();
  m.set('encode', new Builtin('json.encode', (t, args, kw) => jsonEncode(t, unpackArgs(args, kw, ['x'])[0]!)));
  m.set('decode', new Builtin('json.decode', (_t, args, kw) => {
    const [x, dflt] = unpackArgs(args, kw, ['x', 'default?']);
    // x is positional-only
    if (args.length < 1) throw new Fail('unexpected keyword argument x');
    try {
      return jsonDecode(str(x, ''));
    } catch (e) {
      if (dflt !== undefined && e instanceof JsonSyntax) return dflt;
      throw e;
    }
  }));
  // the text is positional; prefix and indent are keyword-only
  const indented = (name: string, text: (t: Thread, x: Value) => string): Builtin => new Builtin(name, (t, args, kw) => {
    const [prefix, ind] = unpackArgs([], kw, ['prefix?', 'indent?']);
    if (args.length !== 1) throw new Fail(`got ${args.length} arguments, want 1`);
    return indent(text(t, args[0]!), str(prefix, ''), str(ind, '\t'));
  });
  m.set('indent', indented('json.indent', (_t, x) => str(x, '')));
  m.set('encode_indent', indented('json.encode_indent', jsonEncode));
  return new Module('json', m);
}
