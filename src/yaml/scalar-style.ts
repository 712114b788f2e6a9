/**
 * How a string is written: which styles go-yaml v2's emitter allows for a text
 * (emitterc.go `yaml_emitter_analyze_scalar`), and the style chosen from what the encoder asks
 * for (encode.go `stringv`: literal block for multi-line text, double quotes when the plain
 * text would resolve to a non-string, plain otherwise) and what the emitter then permits
 * (`yaml_emitter_select_scalar_style`: plain, else single quotes, else double quotes).
 */
import { codePointAt, isBlankOrBreakOrNul, isBreak, isPrintable } from './characters.js';
import { resolvesToNonString } from './yaml11-resolve.js';

export interface ScalarAnalysis {
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

/** Printable ASCII and line breaks only: no character is special to go-yaml's emitter. */
const ASCII_TEXT = /^[\x20-\x7e\n]*$/;
/** A first character that is no indicator (and no `-`, `?`, `:`, `.` or space, which may be, depending on what follows). */
const PROSE_START = /^[A-Za-z0-9_/=+(]/;

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
export function analyzeScalar(s: string): ScalarAnalysis {
  if (s.length === 0) return EMPTY_ANALYSIS;
  if (SIMPLE_TEXT.test(s) && !s.startsWith('...')) return SIMPLE_ANALYSIS;
  if (ASCII_TEXT.test(s)) {
    // the common texts, decided without a walk: a one-line sentence, and lines of ASCII text
    if (!s.includes('\n')) {
      if (PROSE_START.test(s) && s.charCodeAt(s.length - 1) !== 0x20 && !s.endsWith(':') && !s.includes(': ') && !s.includes(' #')) return SIMPLE_ANALYSIS;
    } else {
      const spaceBreak = s.includes(' \n');
      return { multiline: true, blockPlainAllowed: false, singleQuotedAllowed: !spaceBreak && !s.includes('\n '), blockAllowed: !spaceBreak && !s.endsWith(' ') };
    }
  }
  return analyzeByCharacter(s);
}

/** {@link analyzeScalar} for any text, character by character, as go-yaml does. */
export function analyzeByCharacter(s: string): ScalarAnalysis {
  const n = s.length;
  if (n === 0) return EMPTY_ANALYSIS;
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

export const enum Style {
  Plain,
  SingleQuoted,
  DoubleQuoted,
  Literal,
}

/** The style a string is written in; `simpleKey` when it is a key in the implicit `key:` form. */
export function stringStyle(s: string, a: ScalarAnalysis, simpleKey: boolean): Style {
  // what the encoder asks for
  let style = s.includes('\n') ? Style.Literal : resolvesToNonString(s) ? Style.DoubleQuoted : Style.Plain;
  // what the emitter lets it have
  if (simpleKey && a.multiline) style = Style.DoubleQuoted;
  if (style === Style.Plain && !a.blockPlainAllowed) style = Style.SingleQuoted;
  if (style === Style.SingleQuoted && !a.singleQuotedAllowed) style = Style.DoubleQuoted;
  if (style === Style.Literal && (!a.blockAllowed || simpleKey)) style = Style.DoubleQuoted;
  return style;
}

/** Whether the encoder writes a string (as the value of a key) quoted or as a literal block rather than plain. */
export function encodedWithStyle(s: string): boolean {
  return stringStyle(s, analyzeScalar(s), false) !== Style.Plain;
}
