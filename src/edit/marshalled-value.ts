import { KustomizationShape } from '../kinds/shapes.js';
import type { Shape, StructShape } from '../yaml/decode.js';
import { isMap, type Value, type YMap } from '../yaml/value.js';

/**
 * The struct fields Go's encoding/json writes even when they hold their zero value (their json
 * tag has no `omitempty`, or they are structs, which `omitempty` never drops), with the zero
 * value written for them when absent. Every other struct field of a kustomization is dropped
 * when empty.
 */
const ALWAYS_WRITTEN: Readonly<Record<string, Readonly<Record<string, Value>>>> = {
  Replica: { count: 0 },
  Var: { name: '', objref: { name: '' }, fieldref: {} },
  Target: { name: '' },
  TargetSelector: { select: null },
  LegacySortOptions: { orderFirst: null, orderLast: null },
};

/** The shape of a top-level kustomization field (undefined for a field kustomize does not know). */
export function fieldShape(field: string): Shape | undefined {
  return Object.prototype.hasOwnProperty.call(KustomizationShape.fields, field) ? KustomizationShape.fields[field] : undefined;
}

/** Whether kustomize's writer leaves a top-level field out: a nil pointer (struct fields), or an empty string, list or map. */
export function isEmptyField(value: Value | undefined, shape: Shape | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (typeof shape === 'object' && 'struct' in shape) return false;
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (isMap(value)) return Object.keys(value).length === 0;
  return false;
}

/**
 * A decoded field's value as kustomize marshals it (its typed struct through Go's JSON): empty
 * struct fields dropped, fields without `omitempty` written with their zero value. Map keys
 * are ordered by the printer.
 */
export function marshalledValue(value: Value, shape: Shape | undefined): Value {
  if (shape === undefined || typeof shape === 'string') return value;
  if ('list' in shape) return Array.isArray(value) ? value.map((v) => marshalledValue(v, shape.list)) : value;
  if ('map' in shape) {
    if (!isMap(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, marshalledValue(v, shape.map)]));
  }
  return isMap(value) ? marshalledStruct(value, shape) : value;
}

function marshalledStruct(value: YMap, shape: StructShape): YMap {
  const fields = structFields(shape);
  const always = ALWAYS_WRITTEN[shape.struct] ?? {};
  const out: YMap = {};
  for (const [key, v] of Object.entries(value)) {
    const field = fields[key];
    if (!(key in always) && isEmptyStructField(v, field)) continue;
    out[key] = marshalledValue(v, field);
  }
  for (const [key, zero] of Object.entries(always)) if (!(key in out)) out[key] = zero;
  return out;
}

/** `omitempty`: false, 0, "", an empty list or map, or null; a struct (pointer) that is there is written. */
function isEmptyStructField(value: Value, shape: Shape | undefined): boolean {
  if (value === false || value === 0) return true;
  return isEmptyField(value, shape);
}

function structFields(shape: StructShape): Record<string, Shape> {
  return Object.assign({}, ...(shape.inline ?? []).map(structFields), shape.fields) as Record<string, Shape>;
}
