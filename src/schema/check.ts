/**
 * Checks a value against a schema, the way the Kubernetes API server would take it: types (an
 * integer is a number; `int-or-string` and quantities take both), `required`, `enum`, `const`,
 * `pattern` (RE2, as the API server's Go), lengths and bounds, the Kubernetes formats, the
 * `x-kubernetes-*` extensions (unknown fields kept, embedded resources, the uniqueness of
 * `set` and `map` lists) and JSON Schema's `allOf`/`anyOf`/`oneOf`/`not`. A null is taken as
 * unset, as the API server takes it (it prunes nulls a schema does not allow). With `strict`,
 * a field an object's schema does not declare is refused (kubeconform's `-strict`).
 */
import { RE2JS } from 're2js';
import { acceptsNumbers, formatProblem } from './formats.js';
import { follow, type JsonType, type SchemaLink, type SchemaNode } from './node.js';

/** A path in a value: keys of maps, indexes of lists. */
export type ValuePath = readonly (string | number)[];

/** What a violation is about, which says where its cause was written. */
export type ViolationKind =
  /** the value at `path` is of the wrong type, or breaks a rule of its own (enum, format, bounds…) */
  | 'value'
  /** the object at `path` lacks a field */
  | 'required'
  /** the key that ends `path` is not a field of its object */
  | 'unknown'
  /** the list item at `path` repeats the key of an earlier one */
  | 'duplicate';

export interface Violation {
  path: ValuePath;
  kind: ViolationKind;
  message: string;
  /** of a `required` violation: the field the object at `path` lacks */
  missing?: string;
}

export interface CheckOptions {
  /** refuse fields no schema declares */
  strict: boolean;
  /**
   * Schemas of top-level fields that stand in for those the value's schema gives: a custom
   * resource's `metadata` is an ObjectMeta whatever its CRD writes.
   */
  rootFields?: ReadonlyMap<string, SchemaLink>;
}

/** The violations of `value` against `schema`, in the order the value's fields are walked. */
export function checkValue(value: unknown, schema: SchemaNode, options: CheckOptions): Violation[] {
  const out: Violation[] = [];
  new Checker(options, out).check(value, schema, []);
  return out;
}

/** A value's JSON type (`integer` for whole numbers). */
function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'bigint':
      return 'integer';
    case 'number':
      return Number.isInteger(v) ? 'integer' : 'number';
    default:
      return 'object';
  }
}

/** A value as a message shows it: short scalars in full. */
function shown(v: unknown): string {
  const type = jsonTypeOf(v);
  if (type === 'object' || type === 'array') return type === 'object' ? 'a map' : 'a list';
  const text = typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
  return text.length > 60 ? `${type} ${text.slice(0, 57)}...` : `${type} ${text}`;
}

const ARTICLE: Readonly<Record<JsonType, string>> = {
  object: 'a map',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
};

/** RE2 programs of the patterns seen, by pattern (schemas repeat theirs on every resource); null for one RE2 cannot compile. */
type Patterns = Map<string, RE2JS | null>;

class Checker {
  private readonly patterns: Patterns = new Map();

  constructor(
    private readonly options: CheckOptions,
    private readonly out: Violation[],
  ) {}

  /** Checks `value` at `path` (a stack the walk pushes onto and pops: a violation takes a copy). */
  check(value: unknown, link: SchemaLink, path: (string | number)[]): void {
    const node = follow(link);
    // a reference that does not resolve says nothing
    if (!node || value === null || value === undefined) return;
    const type = jsonTypeOf(value);
    if (!this.typeFits(node, type)) {
      this.report(path, 'value', `${TYPE_MISMATCH}${this.expected(node)}, got ${shown(value)}`);
      return;
    }
    if (node.enum && !node.enum.some((e) => sameJson(e, value))) {
      const allowed = node.enum.map((e) => JSON.stringify(e)).join(', ');
      this.report(path, 'value', `unsupported value ${JSON.stringify(typeof value === 'bigint' ? value.toString() : value)}: must be one of ${allowed}`);
    }
    if (node.const && !sameJson(node.const.value, value)) this.report(path, 'value', `must be ${JSON.stringify(node.const.value)}`);
    if (type === 'string') this.checkString(value as string, node, path);
    else if (type === 'integer' || type === 'number') this.checkNumber(value as number | bigint, node, path);
    else if (type === 'array') this.checkList(value as unknown[], node, path);
    else if (type === 'object') this.checkObject(value as Record<string, unknown>, node, path);
    this.checkCombinations(value, node, path);
  }

  private typeFits(node: SchemaNode, type: JsonType): boolean {
    if (node.intOrString || node.format === 'int-or-string') return type === 'integer' || type === 'string';
    const types = node.types;
    if (!types) return true;
    if (types.includes(type)) return true;
    if (type === 'integer' && types.includes('number')) return true;
    return (type === 'integer' || type === 'number') && types.includes('string') && acceptsNumbers(node.format);
  }

