import { KustomizeError } from '../errors.js';
import { parseYamlDocuments, type ParseDocuments } from '../yaml/parse.js';
import { cloneValue, isMap, isSeq, setKey, valuesEqual, writableChild, type Value, type YMap } from '../yaml/value.js';

/** The operations of RFC 6902. */
export const JSON_PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;

/** One RFC 6902 operation. */
export interface JsonPatchOp {
  op: (typeof JSON_PATCH_OPS)[number];
  path: string;
  from?: string;
  value?: Value;
}

/**
 * Reads JSON patch operations written as a JSON array or as YAML (kustomize accepts both: text
 * that does not start with `[` is read as YAML).
 */
export function parseJsonPatch(text: string, file = '', parse: ParseDocuments = parseYamlDocuments): JsonPatchOp[] {
  const ops = jsonPatchIfList(text, file, parse);
  if (!ops) throw patchError(`json: cannot unmarshal object into Go value of type jsonpatch.Patch`, file);
  return ops;
}

/**
 * The same, or undefined when the text's first document is not a list (a strategic-merge
 * patch, say), without building the error: a `patches` entry tries its text both ways.
 */
export function jsonPatchIfList(text: string, file: string, parse: ParseDocuments): JsonPatchOp[] | undefined {
  const docs = text.trimStart().startsWith('[') ? parse(text, file) : parse(text, file, { dialect: 'yaml11' });
  const doc = docs.length === 0 ? [] : docs[0];
  if (!isSeq(doc)) return undefined;
  return doc.map((raw, i) => {
    if (!isMap(raw)) throw patchError(`operation ${i} is not an object`, file);
    const op = raw['op'];
    if (!JSON_PATCH_OPS.includes(op as JsonPatchOp['op'])) {
      throw patchError(`Unexpected kind: ${String(op)}`, file);
    }
    const path = raw['path'];
    if (typeof path !== 'string') throw patchError(`operation ${op} is missing a path`, file);
    const out: JsonPatchOp = { op: op as JsonPatchOp['op'], path };
    if (typeof raw['from'] === 'string') out.from = raw['from'];
    if ('value' in raw) out.value = jsonValue(raw['value']!, file);
    return out;
  });
}

/** A value as JSON holds it: kustomize turns the patch into JSON first, which has no infinities and no NaN (`.inf`, `.nan` in YAML). */
function jsonValue(value: Value, file: string): Value {
  const bad = nonFinite(value);
  if (bad !== undefined) throw patchError(`json: unsupported value: ${Number.isNaN(bad) ? 'NaN' : bad > 0 ? '+Inf' : '-Inf'}`, file);
  return value;
}

function nonFinite(value: Value): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : value;
  if (isSeq(value)) return value.map(nonFinite).find((n) => n !== undefined);
  if (isMap(value)) return Object.values(value).map(nonFinite).find((n) => n !== undefined);
  return undefined;
}

/** Applies the operations in order to `doc` (edited in place, its shared parts copied where they change) and returns the result. */
export function applyJsonPatch(doc: YMap, ops: JsonPatchOp[]): Value {
  let root: Value = doc;
  for (const op of ops) root = applyOne(root, op);
  return root;
}

function applyOne(root: Value, op: JsonPatchOp): Value {
  switch (op.op) {
    case 'add':
      return add(root, op.path, requireValue(op), op.op);
    case 'remove':
      return remove(root, op.path, 'remove');
    case 'replace': {
      const { parent, key } = locate(root, op.path, 'replace');
      if (parent === undefined) return cloneValue(requireValue(op));
      // like evanphx/json-patch v5, which kustomize uses: a missing object key is added, a missing array index fails
      if (isSeq(parent) && get(parent, key) === undefined) throw patchError(`replace operation does not apply: doc is missing key: ${op.path}: missing value`);
      set(parent, key, cloneValue(requireValue(op)), 'replace', op.path);
      return root;
    }
    case 'move': {
      const from = requireFrom(op);
      const value = getAt(root, from, 'move');
      root = remove(root, from, 'move');
      return add(root, op.path, value, 'move');
    }
    case 'copy':
      return add(root, op.path, cloneValue(getAt(root, requireFrom(op), 'copy')), 'copy');
    case 'test': {
      const actual = getAt(root, op.path, 'test', true);
      if (!valuesEqual(actual, op.value ?? null)) throw patchError(`testing value ${op.path} failed: test failed`);
      return root;
    }
  }
}

