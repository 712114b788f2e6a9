import { base64Decode } from '../encoding/base64.js';
import { INT64_MAX, INT64_MIN, UINT64_MAX } from './go-number.js';
import { daysInMonth } from './go-timestamp.js';
import {
  FALSE_WORDS,
  INFINITY_WORDS,
  NAN_WORDS,
  NEGATIVE_INFINITY_WORDS,
  NULL_WORDS,
  TRUE_WORDS,
  YAML11_FALSE_WORDS,
  YAML11_TRUE_WORDS,
  YAML_STYLE_FLOAT,
} from './resolve-table.js';
import type { Scalar } from './value.js';

/**
 * yaml.v3's resolution of plain (unquoted, untagged) scalars, which is what kustomize applies
 * to every resource it reads. It is neither YAML 1.1 nor the 1.2 core schema: `yes`/`on` stay
 * strings, but `0123` is octal and `2001-12-14` is a timestamp.
 */
export function resolvePlainScalar(text: string): Scalar {
  const fixed = FIXED.get(text);
  if (fixed !== undefined) return fixed.value;
  const c = text.charCodeAt(0);
  if (c === DOT) {
    const f = parseGoFloat(text);
    return f === undefined ? text : f;
  }
  const isDigit = c >= ZERO && c <= NINE;
  if (!isDigit && c !== PLUS && c !== MINUS) return text;
  if (isDigit) {
    const ts = parseTimestamp(text);
    if (ts !== undefined) return ts;
  }
  return parseNumber(text.replaceAll('_', '')) ?? text;
}

const YAML11_BOOLS = new Map<string, boolean>();
for (const s of YAML11_TRUE_WORDS) YAML11_BOOLS.set(s, true);
for (const s of YAML11_FALSE_WORDS) YAML11_BOOLS.set(s, false);

/** go-yaml v2's resolution (YAML 1.1 booleans; timestamps stay strings when decoded untyped). */
export function resolvePlainScalar11(text: string): Scalar {
  const b = YAML11_BOOLS.get(text);
  if (b !== undefined) return b;
  const c = text.charCodeAt(0);
  if (c >= ZERO && c <= NINE && TIMESTAMP.test(text)) return text;
  return resolvePlainScalar(text);
}

/** A scalar with an explicit standard tag (`!!str 1`, `!!int "5"`); other tags are ignored, as v3 does for interface{}. */
export function resolveTaggedScalar(tag: string, text: string, fail: (reason: string) => never): Scalar {
  switch (tag) {
    case 'tag:yaml.org,2002:str':
      return text;
    case 'tag:yaml.org,2002:binary':
      return new TextDecoder().decode(base64Decode(text.replace(/\s+/g, '')) ?? fail(`illegal base64 data in !!binary`));
    case 'tag:yaml.org,2002:null':
      return null;
    case 'tag:yaml.org,2002:bool': {
      const v = FIXED.get(text);
      if (v?.kind !== 'bool') fail(`cannot decode !!str \`${text}\` as a !!bool`);
      return v.value;
    }
    case 'tag:yaml.org,2002:int': {
      const v = parseNumber(text.replaceAll('_', ''));
      if (v === undefined || !Number.isInteger(v as number) && typeof v !== 'bigint') fail(`cannot decode !!str \`${text}\` as a !!int`);
      return v;
    }
    case 'tag:yaml.org,2002:float': {
      const fixed = FIXED.get(text);
      if (fixed?.kind === 'float') return fixed.value;
      const v = parseNumber(text.replaceAll('_', '')) ?? parseGoFloat(text);
      if (v === undefined) fail(`cannot decode !!str \`${text}\` as a !!float`);
      return typeof v === 'bigint' ? Number(v) : v;
    }
    case 'tag:yaml.org,2002:timestamp':
      return parseTimestamp(text) ?? fail(`cannot decode !!str \`${text}\` as a !!timestamp`);
    default:
      return resolvePlainScalar(text);
  }
}

const DOT = 0x2e;
const PLUS = 0x2b;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

