import type { Resource } from '../model/resource.js';
import { sortedKeys } from '../yaml/key-order.js';
import type { PlacedText, TextPosition } from '../yaml/positions.js';
import { isMap, isSeq, type Scalar, type Value, type YMap } from '../yaml/value.js';

/** A path in an object: keys of maps, indexes of sequences. */
export type FieldPath = readonly (string | number)[];

/**
 * What a field holds at the end of a path: what the output prints as one value, a scalar (an
 * integer past 2^53 as a bigint) or an empty map or list (`emptyDir: {}`, `args: []`).
 */
export type FieldValue = Scalar | EmptyValue;

/** An empty map or list: printed as a value (`{}`, `[]`), with nothing below it. */
type EmptyValue = Readonly<Record<string, never>> | readonly never[];

/** Whether `v` is printed as one value: a scalar, or an empty map or list. */
function isFieldValue(v: Value): boolean {
  return isMap(v) ? Object.keys(v).length === 0 : isSeq(v) ? v.length === 0 : true;
}

/** Who wrote a value: the step, and the file, line and column of the text the value came from. */
export interface WrittenBy {
  /** relative to the directory built (a URL for a fetched file) */
  file: string;
  line: number;
  column: number;
  /**
   * the kustomization field that configured the step, as written there (`namePrefix`,
   * `patches[2]`, `transformers[0]`), or `resource` for a value read from a resource file
   */
  step: string;
}

/** A value and who wrote it. */
export interface Written {
  value: FieldValue;
  by: WrittenBy;
}

/** A field of the output: its path, its value, who wrote it last, and the values before (oldest first). */
export interface FieldProvenance extends Written {
  /** keys joined with `.`, list items as `[N]`; a key holding `.`, `[`, `]` or `"` as `["key"]` */
  path: string;
  history: readonly Written[];
}

/** The fields of one resource of the output. */
export interface ResourceProvenance {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  fields: FieldProvenance[];
}

/** Says who wrote the value at `path` of `r` in a step; `earlier` are the values the field held before it, oldest first. */
export type Locate = (path: FieldPath, value: FieldValue, r: Resource, earlier: readonly Written[]) => WrittenBy;

/**
 * What is known of the values under one point of an object: the value there, or the points
 * below it; or, for a part read from a file and unchanged since, where the file has it (its
 * records are made when asked for: most of what a build reads, no step changes).
 */
interface Node {
  leaf?: { current: Written; history: readonly Written[] };
  children?: Map<string | number, Node>;
  placed?: Placed;
}

/**
 * Where a part read from a text is: the text, the part as read there (`original`; none when
 * the text lacks it), and where it starts (for a part the text lacks, where its holder does).
 */
interface Placed {
  text: PlacedText;
  original: Value | undefined;
  at: TextPosition;
  written: (at: TextPosition) => WrittenBy;
}

/** The part at `key` below the placed part `placed`. */
function placedChild(placed: Placed, key: string | number): Placed {
  const original = placed.original;
  const below = typeof original === 'object' && original !== null ? (original as Record<string | number, Value>)[key] : undefined;
  return { text: placed.text, original: below, at: placed.text.placeOf(original, key) ?? placed.at, written: placed.written };
}

/** The node of the value at `key` below `node`. */
function child(node: Node | undefined, key: string | number): Node | undefined {
  return node?.placed ? { placed: placedChild(node.placed, key) } : node?.children?.get(key);
}

/** No earlier values (shared: most values have none). */
const NO_HISTORY: readonly Written[] = Object.freeze([]);

/** The records of the scalar `value` at `node`. */
function leafOf(node: Node | undefined, value: Value | undefined): Node['leaf'] {
  const placed = node?.placed;
  if (!placed) return node?.leaf;
  return { current: { value: value as FieldValue, by: placed.written(placed.at) }, history: NO_HISTORY };
}

/**
 * The field-level provenance of a build (`explain`): for every value of every resource, who
 * wrote it, and who wrote it before. It watches the steps from outside: before a step it keeps
 * each resource's object, shared (frozen), so the step writes copies (see `Resource`); after it,
 * it compares the objects, and each value that is new or changed is written by that step. Parts
 * a step did not touch are the same objects, so comparing costs little. List items are matched
 * by identity (scalars by value), then by `name`, then by place, so that values keep their history
 * when items move.
 */
export class ProvenanceRecorder {
  private readonly trees = new WeakMap<Resource, Node>();
  private readonly kept = new Map<Resource, YMap>();

