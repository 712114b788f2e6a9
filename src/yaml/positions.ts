import type { Placements } from './block-subset-reader.js';
import { parseYamlDocuments, readPlaced, type ParseOptions } from './parse.js';
import { isMap as isYMap, type Value } from './value.js';
import { type Alias, Composer, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, Parser, type Node as YamlNode } from 'yaml';

/** Where a value is written in a text: 1-based line and column. */
export interface TextPosition {
  line: number;
  column: number;
}

/** A text's start. */
export const START: TextPosition = { line: 1, column: 1 };

/**
 * Where each value of a YAML document is written: the position of the node, and those of what
 * it holds, by key (a map's) or index (a sequence's). Mirrors the document's values as the
 * parser reads them (an alias's where its anchor is).
 */
export interface PositionTree {
  at: TextPosition;
  /** where the key that holds it is written, for a map's value */
  key?: TextPosition;
  children?: Map<string | number, PositionTree>;
}

/**
 * The position trees of the documents of a YAML text, in the order the reader gives the
 * documents (empty ones left out, as it leaves them out); none for a text that does not parse.
 * `offset` moves them: a patch written inline in a kustomization starts on the line after its
 * key, indented.
 */
export function documentPositions(text: string, offset: TextPosition = START): PositionTree[] {
  return treesOf(placedText(text, { offset, keys: true }));
}

/** The position trees of a placed text's documents (see {@link documentPositions}), with where keys are when it was read with them. */
export function treesOf(placed: PlacedText): PositionTree[] {
  return placed.trees ?? placed.docs.map((doc, i) => placedTree(doc, placed.documentAt(i), placed));
}

/**
 * A YAML text's documents and where their values are, asked value by value: what a build that
 * records provenance keeps of each resource file, whose values it mostly never asks about one
 * by one before printing them (so no tree is made).
 */
export interface PlacedText {
  docs: Value[];
  /** where document `i` starts */
  documentAt(i: number): TextPosition;
  /** where the value at `key` of `holder` (a map or sequence of `docs`, as read) starts; undefined when unknown */
  placeOf(holder: Value | undefined, key: string | number): TextPosition | undefined;
  /** where the key `key` of the map `holder` starts, when the text was read with its keys' places */
  keyOf(holder: Value | undefined, key: string): TextPosition | undefined;
  /** the documents' trees, when the `yaml` package read the text (its reading is lenient: it may place what the build refuses) */
  trees?: PositionTree[];
}

/** How {@link placedText} reads a text. */
export interface PlaceOptions {
  /** where the text starts (a patch written inline in a kustomization: on the line after its key, indented) */
  offset?: TextPosition;
  /** the build's name for the text: one that does not parse then fails as the build's reading does */
  file?: string;
  /** whether to note where maps' keys are too */
  keys?: boolean;
  /** the dialect the build reads the text in (a kustomization's: see `ParseOptions`) */
  dialect?: ParseOptions['dialect'];
}

/**
 * A YAML text's documents, as the build reads them, with where their values are written (and
 * their maps' keys, when asked): read once by the fast reader, which notes where values start,
 * when the text is in its subset (most manifests are). A text that does not parse has no
 * documents, or, when it is a file of the build's (`file`), fails as the build does.
 */
export function placedText(text: string, options: PlaceOptions = {}): PlacedText {
  const { offset = START, file } = options;
  const reading: ParseOptions = options.dialect ? { dialect: options.dialect } : {};
  const placements: Placements = { documents: [], within: new Map(), ...(options.keys && { keys: new Map() }) };
  const docs = readPlaced(text, placements, reading);
  if (docs) {
    const at = positionOf(text, offset);
    return {
      docs,
      documentAt: (i) => at(placements.documents[i]!),
      placeOf: (holder, key) => {
        const start = typeof holder === 'object' && holder !== null ? placements.within.get(holder)?.get(key) : undefined;
        return start === undefined ? undefined : at(start);
      },
      keyOf: (holder, key) => {
        const start = isYMap(holder) ? placements.keys?.get(holder)?.get(key) : undefined;
        return start === undefined ? undefined : at(start);
      },
    };
  }
  // read as the build reads it: a text of the build's (its `file` given) fails as it does
  let parsed: Value[];
  if (file !== undefined) parsed = parseYamlDocuments(text, file, reading);
  else {
    try {
      parsed = parseYamlDocuments(text, '', reading);
    } catch {
      parsed = [];
    }
  }
  return treePlaced(parsed, composedPositions(text, offset));
}

/** The {@link PlacedText} of documents whose position trees are known. */
function treePlaced(docs: Value[], trees: PositionTree[]): PlacedText {
  const within = new Map<object, PositionTree>();
  const note = (value: Value, tree: PositionTree | undefined): void => {
    if (typeof value !== 'object' || value === null || !tree?.children || within.has(value)) return;
    within.set(value, tree);
    for (const [key, child] of tree.children) note((value as Record<string | number, Value>)[key]!, child);
  };
  docs.forEach((doc, i) => note(doc, trees[i]));
  return {
    docs,
    trees,
    documentAt: (i) => trees[i]?.at ?? START,
    placeOf: (holder, key) => (typeof holder === 'object' && holder !== null ? within.get(holder)?.children?.get(key)?.at : undefined),
    keyOf: (holder, key) => (typeof holder === 'object' && holder !== null ? within.get(holder)?.children?.get(key)?.key : undefined),
  };
}

