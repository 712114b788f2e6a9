import type { Notice } from '../errors.js';
import type { StepNotice, ValuePath } from '../builtins/step-notice.js';
import type { Loader } from '../load/loader.js';
import type { Resource } from '../model/resource.js';
import type { ParseOptions } from '../yaml/parse.js';
import { placedAt, placedText, treesOf, type FoundPosition, type PlaceOptions, type PlacedText, type PositionTree, type TextPosition } from '../yaml/positions.js';
import { isMap, type Value } from '../yaml/value.js';

/** A step as positions see it: the config that made it, where it was configured, the field or entry it came from. */
export interface LocatedStep {
  /** the config that made it */
  config: Resource;
  /** the loader its relative paths resolve against */
  loader: Loader;
  /** the kustomization field that made a builtin step (`patches[2]`) */
  field?: string;
  /** the `generators:`/`transformers:`/`validators:` entry that listed a plugin's config (`transformers[0]`) */
  entry?: string;
  /** the file that configured it, absolute (see `StepConfig.file`) */
  file?: string;
}

/** A YAML text's documents and where their values are written. */
export interface PositionedText {
  /** its documents, asked value by value (what notices ask) */
  placed: PlacedText;
  /** its documents' position trees (made when first asked: `explain` walks them) */
  readonly trees: PositionTree[];
  /** its lines (split when first asked: a patch's and an env file's are wanted, a resource file's seldom) */
  readonly lines: string[];
}

/** Where a value is written: the file (absolute) and the place in it. */
interface WrittenAt {
  file: string;
  at: TextPosition;
}

/** A YAML text a config holds or names, and the file it is written in (absolute). */
interface TextIn {
  file: string;
  text: PositionedText;
}

/**
 * Where a step's config is written: its file (absolute, and as read), the text its values are in
 * (the file's, or an inline config's within it) and the document, and the keys that lead there
 * from the config's.
 */
interface ConfigWritten {
  file: string;
  fileText: PositionedText;
  text: PositionedText;
  document: number;
  keys: (path: ValuePath) => ValuePath;
}

/**
 * Where the values of steps' configs are written: in the kustomization field that made a
 * builtin step, in a plugin config's own file, or in the `transformers:` (…) entry that writes
 * the config, as a map (a Composition's) or as a text (a kustomization's inline config); and
 * where the values of the YAML texts a config holds (an inline patch) or names (a patch file)
 * are. Each file is read once, when first asked about: a build that asks nothing reads nothing.
 */
export class ConfigPositions {
  private readonly texts = new Map<string, PositionedText | undefined>();
  /** where each step's config is written, found once (`explain` asks for every value a step writes) */
  private readonly configs = new Map<LocatedStep, ConfigWritten | undefined>();
  /** where each step's notices pointed, by what they are about: a step that notices every workload notices few places */
  private readonly noticedPlaces = new Map<LocatedStep, Map<string, WrittenAt | undefined>>();

  /**
   * The file `file` (as `loader` names it, or absolute), read once with its positions in the
   * dialect the build reads it in; undefined when it cannot be read.
   */
  text(loader: Loader, file: string, dialect?: ParseOptions['dialect']): PositionedText | undefined {
    const key = `${dialect ?? ''} ${loader.absolute(file)}`;
    if (!this.texts.has(key)) {
      let text: PositionedText | undefined;
      try {
        text = positionedText(loader.loadText(file), { ...(dialect && { dialect }) });
      } catch {
        text = undefined;
      }
      this.texts.set(key, text);
    }
    return this.texts.get(key);
  }

  /** A kustomization file, read as kustomize reads it (see {@link text}). */
  kustomization(loader: Loader, file: string): PositionedText | undefined {
    return this.text(loader, file, 'yaml11');
  }

  /**
   * The file a plugin's config was read from, and its text: the config's own file (a resource
   * file), else the file whose list names it (a kustomization, read as kustomize reads it; a
   * Composition, which the build read strictly, reads the same so).
   */
  configFile(step: LocatedStep): { file: string; text: PositionedText } | undefined {
    const own = step.config.sourceFile;
    const file = own ?? step.file;
    const text = own ? this.text(step.loader, own) : file && this.kustomization(step.loader, file);
    return file && text ? { file, text } : undefined;
  }

