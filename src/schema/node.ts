/**
 * A schema as validation reads it: the keywords of OpenAPI v3 (as Kubernetes publishes its
 * types and as CRDs write their structural schemas) and of JSON Schema that say what a value may
 * be, with Kubernetes' `x-kubernetes-*` extensions. Descriptions, examples and the like are left
 * out. Read once from the raw schema object and never changed; a `$ref` is followed when the
 * validator first steps through it, within the document it was written in.
 */
import { KustomizeError } from '../errors.js';

/** The JSON types a schema's `type` names. */
export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

const JSON_TYPES: ReadonlySet<string> = new Set<JsonType>(['object', 'array', 'string', 'integer', 'number', 'boolean', 'null']);

/** A schema, or a reference to one that is found when first followed. */
export type SchemaLink = SchemaNode | SchemaRef;

/** A `$ref`, resolved in its own document when first followed. */
export class SchemaRef {
  private resolved: SchemaNode | null | undefined;

  constructor(
    /** as written: `#/components/schemas/io.k8s.api.core.v1.PodSpec` */
    readonly ref: string,
    private readonly find: (ref: string) => SchemaNode | undefined,
  ) {}

  /** The schema it names; undefined when the document has none by that name. */
  get node(): SchemaNode | undefined {
    if (this.resolved === undefined) this.resolved = this.find(this.ref) ?? null;
    return this.resolved ?? undefined;
  }
}

/** The schema a link stands for (undefined for a reference that does not resolve). */
export function follow(link: SchemaLink): SchemaNode | undefined {
  return link instanceof SchemaRef ? link.node : link;
}

/** `x-kubernetes-list-type`. */
type ListType = 'atomic' | 'set' | 'map';

export interface SchemaNode {
  readonly types?: readonly JsonType[];
  readonly format?: string;
  readonly nullable?: boolean;
  readonly properties?: ReadonlyMap<string, SchemaLink>;
  /** `additionalProperties`: a schema for the other keys; `false` when there may be none; unset when any may be */
  readonly additionalProperties?: SchemaLink | false;
  readonly patternProperties?: readonly (readonly [pattern: string, schema: SchemaLink])[];
  readonly items?: SchemaLink;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: { readonly value: unknown };
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly allOf?: readonly SchemaLink[];
  readonly anyOf?: readonly SchemaLink[];
  readonly oneOf?: readonly SchemaLink[];
  readonly not?: SchemaLink;
  readonly default?: unknown;
  /** `x-kubernetes-int-or-string` */
  readonly intOrString?: boolean;
  /** `x-kubernetes-preserve-unknown-fields` */
  readonly preserveUnknownFields?: boolean;
  /** `x-kubernetes-embedded-resource` */
  readonly embeddedResource?: boolean;
  /** `x-kubernetes-list-type` */
  readonly listType?: ListType;
  /** `x-kubernetes-list-map-keys` */
  readonly listMapKeys?: readonly string[];
}

/** A schema that allows anything. */
const ANY: SchemaNode = Object.freeze({});

type Raw = Record<string, unknown>;

function isObject(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads a raw schema object (parsed JSON or YAML). `ref` makes the link of a `$ref` written in
 * it; `file` names the schema's file in errors (a keyword of the wrong shape: a `type` no JSON
 * type, a `required` that is not a list of strings…), and `at` (a JSON pointer) where in the
 * file the schema is.
 */
export function readSchema(raw: unknown, ref: (ref: string) => SchemaLink, file: string, at = ''): SchemaNode {
  return new SchemaReader(ref, file).read(raw, at);
}

class SchemaReader {
  constructor(
    private readonly ref: (ref: string) => SchemaLink,
    private readonly file: string,
  ) {}

