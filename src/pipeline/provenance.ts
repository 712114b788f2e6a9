import type { Resource } from '../model/resource.js';
import { sortedKeys } from '../yaml/key-order.js';
import { isMap, isSeq, type Scalar, type Value, type YMap } from '../yaml/value.js';

/** A path in an object: keys of maps, indexes of sequences. */
export type FieldPath = readonly (string | number)[];

/** What a field holds at the end of a path: what the output prints as one value (an integer past 2^53 as a bigint). */
export type { Scalar };

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
  value: Scalar;
  by: WrittenBy;
}

/** A field of the output: its path, its value, who wrote it last, and the values before (oldest first). */
export interface FieldProvenance extends Written {
  /** keys joined with `.`, list items as `[N]`; a key holding `.`, `[`, `]` or `"` as `["key"]` */
  path: string;
  history: Written[];
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
export type Locate = (path: FieldPath, value: Scalar, r: Resource, earlier: readonly Written[]) => WrittenBy;

/** What is known of the values under one point of an object: the value there, or the points below it. */
interface Node {
  leaf?: { current: Written; history: Written[] };
  children?: Map<string | number, Node>;
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

  /** Notes what `resources` hold now, each value written as `locate` says (resources read from a file, say). */
  read(resources: Iterable<Resource>, locate: Locate): void {
    for (const r of resources) this.trees.set(r, update(undefined, r.view, this.trees.get(r), [], (p, v, earlier) => locate(p, v, r, earlier)));
  }

  /** Keeps the resources as they are before a step. */
  beforeStep(resources: Iterable<Resource>): void {
    this.kept.clear();
    for (const r of resources) this.kept.set(r, r.share());
  }

  /**
   * Records what the step changed in `resources` (those it made too), each new value written as
   * `locate` says. A resource the step put in place of one of the same id (a generator merging
   * into a base's ConfigMap) continues that one's records.
   */
  afterStep(resources: Iterable<Resource>, locate: Locate): void {
    const now = [...resources];
    const present = new Set(now);
    const replaced = new Map<string, Resource>();
    for (const r of this.kept.keys()) if (!present.has(r)) replaced.set(r.id.key, r);
    for (const r of now) {
      const predecessor = this.kept.has(r) ? r : replaced.get(r.id.key);
      const before = predecessor && this.kept.get(predecessor);
      if (before === r.view) continue;
      const tree = predecessor && this.trees.get(predecessor);
      this.trees.set(r, update(before, r.view, tree, [], (p, v, earlier) => locate(p, v, r, earlier)));
    }
    this.kept.clear();
  }

  /** What `r` held last at `path`, and who wrote it. */
  written(r: Resource, path: FieldPath): Written | undefined {
    let node = this.trees.get(r);
    for (const part of path) node = node?.children?.get(part);
    return node?.leaf?.current;
  }

  /** Every value of `obj` (what `r` prints) with who wrote it, in the order the output prints them. */
  fieldsOf(r: Resource, obj: YMap): FieldProvenance[] {
    const fields: FieldProvenance[] = [];
    const visit = (value: Value, node: Node | undefined, path: (string | number)[]): void => {
      if (isMap(value)) {
        for (const k of sortedKeys(value)) visit(value[k]!, node?.children?.get(k), [...path, k]);
      } else if (isSeq(value)) {
        value.forEach((item, i) => visit(item, node?.children?.get(i), [...path, i]));
      } else {
        const leaf = node?.leaf;
        const by = leaf?.current.by ?? { file: '', line: 0, column: 0, step: 'build' };
        fields.push({ path: pathText(path), value, by, history: leaf?.history ?? [] });
      }
    };
    visit(obj, this.trees.get(r), []);
    return fields;
  }
}

/**
 * What is known of `now` (at `path`), given what was known of `before`: values that are the
 * same keep their records, new or changed ones get one from `locate`, the earlier one moving to
 * their history.
 */
function update(before: Value | undefined, now: Value, node: Node | undefined, path: (string | number)[], locate: (path: FieldPath, value: Scalar, earlier: readonly Written[]) => WrittenBy): Node {
  if (before === now && node) return node;
  if (isMap(now)) {
    const children = new Map<string | number, Node>();
    const old = isMap(before) ? before : undefined;
    for (const k of Object.keys(now)) children.set(k, update(old?.[k], now[k]!, old && k in old ? node?.children?.get(k) : undefined, [...path, k], locate));
    return { children };
  }
  if (isSeq(now)) {
    const children = new Map<string | number, Node>();
    const old = isSeq(before) ? before : [];
    const matched = matchItems(old, now);
    now.forEach((item, i) => {
      const j = matched[i];
      children.set(i, update(j === undefined ? undefined : old[j], item, j === undefined ? undefined : node?.children?.get(j), [...path, i], locate));
    });
    return { children };
  }
  const scalar = now as Scalar;
  const leaf = node?.leaf;
  if (leaf && !isMap(before) && !isSeq(before) && before === now) return node!;
  const earlier = leaf ? [...leaf.history, leaf.current] : [];
  return { leaf: { current: { value: scalar, by: locate(path, scalar, earlier) }, history: earlier } };
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
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/[.[\]"]/.test(part) || part === '') out += `[${JSON.stringify(part)}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}