  /**
   * Notes what `r`, read from `text`, holds now: each value written where `text` has it
   * (`original` being `r` as read there, starting `at`), as `written` says.
   */
  readPlaced(r: Resource, text: PlacedText, original: Value, at: TextPosition, written: (at: TextPosition) => WrittenBy): void {
    this.trees.set(r, { placed: { text, original, at, written } });
  }

  /** Keeps the resources as they are before a step. */
  beforeStep(resources: Iterable<Resource>): void {
    this.kept.clear();
    for (const r of resources) this.kept.set(r, r.share());
  }

  /**
   * Records what the step changed in `resources` (those it made too), each new value written as
   * the locator `locator` makes says (made when a first value is to be located: most steps
   * change little, and a locator reads the step's files). A resource the step put in place of
   * one of the same id (a generator merging into a base's ConfigMap) continues that one's records.
   */
  afterStep(resources: Iterable<Resource>, locator: () => Locate): void {
    let made: Locate | undefined;
    const locate: Locate = (path, value, r, earlier) => (made ??= locator())(path, value, r, earlier);
    const now = [...resources];
    const present = new Set(now);
    const replaced = new Map<string, Resource>();
    for (const r of this.kept.keys()) if (!present.has(r)) replaced.set(r.id.key, r);
    for (const r of now) {
      const predecessor = this.kept.has(r) ? r : replaced.get(r.id.key);
      const before = predecessor && this.kept.get(predecessor);
      // (most steps leave most resources as they were: their copied top levels hold the same values)
      if (before !== undefined && sameValues(before, r.view)) continue;
      const tree = predecessor && this.trees.get(predecessor);
      this.trees.set(r, update(before, r.view, tree, [], (p, v, earlier) => locate(p, v, r, earlier)));
    }
    this.kept.clear();
  }

  /** What `r` held last at `path`, and who wrote it. */
  written(r: Resource, path: FieldPath): Written | undefined {
    let node = this.trees.get(r);
    let value: Value | undefined = r.view;
    for (const part of path) {
      node = child(node, part);
      value = isMap(value) || isSeq(value) ? (value as Record<string | number, Value>)[part] : undefined;
    }
    return leafOf(node, value)?.current;
  }

  /** Every value of `obj` (what `r` prints) with who wrote it, in the order the output prints them. */
  fieldsOf(r: Resource, obj: YMap): FieldProvenance[] {
    const fields: FieldProvenance[] = [];
    const unknown: WrittenBy = { file: '', line: 0, column: 0, step: 'build' };
    // (paths are written as they grow, and a part read from a file and unchanged is walked with
    // its text: a build's output can hold hundreds of thousands of values)
    const visitPlaced = (value: Value, placed: Placed, path: string): void => {
      if (isFieldValue(value)) fields.push({ path, value: value as FieldValue, by: placed.written(placed.at), history: NO_HISTORY });
      else if (isMap(value)) for (const k of sortedKeys(value)) visitPlaced(value[k]!, placedChild(placed, k), pathWith(path, k));
      else (value as Value[]).forEach((item, i) => visitPlaced(item, placedChild(placed, i), `${path}[${i}]`));
    };
    const visit = (value: Value, node: Node | undefined, path: string): void => {
      if (node?.placed) visitPlaced(value, node.placed, path);
      else if (isFieldValue(value)) fields.push({ path, value: value as FieldValue, by: node?.leaf?.current.by ?? unknown, history: node?.leaf?.history ?? NO_HISTORY });
      else if (isMap(value)) for (const k of sortedKeys(value)) visit(value[k]!, node?.children?.get(k), pathWith(path, k));
      else (value as Value[]).forEach((item, i) => visit(item, node?.children?.get(i), `${path}[${i}]`));
    };
    visit(obj, this.trees.get(r), '');
    return fields;
  }

}

/**
 * What is known of `now` (at `path`), given what was known of `before`: values that are the
 * same keep their records, new or changed ones get one from `locate`, the earlier one moving to
 * their history.
 */
