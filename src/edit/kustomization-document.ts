import { Document, isCollection, isMap, isScalar, isSeq, parseDocument, Scalar, YAMLMap, YAMLSeq, type Node, type Pair } from 'yaml';
import { KustomizeError } from '../errors.js';
import { decodeKustomizationText, type RawKustomization } from '../kinds/kustomization.js';
import { KustomizationShape } from '../kinds/shapes.js';
import { compareYamlKeys, emitYaml } from '../yaml/emit.js';
import type { Value, YMap } from '../yaml/value.js';
import { FileLayout, hasOwnComments, printField } from './file-layout.js';
import { fieldShape, isEmptyField, marshalledValue } from './marshalled-value.js';

/**
 * The order kustomize writes a kustomization's fields in (its `kustfile` field order): the
 * fields a file does not have yet are written after those it has, in this order.
 */
const FIELD_ORDER = [
  'apiVersion',
  'kind',
  'metadata',
  'sortOptions',
  'resources',
  'bases',
  'namePrefix',
  'nameSuffix',
  'namespace',
  'crds',
  'commonLabels',
  'labels',
  'commonAnnotations',
  'patchesStrategicMerge',
  'patchesJson6902',
  'patches',
  'configMapGenerator',
  'secretGenerator',
  'helmCharts',
  'helmChartInflationGenerator',
  'helmGlobals',
  'generatorOptions',
  'vars',
  'images',
  // deprecated, never written by kustomize; listed so that `edit fix` can name it
  'imageTags',
  'replacements',
  'replicas',
  'configurations',
  'generators',
  'transformers',
  'validators',
  'components',
  'openapi',
  'buildMetadata',
] as const satisfies readonly (keyof RawKustomization)[];

export type KustomizationField = (typeof FIELD_ORDER)[number];

/** Every field a file may have, in the order new ones are written: kustomize's, then ours (`catalogs`). */
const WRITE_ORDER: readonly string[] = [...FIELD_ORDER, ...Object.keys(KustomizationShape.fields).filter((f) => !(FIELD_ORDER as readonly string[]).includes(f))];

/** A field's name as kustomize spells it, for a key written in any case (`RESOURCES`, `nameprefix`): Go's JSON decoding matches keys that way. */
function fieldNamed(key: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(KustomizationShape.fields, key)) return key;
  const lower = key.toLowerCase();
  return Object.keys(KustomizationShape.fields).find((f) => f.toLowerCase() === lower);
}

/** A plain value to put into the document: what `createNode` turns into YAML. */
export type PlainValue = string | number | boolean | PlainValue[] | { [key: string]: PlainValue | undefined };

/**
 * A kustomization file held as a YAML document (the `yaml` package's Document API), which edits
 * change node by node, together with the file's text cut at its fields ({@link FileLayout}).
 * {@link editedText} writes the file as kustomize's `edit` writes it, keeping what kustomize
 * drops where it can: a field the edit left alone stays exactly as written, and comments
 * inside a changed field stay inside it.
 */
export class KustomizationDocument {
  private constructor(
    private readonly doc: Document,
    readonly file: string,
    private readonly layout: FileLayout,
    /** whether the file indents block sequences under their key (`key:\n  - a`); kustomize does not */
    private readonly indentSeq: boolean,
    /** the blank lines the file starts with, which the `yaml` package drops */
    private readonly leadingBlankLines: string,
  ) {}

