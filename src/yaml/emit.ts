/**
 * Prints one resource the way kustomize does, byte for byte.
 *
 * kustomize prints a resource by encoding it as JSON and handing that to
 * `sigs.k8s.io/yaml.JSONToYAML`, which reads the JSON with go-yaml v2 and marshals the result
 * with go-yaml v2 again. What comes out is therefore decided by three things, each reproduced
 * here from observation of kustomize (see `test/yaml/emit.test.ts`) and from reading go-yaml v2:
 *
 *  - the encoder (`encode.go`): map keys in go-yaml's natural order, a string's preferred style
 *    (literal block when it has a newline, double quotes when the plain text would read back
 *    as something other than a string under YAML 1.1 rules, plain otherwise), numbers as Go
 *    prints them;
 *  - the emitter (`emitterc.go`): which styles a given text allows (plain → single quotes →
 *    double quotes), indentation (2, sequences not indented under their key), line folding at a
 *    space once a line has passed column 80, escapes;
 *  - the JSON round trip: numbers come back from JSON as int64, uint64 or float64, so an
 *    integral float prints as an integer and other floats in Go's shortest `%g` form.
 *
 * The emitter below keeps go-yaml's output state (column, "after whitespace", "in
 * indentation") because its decisions depend on exactly that state, but it walks the value
 * recursively instead of running an event state machine.
 */
import { KustomizeError } from '../errors.js';
import { compareUtf8, goJsonString } from './go-json.js';
import type { Value, YMap } from './value.js';

/** go-yaml's `best_width`: lines are folded at a space once the column has passed it. */
const BEST_WIDTH = 80;
/** go-yaml's `best_indent`. */
const BEST_INDENT = 2;
/** A key longer than this many UTF-8 bytes is written in the explicit `? key` form. */
const MAX_SIMPLE_KEY_BYTES = 128;

/** Prints one document exactly as kustomize prints one resource (no `---`, ends with a newline). */
export function emitYaml(value: Value): string {
  const emitter = new Emitter();
  emitter.node(value, -1, false);
  // Document end: go-yaml finishes the last line unless a block scalar already did.
  emitter.writeIndent(-1);
  return emitter.out;
}

// ---------------------------------------------------------------------------------------------
// Numbers

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * A number as kustomize prints it. Go reads it back from JSON as int64 if it fits, else as
 * uint64, else as float64; floats print with `strconv.FormatFloat(f, 'g', -1, 64)`.
 */
export function formatNumber(n: number | bigint): string {
  if (typeof n === 'bigint') {
    if (n >= INT64_MIN && n <= UINT64_MAX) return n.toString();
    // yaml.v3 decodes integers that fit no 64-bit type as float64
    return formatGoFloat(Number(n));
  }
  if (Number.isInteger(n)) {
    if (Math.abs(n) <= Number.MAX_SAFE_INTEGER) return n === 0 ? '0' : String(n);
    // integral floats in range become int64/uint64 after the JSON round trip; BigInt is exact
    if (n >= -(2 ** 63) && n < 2 ** 64) return BigInt(n).toString();
  }
  return formatGoFloat(n);
}

/**
 * Go's `strconv.FormatFloat(f, 'g', -1, 64)`: shortest round-trip digits; exponent form when
 * the decimal exponent is below -4 or at least 6 (Go uses 6 as the precision for this choice
 * when printing the shortest form), with at least two exponent digits.
 */
function formatGoFloat(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (f === Infinity) return '.inf';
  if (f === -Infinity) return '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const sign = f < 0 ? '-' : '';
  // toExponential() without digits gives the shortest digits that round-trip, like Go
  const [mantissa, expText] = Math.abs(f).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intLen = exp + 1;
  if (digits.length <= intLen) return sign + digits + '0'.repeat(intLen - digits.length);
  return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
}

// ---------------------------------------------------------------------------------------------
// Key order: go-yaml v2's `keyList.Less` (sorter.go) for string keys

/**
 * go-yaml's "natural" key order. Compared rune by rune; at the first difference: two letters
 * compare by code point; a letter sorts after a non-letter; otherwise runs of digits starting
 * there compare by numeric value, then by run length, then by code point. A proper prefix
 * sorts first. Exported so other parts that must order keys like kustomize's output can.
 */
