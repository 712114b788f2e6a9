import { resolve } from '../fs/path.js';
import { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { FieldValue, ResourceProvenance, Written, WrittenBy } from '../pipeline/provenance.js';

/** A resource of a root's output, as the records name it. */
type RecordedResource = Omit<ResourceProvenance, 'fields'>;

/** A value of a root's output whose text is at some place of a file: now, or before a later step changed it. */
export interface WrittenHere {
  resource: RecordedResource;
  /** the output's field: its path, its value, who wrote it last */
  field: Written & { path: string };
  /** what was written at the place (the field's value then) */
  written: Written;
  /** whether the output still holds it (no later step changed the value) */
  current: boolean;
  /** whether it is the field's first value (where a resource's name or kind was read or made) */
  first: boolean;
  /** the output's resource, as selectors select it (undefined when the index was made without them) */
  output?: Resource;
}

/** A field of an output resource: its value, who wrote it last, and its earlier values. */
interface RecordedField extends Written {
  path: string;
  /** its earlier values, oldest first */
  history: Written[];
}

/**
 * How many characters of a string value are kept: a hover shows 77 (a CRD's descriptions run to
 * thousands, and a root's records hold hundreds of thousands of values).
 */
export const KEPT_CHARACTERS = 80;

/** The places of one file that wrote values, sorted by line and column: each a field's value now (`ref` ≥ 0, the field) or an earlier one (`~ref`, the earlier value). */
interface FilePlaces {
  /** the file as the records name it (relative to the root, as `WrittenBy.file`) */
  file: string;
  lines: Int32Array;
  columns: Int32Array;
  refs: Int32Array;
}

/** The fields' columns: the resource, the path (a node of the path tree), the value, and who wrote it last (file, line, column, step). */
const FIELD_COLUMNS = 7;

/** The earlier values' columns: the field, the value, and where and by which step it was written (file, line, column, step). */
const EARLIER_COLUMNS = 6;

/**
 * `explain`'s records of one root's build, found by the place each value was written: which
 * values of the output a line of a resource, patch, generator or kustomization file wrote.
 *
 * Kept compact, for a root's output can hold a million values: every name, path part, file and
 * value is held once (a string value cut to {@link KEPT_CHARACTERS}), a field's path as a node of
 * a tree of paths, and the rest in typed arrays; {@link bytes} estimates what it holds, and
 * {@link at} makes the few objects a position asks for.
 */
export class RecordIndex {
  /** an estimate of the memory it holds (bytes) */
  readonly bytes: number;
  /** how many values it holds, histories counted */
  readonly size: number;
  /** the output's resources (ids, earlier names), as selectors select among them: what navigation asks */
  readonly resources: ResourceMap;
  private readonly outputs: readonly Resource[];
  private readonly outputIndex = new Map<Resource, number>();
  private readonly strings: readonly string[];
  private readonly values: readonly FieldValue[];
  /** per resource: the string ids of its apiVersion, kind, namespace, name */
  private readonly resourceIds: Int32Array;
  /** per resource, its first field (and one past the last resource's last) */
  private readonly fieldStarts: Int32Array;
  /** per field, its first earlier value (and one past the last field's last) */
  private readonly earlierStarts: Int32Array;
  /** per node of the path tree: its parent (-1 at the top) and the text it adds (`spec`, `.replicas`, `["a.b"]`: a string's id; `[N]`: -N-1) */
  private readonly pathParents: Int32Array;
  private readonly pathParts: Int32Array;
  /** {@link FIELD_COLUMNS} per field */
  private readonly fields: Int32Array;
  /** {@link EARLIER_COLUMNS} per earlier value */
  private readonly earlier: Int32Array;
  private readonly places: ReadonlyMap<string, FilePlaces>;

  /** `outputs` are the build's resources, in output order, as `records` are */
  constructor(records: readonly ResourceProvenance[], dir: string, outputs: readonly Resource[] = []) {
    const made = new IndexBuilder(dir);
    for (const resource of records) made.resource(resource);
    const built = made.finish();
    this.outputs = outputs;
    this.resources = new ResourceMap(outputs);
    outputs.forEach((r, i) => this.outputIndex.set(r, i));
    this.strings = built.strings;
    this.values = built.values;
    this.resourceIds = built.resources;
    this.fieldStarts = built.fieldStarts;
    this.earlierStarts = built.earlierStarts;
    this.pathParents = built.pathParents;
    this.pathParts = built.pathParts;
    this.fields = built.fields;
    this.earlier = built.earlier;
    this.places = built.places;
    this.size = built.size;
    this.bytes = built.bytes;
  }

  /**
   * What the value at the 1-based `line` and `column` of `file` wrote: the value starting at or
   * before the column (the key before a line's value counts as that value).
   */
  at(file: string, line: number, column: number): WrittenHere[] {
    const places = this.places.get(file);
    if (!places) return [];
    const { lines, columns } = places;
    let first = lowerBound(lines, line);
    let end = first;
    while (end < lines.length && lines[end] === line) end++;
    if (first === end) return [];
    // the run is sorted by column: the last start at or before the column, else the first
    let start = columns[first]!;
    for (let i = first; i < end && columns[i]! <= column; i++) start = columns[i]!;
    while (columns[first] !== start) first++;
    const out: WrittenHere[] = [];
    for (let i = first; i < end && columns[i] === start; i++) out.push(this.here(places, i));
    return out;
  }

  /** The fields of an output resource (none for one the index was not made with). */
  fieldsOf(output: Resource): RecordedField[] {
    const r = this.outputIndex.get(output);
    if (r === undefined) return [];
    const fields: RecordedField[] = [];
    for (let field = this.fieldStarts[r]!; field < this.fieldStarts[r + 1]!; field++) {
      const history: Written[] = [];
      for (let e = this.earlierStarts[field]!; e < this.earlierStarts[field + 1]!; e++) history.push(this.earlierValue(e));
      fields.push({ ...this.fieldValue(field), path: this.path(this.fields[field * FIELD_COLUMNS + 1]!), history });
    }
    return fields;
  }

  private here(places: FilePlaces, i: number): WrittenHere {
    const ref = places.refs[i]!;
    const current = ref >= 0;
    const field = current ? ref : this.earlier[~ref * EARLIER_COLUMNS]!;
    const f = field * FIELD_COLUMNS;
    const now = this.fieldValue(field);
    const first = current ? this.earlierStarts[field] === this.earlierStarts[field + 1] : ~ref === this.earlierStarts[field];
    const r = this.fields[f]!;
    const output = this.outputs[r];
    return { resource: this.resource(r), field: { path: this.path(this.fields[f + 1]!), ...now }, written: current ? now : this.earlierValue(~ref), current, first, ...(output && { output }) };
  }

  private fieldValue(field: number): Written {
    const f = field * FIELD_COLUMNS;
    const c = this.fields;
    return { value: this.values[c[f + 2]!]!, by: { file: this.strings[c[f + 3]!]!, line: c[f + 4]!, column: c[f + 5]!, step: this.strings[c[f + 6]!]! } };
  }

  private earlierValue(e: number): Written {
    const c = this.earlier;
    const at = e * EARLIER_COLUMNS;
    return { value: this.values[c[at + 1]!]!, by: { file: this.strings[c[at + 2]!]!, line: c[at + 3]!, column: c[at + 4]!, step: this.strings[c[at + 5]!]! } };
  }

  private resource(r: number): RecordedResource {
    const [apiVersion, kind, namespace, name] = [0, 1, 2, 3].map((k) => this.strings[this.resourceIds[r * 4 + k]!]!) as [string, string, string, string];
    return { apiVersion, kind, namespace, name };
  }

  private path(node: number): string {
    const parts: string[] = [];
    for (let n = node; n >= 0; n = this.pathParents[n]!) {
      const part = this.pathParts[n]!;
      parts.push(part >= 0 ? this.strings[part]! : `[${-part - 1}]`);
    }
    return parts.reverse().join('');
  }
}

/** The first index of the sorted `values` holding `value` or more. */
function lowerBound(values: Int32Array, value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A part of a path as `explain` writes it: a key (`.key`, or `key` first), an index (`[0]`), an awkward key (`["a.b"]`). */
const PATH_PART = /\["(?:[^"\\]|\\.)*"\]|\[\d+\]|\.?[^.[]+/y;

/** The keys of an empty map and an empty list among the values (every other value is its own key). */
const EMPTY_MAP = Symbol('{}');
const EMPTY_LIST = Symbol('[]');

/** A string of its own: a short part cut from a long text would hold the whole text (a JavaScript engine slices strings). */
function own(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/** A value as the records keep it: a long string cut. */
function kept(value: FieldValue): FieldValue {
  return typeof value === 'string' && value.length > KEPT_CHARACTERS ? value.slice(0, KEPT_CHARACTERS) : value;
}

/** Gathers a root's records into the columns of a {@link RecordIndex}. */
class IndexBuilder {
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private readonly values: FieldValue[] = [];
  private readonly valueIds = new Map<unknown, number>();
  private readonly resources: number[] = [];
  private readonly pathParents: number[] = [];
  private readonly pathParts: number[] = [];
  private readonly pathIds = new Map<string, number>();
  /** the last path noted: the parts it has, where each ends, and their nodes (the next field, in printing order, shares most of them) */
  private readonly last = { path: '', ends: [] as number[], nodes: [] as number[] };
  private readonly fields: number[] = [];
  private readonly fieldStarts: number[] = [];
  private readonly earlier: number[] = [];
  private readonly earlierStarts: number[] = [];
  /** per absolute file: its name as written, and its places as line, column, ref triples */
  private readonly places = new Map<string, { file: string; triples: number[] }>();
  /** the same, by the name as written (undefined: no local place) */
  private readonly placesByName = new Map<string, { file: string; triples: number[] } | undefined>();
  private size = 0;

  constructor(private readonly dir: string) {}

  resource(resource: ResourceProvenance): void {
    const r = this.resources.length / 4;
    this.fieldStarts.push(this.fields.length / FIELD_COLUMNS);
    this.resources.push(this.string(resource.apiVersion), this.string(resource.kind), this.string(resource.namespace), this.string(resource.name));
    for (const field of resource.fields) {
      const f = this.fields.length / FIELD_COLUMNS;
      const by = field.by;
      this.fields.push(r, this.path(field.path), this.value(field.value), this.string(by.file), by.line, by.column, this.string(by.step));
      this.note(by, f);
      this.earlierStarts.push(this.earlier.length / EARLIER_COLUMNS);
      for (const written of field.history) {
        const e = this.earlier.length / EARLIER_COLUMNS;
        const at = written.by;
        this.earlier.push(f, this.value(written.value), this.string(at.file), at.line, at.column, this.string(at.step));
        this.note(at, ~e);
      }
    }
  }

  finish() {
    const places = new Map<string, FilePlaces>();
    let bytes = 0;
    for (const [path, { file, triples }] of this.places) {
      const n = triples.length / 3;
      // sorted by line, then column, then as recorded (a field before its earlier values)
      const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => triples[a * 3]! - triples[b * 3]! || triples[a * 3 + 1]! - triples[b * 3 + 1]! || a - b);
      const [lines, columns, refs] = [new Int32Array(n), new Int32Array(n), new Int32Array(n)];
      order.forEach((i, at) => {
        lines[at] = triples[i * 3]!;
        columns[at] = triples[i * 3 + 1]!;
        refs[at] = triples[i * 3 + 2]!;
      });
      places.set(path, { file, lines, columns, refs });
      bytes += 64 + 2 * path.length + n * 12;
    }
    const arrays = {
      resources: Int32Array.from(this.resources),
      fieldStarts: Int32Array.from([...this.fieldStarts, this.fields.length / FIELD_COLUMNS]),
      earlierStarts: Int32Array.from([...this.earlierStarts, this.earlier.length / EARLIER_COLUMNS]), pathParents: Int32Array.from(this.pathParents), pathParts: Int32Array.from(this.pathParts), fields: Int32Array.from(this.fields), earlier: Int32Array.from(this.earlier) };
    for (const a of Object.values(arrays)) bytes += a.byteLength;
    // a string: a header and its characters; each slot of an array: a pointer
    for (const s of this.strings) bytes += 24 + 2 * s.length + 8;
    for (const v of this.values) bytes += 8 + (typeof v === 'string' ? 24 + 2 * v.length : 16);
    return { strings: this.strings, values: this.values, places, size: this.size, bytes, ...arrays };
  }

  /** Notes that the value `ref` was written at `by`, if that is a place of a file here. */
  private note(by: WrittenBy, ref: number): void {
    let file = this.placesByName.get(by.file);
    if (file === undefined && !this.placesByName.has(by.file)) this.placesByName.set(by.file, (file = this.placesOf(by.file)));
    if (!file) return;
    file.triples.push(by.line, by.column, ref);
    this.size++;
  }

  private placesOf(name: string): { file: string; triples: number[] } | undefined {
    // a value the build made (no source) or a fetched file's (a URL) is at no local place
    if (name === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(name)) return undefined;
    const path = resolve(this.dir, name);
    let file = this.places.get(path);
    if (!file) this.places.set(path, (file = { file: this.strings[this.string(name)]!, triples: [] }));
    return file;
  }

  private string(s: string): number {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.push(own(s)) - 1;
      this.stringIds.set(this.strings[id]!, id);
    }
    return id;
  }

  private value(value: FieldValue): number {
    const v = kept(value);
    const key = typeof v === 'object' && v !== null ? (Array.isArray(v) ? EMPTY_LIST : EMPTY_MAP) : v;
    let id = this.valueIds.get(key);
    if (id === undefined) {
      id = this.values.push(typeof v === 'string' ? own(v) : v) - 1;
      this.valueIds.set(key, id);
    }
    return id;
  }

  /** The node of the path tree for `path`, made with its parents as needed. */
  private path(path: string): number {
    const last = this.last;
    // the parts of the last path this one starts with too (where a part of this one ends: `a.b` is no part of `a.bc`)
    let k = last.ends.length;
    for (; k > 0; k--) {
      const end = last.ends[k - 1]!;
      if ((end === path.length || (end < path.length && '.['.includes(path[end]!))) && path.startsWith(last.path.slice(0, end))) break;
    }
    const { ends, nodes } = last;
    ends.length = k;
    nodes.length = k;
    let at = ends.at(-1) ?? 0;
    while (at < path.length) {
      PATH_PART.lastIndex = at;
      // (a path explain would not write is kept whole from there)
      const part = PATH_PART.exec(path)?.[0] ?? path.slice(at);
      const parent = nodes.at(-1) ?? -1;
      const key = `${parent}\u0000${part}`;
      let node = this.pathIds.get(key);
      if (node === undefined) {
        node = this.pathParents.push(parent) - 1;
        // (an index is no string: a list of a million items has a million of them)
        this.pathParts.push(part.startsWith('[') && !part.startsWith('["') ? -Number(part.slice(1, -1)) - 1 : this.string(part));
        this.pathIds.set(key, node);
      }
      at += part.length;
      ends.push(at);
      nodes.push(node);
    }
    last.path = path;
    return nodes.at(-1) ?? -1;
  }
}