  static parse(text: string, file: string): KustomizationDocument {
    // YAML 1.1, as kustomize reads it: a new value `yes` or `on` is written quoted
    const doc = parseDocument(text, { version: '1.1', keepSourceTokens: false });
    const problem = doc.errors[0];
    if (problem) throw new KustomizeError('YAML_INVALID', `${file}: ${problem.message}`, { file });
    if (doc.contents !== null && !isMap(doc.contents)) {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `invalid Kustomization: the file is not a YAML mapping (in ${file})`, { file });
    }
    const layout = FileLayout.of(text, doc);
    const kd = new KustomizationDocument(doc, file, layout, writesIndentedLists(text), /^(?:[ \t]*\r?\n)*/.exec(text)![0]);
    kd.validate();
    kd.spellKeysAsKustomize();
    return kd;
  }

  /** Keys written in another case (`RESOURCES:`) renamed to the field they name; of two keys naming one field, the last counts, as in Go. */
  private spellKeysAsKustomize(): void {
    const root = this.root(false);
    if (!root) return;
    const seen = new Map<string, Pair>();
    for (const pair of [...root.items]) {
      const field = fieldNamed(keyOf(pair));
      if (!field) continue;
      const earlier = seen.get(field);
      if (earlier) root.items.splice(root.items.indexOf(earlier), 1);
      seen.set(field, pair);
      if (keyOf(pair) !== field) pair.key = new Scalar(field);
    }
  }

  /** The fields, decoded and checked with the shapes the build uses (deprecated fields kept). */
  validate(): RawKustomization {
    return decodeKustomizationText(this.toString(), this.file);
  }

  has(field: KustomizationField): boolean {
    return this.root(false)?.has(field) ?? false;
  }

  /** The field's value as plain data (undefined when absent or null). */
  value<T>(field: KustomizationField): T | undefined {
    const node = this.root(false)?.get(field, true) as Node | undefined;
    return (node?.toJSON() ?? undefined) as T | undefined;
  }

  /** The field's node, when it is the kind asked for. */
  mapNode(field: KustomizationField): YAMLMap | undefined {
    const node = this.root(false)?.get(field, true);
    return isMap(node) ? node : undefined;
  }

  seqNode(field: KustomizationField): YAMLSeq | undefined {
    const node = this.root(false)?.get(field, true);
    return isSeq(node) ? node : undefined;
  }

  /** The field's list, created (block style) when absent; an empty flow list `[]` becomes a block list. */
  list(field: KustomizationField): YAMLSeq {
    const existing = this.seqNode(field);
    if (existing) {
      if (existing.items.length === 0) existing.flow = false;
      return existing;
    }
    const seq = new YAMLSeq();
    this.set(field, seq);
    return seq;
  }

  /** The field's map, created when absent; an empty flow map `{}` becomes a block map. */
  map(field: KustomizationField): YAMLMap {
    const existing = this.mapNode(field);
    if (existing) {
      if (existing.items.length === 0) existing.flow = false;
      return existing;
    }
    const map = new YAMLMap();
    this.set(field, map);
    return map;
  }

  /** Sets a field, keeping its place (and comments) if present, else adding it ({@link editedText} decides where new fields are written). */
  set(field: KustomizationField, value: PlainValue | Node): void {
    const root = this.root(true);
    const node = this.node(value);
    const existing = root.items.find((p) => keyOf(p) === field);
    if (existing) {
      const old = existing.value as Node | null;
      if (old && 'comment' in old && old.comment && !node.comment) node.comment = old.comment;
      existing.value = node;
      return;
    }
    root.items.push(this.doc.createPair(field, node));
  }

  /**
   * Puts `value` under `to` where `from` was (its comments and place kept) and drops `from`;
   * for fields that replace deprecated ones. `to` must not exist yet.
   */
  rename(from: KustomizationField, to: KustomizationField, value: PlainValue | Node): void {
    const pair = this.root(false)?.items.find((p) => keyOf(p) === from);
    if (!pair || this.has(to)) throw new KustomizeError('EDIT_CONFLICT', `cannot rename ${from} to ${to}`);
    if (isScalar(pair.key)) pair.key.value = to;
    else pair.key = to;
    pair.value = this.node(value);
  }

  delete(field: KustomizationField): void {
    this.root(false)?.delete(field);
  }

  /** A YAML node for a plain value, map keys sorted as kustomize (Go's YAML marshalling) writes them. */
  node(value: PlainValue | Node): Node {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'toJSON' in value && typeof value.toJSON === 'function') return value as Node;
    return this.doc.createNode(sortKeys(value as PlainValue)) as Node;
  }

  /** The whole document as the `yaml` package prints it (comments kept, untouched formatting mostly kept). */
  toString(): string {
    if (this.doc.contents === null) return '';
    return this.leadingBlankLines + this.doc.toString({ indentSeq: this.indentSeq, lineWidth: 0 });
  }

  /**
   * The file as kustomize's `edit` writes it: the fields the file had, in its order, each with
   * the comment lines above it; empty fields left out (their comments stay); new fields after
   * them in kustomize's order. A field the edit did not change is its text as written; a
   * changed or new one is written as kustomize marshals it (block style, keys sorted, empty
   * struct fields dropped), or, when it has comments inside, printed with them in block style.
   */
  editedText(): string {
    const values = this.validate() as unknown as YMap;
    const pairs = new Map((this.root(false)?.items ?? []).map((p) => [keyOf(p), p]));
    const present = (field: string) => {
      const pair = pairs.get(field);
      return pair && !isEmptyField(values[field], fieldShape(field)) ? pair : undefined;
    };
    const parts = [this.layout.header];
    const written = new Set<string>();
    for (const f of this.layout.fields) {
      parts.push(f.prefix);
      const field = fieldNamed(f.key) ?? f.key;
      if (written.has(field)) continue;
      written.add(field);
      const pair = present(field);
      if (pair) parts.push(f.key === field && printField(pair) === f.print ? f.text : writeField(field, pair, values[field]!));
    }
    parts.push(this.layout.trailer);
    for (const field of WRITE_ORDER) {
      const pair = written.has(field) ? undefined : present(field);
      if (pair) parts.push(writeField(field, pair, values[field]!));
    }
    return joinLines(parts);
  }

  private root(create: true): YAMLMap;
  private root(create: boolean): YAMLMap | undefined;
  private root(create: boolean): YAMLMap | undefined {
    if (isMap(this.doc.contents)) return this.doc.contents;
    if (!create) return undefined;
    const map = new YAMLMap();
    this.doc.contents = map as unknown as Document['contents'];
    return map;
  }
}

