import type { Hover, Position } from 'vscode-languageserver-types';
import { relative, resolve } from '../fs/path.js';
import type { FieldValue } from '../pipeline/provenance.js';
import { placedText } from '../yaml/positions.js';
import { isMap } from '../yaml/value.js';
import { isKustomizationFile, textOf } from './error-place.js';
import { KUSTOMIZATION_FIELD_DOCS } from './kustomization-docs.js';
import type { RecordIndex, WrittenHere } from './records.js';
import type { Root, Workspace } from './workspace.js';

/** How many roots a hover lists at most: the others are counted. */
const HOVERED_ROOTS = 8;
/**
 * How long (ms) a hover waits for roots' records to be made (a build each, recording provenance,
 * in the background): roots whose records are not made by then are counted, and are made while
 * the editor does something else.
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
  if (isKustomizationFile(path)) {
    const text = textOf(ws.fs, path);
    if (text === undefined) return null;
    const doc = fieldDoc(text, position);
    if (doc) return doc;
    // (any other file's text is not read: a CRD's runs to megabytes, and the records have what a hover shows)
  } else if (!ws.fs.exists(path)) return null;
  const roots = ws.rootsReading(path);
  const hovered = roots.slice(0, HOVERED_ROOTS);
  const made = await recordsWithin(ws, hovered, RECORDING_BUDGET_MS);
  const sections: string[] = [];
  let later = 0;
  hovered.forEach((root, i) => {
    const here = made[i]?.at(path, position.line + 1, position.character + 1);
    if (!here) later++;
    else if (here.length > 0) sections.push(rootSection(root, here));
  });
  if (sections.length === 0 && later === 0) return null;
  if (later > 0) sections.push(`… ${later} more root${later > 1 ? 's' : ''} not shown yet (hover again)`);
  if (roots.length > HOVERED_ROOTS) sections.push(`… and ${roots.length - HOVERED_ROOTS} more roots read this file`);
  return { contents: { kind: 'markdown', value: sections.join('\n\n') } };
}

/**
 * The records of `roots` made within `ms` (undefined: not yet), asked for together: those not
 * made are made in the background, the first root first, and go on being made after.
 */
async function recordsWithin(ws: Workspace, roots: readonly Root[], ms: number): Promise<(RecordIndex | undefined)[]> {
  const made: (RecordIndex | undefined)[] = roots.map(() => undefined);
  // (the roots asked for last are made first)
  const asked = roots.map((root, i) => ({ root, i })).reverse().map(({ root, i }) => ws.recordsOf(root).then((index) => (made[i] = index)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.all(asked), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
  return made;
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
