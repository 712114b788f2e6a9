import { readSchema, SchemaRef, type SchemaNode } from './node.js';

/**
 * One document of schemas (an OpenAPI document, a JSON Schema file, a CRD's version), in which
 * its `$ref`s resolve: a JSON pointer (`#/components/schemas/X`, `#/definitions/X`, `#/$defs/X`,
 * `#` for the whole), or a bare definition name as kustomize's `crds:` files write them. Each
 * schema is read when first asked for, once.
 */
export class SchemaDocument {
  private readonly nodes = new Map<string, SchemaNode | null>();

  constructor(
    /** the raw object at a reference, or undefined */
    private readonly lookup: (ref: string) => unknown,
    /** names the document in errors */
    readonly file: string,
  ) {}

  /** A document over a raw object parsed from a file. */
  static of(root: unknown, file: string): SchemaDocument {
    return new SchemaDocument((ref) => (ref.startsWith('#') ? atPointer(root, ref.slice(1)) : bareDefinition(root, ref)), file);
  }

  /** The schema at `ref`, or undefined. */
  node(ref: string): SchemaNode | undefined {
    let node = this.nodes.get(ref);
    if (node === undefined) {
      const raw = this.lookup(ref);
      // (set before reading: a schema that refers to itself finds itself)
      this.nodes.set(ref, null);
      // (errors name a pointer's schema by the pointer; a bare name's from its own start)
      node = raw === undefined ? null : readSchema(raw, (r) => new SchemaRef(r, (at) => this.node(at)), this.file, ref.startsWith('#') ? ref.slice(1) : '');
      this.nodes.set(ref, node);
    }
    return node ?? undefined;
  }

  /** A link to the schema at `ref`, followed when first needed. */
  link(ref: string): SchemaRef {
    return new SchemaRef(ref, (at) => this.node(at));
  }
}

/** The value at a JSON pointer (RFC 6901, without its `#`) in `root`. */
function atPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let v = root;
  for (const raw of pointer.slice(1).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** kustomize's `crds:` form names definitions bare: `{"<pkg>.<Kind>": {"Schema": {…}}}`. */
function bareDefinition(root: unknown, name: string): unknown {
  const def = typeof root === 'object' && root !== null && Object.hasOwn(root, name) ? (root as Record<string, unknown>)[name] : undefined;
  return typeof def === 'object' && def !== null && 'Schema' in def ? (def as Record<string, unknown>)['Schema'] : undefined;
}
