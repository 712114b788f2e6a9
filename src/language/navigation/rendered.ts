import type { Range } from 'vscode-languageserver-types';
import { resolve } from '../../fs/path.js';
import type { Resource } from '../../model/resource.js';
import type { Written } from '../../pipeline/provenance.js';
import type { TextPosition } from '../../yaml/positions.js';
import { textOf } from '../error-place.js';
import type { RecordIndex } from '../records.js';
import { linesOf } from '../text-range.js';
import type { Root, Workspace } from '../workspace.js';
import { exactRange, writtenRange } from './written-range.js';

/** A place in a file: the file (absolute) and a range in it. */
export interface FilePlace {
  file: string;
  range: Range;
}

/** A file, from its start: where a path that names it goes. */
export function startOf(file: string): FilePlace {
  return { file, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
}

/** A string written in a file: the file (absolute), where (1-based), and the string. */
export interface WrittenString {
  file: string;
  at: TextPosition;
  value: string;
}

/** A root and its output's records (with its resources), as navigation reads them. */
export interface RenderedRoot {
  root: Root;
  index: RecordIndex;
}

/** How many roots a navigation request asks for their records (each is a build of its own, the first time). */
const ASKED_ROOTS = 8;

/** The roots whose last build read `file` that navigation asks (the first few, by name). */
export function rootsAsked(ws: Workspace, file: string): Root[] {
  return ws.rootsReading(file).slice(0, ASKED_ROOTS);
}

/** The root's records (made by a build of their own the first time, kept until a file it read changes). */
export async function renderedRoot(ws: Workspace, root: Root): Promise<RenderedRoot> {
  return { root, index: await ws.recordsOf(root) };
}

/** The records of the roots whose last build read `file`: the first few, by name, or, with `every`, all of them. */
export function renderedReading(ws: Workspace, file: string, every = false): Promise<RenderedRoot[]> {
  return Promise.all((every ? ws.rootsReading(file) : rootsAsked(ws, file)).map((root) => renderedRoot(ws, root)));
}

/**
 * Where a resource's name was first written: in the file it was read from, or at the generator
 * that made it (its records' oldest `metadata.name`); undefined for a name from no local file.
 */
export function nameOrigin(rendered: RenderedRoot, resource: Resource): WrittenString | undefined {
  const record = rendered.index.recordOf(resource);
  const field = record?.fields.find((f) => f.path === 'metadata.name');
  return field && writtenString(rendered.root, field.history[0] ?? field);
}

/** A value its records say was written in a local file, as a string; undefined for one of no local file (made by the build, fetched). */
export function writtenString(root: Root, written: Written): WrittenString | undefined {
  const by = written.by;
  if (by.file === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(by.file) || typeof written.value !== 'string') return undefined;
  return { file: resolve(root.dir, by.file), at: { line: by.line, column: by.column }, value: written.value };
}

/** Where a written string is, as the editor has the file now: its own characters (or what is written there); undefined when the file is gone. */
export function placeOf(ws: Workspace, written: WrittenString): FilePlace | undefined {
  const text = textOf(ws.fs, written.file);
  return text === undefined ? undefined : { file: written.file, range: writtenRange(linesOf(text), written.at, written.value) };
}

/** Where a written string is, only when the file holds exactly it there (what a rename may change). */
export function exactPlaceOf(ws: Workspace, written: WrittenString): FilePlace | undefined {
  const text = textOf(ws.fs, written.file);
  const range = text === undefined ? undefined : exactRange(linesOf(text), written.at, written.value);
  return range && { file: written.file, range };
}

/**
 * The resources of a root whose `fields` (`metadata.name`, `kind`) were first written at a place
 * of a file: in a resource file, or (a name) at the generator that made the resource.
 */
export function resourcesWrittenAt(rendered: RenderedRoot, file: string, line: number, column: number, fields: readonly string[]): Resource[] {
  return rendered.index
    .at(file, line, column)
    .filter((h) => fields.includes(h.field.path) && h.written === (h.field.history[0] ?? h.field))
    .flatMap((h) => rendered.index.resourceOf(h.resource) ?? []);
}

/** One place per file and range. */
export function distinctPlaces<P extends FilePlace>(places: readonly P[]): P[] {
  const seen = new Set<string>();
  return places.filter((p) => {
    const key = JSON.stringify([p.file, p.range]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