  read(raw: unknown, at: string): SchemaNode {
    if (raw === true || raw === undefined) return ANY;
    if (raw === false) return { not: ANY };
    if (!isObject(raw)) throw this.invalid(at, 'a schema must be an object');
    // a schema that is a reference (a document's root, a definition that names another) stands for what it names
    if (typeof raw['$ref'] === 'string') return { allOf: [this.ref(raw['$ref'])] };
    const node: { -readonly [K in keyof SchemaNode]: SchemaNode[K] } = {};
    const types = raw['type'];
    if (types !== undefined) node.types = this.types(types, at);
    if (typeof raw['format'] === 'string' && raw['format'] !== '') node.format = raw['format'];
    if (raw['nullable'] === true) node.nullable = true;
    const props = raw['properties'];
    if (isObject(props)) node.properties = new Map(Object.entries(props).map(([k, v]) => [k, this.link(v, `${at}/properties/${k}`)] as const));
    const additional = raw['additionalProperties'];
    if (additional === false) node.additionalProperties = false;
    else if (isObject(additional)) node.additionalProperties = this.link(additional, `${at}/additionalProperties`);
    const patterns = raw['patternProperties'];
    if (isObject(patterns)) node.patternProperties = Object.entries(patterns).map(([p, v]) => [p, this.link(v, `${at}/patternProperties/${p}`)] as const);
    const items = raw['items'];
    if (isObject(items) || typeof items === 'boolean') node.items = this.link(items, `${at}/items`);
    const required = raw['required'];
    if (required !== undefined) {
      if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) throw this.invalid(`${at}/required`, 'required must be a list of field names');
      if (required.length > 0) node.required = required;
    }
    if (Array.isArray(raw['enum'])) node.enum = raw['enum'];
    if ('const' in raw) node.const = { value: raw['const'] };
    if (typeof raw['pattern'] === 'string') node.pattern = raw['pattern'];
    this.numbers(raw, node);
    if (raw['uniqueItems'] === true) node.uniqueItems = true;
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = raw[key];
      if (Array.isArray(list) && list.length > 0) node[key] = list.map((s, i) => this.link(s, `${at}/${key}/${i}`));
    }
    if (raw['not'] !== undefined) node.not = this.link(raw['not'], `${at}/not`);
    if ('default' in raw) node.default = raw['default'];
    if (raw['x-kubernetes-int-or-string'] === true) node.intOrString = true;
    if (raw['x-kubernetes-preserve-unknown-fields'] === true) node.preserveUnknownFields = true;
    if (raw['x-kubernetes-embedded-resource'] === true) node.embeddedResource = true;
    const listType = raw['x-kubernetes-list-type'];
    if (listType === 'atomic' || listType === 'set' || listType === 'map') node.listType = listType;
    const keys = raw['x-kubernetes-list-map-keys'];
    if (Array.isArray(keys) && keys.every((k) => typeof k === 'string')) node.listMapKeys = keys;
    return Object.keys(node).length === 0 ? ANY : node;
  }

  private link(raw: unknown, at: string): SchemaLink {
    if (isObject(raw) && typeof raw['$ref'] === 'string') {
      // a `$ref` with siblings (a description, a default) is the reference: OpenAPI v3.0 ignores them
      return this.ref(raw['$ref']);
    }
    return this.read(raw, at);
  }

  private types(raw: unknown, at: string): readonly JsonType[] {
    const list = Array.isArray(raw) ? raw : [raw];
    for (const t of list) if (typeof t !== 'string' || !JSON_TYPES.has(t)) throw this.invalid(`${at}/type`, `unknown type ${JSON.stringify(t)}`);
    return list as JsonType[];
  }

  /** The numeric keywords; OpenAPI v3.0 writes an exclusive bound as a boolean beside `minimum`/`maximum`, JSON Schema as the bound itself. */
  private numbers(raw: Raw, node: { -readonly [K in keyof SchemaNode]: SchemaNode[K] }): void {
    const num = (k: string) => (typeof raw[k] === 'number' ? (raw[k] as number) : undefined);
    const min = num('minimum');
    const max = num('maximum');
    if (min !== undefined) raw['exclusiveMinimum'] === true ? (node.exclusiveMinimum = min) : (node.minimum = min);
    if (max !== undefined) raw['exclusiveMaximum'] === true ? (node.exclusiveMaximum = max) : (node.maximum = max);
    const exMin = num('exclusiveMinimum');
    const exMax = num('exclusiveMaximum');
    if (exMin !== undefined) node.exclusiveMinimum = exMin;
    if (exMax !== undefined) node.exclusiveMaximum = exMax;
    const set = (k: 'multipleOf' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties') => {
      const v = num(k);
      if (v !== undefined) node[k] = v;
    };
    set('multipleOf');
    set('minLength');
    set('maxLength');
    set('minItems');
    set('maxItems');
    set('minProperties');
    set('maxProperties');
  }

  private invalid(at: string, message: string): KustomizeError {
    return new KustomizeError('SCHEMA_INVALID', `invalid schema${at === '' ? '' : ` at ${at}`}: ${message}`, { file: this.file });
  }
}
