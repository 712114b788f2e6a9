/**
 * Where a step's config is written: a document of its own file, or an entry of the list that
 * holds it (a Composition's `transformers:` map, a kustomization's inline text). `explain`
 * (provenance-locators.ts) and the errors about a config's values (FUNCTION_CONFIG_INVALID) both
 * ask.
 */
import type { ConfigText } from '../catalog/config-error.js';
import type { Resource } from '../model/resource.js';
import type { StepConfig } from '../plan/plan.js';
import { placedDocuments, positionAt, type PositionTree, type TextPosition } from '../yaml/positions.js';
import { isMap, type Value } from '../yaml/value.js';

/** A text's documents and where their values are written, with its lines. */
interface PositionedDocuments {
  docs: Value[];
  trees: PositionTree[];
  lines: readonly string[];
}

/** `patches[2]` → `['patches', 2]`. */
export function fieldPathOf(field: string): (string | number)[] {
  return field.split(/[[\].]+/).filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/** The position tree of the document of `text` that is `config` (the same kind and name). */
export function configDocument(text: Pick<PositionedDocuments, 'docs' | 'trees'>, config: Resource): PositionTree | undefined {
  const i = text.docs.findIndex((d) => isMap(d) && d['kind'] === config.kind && isMap(d['metadata']) && d['metadata']['name'] === config.name);
  return text.trees[i];
}

/**
 * Where the text of a string written at `start` begins: a block scalar's (`|`, `>`) on the line
 * after its indicator, indented as that line is; any other where it is written.
 */
export function inlineTextStart(lines: readonly string[], start: TextPosition): TextPosition {
  const block = /^[|>]/.test((lines[start.line - 1] ?? '').slice(start.column - 1));
  return block ? { line: start.line + 1, column: leadingSpaces(lines[start.line] ?? '') + 1 } : start;
}

/**
 * Where the values of a plugin step's config are written, read from its file through the step's
 * loader: its own document there, or the `transformers:` (…) entry that holds it, a map (a
 * Composition's) or an inline text (a kustomization's). Undefined when the file cannot be read
 * again or the config is not found in it.
 */
export function configText(step: StepConfig): ConfigText | undefined {
  const file = step.config.sourceFile ?? step.file;
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = step.loader.loadText(file);
  } catch {
    // (a config file fetched over HTTP is not fetched again: its error is given unplaced)
    return undefined;
  }
  const lines = text.split('\n');
  const read = { ...placedDocuments(text), lines };
  const own = configDocument(read, step.config);
  if (own) return { file: step.loader.absolute(file), at: (path) => positionAt(own, path).at };
  const listed = step.entry !== undefined ? listedConfig(read, step.entry, step.config) : undefined;
  return listed && { file: step.loader.absolute(file), at: listed };
}

/** Where the values of `config` are, written in the entry `entry` of the first document of `text`. */
function listedConfig(text: PositionedDocuments, entry: string, config: Resource): ConfigText['at'] | undefined {
  const path = fieldPathOf(entry);
  const tree = text.trees[0];
  const found = tree && positionAt(tree, path);
  if (!found?.whole) return undefined;
  const value = valueAt(text.docs[0], path);
  if (isMap(value)) return (sub) => positionAt(tree!, [...path, ...sub]).at;
  if (typeof value !== 'string') return undefined;
  const inline = configDocument(placedDocuments(value, inlineTextStart(text.lines, found.at)), config);
  return inline && ((sub) => positionAt(inline, sub).at);
}

function valueAt(doc: Value | undefined, path: readonly (string | number)[]): Value | undefined {
  let v = doc;
  for (const p of path) v = typeof v === 'object' && v !== null ? (v as Record<string | number, Value>)[p] : undefined;
  return v;
}

function leadingSpaces(line: string): number {
  return line.length - line.trimStart().length;
}
