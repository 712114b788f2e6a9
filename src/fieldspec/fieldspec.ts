import { boundedMemo } from '../memo/bounded-memo.js';
import { KustomizeError } from '../errors.js';
import { ResId, parseApiVersion, type Gvk } from '../model/resid.js';
import type { Shape, StructShape } from '../yaml/decode.js';
import { isMap, owned, setKey, unshared, type Value, type YMap } from '../yaml/value.js';

/**
 * A field spec names a field (by a `/`-separated path) in the resources of a GVK. The
 * builtin transformers change exactly the fields their field specs list. Sequences on the
 * path are crossed implicitly (every element); `name[]` says the field is a sequence.
 */
export interface FieldSpec {
  group?: string;
  version?: string;
  kind?: string;
  /** absent in a config that gives none (`fieldSpecs: [null]`, `- kind: X`): an empty path, which fails when used */
  path?: string;
  create?: boolean;
}

/** The fields naming a GVK, as kustomize's configs write them. */
export const gvkFields = { group: 'string', version: 'string', kind: 'string' } as const;
const FieldSpecShape: StructShape = { struct: 'FieldSpec', fields: { ...gvkFields, path: 'string', create: 'bool' } };
export const FieldSpecsShape: Shape = { list: FieldSpecShape };

/** Whether the spec's GVK (empty parts match anything) selects `gvk`. */
export function fieldSpecSelects(fs: Omit<FieldSpec, 'path'>, gvk: Gvk): boolean {
  return (!fs.kind || fs.kind === gvk.kind) && (!fs.group || fs.group === gvk.group) && (!fs.version || fs.version === gvk.version);
}

/**
 * A function of a GVK computed once per GVK (by group, version and kind alone): transformers ask
 * for every resource which of their field specs apply, and the resources share a few GVKs.
 */
export function perGvk<T>(compute: (gvk: Gvk) => T): (gvk: Gvk) => T {
  const byKind = new Map<string, Map<string, Map<string, T>>>();
  return (gvk) => {
    let byGroup = byKind.get(gvk.kind);
    if (!byGroup) byKind.set(gvk.kind, (byGroup = new Map()));
    let byVersion = byGroup.get(gvk.group);
    if (!byVersion) byGroup.set(gvk.group, (byVersion = new Map()));
    if (byVersion.has(gvk.version)) return byVersion.get(gvk.version)!;
    const value = compute({ group: gvk.group, version: gvk.version, kind: gvk.kind });
    byVersion.set(gvk.version, value);
    return value;
  };
}

/** The specs of `specs` that select a GVK, worked out once per GVK. */
export function specsSelecting<S extends Omit<FieldSpec, 'path'>>(specs: readonly S[]): (gvk: Gvk) => readonly S[] {
  return perGvk((gvk) => specs.filter((fs) => fieldSpecSelects(fs, gvk)));
}

/** Splits `a/b\/c/d` (or `/a/b\/c/d`) into `['a', 'b/c', 'd']` (the same few paths are split for every resource, so results are kept). */
export const splitFieldPath: (path: string) => readonly string[] = boundedMemo(10_000, (path: string) => Object.freeze(split(path)));

/** kustomize lets a path open with its separator (`/spec/x`, `.spec.x`): the empty part before it is dropped. */
export function withoutLeadingEmpty(parts: string[]): string[] {
  return parts.length > 1 && parts[0] === '' ? parts.slice(1) : parts;
}

function split(path: string): string[] {
  const out: string[] = [];
  for (const part of withoutLeadingEmpty(path.split('/'))) {
    const last = out.length - 1;
    if (last >= 0 && out[last]!.endsWith('\\')) out[last] = out[last]!.slice(0, -1) + '/' + part;
    else out.push(part);
  }
  return out;
}

/**
 * What to create when the field is missing and the spec says `create: true` (transformers that
 * never create, like images, pass none); `lenient` walks past a null on the path instead of
 * failing, as kustomize's name-reference and var passes do. In every mode a null item of a
 * sequence is passed over, and a scalar where the path needs a map fails.
 */
type CreateKind = 'scalar' | 'map' | undefined | 'lenient';

/**
 * Called with the map holding the field and the field's name; the visitor reads and writes
 * `holder[key]` (and what is in it: both are writable, copied if they were shared).
 */