export function compareYamlKeys(a: string, b: string): number {
  if (a === b) return 0;
  const ar = toRunes(a);
  const br = toRunes(b);
  const n = Math.min(ar.length, br.length);
  for (let i = 0; i < n; i++) {
    const ac = runeAt(ar, i);
    const bc = runeAt(br, i);
    if (ac === bc) continue;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac - bc;
    if (al) return 1;
    if (bl) return -1;
    return compareDigitRuns(ar, br, i, ac, bc);
  }
  return ar.length - br.length;
}

/** A string's runes: the string itself when it has no surrogate pairs, else its code points. */
type Runes = string | number[];

function toRunes(s: string): Runes {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return Array.from(s, (ch) => ch.codePointAt(0)!);
  }
  return s;
}

function runeAt(r: Runes, i: number): number {
  return typeof r === 'string' ? r.charCodeAt(i) : r[i]!;
}

function isLetter(c: number): boolean {
  if (c < 0x80) return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return /\p{L}/u.test(String.fromCodePoint(c));
}

function isDigitRune(c: number): boolean {
  if (c < 0x80) return c >= 0x30 && c <= 0x39;
  return /\p{Nd}/u.test(String.fromCodePoint(c));
}

/**
 * The non-letter branch of `keyList.Less`, kept faithful to Go's int64 arithmetic (including
 * its quirk of seeding both values with 1 when a `0` continues a digit run that already had a
 * non-zero digit, and wrapping on overflow).
 */
function compareDigitRuns(ar: Runes, br: Runes, i: number, ac: number, bc: number): number {
  let seed = 0;
  if (ac === 0x30 || bc === 0x30) {
    for (let j = i - 1; j >= 0 && isDigitRune(runeAt(ar, j)); j--) {
      if (runeAt(ar, j) !== 0x30) {
        seed = 1;
        break;
      }
    }
  }
  const [an, ai] = digitRun(ar, i, seed);
  const [bn, bi] = digitRun(br, i, seed);
  if (typeof an !== typeof bn) {
    const [x, y] = [BigInt(an), BigInt(bn)];
    if (x !== y) return x < y ? -1 : 1;
  } else if (an !== bn) return an < bn ? -1 : 1;
  if (ai !== bi) return ai - bi;
  return ac - bc;
}

/** Value (as Go's wrapping int64) and end of the digit run starting at `start`. */
function digitRun(r: Runes, start: number, seed: number): [bigint | number, number] {
  let end = start;
  while (end < r.length && isDigitRune(runeAt(r, end))) end++;
  // short runs stay exact in a double (non-ASCII digits add up to ~130000 each)
  if (end - start <= 10) {
    let v = seed;
    for (let k = start; k < end; k++) v = v * 10 + (runeAt(r, k) - 0x30);
    return [v, end];
  }
  let v = BigInt(seed);
  for (let k = start; k < end; k++) v = BigInt.asIntN(64, v * 10n + BigInt(runeAt(r, k) - 0x30));
  return [v, end];
}

/**
 * The keys of a map in go-yaml order.
 *
 * `keyList.Less` is not transitive for some key sets (`v1`, `v10`, `v1alpha1`, `v2beta1` form a
 * cycle); kustomize's own output then depends on Go's random map iteration order. For small
 * maps Go iterates a rotation of the order the keys were inserted in, which is the JSON (byte)
 * order, and `sort.Sort` on up to 12 elements is an insertion sort: doing the same from byte
 * order prints one of the orders kustomize prints. Larger maps are random in Go anyway.
 */
function sortedKeys(m: YMap): string[] {
  const keys = Object.keys(m);
  if (keys.length > 12) return keys.sort(compareYamlKeys);
  keys.sort(compareUtf8);
  for (let i = 1; i < keys.length; i++) {
    for (let j = i; j > 0 && compareYamlKeys(keys[j]!, keys[j - 1]!) < 0; j--) {
      const t = keys[j]!;
      keys[j] = keys[j - 1]!;
      keys[j - 1] = t;
    }
  }
  return keys;
}

