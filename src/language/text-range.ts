import type { Range, TextEdit } from 'vscode-languageserver-types';

/**
 * Positions in LSP's terms: 0-based lines and characters, a character being a UTF-16 code unit,
 * as JavaScript strings count them (the build's 1-based columns count the same units).
 */

/** A text's lines, without their line breaks (`\r\n` or `\n`). */
export function linesOf(text: string): string[] {
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * The range of what is written at the 1-based `line` and `column`: a map key up to its colon,
 * else the rest of the line up to a comment; at least one character where the line has one.
 * A line past the text's end is its last line.
 */
export function tokenRange(lines: readonly string[], line: number, column: number): Range {
  const l = Math.min(Math.max(line - 1, 0), Math.max(lines.length - 1, 0));
  const text = lines[l] ?? '';
  const start = Math.min(Math.max(column - 1, 0), text.length);
  const rest = text.slice(start);
  const key = /^(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"][^:#]*?)(?=:(?:\s|$))/.exec(rest);
  const content = rest.replace(/\s+#.*$/, '').trimEnd();
  const length = key ? key[0].length : content.length;
  return { start: { line: l, character: start }, end: { line: l, character: start + Math.max(length, Math.min(1, rest.length)) } };
}

/** The whole first line's content: where a problem of a file as a whole is shown. */
export function firstLineRange(lines: readonly string[]): Range {
  return { start: { line: 0, character: 0 }, end: { line: 0, character: (lines[0] ?? '').length } };
}

/** Whether two ranges share a position (a cursor at either end counts). */
export function rangesMeet(a: Range, b: Range): boolean {
  const before = (x: Range['start'], y: Range['start']) => x.line < y.line || (x.line === y.line && x.character < y.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** One edit that turns `before` into `after`: the lines between their common first and last lines replaced. */
export function replacingEdit(before: string, after: string): TextEdit {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length - 1 && head < b.length - 1 && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head - 1 && tail < b.length - head - 1 && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const lastA = a.length - 1 - tail;
  return {
    range: { start: { line: head, character: 0 }, end: { line: lastA, character: a[lastA]!.length } },
    newText: b.slice(head, b.length - tail).join('\n'),
  };
}