function add(root: Value, path: string, value: Value, opName: string): Value {
  const { parent, key } = locate(root, path, opName);
  if (parent === undefined) return cloneValue(value);
  if (isSeq(parent)) {
    const index = key === '-' ? parent.length : arrayIndex(key, parent.length + 1, path);
    parent.splice(index, 0, cloneValue(value));
  } else setKey(parent, key, cloneValue(value));
  return root;
}

function remove(root: Value, path: string, opName: string): Value {
  const { parent, key } = locate(root, path, opName);
  if (parent === undefined) throw patchError(`${opName} operation does not apply: cannot remove the document root`);
  if (isSeq(parent)) parent.splice(arrayIndex(key, parent.length, path), 1);
  else {
    if (!Object.prototype.hasOwnProperty.call(parent, key)) {
      throw patchError(`${opName} operation does not apply: doc is missing path: "${path}": missing value`);
    }
    delete parent[key];
  }
  return root;
}

function getAt(root: Value, path: string, opName: string, allowMissing = false): Value {
  const { parent, key } = locate(root, path, opName);
  if (parent === undefined) return root;
  const v = get(parent, key);
  if (v === undefined) {
    if (allowMissing) return null;
    throw patchError(`${opName} operation does not apply: doc is missing from path: ${path}: missing value`);
  }
  return v;
}

function get(parent: YMap | Value[], key: string): Value | undefined {
  if (isSeq(parent)) {
    const i = Number(key);
    return Number.isInteger(i) && i >= 0 && i < parent.length ? parent[i] : undefined;
  }
  return Object.prototype.hasOwnProperty.call(parent, key) ? parent[key] : undefined;
}

function set(parent: YMap | Value[], key: string, value: Value, opName: string, path: string): void {
  if (isSeq(parent)) parent[arrayIndex(key, parent.length, path, opName)] = value;
  else setKey(parent, key, value);
}

/**
 * The container of the pointer's last token, walking the document (undefined for the root
 * pointer ""). It is writable: shared containers on the way (see `shareValue`) are replaced by
 * copies, from the root down, so `root` itself must be writable.
 */
function locate(root: Value, pointer: string, opName: string): { parent: YMap | Value[] | undefined; key: string } {
  if (pointer === '') return { parent: undefined, key: '' };
  if (!pointer.startsWith('/')) throw patchError(`${opName} operation does not apply: invalid JSON pointer "${pointer}"`);
  const tokens = pointer.slice(1).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
  let node: Value = root;
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i]!;
    const next: Value | undefined = isSeq(node) || isMap(node) ? get(node, t) : undefined;
    if (next === undefined || (!isSeq(next) && !isMap(next))) {
      throw patchError(`${opName} operation does not apply: doc is missing path: "${pointer}": missing value`);
    }
    node = writableChild(node as YMap | Value[], isSeq(node) ? Number(t) : t);
  }
  if (!isSeq(node) && !isMap(node)) throw patchError(`${opName} operation does not apply: doc is missing path: "${pointer}": missing value`);
  return { parent: node, key: tokens[tokens.length - 1]! };
}

/** An index into an array of `size` slots; negative indices count from the end, as evanphx/json-patch allows. */
function arrayIndex(key: string, size: number, path: string, opName = 'add'): number {
  if (!/^-?\d+$/.test(key)) throw patchError(`${opName} operation does not apply: value was not a proper array index: '${key}'`);
  let i = Number(key);
  if (i < 0) i += size;
  if (i < 0 || i >= size) throw patchError(`${opName} operation does not apply: Unable to access invalid index: ${key} (path ${path})`);
  return i;
}

function requireValue(op: JsonPatchOp): Value {
  if (!('value' in op) || op.value === undefined) throw patchError(`${op.op} operation does not apply: missing value`);
  return op.value;
}

function requireFrom(op: JsonPatchOp): string {
  if (op.from === undefined) throw patchError(`${op.op} operation does not apply: missing from`);
  return op.from;
}

function patchError(message: string, file = ''): KustomizeError {
  return new KustomizeError('PATCH_FAILED', message, { file });
}