// ---------------------------------------------------------------------------------------------
// Characters, as go-yaml's emitter classifies them (yamlprivateh.go)

/** Characters the emitter may print unescaped: LF, ASCII printables, and most of the BMP. */
function isPrintable(c: number): boolean {
  return (
    c === 0x0a ||
    (c >= 0x20 && c <= 0x7e) ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff)
  );
}

function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}

function isBlankOrBreakOrNul(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x00 || isBreak(c);
}

/** Code point at `i` of a string whose lone surrogates were already replaced. */
function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
  }
  return c;
}

/** Number of code points in `s[start, end)`: the emitter counts columns in characters. */
function columns(s: string, start: number, end: number): number {
  let n = end - start;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
  }
  return n;
}

function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    // a surrogate pair is 4 bytes for its 2 units; a lone surrogate encodes as 3 (U+FFFD)
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// What the JSON round trip does to text before go-yaml prints it

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Characters Go's JSON encoder leaves raw that go-yaml's reader then treats specially. */
const RAW_SPECIAL = /[\x7f-\x9f\ufffe\uffff]/;
/** go-yaml's reader rejects these outright. */
const REJECTED_RAW = /[\x7f-\x84\x86-\x9f\ufffe\uffff]/;
const NEL = '\u0085';
/** go-yaml v2 gives up on a simple key whose text runs past this many characters. */
const MAX_JSON_KEY_CHARS = 1024;

/**
 * A string as go-yaml v2 reads it back from the JSON kustomize feeds it: invalid UTF-16 became
 * U+FFFD in Go's encoder; DEL, C1 controls and U+FFFE/U+FFFF fail the read; and a raw NEL
 * (U+0085, the only line break Go leaves unescaped) is a line break inside a double-quoted
 * scalar, so it folds with the spaces around it.
 */
function readBack(s: string): string {
  let t = s;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      t = t.replace(LONE_SURROGATE, '\ufffd');
      break;
    }
  }
  if (!RAW_SPECIAL.test(t)) return t;
  if (REJECTED_RAW.test(t)) throw yamlError('control characters are not allowed');
  return foldNextLines(t);
}

/** A map key read back; keys also must stay on one line and be short enough in JSON form. */
function readBackKey(key: string): string {
  const k = readBack(key);
  const nels = countNel(key);
  if (nels > 0 || jsonKeyChars(key) > MAX_JSON_KEY_CHARS) {
    // a parser error: go-yaml names the 0-based line, and only when it is not the first
    throw yamlError("did not find expected ',' or '}'", nels);
  }
  return k;
}

/** Length in characters of the key as Go's JSON encoder writes it, quotes included. */
function jsonKeyChars(key: string): number {
  if (key.length * 6 + 2 <= MAX_JSON_KEY_CHARS) return 0; // cannot be too long
  const quoted = goJsonString(key);
  return columns(quoted, 0, quoted.length);
}

/**
 * YAML line folding inside a double-quoted scalar, where the only breaks are NELs: a run of
 * spaces holding one NEL becomes a space, one holding n NELs becomes n-1 newlines. A NEL right
 * before `---` or `...` and a blank reads as a document marker, which go-yaml rejects.
 */
function foldNextLines(s: string): string {
  const n = s.length;
  let out = '';
  let i = 0;
  while (i < n) {
    let j = i;
    while (j < n && s[j] !== ' ' && s[j] !== NEL) j++;
    out += s.slice(i, j);
    let k = j;
    let breaks = 0;
    while (k < n && (s[k] === ' ' || s[k] === NEL)) {
      if (s[k] === NEL) breaks++;
      k++;
    }
    if (breaks === 0) out += s.slice(j, k);
    else {
      if (s[k - 1] === NEL && /^(?:---|\.\.\.)[ \u0085]/.test(s.slice(k, k + 4))) {
        // a scanner error: go-yaml names the 1-based line (lines counted from this text only)
        throw yamlError('found unexpected document indicator', countNel(s.slice(0, k)) + 1);
      }
      out += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
    }
    i = k;
  }
  return out;
}