/** A map entry's key as text: parsed keys are scalar nodes, keys added by `set` plain strings. */
export function keyOf(pair: Pair): string {
  return String(isScalar(pair.key) ? pair.key.value : pair.key);
}

/** A changed or new field as kustomize writes it, or with the comments it has inside kept (see {@link KustomizationDocument.editedText}). */
function writeField(field: string, pair: Pair, value: Value): string {
  if (!hasOwnComments(pair)) return emitYaml({ [field]: marshalledValue(value, fieldShape(field)) });
  const copy = pair.clone();
  copy.key = new Scalar(field);
  asKustomizeWrites(copy.value as Node | null);
  return printField(copy, { kustomizeStyle: true });
}

/** Block style, map keys in kustomize's order, in place. */
function asKustomizeWrites(node: Node | null): void {
  if (!isCollection(node)) return;
  if (node.flow && node.items.length > 0) {
    node.flow = false;
    // the comment after a flow collection (`{app: web} # the app`) goes above its first item
    if (node.comment) {
      node.commentBefore = [node.commentBefore, node.comment].filter(Boolean).join('\n');
      node.comment = undefined;
    }
  }
  if (isMap(node)) {
    node.items.sort((a, b) => compareYamlKeys(keyOf(a), keyOf(b)));
    for (const pair of node.items) asKustomizeWrites(pair.value as Node | null);
  } else for (const item of node.items) asKustomizeWrites(item as Node | null);
}

/** Pieces of text joined so that each non-empty piece starts on a line of its own. */
function joinLines(parts: string[]): string {
  let out = '';
  for (const part of parts) {
    if (part === '') continue;
    if (out !== '' && !out.endsWith('\n')) out += '\n';
    out += part;
  }
  return out;
}

/** Whether the file's block lists are all indented under their keys (kustomize writes them flush). */
function writesIndentedLists(text: string): boolean {
  const listUnderKey = (indent: string) => new RegExp(`^([ \\t]*)[^\\s#-][^\\n]*:[ \\t]*(#[^\\n]*)?\\n(?:[ \\t]*#[^\\n]*\\n)*\\1${indent}- `, 'm');
  return listUnderKey('[ \\t]+').test(text) && !listUnderKey('').test(text);
}

function sortKeys(value: PlainValue): PlainValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, PlainValue> = {};
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}