  private expected(node: SchemaNode): string {
    if (node.intOrString || node.format === 'int-or-string') return 'an integer or a string';
    const names = (node.types ?? []).map((t) => ARTICLE[t]);
    if (acceptsNumbers(node.format)) names.push('a number');
    return names.join(' or ');
  }

  private checkString(s: string, node: SchemaNode, path: (string | number)[]): void {
    if (node.format) {
      const problem = formatProblem(node.format, s);
      if (problem) this.report(path, 'value', problem);
    }
    if (node.minLength !== undefined || node.maxLength !== undefined) {
      const length = codePoints(s);
      if (node.minLength !== undefined && length < node.minLength) this.report(path, 'value', `must be at least ${node.minLength} characters long`);
      if (node.maxLength !== undefined && length > node.maxLength) this.report(path, 'value', `must be at most ${node.maxLength} characters long`);
    }
    if (node.pattern !== undefined) {
      const re = this.pattern(node.pattern);
      if (re && !re.matcher(s).find()) this.report(path, 'value', `${JSON.stringify(s)} does not match the pattern ${node.pattern}`);
    }
  }

  private pattern(source: string): RE2JS | null {
    let re = this.patterns.get(source);
    if (re === undefined) {
      try {
        re = RE2JS.compile(source);
      } catch {
        // a pattern RE2 cannot read checks nothing (the API server refuses such a CRD)
        re = null;
      }
      this.patterns.set(source, re);
    }
    return re;
  }