function countNel(s: string): number {
  let n = 0;
  for (let i = s.indexOf(NEL); i >= 0; i = s.indexOf(NEL, i + 1)) n++;
  return n;
}

/**
 * kustomize fails where go-yaml cannot read its own JSON back; the message is go-yaml's.
 * (kustomize prefixes it with a Go dump of the resource, which is not reproduced.)
 */
function yamlError(problem: string, line = 0): KustomizeError {
  return new KustomizeError('YAML_INVALID', `yaml: ${line > 0 ? `line ${line}: ` : ''}${problem}`);
}

// ---------------------------------------------------------------------------------------------
// Which styles a text allows (emitterc.go `yaml_emitter_analyze_scalar`)

interface ScalarAnalysis {
  /** contains a line break: cannot be a simple key, cannot be plain */
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

const EMPTY_ANALYSIS: ScalarAnalysis = {
  multiline: false,
  blockPlainAllowed: true,
  singleQuotedAllowed: true,
  blockAllowed: false,
};

/** Text made only of characters that are never special where they stand: allows anything. */
const SIMPLE_TEXT = /^[A-Za-z0-9_./=+(][A-Za-z0-9_./=+()@%-]*$/;

const SIMPLE_ANALYSIS: ScalarAnalysis = {
  multiline: false,
  blockPlainAllowed: true,
  singleQuotedAllowed: true,
  blockAllowed: true,
};

/**
 * What go-yaml's emitter would allow for this text in block context. (Flow context never
 * holds a scalar in kustomize output: only empty `{}` and `[]` are written in flow style.)
 */
function analyzeScalar(s: string): ScalarAnalysis {
  const n = s.length;
  if (n === 0) return EMPTY_ANALYSIS;
  if (SIMPLE_TEXT.test(s) && !s.startsWith('...')) return SIMPLE_ANALYSIS;
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;

  for (let i = 0; i < n; ) {
    const c = codePointAt(s, i);
    const w = c > 0xffff ? 2 : 1;
    const next = i + w < n ? s.charCodeAt(i + w) : -1;
    const followedByWhitespace = next === -1 || next === 0x20 || next === 0x09;

    if (i === 0) {
      switch (c) {
        case 0x23: case 0x2c: case 0x5b: case 0x5d: case 0x7b: case 0x7d: // # , [ ] { }
        case 0x26: case 0x2a: case 0x21: case 0x7c: case 0x3e: case 0x27: // & * ! | > '
        case 0x22: case 0x25: case 0x40: case 0x60: // " % @ `
          blockIndicators = true;
          break;
        case 0x3f: case 0x3a: case 0x2d: // ? : -
          if (followedByWhitespace) blockIndicators = true;
          break;
      }
    } else if (c === 0x3a) {
      if (followedByWhitespace) blockIndicators = true;
    } else if (c === 0x23) {
      if (precededByWhitespace) blockIndicators = true;
    }

    if (!isPrintable(c)) special = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i + w === n) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i + w === n) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankOrBreakOrNul(c);
    i += w;
  }

  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || blockIndicators) {
    blockPlainAllowed = false;
  }
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

// ---------------------------------------------------------------------------------------------
// Would the plain text read back as a non-string? (go-yaml v2 `resolve` + `isBase60Float`)

/** Plain words YAML 1.1 reads as booleans, nulls, special floats, or the merge key. */
const RESOLVED_WORDS = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
  '<<',
]);

/** go-yaml v2's float syntax, checked after integers fail. */
const YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** YAML 1.1 base-60 numbers (`1:20`), quoted on output for older parsers. */
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/**
 * True when go-yaml v2 would print the string quoted because, unquoted, it would resolve to a
 * bool, null, int, float, timestamp or merge key, or is a base-60 number.
 */
function resolvesToNonString(s: string): boolean {
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
  if (YAML_FLOAT.test(plain) && Number.isFinite(Number(plain))) return true;
  if (plain.startsWith('0b')) {
    // Go's ParseInt takes a sign after the prefix here: `0b-1` is an int
    const rest = plain.slice(2);
    return isGoInt64(rest, 2) || goParseUint(rest, 2) !== undefined;
  }
  if (plain.startsWith('-0b')) return isGoInt64('-' + plain.slice(3), 2);
  return false;
}