type Fixed = { kind: 'bool' | 'null' | 'float'; value: Scalar };
const FIXED = new Map<string, Fixed>();
for (const s of TRUE_WORDS) FIXED.set(s, { kind: 'bool', value: true });
for (const s of FALSE_WORDS) FIXED.set(s, { kind: 'bool', value: false });
for (const s of NULL_WORDS) FIXED.set(s, { kind: 'null', value: null });
for (const s of NAN_WORDS) FIXED.set(s, { kind: 'float', value: NaN });
for (const s of INFINITY_WORDS) FIXED.set(s, { kind: 'float', value: Infinity });
for (const s of NEGATIVE_INFINITY_WORDS) FIXED.set(s, { kind: 'float', value: -Infinity });

const INT_PATTERNS: [RegExp, number][] = [
  [/^([-+]?)0[xX]([0-9a-fA-F]+)$/, 16],
  [/^([-+]?)0[oO]([0-7]+)$/, 8],
  [/^([-+]?)0[bB]([01]+)$/, 2],
  [/^([-+]?)0([0-7]+)$/, 8],
  [/^([-+]?)([0-9]+)$/, 10],
];
/**
 * An integer as Go's strconv.ParseInt/ParseUint with base 0 reads it, else a YAML-style float.
 *
 * Not go-number.ts's exact `strconv` parsers (which decide the printer's quoting): this reading
 * is close to yaml.v3's but not identical for a few unusual texts (`0b-1` and `0o-7` stay
 * strings, v3 reads -1 and -7; a decimal with a leading zero and 8 or 9 in it is read as a
 * decimal integer, v3 reads a float, which differs beyond 2^53; an out-of-range float such as
 * `1e400` becomes Infinity, v3 keeps the string). Sharing the parser would change what those
 * inputs read as, so that is left to a change of its own with tests against kustomize.
 */
function parseNumber(plain: string): number | bigint | undefined {
  for (const [re, radix] of INT_PATTERNS) {
    const m = re.exec(plain);
    if (!m) continue;
    const magnitude = radix === 10 ? BigInt(m[2]!) : BigInt((radix === 16 ? '0x' : radix === 8 ? '0o' : '0b') + m[2]!);
    const v = m[1] === '-' ? -magnitude : magnitude;
    if (v < INT64_MIN || v > UINT64_MAX || (v > INT64_MAX && m[1] === '+')) break;
    return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  }
  return YAML_STYLE_FLOAT.test(plain) ? Number(plain) : undefined;
}

/** strconv.ParseFloat for the `.`-led scalars v3 tries: `.5`, `.5e3`. */
function parseGoFloat(text: string): number | undefined {
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) ? Number(text) : undefined;
}

/**
 * The timestamps go-yaml reads, with their parts captured for normalising. go-yaml's check is
 * the same in v2 and v3, and go-timestamp.ts follows it exactly for the printer; this pattern
 * differs from Go's `time.Parse` at the edges (one space only before the time, `.` only before
 * the fraction, any two-digit zone offset). Switching to the exact check would change how such
 * inputs read, so it is kept apart (see parseNumber).
 */
const TIMESTAMP = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * The timestamps v3 accepts (its four Go layouts), returned the way Go's JSON encoding prints
 * a time.Time (RFC 3339 with trailing zeros of the fraction dropped, `Z` for offset 0).
 */
function parseTimestamp(text: string): string | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, sep, h, mi, s, frac, zone] = m;
  const year = Number(y), month = Number(mo), day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const date = `${y}-${pad2(month)}-${pad2(day)}`;
  if (sep === undefined) return `${date}T00:00:00Z`;
  if ((sep === ' ') !== (zone === undefined)) return undefined;
  const hour = Number(h), minute = Number(mi), second = Number(s);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = (frac ?? '').slice(0, 9).replace(/0+$/, '');
  const offset = zone === undefined || zone === 'Z' || zone.slice(1) === '00:00' ? 'Z' : zone;
  return `${date}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}${fraction ? '.' + fraction : ''}${offset}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
