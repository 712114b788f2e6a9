import type { Hover, Position } from 'vscode-languageserver-types';
import { relative, resolve } from '../fs/path.js';
import type { FieldValue } from '../pipeline/provenance.js';
import { placedText } from '../yaml/positions.js';
import { isMap } from '../yaml/value.js';
import { isKustomizationFile, textOf } from './error-place.js';
import { KUSTOMIZATION_FIELD_DOCS } from './kustomization-docs.js';
import type { WrittenHere } from './records.js';
import type { Root, Workspace } from './workspace.js';

/** How many roots a hover lists at most: the others are counted. */
const HOVERED_ROOTS = 8;
/**
 * How long (ms) a hover may spend making roots' records (a build each, recording provenance):
 * roots whose records it has no time to make are counted, and are there when it is asked again.
 */
const RECORDING_BUDGET_MS = 300;
/** How many values of one root a hover lists at most. */
const LISTED_VALUES = 10;

/**
 * What the value under the cursor becomes: for each root whose build read the file, the output
 * values it wrote (the resource, the field, the value now) and, when a later step changed one,
 * which step did and where. On a top-level key of a kustomization, what the field does.
 */
export async function hover(ws: Workspace, path: string, position: Position): Promise<Hover | null> {
  const text = textOf(ws.fs, path);
  if (text === undefined) return null;
  if (isKustomizationFile(path)) {
    const doc = fieldDoc(text, position);
    if (doc) return doc;
  }
  const roots = ws.rootsReading(path);
  const sections: string[] = [];
  const started = Date.now();
  let later = 0;
  for (const root of roots.slice(0, HOVERED_ROOTS)) {
    if (!ws.hasRecords(root) && Date.now() - started > RECORDING_BUDGET_MS) {
      later++;
      continue;
    }
    const here = (await ws.recordsOf(root)).at(path, position.line + 1, position.character + 1);
    if (here.length > 0) sections.push(rootSection(root, here));
  }
  if (sections.length === 0) return null;
  if (later > 0) sections.push(`… ${later} more root${later > 1 ? 's' : ''} not shown yet (hover again)`);
  if (roots.length > HOVERED_ROOTS) sections.push(`… and ${roots.length - HOVERED_ROOTS} more roots read this file`);
  return { contents: { kind: 'markdown', value: sections.join('\n\n') } };
}

/** The documentation of the top-level key under the cursor, if it is on one. */
function fieldDoc(text: string, position: Position): Hover | null {
  const placed = placedText(text, { keys: true, dialect: 'yaml11' });
  const doc = placed.docs[0];
  if (!isMap(doc)) return null;
  for (const key of Object.keys(doc)) {
    const at = placed.keyOf(doc, key);
    const docs = KUSTOMIZATION_FIELD_DOCS[key];
    if (!at || !docs || at.line !== position.line + 1) continue;
    const start = at.column - 1;
    if (position.character < start || position.character > start + key.length) continue;
    return {
      contents: { kind: 'markdown', value: `**${key}**\n\n${docs}` },
      range: { start: { line: position.line, character: start }, end: { line: position.line, character: start + key.length } },
    };
  }
  return null;
}

/** One root's part of a hover: each output value written at the place, and who has it now. */
function rootSection(root: Root, here: readonly WrittenHere[]): string {
  const where = (file: string, line: number, column: number) => `${relative(root.folder, resolve(root.dir, file))}:${line}:${column}`;
  const lines = here.slice(0, LISTED_VALUES).map(({ resource, field, written, current }) => {
    const id = `\`${resource.kind}/${resource.name}\` \`${field.path}\``;
    if (current) return `- ${id} = ${shown(field.value)} (\`${field.by.step}\`)`;
    const by = field.by;
    return `- ${id} = ${shown(field.value)}, by \`${by.step}\` at ${where(by.file, by.line, by.column)}; here ${shown(written.value)} (\`${written.by.step}\`)`;
  });
  if (here.length > LISTED_VALUES) lines.push(`- … and ${here.length - LISTED_VALUES} more`);
  return [`**${root.name}**`, ...lines].join('\n');
}

/** A value as the output has it, in code. */
function shown(value: FieldValue): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
  return `\`${text.length > 80 ? `${text.slice(0, 77)}…` : text}\``;
}