/**
 * Go's `strconv.ParseUint(s, base, 64)`: the value, or undefined where Go reports an error.
 * Base 0 reads a `0x`, `0o`, `0b` or (octal) `0` prefix.
 */
function goParseUint(s: string, base: number): number | bigint | undefined {
  if (s.length === 0) return undefined;
  let b = base;
  let i = 0;
  if (base === 0) {
    b = 10;
    if (s[0] === '0') {
      const p = s.length >= 3 ? s[1]!.toLowerCase() : '';
      [b, i] = p === 'b' ? [2, 2] : p === 'o' ? [8, 2] : p === 'x' ? [16, 2] : [8, 1];
    }
  }
  if (s.length - i <= 13) {
    // at most 52 bits: exact in a double
    let n = 0;
    for (; i < s.length; i++) {
      const d = digitValue(s.charCodeAt(i));
      if (d >= b) return undefined;
      n = n * b + d;
    }
    return n;
  }
  const bigBase = BigInt(b);
  let n = 0n;
  for (; i < s.length; i++) {
    const d = digitValue(s.charCodeAt(i));
    if (d >= b) return undefined;
    n = n * bigBase + BigInt(d);
    if (n > UINT64_MAX) return undefined;
  }
  return n;
}

/** Whether Go's `strconv.ParseInt(s, base, 64)` succeeds. */
function isGoInt64(s: string, base: number): boolean {
  if (s.length === 0) return false;
  const neg = s[0] === '-';
  const u = goParseUint(neg || s[0] === '+' ? s.slice(1) : s, base);
  return u !== undefined && u <= (neg ? 2n ** 63n : 2n ** 63n - 1n);
}

/** Digit value in bases up to 36, or 99 for anything else. */
function digitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x7a) return l - 0x61 + 10;
  return 99;
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

/**
 * go-yaml v2 `parseTimestamp`: four digits and `-`, then Go's `time.Parse` with one of
 * `2006-1-2T15:4:5.999999999Z07:00`, the same with `t`, `2006-1-2 15:4:5.999999999`, or
 * `2006-1-2`.
 */