  private checkNumber(n: number | bigint, node: SchemaNode, path: (string | number)[]): void {
    if (node.format) {
      const problem = formatProblem(node.format, n);
      if (problem) this.report(path, 'value', problem);
    }
    const v = Number(n);
    if (node.minimum !== undefined && v < node.minimum) this.report(path, 'value', `must be at least ${node.minimum}, got ${String(n)}`);
    if (node.maximum !== undefined && v > node.maximum) this.report(path, 'value', `must be at most ${node.maximum}, got ${String(n)}`);
    if (node.exclusiveMinimum !== undefined && v <= node.exclusiveMinimum) this.report(path, 'value', `must be greater than ${node.exclusiveMinimum}, got ${String(n)}`);
    if (node.exclusiveMaximum !== undefined && v >= node.exclusiveMaximum) this.report(path, 'value', `must be less than ${node.exclusiveMaximum}, got ${String(n)}`);
    if (node.multipleOf !== undefined && node.multipleOf > 0) {
      const q = v / node.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9) this.report(path, 'value', `must be a multiple of ${node.multipleOf}, got ${String(n)}`);
    }
  }

  private checkList(list: unknown[], node: SchemaNode, path: (string | number)[]): void {
    if (node.minItems !== undefined && list.length < node.minItems) this.report(path, 'value', `must have at least ${node.minItems} item${node.minItems === 1 ? '' : 's'}`);
    if (node.maxItems !== undefined && list.length > node.maxItems) this.report(path, 'value', `must have at most ${node.maxItems} item${node.maxItems === 1 ? '' : 's'}`);
    if (node.items) {
      for (let i = 0; i < list.length; i++) {
        path.push(i);
        this.check(list[i], node.items, path);
        path.pop();
      }
    }
    if (node.listType === 'map' && node.listMapKeys && node.listMapKeys.length > 0) this.uniqueByKeys(list, node, path);
    else if (node.listType === 'set' || node.uniqueItems) this.uniqueItems(list, path);
  }

  /** A `set` list (or one with `uniqueItems`): no item twice. */
  private uniqueItems(list: unknown[], path: (string | number)[]): void {
    const seen = new Map<string, number>();
    list.forEach((item, i) => {
      const key = canonicalJson(item);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else this.report([...path, i], 'duplicate', typeof item === 'object' && item !== null ? `duplicate of item ${first}` : `duplicate item ${canonicalJson(item)} (also item ${first})`);
    });
  }

  /** A `map` list: no two items with the same values of the keys (a key an item leaves out has its default). */
  private uniqueByKeys(list: unknown[], node: SchemaNode, path: (string | number)[]): void {
    const keys = node.listMapKeys!;
    const item = node.items && follow(node.items);
    const defaults = keys.map((k) => {
      const field = item?.properties?.get(k);
      return field === undefined ? undefined : follow(field)?.default;
    });
    const seen = new Map<string, number>();
    list.forEach((entry, i) => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return;
      const values = keys.map((k, j) => (k in entry ? (entry as Record<string, unknown>)[k] : defaults[j]));
      // an item without a key and no default for it is left to `required`
      if (values.some((v) => v === undefined || v === null)) return;
      const key = canonicalJson(values);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else {
        const named = keys.map((k, j) => `${k}=${JSON.stringify(typeof values[j] === 'bigint' ? String(values[j]) : values[j])}`).join(', ');
        this.report([...path, i], 'duplicate', `duplicate entry with ${named} (also item ${first})`);
      }
    });
  }

  private checkObject(obj: Record<string, unknown>, node: SchemaNode, path: (string | number)[]): void {
    const keys = Object.keys(obj);
    if (node.minProperties !== undefined && keys.length < node.minProperties) this.report(path, 'value', `must have at least ${node.minProperties} field${node.minProperties === 1 ? '' : 's'}`);
    if (node.maxProperties !== undefined && keys.length > node.maxProperties) this.report(path, 'value', `must have at most ${node.maxProperties} field${node.maxProperties === 1 ? '' : 's'}`);
    if (node.required) for (const field of node.required) if (!(field in obj)) this.report(path, 'required', `missing required field ${JSON.stringify(field)}`, field);
    if (node.embeddedResource) {
      for (const field of ['apiVersion', 'kind']) if (typeof obj[field] !== 'string' || obj[field] === '') this.report(path, 'required', `missing required field ${JSON.stringify(field)} of the embedded resource`, field);
    }
    const closed = node.additionalProperties === false || (this.options.strict && node.properties !== undefined && !node.preserveUnknownFields && node.additionalProperties === undefined);
    const root = path.length === 0;
    for (const key of keys) {
      path.push(key);
      this.checkField(obj[key], key, node, root, closed, path);
      path.pop();
    }
  }

  /** The field `key` of an object of schema `node`, its value `value`, at `path` (which ends in `key`). */
  private checkField(value: unknown, key: string, node: SchemaNode, root: boolean, closed: boolean, path: (string | number)[]): void {
    const own = (root ? this.options.rootFields?.get(key) : undefined) ?? node.properties?.get(key);
    if (own !== undefined) return this.check(value, own, path);
    const patterned = node.patternProperties?.filter(([p]) => this.pattern(p)?.matcher(key).find());
    if (patterned && patterned.length > 0) {
      for (const [, schema] of patterned) this.check(value, schema, path);
      return;
    }
    if (node.additionalProperties) this.check(value, node.additionalProperties, path);
    else if (closed && !(node.embeddedResource && EMBEDDED_FIELDS.has(key))) this.report(path, 'unknown', `unknown field ${JSON.stringify(key)}`);
  }

  private checkCombinations(value: unknown, node: SchemaNode, path: (string | number)[]): void {
    if (node.allOf) for (const s of node.allOf) this.check(value, s, path);
    if (node.anyOf) {
      const tries = node.anyOf.map((s) => this.attempt(value, s, path));
      if (!tries.some((t) => t.length === 0)) this.reportBest(tries, path, 'anyOf');
    }
    if (node.oneOf) {
      const tries = node.oneOf.map((s) => this.attempt(value, s, path));
      const passing = tries.filter((t) => t.length === 0).length;
      if (passing === 0) this.reportBest(tries, path, 'oneOf');
      else if (passing > 1) this.report(path, 'value', `matches ${passing} of the schemas of oneOf, where exactly one must match`);
    }
    if (node.not && this.attempt(value, node.not, path).length === 0) this.report(path, 'value', 'matches the schema it must not (not)');
  }

  /** The violations of `value` against `schema`, kept apart. */
  private attempt(value: unknown, schema: SchemaLink, path: (string | number)[]): Violation[] {
    const out: Violation[] = [];
    new Checker(this.options, out).check(value, schema, path);
    return out;
  }

  /** When no alternative fits: the violations of the one that came closest (one whose type the value has, before one whose type it lacks). */
  private reportBest(tries: Violation[][], path: (string | number)[], keyword: string): void {
    const distance = (t: Violation[]) => t.length + (t.some((v) => v.path.length === path.length && v.message.startsWith(TYPE_MISMATCH)) ? 1000 : 0);
    const best = tries.reduce((a, b) => (distance(b) < distance(a) ? b : a));
    if (best.length === 1) this.out.push(best[0]!);
    else this.report(path, 'value', `matches none of the schemas of ${keyword}`);
  }

  private report(path: readonly (string | number)[], kind: Violation['kind'], message: string, missing?: string): void {
    this.out.push({ path: [...path], kind, message, ...(missing !== undefined && { missing }) });
  }
}

/** How the message of a value of the wrong type starts. */
const TYPE_MISMATCH = 'expected ';

/** The fields an embedded resource has besides those its schema declares. */
const EMBEDDED_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // a high surrogate and its low one are one character
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/** Whether two JSON values are equal (a bigint equal to the number it is). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return String(a) === String(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** A value as JSON with its maps' keys sorted: equal values, equal texts. */
function canonicalJson(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
