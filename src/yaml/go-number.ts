/**
 * Numbers as Go writes and reads them in kustomize's output path.
 *
 * Writing: kustomize's printer hands numbers through JSON to go-yaml v2, which reads them back
 * as int64, uint64 or float64 and prints floats with `strconv.FormatFloat(f, 'g', -1, 64)`.
 * Reading: go-yaml v2's `resolve` decides whether a plain text is a number with
 * `strconv.ParseInt` / `strconv.ParseUint`, reproduced here exactly (errors included) because
 * the printer quotes a string precisely when Go would read it as a number.
 */

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const UINT64_MAX = 2n ** 64n - 1n;

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
    // integral floats in range go through Go's JSON as their shortest digits padded with zeros
    // (12345678901234567000, as JavaScript prints them too) and come back as int64/uint64
    if (n >= -(2 ** 63) && n < 2 ** 64) return String(n);
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

/**
 * Go's `strconv.ParseUint(s, base, 64)`: the value, or undefined where Go reports an error.
 * Base 0 reads a `0x`, `0o`, `0b` or (octal) `0` prefix. Underscores are not accepted: go-yaml
 * removes them before parsing.
 */
export function goParseUint(s: string, base: number): number | bigint | undefined {
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
export function isGoInt64(s: string, base: number): boolean {
  if (s.length === 0) return false;
  const neg = s[0] === '-';
  const u = goParseUint(neg || s[0] === '+' ? s.slice(1) : s, base);
  return u !== undefined && u <= (neg ? -INT64_MIN : INT64_MAX);
}

/** Digit value in bases up to 36, or 99 for anything else. */
function digitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x7a) return l - 0x61 + 10;
  return 99;
}