function isGoTimestamp(s: string): boolean {
  let i = 0;
  while (i < s.length && isAsciiDigit(s.charCodeAt(i))) i++;
  if (i !== 4 || s[4] !== '-') return false;
  const date = new TimeCursor(s, 4);
  if (!date.literal('-')) return false;
  const month = date.number();
  if (month < 1 || month > 12 || !date.literal('-')) return false;
  const day = date.number();
  if (day < 1 || day > daysIn(month, Number(s.slice(0, 4)))) return false;
  if (date.atEnd()) return true; // 2006-1-2
  const sep = s[date.pos];
  if (sep === 'T' || sep === 't') {
    date.pos++;
    return date.clock() && date.zone() && date.atEnd();
  }
  if (sep === ' ') {
    while (s[date.pos] === ' ') date.pos++; // Go's layout space matches a run of spaces
    return date.clock() && date.atEnd();
  }
  return false;
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A reading position in a timestamp, with the pieces of Go's `time.Parse` we need. */
class TimeCursor {
  constructor(
    readonly s: string,
    public pos: number,
  ) {}

  atEnd(): boolean {
    return this.pos === this.s.length;
  }

  literal(ch: string): boolean {
    if (this.s[this.pos] !== ch) return false;
    this.pos++;
    return true;
  }

  /** Go's `getnum(s, false)`: one or two digits; -1 when there is none. */
  number(): number {
    const a = this.s.charCodeAt(this.pos);
    if (!isAsciiDigit(a)) return -1;
    const b = this.s.charCodeAt(this.pos + 1);
    if (!isAsciiDigit(b)) {
      this.pos += 1;
      return a - 0x30;
    }
    this.pos += 2;
    return (a - 0x30) * 10 + (b - 0x30);
  }

  /** `15:4:5` then an optional `.999999999` (Go also takes a comma). */
  clock(): boolean {
    const hour = this.number();
    if (hour < 0 || hour >= 24 || !this.literal(':')) return false;
    const minute = this.number();
    if (minute < 0 || minute >= 60 || !this.literal(':')) return false;
    const second = this.number();
    if (second < 0 || second >= 60) return false;
    const c = this.s[this.pos];
    if ((c === '.' || c === ',') && isAsciiDigit(this.s.charCodeAt(this.pos + 1))) {
      this.pos += 2;
      while (isAsciiDigit(this.s.charCodeAt(this.pos))) this.pos++;
    }
    return true;
  }

  /** `Z07:00`: `Z`, or a sign and `hh:mm` with hours up to 24 and minutes up to 60. */
  zone(): boolean {
    const s = this.s;
    if (s[this.pos] === 'Z') {
      this.pos++;
      return true;
    }
    if (s.length - this.pos < 6 || s[this.pos + 3] !== ':') return false;
    const sign = s[this.pos];
    const digits = [1, 2, 4, 5].map((k) => s.charCodeAt(this.pos + k));
    if ((sign !== '+' && sign !== '-') || !digits.every(isAsciiDigit)) return false;
    const [h1, h2, m1, m2] = digits.map((d) => d - 0x30) as [number, number, number, number];
    if (h1 * 10 + h2 > 24 || m1 * 10 + m2 > 60) return false;
    this.pos += 6;
    return true;
  }
}

// ---------------------------------------------------------------------------------------------
// Scalar style (encode.go `stringv` + emitterc.go `yaml_emitter_select_scalar_style`)

const enum Style {
  Plain,
  SingleQuoted,
  DoubleQuoted,
  Literal,
}

function stringStyle(s: string, a: ScalarAnalysis, simpleKey: boolean): Style {
  // what the encoder asks for
  let style = s.includes('\n') ? Style.Literal : resolvesToNonString(s) ? Style.DoubleQuoted : Style.Plain;
  // what the emitter lets it have
  if (simpleKey && a.multiline) style = Style.DoubleQuoted;
  if (style === Style.Plain && !a.blockPlainAllowed) style = Style.SingleQuoted;
  if (style === Style.SingleQuoted && !a.singleQuotedAllowed) style = Style.DoubleQuoted;
  if (style === Style.Literal && (!a.blockAllowed || simpleKey)) style = Style.DoubleQuoted;
  return style;
}

// ---------------------------------------------------------------------------------------------
// The emitter

/** Escape letters go-yaml uses in double-quoted scalars (others are `\x`, `\u`, `\U` hex). */
const NAMED_ESCAPES = new Map<number, string>([
  [0x00, '0'], [0x07, 'a'], [0x08, 'b'], [0x09, 't'], [0x0a, 'n'], [0x0b, 'v'], [0x0c, 'f'],
  [0x0d, 'r'], [0x1b, 'e'], [0x22, '"'], [0x5c, '\\'], [0x85, 'N'], [0xa0, '_'],
  [0x2028, 'L'], [0x2029, 'P'],
]);

function escapeFor(c: number): string {
  const named = NAMED_ESCAPES.get(c);
  if (named !== undefined) return '\\' + named;
  const hex = c.toString(16).toUpperCase();
  if (c <= 0xff) return '\\x' + hex.padStart(2, '0');
  if (c <= 0xffff) return '\\u' + hex.padStart(4, '0');
  return '\\U' + hex.padStart(8, '0');
}

class Emitter {
  out = '';
  /** column of the next character, counted in characters */
  private column = 0;
  /** the last thing written was whitespace (or nothing): no separating space needed */
  private whitespace = true;
  /** only indentation has been written on the current line so far */
  private indention = true;

  // -- nodes ----------------------------------------------------------------------------------

  /**
   * Writes a node whose parent collection sits at `indent` (-1 for the document root);
   * `isMapValue` when it is the value of a mapping entry.
   */
  node(v: Value, indent: number, isMapValue: boolean): void {
    if (v === null) this.atom('null');
    else if (typeof v === 'string') this.string(v, indent);
    else if (typeof v === 'number' || typeof v === 'bigint') this.atom(formatNumber(v));
    else if (typeof v === 'boolean') this.atom(v ? 'true' : 'false');
    else if (Array.isArray(v)) {
      if (v.length === 0) this.emptyFlow('[', ']');
      else this.blockSequence(v, indent, isMapValue);
    } else {
      const keys = sortedKeys(v);
      if (keys.length === 0) this.emptyFlow('{', '}');
      else this.blockMapping(v, keys, indent);
    }
  }

  private blockMapping(m: YMap, keys: string[], indent: number): void {
    const mapIndent = indent < 0 ? 0 : indent + BEST_INDENT;
    for (const rawKey of keys) {
      const key = readBackKey(rawKey);
      this.writeIndent(mapIndent);
      const a = analyzeScalar(key);
      if (!a.multiline && utf8Length(key) <= MAX_SIMPLE_KEY_BYTES) {
        this.scalar(key, a, mapIndent, true);
        this.writeIndicator(':', false, false, false);
      } else {
        // explicit key: `? key` on its own line(s), then `: value`
        this.writeIndicator('?', true, false, true);
        this.scalar(key, a, mapIndent, false);
        this.writeIndent(mapIndent);
        this.writeIndicator(':', true, false, true);
      }
      this.node(m[rawKey]!, mapIndent, true);
    }
  }

  private blockSequence(items: Value[], indent: number, isMapValue: boolean): void {
    // A sequence that is a mapping value starting right after `key:` is not indented further.
    const indentless = isMapValue && !this.indention;
    const seqIndent = indent < 0 ? 0 : indentless ? indent : indent + BEST_INDENT;
    for (const item of items) {
      this.writeIndent(seqIndent);
      this.writeIndicator('-', true, false, true);
      this.node(item, seqIndent, false);
    }
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.writeIndicator(close, false, false, false);
  }

  /** A number, boolean or null: always plain, never containing a space. */
  private atom(text: string): void {
    if (!this.whitespace) this.put(' ', 1);
    this.put(text, text.length);
    this.whitespace = false;
    this.indention = false;
  }

  private string(raw: string, indent: number): void {
    const s = readBack(raw);
    this.scalar(s, analyzeScalar(s), indent, false);
  }

  private scalar(s: string, a: ScalarAnalysis, indent: number, simpleKey: boolean): void {
    // a scalar's continuation lines are indented one step past its parent
    const scalarIndent = indent < 0 ? BEST_INDENT : indent + BEST_INDENT;
    const allowBreaks = !simpleKey;
    switch (stringStyle(s, a, simpleKey)) {
      case Style.Plain:
        return this.writePlain(s, scalarIndent, allowBreaks);
      case Style.SingleQuoted:
        return this.writeSingleQuoted(s, scalarIndent, allowBreaks);
      case Style.DoubleQuoted:
        return this.writeDoubleQuoted(s, scalarIndent, allowBreaks);
      case Style.Literal:
        return this.writeLiteral(s, scalarIndent);
    }
  }

  // -- scalar writers -------------------------------------------------------------------------
  // Folding rule shared by the flow styles: at a single space, once the column has passed
  // BEST_WIDTH, the space becomes a line break plus indentation.

  private writePlain(s: string, indent: number, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ', 1);
    const n = s.length;
    if (!allowBreaks || !s.includes(' ') || this.column + n <= BEST_WIDTH + 1) {
      this.put(s, columns(s, 0, n));
    } else {
      // plain text never has line breaks or leading/trailing spaces (analysis forbids them)
      let spaces = false;
      for (let i = 0; i < n; ) {
        if (s.charCodeAt(i) === 0x20) {
          if (!spaces && this.column > BEST_WIDTH && s.charCodeAt(i + 1) !== 0x20) this.writeIndent(indent);
          else this.put(' ', 1);
          spaces = true;
          i++;
        } else {
          let j = i + 1;
          while (j < n && s.charCodeAt(j) !== 0x20) j++;
          this.put(s.slice(i, j), columns(s, i, j));
          this.indention = false;
          spaces = false;
          i = j;
        }
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingleQuoted(s: string, indent: number, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    const n = s.length;
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < n; ) {
      const c = s.charCodeAt(i);
      if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < n - 1 && s.charCodeAt(i + 1) !== 0x20) {
          this.writeIndent(indent);
        } else {
          this.put(' ', 1);
        }
        spaces = true;
        i++;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
        i++;
      } else {
        if (breaks) this.writeIndent(indent);
        let j = i + 1;
        while (j < n && s.charCodeAt(j) !== 0x20 && !isBreak(s.charCodeAt(j))) j++;
        const run = s.slice(i, j);
        const quotes = run.includes("'") ? run.split("'").length - 1 : 0;
        this.put(quotes ? run.replace(/'/g, "''") : run, columns(s, i, j) + quotes);
        this.indention = false;
        spaces = false;
        breaks = false;
        i = j;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDoubleQuoted(s: string, indent: number, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    // go-yaml's BOM test looks at the start of the text, not the current character, so a
    // text starting with U+FEFF gets every character escaped
    const escapeAll = s.charCodeAt(0) === 0xfeff;
    const n = s.length;
    let spaces = false;
    for (let i = 0; i < n; ) {
      const c = codePointAt(s, i);
      const w = c > 0xffff ? 2 : 1;
      if (escapeAll || !isPrintable(c) || isBreak(c) || c === 0x22 || c === 0x5c) {
        const e = escapeFor(c);
        this.put(e, e.length);
        spaces = false;
        i += w;
      } else if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < n - 1) {
          this.writeIndent(indent);
          // a following space would be eaten by folding: keep it with an escape
          if (s.charCodeAt(i + 1) === 0x20) this.put('\\', 1);
        } else {
          this.put(' ', 1);
        }
        spaces = true;
        i++;
      } else {
        let j = i + w;
        while (j < n) {
          const d = codePointAt(s, j);
          if (d === 0x20 || !isPrintable(d) || isBreak(d) || d === 0x22 || d === 0x5c) break;
          j += d > 0xffff ? 2 : 1;
        }
        this.put(s.slice(i, j), columns(s, i, j));
        spaces = false;
        i = j;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(s: string, indent: number): void {
    this.writeIndicator('|', true, false, false);
    const first = s.charCodeAt(0);
    // an indentation indicator is needed when the first line starts with a space or is empty
    if (first === 0x20 || isBreak(first)) this.writeIndicator(String(BEST_INDENT), false, false, false);
    const chomp = literalChomping(s);
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    const n = s.length;
    for (let i = 0; i < n; ) {
      const c = s.charCodeAt(i);
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
        i++;
      } else {
        if (breaks) this.writeIndent(indent);
        let j = i + 1;
        while (j < n && !isBreak(s.charCodeAt(j))) j++;
        this.put(s.slice(i, j), columns(s, i, j));
        this.indention = false;
        breaks = false;
        i = j;
      }
    }
  }

  // -- output primitives (emitterc.go write_indent / write_indicator / put_break) -------------

  private put(text: string, cols: number): void {
    this.out += text;
    this.column += cols;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
    this.indention = true;
  }

  /** A line break from the text itself: `\n` is normalised, others are copied. */
  private writeBreak(c: number): void {
    if (c === 0x0a) {
      this.putBreak();
      return;
    }
    this.out += String.fromCharCode(c);
    this.column = 0;
    this.indention = true;
  }

  /** Starts a new line at `indent` unless the current line holds only indentation up to it. */
  writeIndent(indent: number): void {
    const ind = indent < 0 ? 0 : indent;
    if (!this.indention || this.column > ind || (this.column === ind && !this.whitespace)) this.putBreak();
    if (this.column < ind) this.put(' '.repeat(ind - this.column), ind - this.column);
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ', 1);
    this.put(indicator, indicator.length);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }
}

/** Literal block chomping: `-` without a final break, `+` to keep more than one, else none. */
function literalChomping(s: string): string {
  const n = s.length;
  if (!isBreak(s.charCodeAt(n - 1))) return '-';
  if (n === 1 || isBreak(s.charCodeAt(n - 2))) return '+';
  return '';
}
