/**
 * Characters as go-yaml v2's emitter classifies and counts them: the classes of
 * yamlprivateh.go, columns counted in characters (code points), and lengths in UTF-8 bytes
 * where go-yaml limits a key's size. Every function takes code points or UTF-16 positions
 * directly so the per-character loops that call them allocate nothing.
 */

/** Characters the emitter may print unescaped: LF, ASCII printables, and most of the BMP. */
export function isPrintable(c: number): boolean {
  return (
    c === 0x0a ||
    (c >= 0x20 && c <= 0x7e) ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff)
  );
}

export function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}

export function isBlankOrBreakOrNul(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x00 || isBreak(c);
}

/** Code point at `i` of a string whose lone surrogates were already replaced. */
export function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
  }
  return c;
}

const LOW_SURROGATE = /[\udc00-\udfff]/;

/** Number of code points in `s[start, end)`: the emitter counts columns in characters. */
export function columns(s: string, start: number, end: number): number {
  let n = end - start;
  // most text has no surrogate pairs: tested natively first (a slice shares the text)
  if (!LOW_SURROGATE.test(start === 0 && end === s.length ? s : s.slice(start, end))) return n;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
  }
  return n;
}

export function utf8Length(s: string): number {
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
