import type { Range } from 'vscode-languageserver-types';
import type { KustomizeError } from '../errors.js';
import { readText, type FileSystem } from '../fs/filesystem.js';
import { basename, dirname, isRelativePath, resolve } from '../fs/path.js';
import { KUSTOMIZATION_FILE_NAMES } from '../load/entry.js';
import { fieldPathOf } from '../pipeline/config-positions.js';
import { placedAt, placedText, type PlacedText } from '../yaml/positions.js';
import type { Value } from '../yaml/value.js';
import { firstLineRange, linesOf, tokenRange } from './text-range.js';

/** Where a problem is shown: a file (absolute) and a range in it. */
export interface Place {
  file: string;
  range: Range;
}

/** What placing a root's problems reads: the files as the editor has them, the root, and the kustomization files its build read. */
export interface PlacingContext {
  fs: FileSystem;
  /** the root's directory: the files the build names are relative to it */
  dir: string;
  /** its kustomization file */
  kustomization: string;
  /** the kustomization files the build read, the root's own first */
  kustomizations: readonly string[];
}

/** Errors about what an entry names rather than about a file's content: shown at the entry that names it. */
const ABOUT_REFERENCE = new Set(['FILE_NOT_FOUND', 'LOAD_RESTRICTED', 'CYCLE', 'KUSTOMIZATION_NOT_FOUND', 'PLUGIN_DISABLED', 'PLUGIN_NOT_FOUND', 'REMOTE_FAILED', 'REMOTE_INVALID', 'REMOTE_UNSUPPORTED', 'NODE_REQUIRED']);

/**
 * Where a build error is shown: at its line when the parser said where; at its field in the
 * file it names (an unknown field at its key, a failed patch at its entry); at the entry of a
 * kustomization that names the file (or remote tree) it is about, when it is about what an entry
 * names (a missing file, a cycle, a refused plugin); else at the file's first line, or the root's.
 */
export function placeError(e: KustomizeError, ctx: PlacingContext): Place {
  const file = e.file !== undefined && e.remote === undefined && isRelativeOrAbsolute(e.file) ? resolve(ctx.dir, e.file) : undefined;
  const text = file === undefined ? undefined : textOf(ctx.fs, file);
  if (file && text !== undefined && e.line !== undefined) return { file, range: tokenRange(linesOf(text), e.line, e.column ?? 1) };
  if (file && text !== undefined && e.field !== undefined) {
    const at = fieldPlace(text, file, e.field);
    if (at) return { file, range: at };
  }
  const target = e.remote ?? file;
  if (target !== undefined && (ABOUT_REFERENCE.has(e.code) || text === undefined)) {
    const entry = referenceTo(target, ctx);
    if (entry) return entry;
  }
  if (file && text !== undefined) return { file, range: firstLineRange(linesOf(text)) };
  return fileStart(ctx.fs, ctx.kustomization);
}

/** A place at the start of a file (the root's kustomization when the file is another's). */
export function fileStart(fs: FileSystem, file: string): Place {
  return { file, range: firstLineRange(linesOf(textOf(fs, file) ?? '')) };
}

/** The range of the value or key at `field` (`patches[1]`, `foo`) of a YAML file: its key when the field ends in one. */
export function fieldPlace(text: string, file: string, field: string): Range | undefined {
  const placed = placedOf(text, file);
  if (placed.docs.length === 0) return undefined;
  const found = placedAt(placed, 0, fieldPathOf(field));
  const at = found.key ?? found.at;
  return tokenRange(linesOf(text), at.line, at.column);
}

/** The entry of one of the root's kustomization files that names `target` (an absolute path, or a remote URL). */
function referenceTo(target: string, ctx: PlacingContext): Place | undefined {
  for (const k of ctx.kustomizations) {
    const text = textOf(ctx.fs, k);
    if (text === undefined) continue;
    const placed = placedOf(text, k);
    const names = (entry: string) => entry === target || (isRelativeOrAbsolute(entry) && resolve(dirname(k), entry) === target);
    const at = findString(placed, placed.docs[0], (s) => names(s) || (s.includes('=') && names(s.slice(s.indexOf('=') + 1))));
    if (at) return { file: k, range: tokenRange(linesOf(text), at.line, at.column) };
  }
  return undefined;
}

/** Where the first string under `value` that `matches` is written. */
function findString(placed: PlacedText, value: Value | undefined, matches: (s: string) => boolean): { line: number; column: number } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const k = Array.isArray(value) ? Number(key) : key;
    if (typeof child === 'string' && matches(child)) return placed.placeOf(value, k);
    const below = findString(placed, child as Value, matches);
    if (below) return below;
  }
  return undefined;
}

/** A file's text, read as the build reads it; undefined when it is no file. */
export function textOf(fs: FileSystem, file: string): string | undefined {
  try {
    return readText(fs, file);
  } catch {
    return undefined;
  }
}

/** The text's documents with where their values and keys are, read in the dialect the build reads the file in. */
function placedOf(text: string, file: string): PlacedText {
  return placedText(text, { keys: true, ...(isKustomizationFile(file) && { dialect: 'yaml11' as const }) });
}

export function isKustomizationFile(path: string): boolean {
  return (KUSTOMIZATION_FILE_NAMES as readonly string[]).includes(basename(path));
}

/** Whether a name is a local path (relative or absolute), not a URL. */
function isRelativeOrAbsolute(name: string): boolean {
  return name.startsWith('/') || isRelativePath(name);
}
