/**
 * A schema as validation reads it: the keywords of OpenAPI v3 (as Kubernetes publishes its
 * types and as CRDs write their structural schemas) and of JSON Schema that say what a value may
 * be, with Kubernetes' `x-kubernetes-*` extensions, and the description (completion shows it;
 * Kubernetes' embedded schemas have none). Examples and the like are left out. Read once from
 * the raw schema object and never changed; a `$ref` is followed when the validator first steps
 * through it, within the document it was written in.
 */
import { KustomizeError } from '../errors.js';

/** The JSON types a schema's `type` names. */
export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

const JSON_TYPES: ReadonlySet<string> = new Set<JsonType>(['object', 'array', 'string', 'integer', 'number', 'boolean', 'null']);

/** A schema, or a reference to one that is found when first followed. */
export type SchemaLink = SchemaNode | SchemaRef;

/** A `$ref`, resolved in its own document when first followed; or a schema written in place, read when first followed. */
export class SchemaRef {
  private resolved: SchemaNode | null | undefined;

  constructor(
    /** as written: `#/components/schemas/io.k8s.api.core.v1.PodSpec` (empty for a schema written in place) */
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
  readonly description?: string;
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

/** A key as a JSON pointer writes it. */
function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

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
    // (one pass over the keywords written: a CRD's schema has thousands of nodes, most with two or three)
    for (const key in raw) {
      const v = raw[key];
      switch (key) {
        case 'type':
          node.types = this.types(v, at);
          break;
        case 'format':
          if (typeof v === 'string' && v !== '') node.format = v;
          break;
        case 'nullable':
          if (v === true) node.nullable = true;
          break;
        case 'properties':
          if (isObject(v)) node.properties = new Map(Object.keys(v).map((k) => [k, this.link(v[k], at, 'properties', k)] as const));
          break;
        case 'additionalProperties':
          if (v === false) node.additionalProperties = false;
          else if (isObject(v)) node.additionalProperties = this.link(v, at, key);
          break;
        case 'patternProperties':
          if (isObject(v)) node.patternProperties = Object.keys(v).map((p) => [p, this.link(v[p], at, key, p)] as const);
          break;
        case 'items':
          if (isObject(v) || typeof v === 'boolean') node.items = this.link(v, at, key);
          break;
        case 'required':
          if (!Array.isArray(v) || !v.every((r) => typeof r === 'string')) throw this.invalid(`${at}/required`, 'required must be a list of field names');
          if (v.length > 0) node.required = v;
          break;
        case 'enum':
          if (Array.isArray(v)) node.enum = v;
          break;
        case 'const':
          node.const = { value: v };
          break;
        case 'pattern':
          if (typeof v === 'string') node.pattern = v;
          break;
        case 'minimum':
        case 'maximum':
        case 'exclusiveMinimum':
        case 'exclusiveMaximum':
          this.bound(raw, key, v, node);
          break;
        case 'multipleOf':
        case 'minLength':
        case 'maxLength':
        case 'minItems':
        case 'maxItems':
        case 'minProperties':
        case 'maxProperties':
          if (typeof v === 'number') node[key] = v;
          break;
        case 'uniqueItems':
          if (v === true) node.uniqueItems = true;
          break;
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
          if (Array.isArray(v) && v.length > 0) node[key] = v.map((x, i) => this.link(x, at, key, String(i)));
          break;
        case 'not':
          if (v !== undefined) node.not = this.link(v, at, key);
          break;
        case 'default':
          node.default = v;
          break;
        case 'description':
          if (typeof v === 'string' && v !== '') node.description = v;
          break;
        case 'x-kubernetes-int-or-string':
          if (v === true) node.intOrString = true;
          break;
        case 'x-kubernetes-preserve-unknown-fields':
          if (v === true) node.preserveUnknownFields = true;
          break;
        case 'x-kubernetes-embedded-resource':
          if (v === true) node.embeddedResource = true;
          break;
        case 'x-kubernetes-list-type':
          if (v === 'atomic' || v === 'set' || v === 'map') node.listType = v;
          break;
        case 'x-kubernetes-list-map-keys':
          if (Array.isArray(v) && v.every((k) => typeof k === 'string')) node.listMapKeys = v;
          break;
      }
    }
    return Object.keys(node).length === 0 ? ANY : node;
  }

  /**
   * The schema written at `at`/`parts`: a reference, or the schema itself, read when first
   * followed (the checker follows only what the values it checks reach).
   */
  private link(raw: unknown, at: string, ...parts: string[]): SchemaLink {
    if (isObject(raw) && typeof raw['$ref'] === 'string') {
      // a `$ref` with siblings (a description, a default) is the reference: OpenAPI v3.0 ignores them
      return this.ref(raw['$ref']);
    }
    if (typeof raw === 'boolean') return this.read(raw, at);
    return new SchemaRef('', () => this.read(raw, `${at}/${parts.map(escapePointer).join('/')}`));
  }

  /** `minimum`, `maximum` and their exclusive forms: OpenAPI v3.0 writes an exclusive bound as a boolean beside the bound, JSON Schema as the bound itself. */
  private bound(raw: Raw, key: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum', v: unknown, node: { -readonly [K in keyof SchemaNode]: SchemaNode[K] }): void {
    if (typeof v !== 'number') return;
    if (key === 'minimum') raw['exclusiveMinimum'] === true ? (node.exclusiveMinimum = v) : (node.minimum = v);
    else if (key === 'maximum') raw['exclusiveMaximum'] === true ? (node.exclusiveMaximum = v) : (node.maximum = v);
    else node[key] = v;
  }

  private types(raw: unknown, at: string): readonly JsonType[] {
    const list = Array.isArray(raw) ? raw : [raw];
    for (const t of list) if (typeof t !== 'string' || !JSON_TYPES.has(t)) throw this.invalid(`${at}/type`, `unknown type ${JSON.stringify(t)}`);
    return list as JsonType[];
  }

  private invalid(at: string, message: string): KustomizeError {
    return new KustomizeError('SCHEMA_INVALID', `invalid schema${at === '' ? '' : ` at ${at}`}: ${message}`, { file: this.file });
  }
}
