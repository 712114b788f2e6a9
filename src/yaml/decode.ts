import { KustomizeError } from '../errors.js';
import { formatNumber } from './emit.js';
import { isMap, setKey, type Value, type YMap } from './value.js';

/**
 * Declarative shapes for the typed documents kustomize reads (Kustomization, plugin configs,
 * field-spec configurations). Decoding follows Go's encoding/json with DisallowUnknownFields,
 * which is how kustomize reads them, so the errors read the same:
 * `json: unknown field "foo"`, `json: cannot unmarshal number into Go struct field
 * Kustomization.commonLabels of type string`.
 */
export type Shape =
  | 'string'
  | 'bool'
  | 'int'
  | 'any'
  | { list: Shape }
  | { map: Shape }
  | StructShape;

export interface StructShape {
  /** Go type name, used in error messages */
  struct: string;
  fields: Record<string, Shape>;
  /** fields read as if they were the struct's own (Go's `json:",inline"`) */
  inline?: StructShape[];
  /** keep unknown fields instead of refusing them (plugin configs passed through) */
  open?: boolean;
}

/** A value that does not have the shape asked for; `field` says where in the document (`spec.items[0].name`, empty at the top). */
export class DecodeError extends KustomizeError {
  override readonly field: string;

  constructor(message: string, field: string) {
    super('KUSTOMIZATION_INVALID', message, field === '' ? {} : { field });
    this.field = field;
  }
}

interface DecodeOptions {
  /**
   * Read the way kustomize reads plugin configs (sigs.k8s.io/yaml.Unmarshal): unknown fields
   * are ignored and scalars are accepted where a string is expected (`51` becomes "51").
   */
  lenient?: boolean;
}

export function decode<T>(value: Value | undefined, shape: Shape, options: DecodeOptions = {}): T {
  return new Decoder(options.lenient ?? false).value(value, shape, TOP, '') as T;
}

/**
 * Where a value sits: a link to its parent, made into text only for an error (a document has
 * many fields and decodes without one). `goField` is the Go struct field a struct's key names.
 */
interface Where {
  readonly up: Where | undefined;
  readonly key: string | number;
  readonly goField?: string;
}

const TOP: Where = { up: undefined, key: '' };

/** The Go struct fields on the way, outermost first (list entries and map keys add none). */
function goPath(w: Where): string[] {
  const out: string[] = [];
  for (let at: Where | undefined = w; at; at = at.up) if (at.goField !== undefined) out.push(at.goField);
  return out.reverse();
}

/** The field path with list indexes, e.g. `spec.items[0].name` (empty at the top). */
function fieldPathOf(w: Where): string {
  if (w.up === undefined) return '';
  const parent = fieldPathOf(w.up);
  if (typeof w.key === 'number') return `${parent}[${w.key}]`;
  return parent === '' ? w.key : `${parent}.${w.key}`;
}

class Decoder {
  constructor(private readonly lenient: boolean) {}

  /** `owner` is the Go struct the innermost struct field belongs to (for kustomize's messages). */
  value(v: Value | undefined, shape: Shape, at: Where, owner: string): unknown {
    if (v === undefined || v === null) return undefined;
    if (shape === 'any') return v;
    if (shape === 'string') {
      if (typeof v === 'string') return v;
      if (this.lenient && typeof v !== 'object') return typeof v === 'number' || typeof v === 'bigint' ? formatNumber(v) : String(v);
      this.typeError(v, 'string', at, owner);
    }
    if (shape === 'bool') {
      if (typeof v !== 'boolean') this.typeError(v, 'bool', at, owner);
      return v;
    }
    if (shape === 'int') {
      if (typeof v === 'bigint') return Number(v);
      if (typeof v !== 'number' || !Number.isInteger(v)) this.typeError(v, 'int64', at, owner);
      return v;
    }
    if ('list' in shape) {
      if (!Array.isArray(v)) this.typeError(v, `[]${goType(shape.list)}`, at, owner);
      return v.map((item, i) => this.value(item, shape.list, { up: at, key: i }, owner) ?? zero(shape.list));
    }
    if ('map' in shape) {
      if (!isMap(v)) this.typeError(v, `map[string]${goType(shape.map)}`, at, owner);
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) setKey(out as YMap, k, (this.value(v[k], shape.map, { up: at, key: k }, owner) ?? zero(shape.map)) as Value);
      return out;
    }
    return this.struct(v, shape, at, owner);
  }

  private struct(v: Value, shape: StructShape, at: Where, owner: string): Record<string, unknown> {
    if (!isMap(v)) this.typeError(v, `types.${shape.struct}`, at, owner);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) {
      const found = lookupField(shape, key);
      if (found === undefined) {
        if (this.lenient) continue;
        if (shape.open) {
          setKey(out as YMap, key, v[key]!);
          continue;
        }
        throw new DecodeError(`json: unknown field "${key}"`, fieldPathOf({ up: at, key }));
      }
      const [name, field] = found;
      const decoded = this.value(v[key], field, { up: at, key, goField: name }, shape.struct);
      if (decoded !== undefined) out[name] = decoded;
    }
    return out;
  }

  private typeError(v: Value, goTypeName: string, at: Where, owner: string): never {
    const path = goPath(at);
    const into = path.length > 0 ? `Go struct field ${owner}.${path.join('.')}` : 'Go value';
    throw new DecodeError(`json: cannot unmarshal ${jsonKind(v)} into ${into} of type ${goTypeName}`, fieldPathOf(at));
  }
}

/** The field `key` names: an exact match first, else a case-insensitive one (Go's encoding/json matches field names that way). */
function lookupField(shape: StructShape, key: string): [string, Shape] | undefined {
  const all = allFields(shape);
  if (Object.prototype.hasOwnProperty.call(all, key)) return [key, all[key]!];
  const lower = key.toLowerCase();
  for (const name of Object.keys(all)) if (name.toLowerCase() === lower) return [name, all[name]!];
  return undefined;
}

const fieldsCache = new WeakMap<StructShape, Record<string, Shape>>();

function allFields(shape: StructShape): Record<string, Shape> {
  let f = fieldsCache.get(shape);
  if (!f) {
    f = Object.assign({}, ...(shape.inline ?? []).map(allFields), shape.fields) as Record<string, Shape>;
    fieldsCache.set(shape, f);
  }
  return f;
}

/** What Go's encoding/json leaves for a `null` list item or map value: the type's zero value (an empty struct for a struct). */
function zero(shape: Shape): unknown {
  if (shape === 'string') return '';
  if (shape === 'bool') return false;
  if (shape === 'int') return 0;
  if (typeof shape === 'object' && 'struct' in shape) return {};
  return undefined;
}

function goType(shape: Shape): string {
  if (typeof shape === 'string') return shape === 'any' ? 'interface {}' : shape === 'int' ? 'int' : shape;
  if ('list' in shape) return `[]${goType(shape.list)}`;
  if ('map' in shape) return `map[string]${goType(shape.map)}`;
  return `types.${shape.struct}`;
}

function jsonKind(v: Value): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? 'number' : `number ${v}`;
  if (Array.isArray(v)) return 'array';
  return 'object';
}
