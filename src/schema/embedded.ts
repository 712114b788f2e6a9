/** The schemas of one Kubernetes version, as the generated modules (kubernetes-v*.generated.ts) hold them. */
export interface EmbeddedSchemas {
  /** `v1.36.4` */
  version: string;
  /** `[apiVersion, kind, definition name]` of every type that is a resource */
  types: readonly (readonly [string, string, string])[];
  /** each definition's schema as JSON, by name: a definition is parsed when first needed */
  definitions: Readonly<Record<string, string>>;
}