  /** Where the value of the step's config at `path` is written: the deepest part of the path that is (the config's start for `[]`). */
  configValue(step: LocatedStep, path: ValuePath): WrittenAt | undefined {
    const written = this.configWritten(step);
    return written && { file: written.file, at: placedAt(written.text.placed, written.document, written.keys(path)).at };
  }

  /**
   * The YAML text the step's config holds at `path` (an inline patch), positioned where the
   * config's file writes it: a block scalar's text starts on the line after its indicator,
   * indented; a flow scalar's where it is. Undefined when that value is not a string written there.
   */
  heldText(step: LocatedStep, path: ValuePath): TextIn | undefined {
    const value = valueAt(step.config.view, path);
    const written = typeof value === 'string' ? this.configWritten(step) : undefined;
    const found = written && placedAt(written.text.placed, written.document, written.keys(path));
    if (!written || !found?.whole) return undefined;
    return { file: written.file, text: positionedText(value as string, { offset: heldTextStart(written.fileText.lines, found.at) }) };
  }

  /** The YAML file the step's config names at `path` (a patch's `path`), read once (in `dialect`, as the step reads it). */
  namedText(step: LocatedStep, path: ValuePath, dialect?: ParseOptions['dialect']): TextIn | undefined {
    const value = valueAt(step.config.view, path);
    const text = typeof value === 'string' ? this.text(step.loader, value, dialect) : undefined;
    return text && { file: step.loader.absolute(value as string), text };
  }

  /**
   * Where a notice of the step points (see {@link StepNotice}): at the key that holds the value of
   * its config, or of a text the config holds or names, that it is about (at the value, for a
   * list item).
   */
  noticed(step: LocatedStep, notice: StepNotice): WrittenAt | undefined {
    let places = this.noticedPlaces.get(step);
    if (!places) this.noticedPlaces.set(step, (places = new Map()));
    const about = JSON.stringify([notice.at, notice.within]);
    if (!places.has(about)) places.set(about, this.noticePlace(step, notice));
    return places.get(about);
  }

  private noticePlace(step: LocatedStep, notice: StepNotice): WrittenAt | undefined {
    const said = (found: FoundPosition) => found.key ?? found.at;
    const within = notice.within;
    const text = within && (within.text === 'held' ? this.heldText(step, notice.at) : this.namedText(step, notice.at, within.dialect));
    if (within && text && within.document < text.text.placed.docs.length) return { file: text.file, at: said(placedAt(text.text.placed, within.document, within.path)) };
    const written = this.configWritten(step);
    return written && { file: written.file, at: said(placedAt(written.text.placed, written.document, written.keys(notice.at))) };
  }

  private configWritten(step: LocatedStep): ConfigWritten | undefined {
    if (!this.configs.has(step)) this.configs.set(step, this.findConfig(step));
    return this.configs.get(step);
  }

  private findConfig(step: LocatedStep): ConfigWritten | undefined {
    if (step.field && step.file) {
      const k = this.kustomization(step.loader, step.file);
      const field = step.field;
      const fieldPath = fieldPathOf(field);
      return k && { file: step.loader.absolute(step.file), fileText: k, text: k, document: 0, keys: (path) => [...fieldPath, ...underField(field, path)] };
    }
    // a plugin's config: a document of its own file, or written in the list that names it
    const configFile = this.configFile(step);
    if (!configFile) return undefined;
    const text = configFile.text;
    const written = { file: step.loader.absolute(configFile.file), fileText: text };
    const own = configDocument(text.placed.docs, step.config);
    if (own !== undefined) return { ...written, text, document: own, keys: (path) => path };
    const entry = step.entry === undefined ? undefined : fieldPathOf(step.entry);
    const listed = entry && placedAt(text.placed, 0, entry);
    if (!entry || !listed?.whole) return undefined;
    const value = valueAt(text.placed.docs[0], entry);
    const inList = { ...written, text, document: 0, keys: (path: ValuePath) => [...entry, ...path] };
    if (typeof value !== 'string') return inList;
    // an inline config: the document of the entry's text that is this config
    const held = positionedText(value, { offset: heldTextStart(text.lines, listed.at) });
    const doc = configDocument(held.placed.docs, step.config);
    return doc === undefined ? inList : { ...written, text: held, document: doc, keys: (path) => path };
  }
}