/** {@link documentPositions} read by the `yaml` package, for any YAML (aliases, merge keys, tags, flow maps…). */
export function composedPositions(text: string, offset: TextPosition = START): PositionTree[] {
  const lines = new LineCounter();
  const composer = new Composer({ schema: 'failsafe', uniqueKeys: false, merge: false, strict: false });
  const trees: PositionTree[] = [];
  try {
    for (const doc of composer.compose(new Parser(lines.addNewLine).parse(text))) {
      const contents = doc.contents;
      if (contents === null || (isScalar(contents) && contents.type === 'PLAIN' && contents.value === '' && contents.tag === undefined)) continue;
      trees.push(tree(contents, { lines, offset, doc, visiting: new Set() }));
    }
  } catch {
    return [];
  }
  return trees;
}

/** Offsets in `text` to positions (moved by `offset`). */
function positionOf(text: string, offset: TextPosition): (at: number) => TextPosition {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (at) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + offset.line, column: at - starts[lo]! + offset.column };
  };
}

function placedTree(value: Value, at: TextPosition, placed: PlacedText): PositionTree {
  if (typeof value !== 'object' || value === null) return { at };
  const children = new Map<string | number, PositionTree>();
  const holder = value as Record<string | number, Value>;
  for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
    const childAt = placed.placeOf(value, key);
    if (!childAt) continue;
    const child = placedTree(holder[key]!, childAt, placed);
    const keyAt = typeof key === 'string' ? placed.keyOf(value, key) : undefined;
    children.set(key, keyAt ? { ...child, key: keyAt } : child);
  }
  return { at, children };
}

/** What placing the nodes of one document needs; `visiting` stops an alias to a node that holds it. */
interface Placing {
  lines: LineCounter;
  offset: TextPosition;
  doc: Parameters<Alias['resolve']>[0];
  visiting: Set<YamlNode>;
}

function tree(node: YamlNode, placing: Placing): PositionTree {
  // an alias's values are written where its anchor is
  if (isAlias(node)) {
    const target = node.resolve(placing.doc) as YamlNode | undefined;
    if (target && !placing.visiting.has(target)) return tree(target, placing);
  }
  const at = nodePosition(node, placing);
  if (isAlias(node) || isScalar(node)) return { at };
  placing.visiting.add(node);
  const children = new Map<string | number, PositionTree>();
  if (isSeq(node)) node.items.forEach((item, i) => item && children.set(i, tree(item as YamlNode, placing)));
  if (isMap(node)) {
    const merged: YamlNode[] = [];
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const value = pair.value as YamlNode | null;
      if (key === '<<' && isAlias(value)) merged.push(value);
      else if (key === '<<' && isSeq(value) && value.items.every(isAlias)) merged.push(...(value.items as YamlNode[]));
      // a key with no value is placed where the key is written
      else children.set(key, { ...(value ? tree(value, placing) : tree(pair.key as YamlNode, placing)), key: nodePosition(pair.key as YamlNode, placing) });
    }
    // a merge key's maps give the keys the map does not write itself, the first map first
    for (const source of merged) {
      for (const [key, child] of tree(source, placing).children ?? []) if (!children.has(key)) children.set(key, child);
    }
  }
  placing.visiting.delete(node);
  return { at, children };
}

function nodePosition(node: YamlNode, placing: Placing): TextPosition {
  const pos = placing.lines.linePos(node.range?.[0] ?? 0);
  return { line: pos.line + placing.offset.line - 1, column: pos.col + placing.offset.column - 1 };
}

/** Where a value is written, as {@link positionAt} and {@link placedAt} find it. */
export interface FoundPosition {
  at: TextPosition;
  /** whether the whole path was found (else `at` is the deepest part of it that was) */
  whole: boolean;
  /** where the key that holds the value is written, for a map's value, when known */
  key?: TextPosition;
}

/**
 * {@link positionAt} asked of a placed text, value by value (no tree is made): the value at
 * `path` of document `doc`, or the deepest part of the path the document has.
 */
export function placedAt(placed: PlacedText, doc: number, path: readonly (string | number)[]): FoundPosition {
  let node: Value | undefined = placed.docs[doc];
  let found: FoundPosition = { at: placed.documentAt(doc), whole: true };
  for (const part of path) {
    const child: Value | undefined = typeof node === 'object' && node !== null ? (node as Record<string | number, Value>)[part] : undefined;
    const at = child === undefined ? undefined : placed.placeOf(node, part);
    if (!at) return { ...found, whole: false };
    const key = typeof part === 'string' ? placed.keyOf(node, part) : undefined;
    found = { at, whole: true, ...(key && { key }) };
    node = child;
  }
  return found;
}

/**
 * The position of the value at `path` (keys and indexes), or of the deepest part of the path the
 * tree has; with `key`, where the key that holds that value is, when the tree knows.
 */
export function positionAt(tree: PositionTree, path: readonly (string | number)[]): FoundPosition {
  let node = tree;
  let whole = true;
  for (const part of path) {
    const next = node.children?.get(part);
    if (!next) {
      whole = false;
      break;
    }
    node = next;
  }
  return { at: node.at, whole, ...(node.key && { key: node.key }) };
}
