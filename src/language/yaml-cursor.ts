import type { Position, Range } from 'vscode-languageserver-types';
import { parseAllDocuments } from 'yaml';
import { linesOf } from './text-range.js';

/** A step down a YAML document: a map's key or a list's index. */
export type Step = string | number;

/** Where the cursor is in one YAML document, and what is typed there. */
interface DocumentCursor {
  /** the keys and indexes from the document's top to the map whose key is typed, or to the value typed */
  path: Step[];
  /**
   * `key`: a key of the map at `path` is typed. `value`: the value at `path` is; `item` when it
   * is a list entry begun with `- ` (where the list holds maps, that is a new entry's first key).
   */
  at: 'key' | 'value' | 'item';
  /** the document as far as it reads, with what is typed left out (a typed key is no key of it) */
  document: unknown;
}

/** The cursor in a YAML text: in a document, and in a block scalar of it (an inline patch) when it is in one. */
export interface Cursor extends DocumentCursor {
  /** what is typed of the word the cursor is in, up to the cursor */
  typed: string;
  /** the word's range: what a completion replaces */
  range: Range;
  /** what goes before a completion: a space after a colon or a dash the cursor follows at once */
  glue: string;
  /** when the cursor is in a block scalar (`patch: |`): where that scalar is in the outer document (`path` and `document` are then the scalar's text's) */
  within?: { path: Step[]; document: unknown };
}

/** Stands for what is typed while the text is parsed: the one thing in it that is not the user's. */
const HERE = 'KTS_CURSOR_7f3a';

/**
 * The cursor at `position` of a YAML text, read leniently: the word under the cursor is put aside
 * (a key typed becomes a key with no value, a value a plain scalar) so that a half-typed line
 * parses, and the `yaml` package keeps what it can of a text with errors elsewhere. Undefined
 * in a comment, past the text's end, or where nothing can be typed.
 */
export function cursorAt(text: string, position: Position): Cursor | undefined {
  const lines = linesOf(text);
  const line = lines[position.line];
  if (line === undefined || position.character > line.length) return undefined;
  const before = line.slice(0, position.character);
  const lead = /^(\s*(?:-(?:\s+|$))*)/.exec(before)![1]!;
  const rest = before.slice(lead.length);
  if (/(^|\s)#/.test(rest) || /^(---|\.\.\.)/.test(before)) return undefined;
  // a key, its colon, and what is typed of its value (a colon the cursor follows at once begins one)
  const keyValue = /^((?:"[^"]*"|'[^']*'|[^\s#'"][^:#]*?)\s*:)(\s*)(['"]?)(.*)$/.exec(rest);
  if (keyValue && keyValue[2] === '' && keyValue[3]! + keyValue[4]! !== '') return undefined;
  const item = lead.trimEnd().endsWith('-');
  let placed: string;
  let typed: string;
  let start: number;
  if (keyValue) {
    typed = keyValue[4]!;
    start = position.character - typed.length;
    placed = `${before.slice(0, lead.length + keyValue[1]!.length)} ${HERE}`;
  } else {
    // a quote begins a value, never a key; a colon within a word is no key (a URL)
    if ((/^["']/.test(rest) && !item) || rest.includes(':')) return undefined;
    typed = rest.replace(/^["']/, '');
    start = position.character - typed.length;
    placed = item ? `${lead.trimEnd()} ${HERE}` : `${lead}${HERE}:`;
  }
  const glue = typed === '' && /[-:]$/.test(before) ? ' ' : '';
  const after = /^[^\s:#'"]*/.exec(line.slice(position.character))![0];
  const range = { start: { line: position.line, character: start }, end: { line: position.line, character: position.character + after.length } };
  const changed = [...lines.slice(0, position.line), placed, ...lines.slice(position.line + 1)].join('\n');
  const found = locate(changed, item && !keyValue);
  if (!found) return undefined;
  return { ...found, typed, range, glue };
}

/** Finds the placeholder in a text: in which document, at which path; inside a block scalar, in the scalar's text too. */
function locate(text: string, item: boolean): Omit<Cursor, 'typed' | 'range' | 'glue'> | undefined {
  const offset = text.indexOf(HERE);
  for (const doc of parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false })) {
    const [from, , to] = doc.range;
    if (offset < from || offset > to) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: -1 });
    } catch {
      return undefined;
    }
    const at = find(value, []);
    if (!at) return undefined;
    if (at.within) {
      const inner = locate(at.within, item);
      return inner && { ...inner, within: { path: at.path, document: withoutHere(value) } };
    }
    return { path: at.path, at: at.key ? 'key' : item ? 'item' : 'value', document: withoutHere(value) };
  }
  return undefined;
}

/** The path to the placeholder: a key of a map, a scalar, or inside a string of several lines (a block scalar). */
function find(value: unknown, path: Step[]): { path: Step[]; key?: boolean; within?: string } | undefined {
  if (value === HERE) return { path };
  if (typeof value === 'string') return value.includes(HERE) && value.includes('\n') ? { path, within: value } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, HERE)) return { path, key: true };
  for (const [k, child] of Object.entries(value)) {
    const found = find(child, [...path, Array.isArray(value) ? Number(k) : k]);
    if (found) return found;
  }
  return undefined;
}

/** The document with the placeholder taken out: a key it made removed, a value it is made empty. */
function withoutHere(value: unknown): unknown {
  if (typeof value === 'string') return value === HERE ? null : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(withoutHere);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== HERE) out[k] = withoutHere(v);
  return out;
}

/** The value at `path` of a document; undefined where there is none. */
export function valueAt(document: unknown, path: readonly Step[]): unknown {
  let v = document;
  for (const step of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}

/** The keys the map at `path` already has. */
export function keysAt(document: unknown, path: readonly Step[]): Set<string> {
  const v = valueAt(document, path);
  return new Set(typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.keys(v) : []);
}
