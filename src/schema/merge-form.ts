/**
 * A custom type's schema (a CRD's, or one read from a `--schema` file) in the form strategic
 * merge reads (src/openapi/schema.ts), for `--crd-merge`: its fields, list elements and map
 * values, each list's `x-kubernetes-list-type` given as the patch strategy it stands for
 * ({@link listTypeStrategy}). An `allOf`'s members count as the schema's own (OpenAPI v3
 * documents write a field with a description as `allOf: [{$ref}]`); other keywords say nothing
 * of merging and are left out.
 */
import { isScalarSchema, listTypeStrategy, type SchemaNode as MergeNode } from '../openapi/schema.js';
import { follow, type SchemaLink, type SchemaNode } from './node.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** Converts schemas, each node once: what one build reads (references may make cycles). */
export class MergeForms {
  private readonly converted = new Map<SchemaNode, MergeNode>();

  /** The merge form of `node`. */
  of(node: SchemaNode): MergeNode {
    const done = this.converted.get(node);
    if (done) return done;
    const out: Writable<MergeNode> = {};
    // (set before its parts are converted: a schema that refers to itself finds itself)
    this.converted.set(node, out);
    const parts = [node, ...(node.allOf ?? []).map(follow).filter((n): n is SchemaNode => n !== undefined)];
    const properties = new Map<string, MergeNode>();
    for (const part of parts) {
      for (const [name, link] of part.properties ?? []) {
        const field = properties.has(name) ? undefined : this.link(link);
        if (field) properties.set(name, field);
      }
    }
    if (properties.size > 0) out.properties = properties;
    const additional = parts.map((p) => p.additionalProperties).find((a): a is SchemaLink => a !== undefined && a !== false);
    const values = additional && this.link(additional);
    if (values) out.additionalProperties = values;
    const itemsLink = parts.map((p) => p.items).find((i) => i !== undefined);
    const items = itemsLink && follow(itemsLink);
    if (items) out.items = this.of(items);
    const listType = parts.map((p) => p.listType).find((t) => t !== undefined);
    const mapKeys = parts.map((p) => p.listMapKeys).find((k) => k !== undefined);
    Object.assign(out, listTypeStrategy(listType, mapKeys, items !== undefined && isScalarSchema(items.types ?? [], items.intOrString === true)));
    return out;
  }

  private link(link: SchemaLink): MergeNode | undefined {
    const node = follow(link);
    return node && this.of(node);
  }
}
