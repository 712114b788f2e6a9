import { KustomizeError } from '../errors.js';
import { RE2JS } from 're2js';
import { boundedMemo } from '../memo/bounded-memo.js';

/**
 * A regular expression from a kustomization, compiled with Go's syntax and semantics (RE2): it
 * matches in time linear in the input, so no pattern can hang a build. kustomize compiles these
 * with Go's `regexp`; RE2JS (pure JavaScript, so it runs in browsers) has the same syntax, the
 * same limits (repeat counts, nesting, size) and the same error messages.
 */
export interface GoRegexp {
  /** whether the expression matches anywhere in `s` (Go's MatchString) */
  test(s: string): boolean;
}

/** Go's `regexp.Compile` failing: the message is Go's, with a long expression shortened. */
export class GoRegexpSyntaxError extends KustomizeError {
  constructor(message: string) {
    super('KUSTOMIZATION_INVALID', message);
  }
}

/** Expressions in error messages longer than this are cut (Go prints them whole, however long). */
const SHOWN_EXPRESSION_CHARS = 200;

/** Characters with a meaning in RE2's syntax; a pattern without any matches itself, literally. */
const METACHARACTERS = /[\\.+*?()|[\]{}^$]/;

/** Compiles `pattern`, wrapped as `^(?:pattern)$` when `anchor` (as kustomize's selectors do). */
export function compileGoRegexp(pattern: string, anchor: boolean): GoRegexp {
  return (anchor ? compiledAnchored : compiledAsIs)(pattern);
}

function compile(pattern: string, anchor: boolean): GoRegexp {
  const source = anchor ? `^(?:${pattern})$` : pattern;
  return isLiteral(pattern) ? literal(pattern, anchor) : anchor && isDotted(pattern) ? dotted(pattern, source) : compileRe2(source);
}

// the same selectors are compiled for every patch and every build
const compiledAnchored = boundedMemo(1_000, (pattern: string) => compile(pattern, true));
const compiledAsIs = boundedMemo(1_000, (pattern: string) => compile(pattern, false));

/** Whether `pattern` has no metacharacters: anchored, it matches exactly the string it is. */
export function isLiteral(pattern: string): boolean {
  return !METACHARACTERS.test(pattern);
}

/** A pattern without metacharacters: a string comparison, which is what RE2 would compute. */
function literal(text: string, anchor: boolean): GoRegexp {
  return anchor ? { test: (s) => s === text } : { test: (s) => s.includes(text) };
}

/** Whether `.` is the only metacharacter of `pattern` (`networking.istio.io`, `ghcr.io/org/app`). */
export function isDotted(pattern: string): boolean {
  return isLiteral(pattern.replaceAll('.', ''));
}

/** Whether `s` has characters beyond the BMP: each is one `.` for Go (a code point) but two UTF-16 units here. */
export function hasAstral(s: string): boolean {
  return ASTRAL.test(s);
}
const ASTRAL = /[\uD800-\uDFFF]/;

/** Whether a {@link isDotted} pattern matches `s` from `at` over the pattern's length, `.` matching any character but a line break (as RE2's); `s` without {@link hasAstral} characters. */
export function dottedMatchAt(pattern: string, s: string, at: number): boolean {
  if (s.length - at < pattern.length) return false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    const d = s.charCodeAt(at + i);
    if (c === DOT ? d === NEWLINE : d !== c) return false;
  }
  return true;
}
const DOT = 0x2e;
const NEWLINE = 0x0a;

/**
 * An anchored {@link isDotted} pattern, matched by hand: most selectors name a group
 * (`networking.istio.io`), and the regexp engine costs milliseconds to start.
 */
function dotted(pattern: string, source: string): GoRegexp {
  let re2: GoRegexp | undefined;
  return { test: (s) => (hasAstral(s) ? (re2 ??= compileRe2(source)).test(s) : s.length === pattern.length && dottedMatchAt(pattern, s, 0)) };
}

function compileRe2(source: string): GoRegexp {
  try {
    return RE2JS.compile(source);
  } catch (e) {
    throw new GoRegexpSyntaxError(shortened(e instanceof Error ? e.message : String(e)));
  }
}

/** Cuts a long `…: \`expression\`` tail of a Go regexp error message. */
function shortened(message: string): string {
  const start = message.indexOf('`');
  if (start < 0 || message.length - start <= SHOWN_EXPRESSION_CHARS) return message;
  const shown = message.slice(start + 1, start + 1 + SHOWN_EXPRESSION_CHARS);
  return `${message.slice(0, start)}\`${shown}…\` (${message.length - start - 2} characters)`;
}
