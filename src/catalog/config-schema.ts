/**
 * A catalog function's config checked against the `schema.openAPIV3Schema` of its version
 * (KEP-2906: "the OpenAPI v3 schema to use for validation") before the function is started.
 * Loaded (with the checker) only when a build finds a function whose version has a schema.
 */
import { KustomizeError } from '../errors.js';
import { checkValue, type CheckOptions, type Violation } from '../schema/check.js';
import { SchemaDocument } from '../schema/document.js';
import type { SchemaNode } from '../schema/node.js';
import type { Value, YMap } from '../yaml/value.js';
import { catalogInvalid } from './catalog.js';

/** Where a schema is in its catalog: the catalog's file (or reference) and the schema's field. */
interface SchemaPlace {
  file: string;
  field: string;
}

/**
 * One function version's config schema, read when a config first needs it. Its `$ref`s resolve
 * within the schema itself (`#/definitions/…`).
 */
export class ConfigSchema {
  private readonly options: CheckOptions;

  private constructor(
    private readonly node: SchemaNode,
    private readonly place: SchemaPlace,
  ) {
    // Unknown fields are refused (`strict`): a misspelt field is what a function most often
    // passes over in silence, and kubectl refuses one in a custom resource too. A schema keeps an
    // object open with `additionalProperties` or `x-kubernetes-preserve-unknown-fields`, or by
    // declaring no `properties`. `apiVersion`, `kind` and `metadata` are every config's, as they
    // are every custom resource's, whatever the schema writes.
    const text: SchemaNode = { types: ['string'] };
    this.options = {
      strict: true,
      rootFields: new Map([
        ['apiVersion', text],
        ['kind', text],
        ['metadata', { types: ['object'] }],
      ]),
    };
  }

  /** Reads a version's `openAPIV3Schema`; one that is not a schema is CATALOG_INVALID, naming the catalog and the schema's field. */
  static read(raw: Value, place: SchemaPlace): ConfigSchema {
    const document = SchemaDocument.of(raw, place.file);
    return new ConfigSchema(invalidAsCatalog(place, () => document.node('#')!), place);
  }

  /** What the schema refuses in `config`, in the order its fields are written. */
  violations(config: YMap): Violation[] {
    // a `$ref` is read when first followed: the schema it names may prove invalid only now
    return invalidAsCatalog(this.place, () => checkValue(config, this.node, this.options));
  }
}

/** A catalog schema's SCHEMA_INVALID as the catalog's own error. */
function invalidAsCatalog<T>(place: SchemaPlace, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof KustomizeError) || e.code !== 'SCHEMA_INVALID') throw e;
    throw catalogInvalid(place.file, place.field, e.message, e);
  }
}