function update(before: Value | undefined, now: Value, node: Node | undefined, path: (string | number)[], locate: (path: FieldPath, value: FieldValue, earlier: readonly Written[]) => WrittenBy): Node {
  if (before === now && node) return node;
  // a map or sequence whose values all keep their records keeps its node (a step copies the maps it writes through)
  if (isMap(now) && !isFieldValue(now)) {
    const children = new Map<string | number, Node>();
    const old = isMap(before) ? before : undefined;
    let same = old !== undefined && node !== undefined && Object.keys(old).length === Object.keys(now).length;
    for (const k of Object.keys(now)) {
      const was = old && k in old ? child(node, k) : undefined;
      const updated = update(old?.[k], now[k]!, was, [...path, k], locate);
      same &&= updated === was;
      children.set(k, updated);
    }
    return same ? node! : { children };
  }
  if (isSeq(now) && now.length > 0) {
    const children = new Map<string | number, Node>();
    const old = isSeq(before) ? before : [];
    const matched = matchItems(old, now);
    let same = node !== undefined && old.length === now.length;
    now.forEach((item, i) => {
      const j = matched[i];
      const was = j === undefined ? undefined : child(node, j);
      const updated = update(j === undefined ? undefined : old[j], item, was, [...path, i], locate);
      same &&= j === i && updated === was;
      children.set(i, updated);
    });
    return same ? node! : { children };
  }
  const value = now as FieldValue;
  // an empty map or list that stays empty keeps its record (a step copies the maps it writes through)
  if (node?.leaf && isFieldValue(before ?? null) && valuesEqualShallow(before, now)) return node;
  const leaf = before === undefined || !isFieldValue(before) ? undefined : leafOf(node, before);
  const earlier = leaf ? [...leaf.history, leaf.current] : [];
  return { leaf: { current: { value, by: locate(path, value, earlier) }, history: earlier } };
}

/** Whether two field values are the same: equal scalars, or both empty maps or both empty lists. */
function valuesEqualShallow(a: Value | undefined, b: Value): boolean {
  return a === b || (isMap(a) && isMap(b)) || (isSeq(a) && isSeq(b));
}

/** Whether `a` and `b` hold the same values: the same objects, or copies of maps and sequences that hold the same. */
function sameValues(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (isMap(a) && isMap(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameValues(a[k]!, b[k]!));
  }
  return isSeq(a) && isSeq(b) && a.length === b.length && a.every((item, i) => sameValues(item, b[i]!));
}

/** For each item of `now`, the index of the item of `before` it is: the same object or scalar, else the same `name`, else the same place. */
function matchItems(before: readonly Value[], now: readonly Value[]): (number | undefined)[] {
  const taken = new Set<number>();
  const out: (number | undefined)[] = new Array(now.length);
  const byIdentity = new Map<Value, number>();
  before.forEach((item, j) => typeof item === 'object' && item !== null && !byIdentity.has(item) && byIdentity.set(item, j));
  now.forEach((item, i) => {
    const j = typeof item === 'object' && item !== null ? byIdentity.get(item) : undefined;
    if (j !== undefined && !taken.has(j)) {
      out[i] = j;
      taken.add(j);
    }
  });
  // a scalar item is the first unmatched one of the same value (an item put in front moves the others)
  now.forEach((item, i) => {
    if (out[i] !== undefined || (typeof item === 'object' && item !== null)) return;
    const j = before.findIndex((b, k) => !taken.has(k) && b === item);
    if (j >= 0) {
      out[i] = j;
      taken.add(j);
    }
  });
  const nameOf = (v: Value | undefined) => (isMap(v) && typeof v['name'] === 'string' ? v['name'] : undefined);
  now.forEach((item, i) => {
    const name = nameOf(item);
    if (out[i] !== undefined || name === undefined) return;
    const j = before.findIndex((b, k) => !taken.has(k) && nameOf(b) === name);
    if (j >= 0) {
      out[i] = j;
      taken.add(j);
    }
  });
  now.forEach((item, i) => {
    if (out[i] !== undefined || i >= before.length || taken.has(i)) return;
    if (isMap(item) === isMap(before[i]) && isSeq(item) === isSeq(before[i])) {
      out[i] = i;
      taken.add(i);
    }
  });
  return out;
}

/** A path as `explain` prints it: keys joined with `.`, list items as `[N]`, an awkward key as `["key"]`. */
export function pathText(path: FieldPath): string {
  let out = '';
  for (const part of path) out = typeof part === 'number' ? `${out}[${part}]` : pathWith(out, part);
  return out;
}

/** `path` (as {@link pathText} writes it) and the key `key` below it. */
function pathWith(path: string, key: string): string {
  if (/[.[\]"]/.test(key) || key === '') return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
}
