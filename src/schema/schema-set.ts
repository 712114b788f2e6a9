import { checkValue, type Violation } from './check.js';
import type { CustomSchema } from './custom-schemas.js';
import type { KubernetesSchemas } from './kubernetes.js';
import type { SchemaLink, SchemaNode } from './node.js';

/** The schema a resource is checked against, and where it came from. */
interface TypeSchema {
  node: SchemaNode;
  /** `kubernetes v1.36.4`, or the file of a CRD or a schema */
  source: string;
  /**
   * a type Kubernetes does not have: its resources' `metadata` is an ObjectMeta, and their
   * `apiVersion` and `kind` are theirs, whatever the schema writes (a CRD's may leave them out)
   */
  custom: boolean;
}

/** How resources are checked. */
interface ResourceCheckOptions {
  /** refuse fields their schema does not declare */
  strict: boolean;
}

/**
 * The schemas one validation checks resources against: custom ones first (a type's by its
 * apiVersion and kind, then one that names the kind alone), then Kubernetes' own. Immutable
 * once made; a later custom schema of the same type does not replace an earlier one.
 */
export class SchemaSet {
  private readonly byType = new Map<string, CustomSchema>();
  private readonly byKind = new Map<string, CustomSchema>();
  /** the top-level fields every custom resource has, whatever its schema writes */
  readonly customResourceFields: ReadonlyMap<string, SchemaLink>;

  constructor(
    private readonly kubernetes: KubernetesSchemas | undefined,
    custom: readonly CustomSchema[],
  ) {
    for (const s of custom) {
      if (s.apiVersion === undefined) {
        if (!this.byKind.has(s.kind)) this.byKind.set(s.kind, s);
      } else if (!this.byType.has(typeKey(s.apiVersion, s.kind))) this.byType.set(typeKey(s.apiVersion, s.kind), s);
    }
    const text: SchemaNode = { types: ['string'] };
    this.customResourceFields = new Map<string, SchemaLink>([
      ['apiVersion', text],
      ['kind', text],
      ['metadata', kubernetes?.objectMeta ?? { types: ['object'] }],
    ]);
  }

  /** The same set with `more` custom schemas after its own. */
  with(more: readonly CustomSchema[]): SchemaSet {
    return more.length === 0 ? this : new SchemaSet(this.kubernetes, [...this.byType.values(), ...this.byKind.values(), ...more]);
  }

  /** The Kubernetes version whose schemas are in the set. */
  get kubernetesVersion(): string | undefined {
    return this.kubernetes?.version;
  }

  /** The schema of resources of this apiVersion and kind, or undefined when the set has none. */
  forType(apiVersion: string, kind: string): TypeSchema | undefined {
    const custom = this.byType.get(typeKey(apiVersion, kind)) ?? this.byKind.get(kind);
    if (custom) return { node: custom.node, source: custom.file, custom: true };
    const node = this.kubernetes?.forType(apiVersion, kind);
    return node && { node, source: `kubernetes ${this.kubernetes!.version}`, custom: false };
  }

  /** The apiVersion of the kind of this name: a custom one's, else Kubernetes'. */
  apiVersionOf(kind: string): string | undefined {
    for (const s of this.byType.values()) if (s.kind === kind) return s.apiVersion;
    return this.kubernetes?.apiVersionOf(kind);
  }

  /** The violations of a resource's object against its type's schema. */
  check(obj: Record<string, unknown>, schema: TypeSchema, options: ResourceCheckOptions): Violation[] {
    return checkValue(obj, schema.node, {
      strict: options.strict,
      ...(schema.custom && { rootFields: this.customResourceFields }),
    });
  }
}

function typeKey(apiVersion: string, kind: string): string {
  return `${apiVersion} ${kind}`;
}
