/**
 * Letter case of byte strings (UTF-8 text), rune by rune as Go's unicode package maps it:
 * simple one-rune mappings, and title case for the digraph letters (ǅ ǈ ǋ ǲ). ASCII-only
 * strings take a fast path.
 */
import { decodeUtf8, encodeUtf8 } from './text.js';

const ASCII = /^[\x00-\x7f]*$/;

/** One rune's simple case mapping: JS's full mapping when that gives one rune, else the rune itself. */
function simple(c: string, to: 'upper' | 'lower'): string {
  const m = to === 'upper' ? c.toUpperCase() : c.toLowerCase();
  return m.length === c.length || [...m].length === 1 ? m : c;
}

/** The title-case letters: the middle one of each digraph triple (upper, title, lower). */
const DIGRAPHS = [0x1c4, 0x1c7, 0x1ca, 0x1f1];

function toTitle(c: string): string {
  const cp = c.codePointAt(0)!;
  const base = DIGRAPHS.find((b) => cp >= b && cp <= b + 2);
  return base === undefined ? simple(c, 'upper') : String.fromCodePoint(base + 1);
}

const isUpperRune = (c: string): boolean => /\p{Lu}/u.test(c);
const isLowerRune = (c: string): boolean => /\p{Ll}/u.test(c);
const isTitleRune = (c: string): boolean => /\p{Lt}/u.test(c);
const isCasedRune = (c: string): boolean => isUpperRune(c) || isLowerRune(c) || isTitleRune(c);

function mapRunes(s: string, f: (c: string, i: number, prev: string | undefined) => string): string {
  let out = '';
  let i = 0;
  let prev: string | undefined;
  for (const c of decodeUtf8(s)) {
    const m = f(c, i++, prev);
    out += m;
    prev = m;
  }
  return encodeUtf8(out);
}

export function upper(s: string): string {
  return ASCII.test(s) ? s.toUpperCase() : mapRunes(s, (c) => simple(c, 'upper'));
}

export function lower(s: string): string {
  return ASCII.test(s) ? s.toLowerCase() : mapRunes(s, (c) => simple(c, 'lower'));
}

/** Each run of cased letters starts in title case and goes on in lower case. */
export function title(s: string): string {
  return mapRunes(s, (c, _i, prev) => (prev !== undefined && isCasedRune(prev) ? simple(c, 'lower') : toTitle(c)));
}

export function capitalize(s: string): string {
  return mapRunes(s, (c, i) => (i === 0 ? toTitle(c) : simple(c, 'lower')));
}

function hasCased(s: string): boolean {
  for (const c of decodeUtf8(s)) if (isCasedRune(c)) return true;
  return false;
}

export const isUpper = (s: string): boolean => hasCased(s) && upper(s) === s;
export const isLower = (s: string): boolean => hasCased(s) && lower(s) === s;

/**
 * Each word starts with a letter in title case (an upper case letter that is its own title
 * form, or a title case digraph), and goes on in lower case.
 */
export function isTitle(s: string): boolean {
  let cased = false;
  let prevCased = false;
  for (const c of decodeUtf8(s)) {
    if (isUpperRune(c) && toTitle(c) !== c) return false;
    if (isUpperRune(c) || isTitleRune(c)) {
      if (prevCased) return false;
      prevCased = cased = true;
    } else if (isLowerRune(c)) {
      if (!prevCased) return false;
      prevCased = cased = true;
    } else prevCased = false;
  }
  return cased;
}

export const isAlpha = (s: string): boolean => /^\p{L}+$/u.test(decodeUtf8(s));
export const isAlnum = (s: string): boolean => /^[\p{L}\p{Nd}]+$/u.test(decodeUtf8(s));
export const isSpace = (s: string): boolean => /^\s+$/u.test(decodeUtf8(s));
