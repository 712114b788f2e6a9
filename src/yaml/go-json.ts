/**
 * JSON exactly as Go's `encoding/json.Marshal` prints a decoded YAML value.
 *
 * kustomize hashes generated ConfigMaps and Secrets over `json.Marshal` output (see
 * `api/hasher`), so the bytes must match Go's, not `JSON.stringify`'s: map keys sorted by their
 * UTF-8 bytes, no spaces, `<` `>` `&` U+2028 U+2029 escaped as `\u003c`…, other control
 * characters as `\b` `\f` `\n` `\r` `\t` or `\u00XX`, invalid UTF-16 as `\ufffd`, and floats
 * in Go's ES6-like format.
 */
import { KustomizeError } from '../errors.js';
import { INT64_MIN, UINT64_MAX } from './go-number.js';
import type { Value } from './value.js';

export function goJson(value: Value): string {
  const parts: string[] = [];
  write(value, parts, undefined);
  return parts.join('');
}

/**
 * {@link goJson} as Go's `json.MarshalIndent(v, "", "  ")` prints it: each entry on a line of
 * its own, two spaces deeper than its container, `": "` after keys; `{}` and `[]` when empty.
 */
export function goJsonIndented(value: Value): string {
  const parts: string[] = [];
  write(value, parts, '\n');
  return parts.join('');
}

/** Writes `v`; `line` is the line break and indentation of its own level when indenting. */
function write(v: Value, out: string[], line: string | undefined): void {
  if (v === null) out.push('null');
  else if (typeof v === 'string') out.push(goJsonString(v));
  else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
  else if (typeof v === 'number' || typeof v === 'bigint') out.push(goJsonNumber(v));
  else if (Array.isArray(v)) {
    const inner = line === undefined ? undefined : `${line}  `;
    out.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(',');
      if (inner !== undefined) out.push(inner);
      write(v[i]!, out, inner);
    }
    if (v.length > 0 && line !== undefined) out.push(line);
    out.push(']');
  } else {
    const keys = Object.keys(v).sort(compareUtf8);
    const inner = line === undefined ? undefined : `${line}  `;
    out.push('{');
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) out.push(',');
      if (inner !== undefined) out.push(inner);
      out.push(goJsonString(keys[i]!), inner === undefined ? ':' : ': ');
      write(v[keys[i]!]!, out, inner);
    }
    if (keys.length > 0 && line !== undefined) out.push(line);
    out.push('}');
  }
}

/**
 * Orders strings by their UTF-8 bytes (Go compares map keys as byte strings), which is code
 * point order. Plain `<` compares UTF-16 units and puts U+10000.. before U+E000..U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (which encode code points above U+FFFF) after U+E000..U+FFFF. */
function utf8Rank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/**
 * A number as Go's encoder prints it: integers (int64/uint64, here also bigint) as digits;
 * floats in the shortest form, exponent notation below 1e-6 or from 1e21 up with a
 * one-digit-minimum exponent — which is exactly JavaScript's number-to-string.
 */
function goJsonNumber(n: number | bigint): string {
  if (typeof n === 'bigint') {
    // beyond 64 bits yaml.v3 would have decoded a float64
    return n >= INT64_MIN && n <= UINT64_MAX ? n.toString() : String(Number(n));
  }
  return String(jsonEncodable(n));
}

/** n, when Go's JSON encoder can write it: an infinity or a NaN (`.inf`, `.nan` in YAML) fails kustomize's output, which goes through JSON. */
export function jsonEncodable<N extends number | bigint>(n: N): N {
  if (typeof n === 'number' && !Number.isFinite(n)) {
    const shown = Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
    throw new KustomizeError('RESOURCE_INVALID', `json: unsupported value: ${shown}`);
  }
  return n;
}

const NEEDS_ESCAPE = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;

const SHORT_ESCAPES: Record<number, string> = {
  0x22: '\\"',
  0x5c: '\\\\',
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
};

/** A string quoted and escaped as Go's `encoding/json` does with HTML escaping on. */
export function goJsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let escaped: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
      escaped = SHORT_ESCAPES[c] ?? `\\u${c.toString(16).padStart(4, '0')}`;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && isLowSurrogate(s.charCodeAt(i + 1))) {
      i++; // a well-formed pair: printed as is
      continue;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      escaped = '\\ufffd'; // Go writes invalid UTF-8 as this escape
    } else {
      continue;
    }
    out += s.slice(start, i) + escaped;
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