export type FieldVisitor = (holder: YMap, key: string) => void;

/**
 * Visits the field `fs.path` of `obj` (every instance of it, crossing sequences), creating
 * it when asked. Errors name the path, as kustomize's do. `obj` must be writable; shared
 * parts on the way to a field it visits are copied (see `shareValue`), the rest stays shared.
 */
export function visitField(obj: YMap, fs: FieldSpec, createKind: CreateKind, visit: FieldVisitor): void {
  try {
    if (!fs.path) throw new FieldPathError('cannot set or create an empty field name');
    const path = splitFieldPath(fs.path);
    walk(obj, path, 0, createKind === 'lenient' || fs.create === true ? createKind : undefined, visit);
  } catch (e) {
    if (e instanceof FieldPathError) {
      throw new KustomizeError('TRANSFORMER_FAILED', `considering field '${fs.path ?? ''}' of object ${describe(obj)}: ${e.message}`);
    }
    throw e;
  }
}

/** An error at a field a visit reached or passed: {@link visitField} names the field and the object in front of it. */
export class FieldPathError extends KustomizeError {
  constructor(message: string) {
    super('TRANSFORMER_FAILED', message);
  }
}

/**
 * Walks `path` from part `at` on (an index, so no level copies the rest of the path). Returns
 * `node`, or a writable copy of it when it was shared and the walk wrote below it: the caller
 * puts the copy in its place, so what the walk does not touch stays shared.
 */
function walk(node: Value, path: readonly string[], at: number, createKind: CreateKind, visit: FieldVisitor): Value {
  if (Array.isArray(node)) {
    let seq = node;
    for (let i = 0; i < seq.length; i++) {
      const item = seq[i]!;
      if (item === null) continue;
      let walked: Value;
      try {
        walked = walk(item, path, at, createKind, visit);
      } catch (e) {
        // kustomize names what was left of the path at each sequence it crossed
        if (e instanceof FieldPathError) throw new FieldPathError(`visit traversal on path: [${path.slice(at).join(' ')}]: ${e.message}`);
        throw e;
      }
      if (walked !== item) (seq = unshared(seq))[i] = walked;
    }
    return seq;
  }
  // (a null never gets here: a null item is passed over above, a null on the way is handled below)
  if (typeof node !== 'object' || node === null) throw new FieldPathError('expected sequence or mapping node');
  let map = node;
  const head = path[at]!;
  const isSeqField = head.endsWith('[]');
  const name = isSeqField ? head.slice(0, -2) : head;
  const last = at === path.length - 1;
  const exists = Object.prototype.hasOwnProperty.call(map, name);
  if (!exists) {
    if (createKind === undefined || createKind === 'lenient' || isSeqField) return map;
    // a scalar is created as null, which no file wrote: the visitor sets what it is (replicas tell it from a string)
    setKey((map = unshared(map)), name, last ? (createKind === 'map' ? {} : null) : {});
  } else if (map[name] === null && !last) {
    // a null on the way becomes what the path needs next
    if (isSeqField || createKind === 'lenient') return map;
    if (createKind === undefined) throw new FieldPathError('expected sequence or mapping node');
    setKey((map = unshared(map)), name, {});
  }
  if (last) {
    map = unshared(map);
    // the visitor may write inside the field's value too (a name reference's items, a label map),
    // which may be a copy made on an earlier visit whose own items are still shared
    const value = map[name]!;
    const own = owned(value);
    if (own !== value) setKey(map, name, own);
    visit(map, name);
    return map;
  }
  const child = map[name]!;
  const walked = walk(child, path, at + 1, createKind, visit);
  if (walked !== child) setKey((map = unshared(map)), name, walked);
  return map;
}

/** The object as kustomize names it in messages: its id, e.g. `Deployment.v1.apps/web.[noNs]`. */
function describe(obj: YMap): string {
  const meta = isMap(obj['metadata']) ? obj['metadata'] : {};
  const text = (v: Value | undefined) => (typeof v === 'string' ? v : '');
  return new ResId({ ...parseApiVersion(text(obj['apiVersion'])), kind: text(obj['kind']) }, text(meta['name']), text(meta['namespace'])).toString();
}
