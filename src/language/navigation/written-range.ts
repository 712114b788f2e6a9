import type { Range } from 'vscode-languageserver-types';
import type { TextPosition } from '../../yaml/positions.js';
import { tokenRange } from '../text-range.js';

/**
 * The range of the string `value` written at `at` (1-based, where the parser placed it): the
 * value's own characters when the line holds them there (after a quote), undefined when it does
 * not (a block scalar, an escape, a name some step made).
 */
export function exactRange(lines: readonly string[], at: TextPosition, value: string): Range | undefined {
  const line = at.line - 1;
  const text = lines[line] ?? '';
  let start = at.column - 1;
  if (text[start] === '"' || text[start] === "'") start++;
  if (!text.startsWith(value, start)) return undefined;
  return { start: { line, character: start }, end: { line, character: start + value.length } };
}

/** The range of the string `value` written at `at`: its own characters where the line holds them, else what is written there. */
export function writtenRange(lines: readonly string[], at: TextPosition, value: string): Range {
  return exactRange(lines, at, value) ?? tokenRange(lines, at.line, at.column);
}
