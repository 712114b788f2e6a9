import { Document, isMap, isScalar, isSeq, parseDocument, YAMLMap, YAMLSeq, type Node, type Pair } from 'yaml';
import { KustomizeError } from '../errors.js';
import { decodeKustomizationText, type RawKustomization } from '../kinds/kustomization.js';

/**
 * The order kustomize writes a kustomization's fields in (its `kustfile` field order). A field
 * an edit adds goes after the nearest field before it in this order, so a new file reads the
 * way kustomize writes one and an existing file keeps the order its author chose.
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

/** A plain value to put into the document: what `createNode` turns into YAML. */
export type PlainValue = string | number | boolean | PlainValue[] | { [key: string]: PlainValue | undefined };

/**
 * A kustomization file held as a YAML document (the `yaml` package's Document API), so that an
 * edit changes only the nodes it touches: comments, blank lines, key order, quoting and fields
 * the edit does not know stay as written.
 */
export class KustomizationDocument {
  private constructor(
    private readonly doc: Document,
    readonly file: string,
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
    const kd = new KustomizationDocument(doc, file, writesIndentedLists(text), /^(?:[ \t]*\r?\n)*/.exec(text)![0]);
    kd.validate();
    return kd;
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

  /** Sets a field, keeping its place (and comments) if present, else inserting it in kustomize's order. */
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
    const rank = FIELD_ORDER.indexOf(field);
    let at = 0;
    root.items.forEach((p, i) => {
      const key = keyOf(p);
      const r = FIELD_ORDER.indexOf(key as KustomizationField);
      if (r >= 0 && r < rank) at = i + 1;
    });
    root.items.splice(at, 0, this.doc.createPair(field, node));
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

  toString(): string {
    if (this.doc.contents === null) return '';
    return this.leadingBlankLines + this.doc.toString({ indentSeq: this.indentSeq, lineWidth: 0 });
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