/** A notice of a step, as the build gives it: named by the step (in front of its message too), at the place it is about. */
export function locatedNotice(positions: ConfigPositions, step: LocatedStep, notice: StepNotice): Notice {
  const name = stepName(step, notice.at);
  const written = positions.noticed(step, notice);
  const file = written?.file ?? step.file;
  return {
    code: notice.code,
    message: `${name}: ${notice.message}`,
    ...(file !== undefined && { file }),
    ...(written && { line: written.at.line, column: written.at.column }),
    step: name,
    ...(notice.resource && { resource: notice.resource }),
  };
}

/**
 * The step a value of its config belongs to, as the kustomization writes it: the field
 * (`patches[1]`), with the entry's index for a field of many entries one step runs
 * (`replacements[0]`); a plugin's entry (`transformers[0]`).
 */
function stepName(step: LocatedStep, path: ValuePath): string {
  if (!step.field) return step.entry ?? step.config.kind;
  const [first] = underField(step.field, path);
  return step.field.endsWith(']') || typeof first !== 'number' ? step.field : `${step.field}[${first}]`;
}

/**
 * The fields whose builtin's config holds their value under a key of its own: the config key,
 * and the key under the field it stands for, if any (`commonLabels: {…}` is the config's
 * `labels`; a `labels` entry's `pairs` are too). Other fields' entries are their configs.
 */
const FIELD_VALUES: ReadonlyMap<string, { config: string; field?: string }> = new Map([
  ['labels', { config: 'labels', field: 'pairs' }],
  ['commonLabels', { config: 'labels' }],
  ['commonAnnotations', { config: 'annotations' }],
  ['images', { config: 'imageTag' }],
  ['replicas', { config: 'replica' }],
  ['replacements', { config: 'replacements' }],
  ['patchesStrategicMerge', { config: 'paths' }],
  ['patchesJson6902', { config: 'jsonOp', field: 'patch' }],
]);

/** The keys under the kustomization field `field` (`labels[0]`) of the value its builtin's config holds at `path`. */
function underField(field: string, path: ValuePath): ValuePath {
  const held = FIELD_VALUES.get(field.replace(/\[\d+\]$/, ''));
  if (!held || path[0] !== held.config) return path;
  return held.field ? [held.field, ...path.slice(1)] : path.slice(1);
}

/** A YAML text with its documents and their positions (moved by `offset`: a text written inside another), read in `dialect`. */
function positionedText(text: string, options: Pick<PlaceOptions, 'offset' | 'dialect'>): PositionedText {
  const placed = placedText(text, { ...options, keys: true });
  let trees: PositionTree[] | undefined;
  let lines: string[] | undefined;
  return {
    placed,
    get trees() {
      return (trees ??= treesOf(placed));
    },
    get lines() {
      return (lines ??= text.split('\n'));
    },
  };
}

/** `patches[2]` → `['patches', 2]`. */
export function fieldPathOf(field: string): (string | number)[] {
  return field.split(/[[\].]+/).filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/** The document of `docs` that is `config` (its kind and name), if any. */
export function configDocument(docs: readonly Value[], config: Resource): number | undefined {
  const i = docs.findIndex((d) => isMap(d) && d['kind'] === config.kind && isMap(d['metadata']) && d['metadata']['name'] === config.name);
  return i < 0 ? undefined : i;
}

/**
 * Where the text of a string scalar written at `at` starts: a block scalar's (`|`, `>`) on the
 * next line, at the indentation of its first line that is not blank; a quoted one's after the
 * quote; a plain one's where it is.
 */
export function heldTextStart(lines: readonly string[], at: TextPosition): TextPosition {
  const first = (lines[at.line - 1] ?? '').charAt(at.column - 1);
  if (first === '|' || first === '>') {
    const content = lines.slice(at.line).find((l) => l.trim() !== '') ?? '';
    return { line: at.line + 1, column: content.length - content.trimStart().length + 1 };
  }
  return first === '"' || first === "'" ? { line: at.line, column: at.column + 1 } : at;
}


/** The value at `path` of `value`, if any. */
function valueAt(value: Value | undefined, path: ValuePath): Value | undefined {
  let node = value;
  for (const part of path) node = typeof node === 'object' && node !== null ? (node as Record<string | number, Value>)[part] : undefined;
  return node;
}
