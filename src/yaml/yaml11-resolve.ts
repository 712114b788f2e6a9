/**
 * Whether go-yaml v2 would read a plain text back as something other than a string: its
 * `resolve` (resolve.go) under YAML 1.1 rules, plus the base-60 numbers its encoder also quotes
 * (`isBase60Float`). The printer double-quotes exactly these strings, so every branch follows
 * Go: `strconv.ParseInt`/`ParseUint`/`ParseFloat` semantics, range errors, `time.Parse`.
 *
 * yaml.v3's resolution of input (resolve.ts) starts from the same table but differs on
 * purpose: no YAML 1.1 booleans, no base-60, and it computes values rather than a yes/no.
 */
import { goParseUint, isGoInt64 } from './go-number.js';
import { isGoTimestamp } from './go-timestamp.js';
import {
  FALSE_WORDS,
  INFINITY_WORDS,
  MERGE_WORD,
  NAN_WORDS,
  NEGATIVE_INFINITY_WORDS,
  NULL_WORDS,
  TRUE_WORDS,
  YAML11_FALSE_WORDS,
  YAML11_TRUE_WORDS,
  YAML_STYLE_FLOAT,
} from './resolve-table.js';

/** Plain words YAML 1.1 reads as booleans, nulls, special floats, or the merge key. */
const RESOLVED_WORDS = new Set([
  ...TRUE_WORDS, ...FALSE_WORDS, ...YAML11_TRUE_WORDS, ...YAML11_FALSE_WORDS,
  ...NULL_WORDS, ...NAN_WORDS, ...INFINITY_WORDS, ...NEGATIVE_INFINITY_WORDS, MERGE_WORD,
]);

/** YAML 1.1 base-60 numbers (`1:20`), quoted on output for older parsers. */
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/**
 * True when go-yaml v2 would print the string quoted because, unquoted, it would resolve to a
 * bool, null, int, float, timestamp or merge key, or is a base-60 number.
 */
export function resolvesToNonString(s: string): boolean {
  if (s.length === 0) return true;
  const c = s.charCodeAt(0);
  const sign = c === 0x2b || c === 0x2d;
  const digit = c >= 0x30 && c <= 0x39;
  const dot = c === 0x2e;
  // go-yaml only looks further at texts starting with a sign, digit, dot, or a letter that
  // starts one of the special words
  if (!sign && !digit && !dot && !'yYnNtTfFoO~'.includes(s[0]!)) return false;
  if (RESOLVED_WORDS.has(s)) return true;
  if (dot) return isGoDotFloat(s);
  if (!sign && !digit) return false;
  if (s.includes(':') && BASE60_FLOAT.test(s)) return true;
  if (digit && isGoTimestamp(s)) return true;
  return resolvesAsNumber(s.includes('_') ? s.replace(/_/g, '') : s);
}

/**
 * The sign/digit branch of go-yaml v2 `resolve` on the text with `_` removed: an int64, a
 * uint64, a float (that `strconv.ParseFloat` accepts: finite), or a `0b` binary. (The go-yaml
 * v2 fork kustomize uses has no big-integer fallback: `0x` + 20 digits stays a string.)
 */
function resolvesAsNumber(plain: string): boolean {
  if (isGoInt64(plain, 0) || goParseUint(plain, 0) !== undefined) return true;
  if (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain))) return true;
  if (plain.startsWith('0b')) {
    // Go's ParseInt takes a sign after the prefix here: `0b-1` is an int
    const rest = plain.slice(2);
    return isGoInt64(rest, 2) || goParseUint(rest, 2) !== undefined;
  }
  if (plain.startsWith('-0b')) return isGoInt64('-' + plain.slice(3), 2);
  return false;
}

/**
 * `strconv.ParseFloat` for texts starting with `.`: digits (at least one) with optional
 * exponent, `_` only between digits, and finite.
 */
function isGoDotFloat(s: string): boolean {
  const m = /^\.([0-9_]*)(?:[eE][-+]?[0-9][0-9_]*)?$/.exec(s);
  if (!m || !/[0-9]/.test(m[1]!)) return false;
  if (s.includes('_') && !underscoresBetweenDigits(s)) return false;
  return Number.isFinite(Number(s.replace(/_/g, '')));
}

/** Go's `underscoreOK` for a decimal number: every `_` sits between two digits. */
function underscoresBetweenDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '_') continue;
    const before = s.charCodeAt(i - 1);
    const after = s.charCodeAt(i + 1);
    if (!(before >= 0x30 && before <= 0x39) || !(after >= 0x30 && after <= 0x39)) return false;
  }
  return true;
}
