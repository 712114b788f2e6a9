/**
 * The OpenAPI schema as kustomize's strategic-merge patch (kyaml `merge2` + `walk`) consults it:
 * resource schema by apiVersion+kind, a field's schema, a list's element schema, and a list's
 * patch strategy / merge keys. Lookups are O(1) per step: properties are Maps and `$ref`s are
 * resolved by name through the schema's definition Map when they are followed (lazily, so a
 * custom schema layered over the built-in one can override definitions the built-in one refers
 * to, as kyaml's single global definition table does).
 *
 * No global mutable state: an {@link OpenApiSchema} is immutable and passed explicitly. The
 * built-in Kubernetes v1.21.2 schema is decoded once on first use and shared (it never changes).
 * {@link OpenApiSchemaSetting} reproduces, per build, how kyaml picks and layers the schema from
 * the kustomization field `openapi: {version | path}`.
 */
import { parse as parseYaml } from 'yaml';
import { KustomizeError } from '../errors.js';
import { KUBERNETES_V1_21_2_OPENAPI } from './kubernetes-v1.21.2.generated.js';

/** A `$ref` not yet followed: the name of a definition (`#/definitions/<name>`). */
interface SchemaRef {
  readonly ref: string;
}

/** One schema node, reduced to what strategic merge needs. */
export interface SchemaNode {
  readonly properties?: ReadonlyMap<string, SchemaNode | SchemaRef>;
  readonly additionalProperties?: SchemaNode | SchemaRef;
  /** Element schema; only kept when `type` is exactly `array` (kyaml ignores `items` otherwise). */
  readonly items?: SchemaNode | SchemaRef;
  /** `x-kubernetes-patch-strategy`, e.g. `merge`, `replace`, `merge,retainKeys`. */
  readonly patchStrategy?: string;
  /** `x-kubernetes-patch-merge-key` */
  readonly patchMergeKey?: string;
  /** `x-kubernetes-list-map-keys` */
  readonly listMapKeys?: readonly string[];
  /** `x-kubernetes-list-type` (informational: kyaml's merge does not look at it) */
  readonly listType?: string;
}

/** The kubernetes version whose schema is built in (kyaml's `kubernetesapi.DefaultOpenAPI`). */
const BUILTIN_OPENAPI_VERSION = 'v1.21.2';

const REF_PREFIX = '#/definitions/';
const EMPTY: SchemaNode = Object.freeze({});

function isRef(link: SchemaNode | SchemaRef): link is SchemaRef {
  return typeof (link as SchemaRef).ref === 'string';
}

export class OpenApiSchema {
  private constructor(
    private readonly definitions: ReadonlyMap<string, SchemaNode | SchemaRef>,
    /** key: `${apiVersion}\u0000${kind}` */
    private readonly byType: ReadonlyMap<string, SchemaNode | SchemaRef>,
  ) {}

  /** An empty schema: no resource is known, every list is replaced (kyaml without schema). */
  static empty(): OpenApiSchema {
    return new OpenApiSchema(new Map(), new Map());
  }

  /**
   * Builds a schema from an OpenAPI v2 (swagger) document: its `definitions`, each indexed by
   * the GVKs of its `x-kubernetes-group-version-kind` extension (group "" → apiVersion = version).
   */
  static fromDocument(doc: unknown, file?: string, reading: SchemaReading = KYAML_READING): OpenApiSchema {
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `invalid schema file: not an OpenAPI document`, { file: file ?? '' });
    }
    const defs = (doc as Record<string, unknown>)['definitions'];
    const definitions = new Map<string, SchemaNode | SchemaRef>();
    const byType = new Map<string, SchemaNode | SchemaRef>();
    if (defs !== null && typeof defs === 'object' && !Array.isArray(defs)) {
      for (const [name, raw] of Object.entries(defs as Record<string, unknown>)) {
        const node = fromOpenApi(raw, reading);
        definitions.set(name, node);
        const gvks = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)['x-kubernetes-group-version-kind'] : undefined;
        if (!Array.isArray(gvks)) continue;
        for (const gvk of gvks) {
          if (gvk === null || typeof gvk !== 'object') continue;
          const { group, version, kind } = gvk as Record<string, unknown>;
          if (typeof version !== 'string' || typeof kind !== 'string') continue;
          const apiVersion = typeof group === 'string' && group !== '' ? `${group}/${version}` : version;
          byType.set(typeKey(apiVersion, kind), node);
        }
      }
    }
    return new OpenApiSchema(definitions, byType);
  }

  /**
   * Parses the file named by the kustomization field `openapi: {path: ...}`: JSON when it starts
   * with `{` (as kyaml checks), YAML otherwise.
   */
  static parse(text: string, file?: string, reading: SchemaReading = KYAML_READING): OpenApiSchema {
    let doc: unknown;
    try {
      doc = text.startsWith('{') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 });
    } catch (e) {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `invalid schema file: ${(e as Error).message}`, { file: file ?? '', cause: e });
    }
    return OpenApiSchema.fromDocument(doc, file, reading);
  }

  /** Decodes the compact form written by scripts/compact-openapi.mjs. */
  static fromCompact(json: string): OpenApiSchema {
    const { d, g } = JSON.parse(json) as { d: [string, CompactNode][]; g: [string, string, number][] };
    const names = d.map(([name]) => name);
    const decode = (c: CompactNode): SchemaNode | SchemaRef => {
      if (typeof c === 'number') return { ref: names[c]! };
      const props = c.p === undefined ? undefined : new Map(Object.entries(c.p).map(([k, v]) => [k, decode(v)] as const));
      const node: { -readonly [K in keyof SchemaNode]: SchemaNode[K] } = {};
      if (props) node.properties = props;
      if (c.a !== undefined) node.additionalProperties = decode(c.a);
      if (c.i !== undefined) node.items = decode(c.i);
      if (c.s !== undefined) node.patchStrategy = c.s;
      if (c.k !== undefined) node.patchMergeKey = c.k;
      if (c.m !== undefined) node.listMapKeys = c.m;
      if (c.l !== undefined) node.listType = c.l;
      return Object.keys(node).length === 0 ? EMPTY : node;
    };
    const definitions = new Map<string, SchemaNode | SchemaRef>(d.map(([name, c]) => [name, decode(c)]));
    const byType = new Map<string, SchemaNode | SchemaRef>();
    for (const [apiVersion, kind, i] of g) byType.set(typeKey(apiVersion, kind), definitions.get(names[i]!)!);
    return new OpenApiSchema(definitions, byType);
  }

  /**
   * This schema with `over`'s definitions and GVKs added on top (same names: `over` wins), the way
   * kyaml adds a custom schema's definitions to an already initialised global schema.
   */
  layer(over: OpenApiSchema): OpenApiSchema {
    const definitions = new Map(this.definitions);
    for (const [k, v] of over.definitions) definitions.set(k, v);
    const byType = new Map(this.byType);
    for (const [k, v] of over.byType) byType.set(k, v);
    return new OpenApiSchema(definitions, byType);
  }

  /** kyaml `SchemaForResourceType`: the root schema of a resource type, or undefined. */
  resourceSchema(apiVersion: string, kind: string): SchemaNode | undefined {
    const link = this.byType.get(typeKey(apiVersion, kind));
    return link === undefined ? undefined : this.resolve(link);
  }

  /** The definition of that name (refs followed), or undefined. */
  definition(name: string): SchemaNode | undefined {
    const link = this.definitions.get(name);
    return link === undefined ? undefined : this.resolve(link);
  }

  /**
   * kyaml `ResourceSchema.Field`: the schema of a property, else of `additionalProperties`
   * (map values), with `$ref`s followed. Undefined when neither exists or a ref does not resolve.
   */
  field(node: SchemaNode, name: string): SchemaNode | undefined {
    const link = node.properties?.get(name) ?? node.additionalProperties;
    return link === undefined ? undefined : this.resolve(link);
  }

  /** kyaml `ResourceSchema.Elements`: the element schema of an array, refs followed. */
  elements(node: SchemaNode): SchemaNode | undefined {
    return node.items === undefined ? undefined : this.resolve(node.items);
  }

  /** Follows a path of field names; `[]` steps into list elements. */
  lookup(node: SchemaNode | undefined, path: readonly string[]): SchemaNode | undefined {
    let s = node;
    for (const p of path) {
      if (s === undefined) return undefined;
      s = p === '[]' ? this.elements(s) : this.field(s, p);
    }
    return s;
  }

  private resolve(link: SchemaNode | SchemaRef): SchemaNode | undefined {
    let l: SchemaNode | SchemaRef | undefined = link;
    // a chain of refs longer than the definition table is a cycle: kyaml would loop; we give up
    for (let hops = 0; l !== undefined && isRef(l); hops++) {
      if (hops > this.definitions.size) return undefined;
      l = this.definitions.get(l.ref);
    }
    return l;
  }
}

/**
 * kyaml `PatchStrategyAndKeyList`: the patch strategy, and the merge keys: the list map keys when
 * present, else the patch merge key. Without a patch strategy there are no keys at all.
 */
export function patchStrategyAndKeys(node: SchemaNode): { strategy: string; keys: readonly string[] } {
  const strategy = node.patchStrategy;
  if (strategy === undefined) return { strategy: '', keys: [] };
  if (node.listMapKeys !== undefined) return { strategy, keys: node.listMapKeys };
  return { strategy, keys: node.patchMergeKey === undefined ? [] : [node.patchMergeKey] };
}

/** kyaml `schema.IsAssociative` with a schema: the patch strategy lists `merge`. */
export function isMergeList(node: SchemaNode): boolean {
  const s = node.patchStrategy;
  return s !== undefined && s.split(',').includes('merge');
}

/** How a custom schema file is read: as kyaml reads it, or with list types as patch strategies (`--crd-merge`). */
interface SchemaReading {
  readonly listTypes: boolean;
}

const KYAML_READING: SchemaReading = { listTypes: false };

/**
 * What `--crd-merge` makes of a list's `x-kubernetes-list-type` where kyaml would replace the
 * list (it reads only `x-kubernetes-patch-strategy`): the patch strategy and keys it stands for.
 * A `map` list merges by its `x-kubernetes-list-map-keys` (all of them must match); a `set` of
 * scalars merges as kyaml merges a list of scalars with the merge strategy (the patch's items
 * first, then the target's others). `atomic`, a `set` of objects (kyaml would fold them into
 * one) and a `map` without keys stay replaced: undefined.
 */
export function listTypeStrategy(
  listType: string | undefined,
  mapKeys: readonly string[] | undefined,
  scalarItems: boolean,
): Pick<SchemaNode, 'patchStrategy' | 'listMapKeys'> | undefined {
  if (listType === 'map' && mapKeys !== undefined && mapKeys.length > 0) return { patchStrategy: 'merge', listMapKeys: mapKeys };
  if (listType === 'set' && scalarItems) return { patchStrategy: 'merge' };
  return undefined;
}

let builtin: OpenApiSchema | undefined;

/** The built-in Kubernetes v1.21.2 schema (decoded once, immutable). */
export function builtinSchema(): OpenApiSchema {
  return (builtin ??= OpenApiSchema.fromCompact(KUBERNETES_V1_21_2_OPENAPI));
}

/** The kustomization field `openapi:` (a string map in kustomize). */
interface OpenApiField {
  version?: string;
  path?: string;
}

/**
 * The schema choice of one build, reproducing kyaml's process-wide `openapi.SetSchema` /
 * `initSchema` without globals:
 *
 * - {@link set} is called for the root kustomization first (`root: true`, which resets), then for
 *   every kustomization/component directory when it is loaded, before its resources are read
 *   (`root: false`): a non-root call is ignored once anything has been set (a version or a custom
 *   file), so the root wins, else the first directory (in accumulation order) that sets one.
 * - A custom schema replaces the built-in one, *unless* the built-in one had already been
 *   initialised when the custom one was set: then the custom definitions are layered over it.
 *   kyaml initialises the schema lazily, on the first strategic-merge patch or the first
 *   namespace-scope query of a kind outside its precomputed table; the build reports such uses
 *   with {@link schema} (which is what an SMP calls) or {@link touch}.
 */
export class OpenApiSchemaSetting {
  private version = '';
  private custom: OpenApiSchema | undefined;
  /** the text of the custom schema last set, with its file, for {@link listTypedCustom} */
  private customSource: { text: string; file: string | undefined } | undefined;
  /** the custom schema last set, read with list types (made when first asked for) */
  private listTyped: OpenApiSchema | undefined;
  private initialised = false;
  /** whether a custom schema was ever set: the schema is then an object of this build, not one of a few states */
  private everCustom = false;
  /** the schema as initialised so far, made when first asked for: touching it costs nothing until an SMP needs it */
  private current: (() => OpenApiSchema) | undefined;

  constructor(private readonly builtin: () => OpenApiSchema = builtinSchema) {}

  /**
   * Applies a kustomization's `openapi:` field; `load` reads the file its `path` names (it fails
   * on a missing file before anything is set, as kustomize does).
   */
  applyField(field: OpenApiField | undefined, load: (path: string) => string, opts: { root: boolean; file?: string }): void {
    const path = field?.['path'];
    this.set(field, path === undefined ? undefined : load(path), opts);
  }

  /**
   * kustomize consults the schema for the scope of any type it has no precomputed answer for,
   * the moment it reads such a resource; that fixes the built-in schema in place (a custom one
   * set later is layered over it), so the build notes the types it reads.
   */
  noteTypes(types: Iterable<{ readonly apiVersion: string; readonly kind: string }>): void {
    for (const t of types) {
      if (!hasPrecomputedScope(t.apiVersion, t.kind)) {
        this.touch();
        return;
      }
    }
  }

  /** Applies an `openapi:` field whose `path` (if any) is loaded as `customText`. */
  private set(field: OpenApiField | undefined, customText: string | undefined, opts: { root: boolean; file?: string }): void {
    const isSet = this.version !== '' || this.custom !== undefined;
    if (isSet && !opts.root) return;
    const version = field?.version;
    if (customText !== undefined) {
      if (version !== undefined) {
        throw new KustomizeError('KUSTOMIZATION_INVALID', 'builtin version and custom schema provided, cannot use both', {
          file: opts.file ?? '',
          field: 'openapi',
        });
      }
      this.custom = OpenApiSchema.parse(customText, field?.path ?? opts.file);
      this.customSource = { text: customText, file: field?.path ?? opts.file };
      this.listTyped = undefined;
      this.everCustom = true;
      this.version = 'custom';
      this.initialised = false;
      return;
    }
    this.version = version ?? '';
    if (this.version === '') return;
    if (this.version !== BUILTIN_OPENAPI_VERSION) {
      throw new KustomizeError('KUSTOMIZATION_INVALID', 'the specified OpenAPI version is not built in', {
        file: opts.file ?? '',
        field: 'openapi.version',
      });
    }
    this.custom = undefined;
    this.customSource = undefined;
    this.listTyped = undefined;
    this.initialised = false;
  }

  /**
   * The setting as a string, for a build that takes a base's effect on it from an earlier build
   * ({@link restore}); undefined once a custom schema was set. Without one, the schema is the
   * built-in one whatever happened, and the version and whether it is initialised are all there is.
   */
  get state(): string | undefined {
    return this.everCustom ? undefined : `${this.initialised ? 1 : 0}${this.version}`;
  }

  /** Puts the setting in a {@link state} an earlier build reached from the one it is in now. */
  restore(state: string): void {
    this.version = state.slice(1);
    if (state[0] === '1') this.touch();
    else this.initialised = false;
  }

  /** Marks the schema as initialised (kyaml `initSchema`) without needing it. */
  touch(): void {
    if (this.initialised) return;
    this.initialised = true;
    const before = this.current;
    const custom = this.custom;
    let made: OpenApiSchema | undefined;
    this.current = () => {
      if (made) return made;
      const next = custom ?? this.builtin();
      const previous = before?.();
      made = previous === undefined || previous === next ? next : previous.layer(next);
      return made;
    };
  }

  /** The schema as kyaml sees it now (initialising it if needed). */
  schema(): OpenApiSchema {
    this.touch();
    return this.current!();
  }

  /**
   * The custom schema an `openapi:` field set last, read again with its lists'
   * `x-kubernetes-list-type`s as patch strategies (for `--crd-merge`); undefined when none was set.
   */
  listTypedCustom(): OpenApiSchema | undefined {
    const custom = this.customSource;
    if (custom === undefined) return undefined;
    return (this.listTyped ??= OpenApiSchema.parse(custom.text, custom.file, { listTypes: true }));
  }
}

type CompactNode = number | { p?: Record<string, CompactNode>; a?: CompactNode; i?: CompactNode; s?: string; k?: string; m?: string[]; l?: string };

function typeKey(apiVersion: string, kind: string): string {
  return `${apiVersion}\u0000${kind}`;
}

/** Converts one OpenAPI (swagger) schema object of a custom schema file. */
function fromOpenApi(raw: unknown, reading: SchemaReading): SchemaNode | SchemaRef {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return EMPTY;
  const o = raw as Record<string, unknown>;
  const ref = o['$ref'];
  if (typeof ref === 'string') {
    // only local definition refs resolve (kyaml resolves JSON pointers into the root schema)
    return { ref: ref.startsWith(REF_PREFIX) ? unescapePointer(ref.slice(REF_PREFIX.length)) : `\u0000${ref}` };
  }
  const node: { -readonly [K in keyof SchemaNode]: SchemaNode[K] } = {};
  const props = o['properties'];
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    node.properties = new Map(Object.entries(props as Record<string, unknown>).map(([k, v]) => [k, fromOpenApi(v, reading)] as const));
  }
  const ap = o['additionalProperties'];
  if (ap !== null && typeof ap === 'object' && !Array.isArray(ap)) node.additionalProperties = fromOpenApi(ap, reading);
  const type = o['type'];
  const isArray = type === 'array' || (Array.isArray(type) && type.length === 1 && type[0] === 'array');
  const items = o['items'];
  if (isArray && items !== null && typeof items === 'object' && !Array.isArray(items)) node.items = fromOpenApi(items, reading);
  const strategy = o['x-kubernetes-patch-strategy'];
  if (typeof strategy === 'string') node.patchStrategy = strategy;
  const key = o['x-kubernetes-patch-merge-key'];
  if (typeof key === 'string') node.patchMergeKey = key;
  const mapKeys = o['x-kubernetes-list-map-keys'];
  if (Array.isArray(mapKeys)) node.listMapKeys = mapKeys.map(String);
  const listType = o['x-kubernetes-list-type'];
  if (typeof listType === 'string') node.listType = listType;
  if (reading.listTypes && node.patchStrategy === undefined) {
    const scalarItems = isArray && items !== null && typeof items === 'object' && isScalarSchema((items as Record<string, unknown>)['type'], (items as Record<string, unknown>)['x-kubernetes-int-or-string'] === true);
    Object.assign(node, listTypeStrategy(node.listType, node.listMapKeys, scalarItems));
  }
  return node;
}

const SCALAR_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'number', 'boolean']);

/** Whether a schema of this `type` (one, or a list of them) holds scalars: what a `set` list's items must be to merge. */
export function isScalarSchema(type: unknown, intOrString: boolean): boolean {
  const types: unknown[] = Array.isArray(type) ? type : [type];
  return intOrString || (types.length > 0 && types.every((t) => SCALAR_TYPES.has(t)));
}

function unescapePointer(s: string): string {
  return s.includes('~') ? s.replace(/~1/g, '/').replace(/~0/g, '~') : s;
}

/**
 * The resource types whose namespace scope kyaml answers from a precomputed table, without
 * initialising the schema (kyaml `precomputedIsNamespaceScoped`). A scope query for any other
 * type initialises the schema: callers report it with {@link OpenApiSchemaSetting.touch}, since
 * that decides whether a custom schema set later is layered over the built-in one.
 */
const PRECOMPUTED_SCOPE_TYPES: ReadonlySet<string> = new Set(
  [
    'admissionregistration.k8s.io/v1 MutatingWebhookConfiguration',
    'admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration',
    'admissionregistration.k8s.io/v1beta1 MutatingWebhookConfiguration',
    'admissionregistration.k8s.io/v1beta1 ValidatingWebhookConfiguration',
    'apiextensions.k8s.io/v1 CustomResourceDefinition',
    'apiextensions.k8s.io/v1beta1 CustomResourceDefinition',
    'apiregistration.k8s.io/v1 APIService',
    'apiregistration.k8s.io/v1beta1 APIService',
    'apps/v1 ControllerRevision',
    'apps/v1 DaemonSet',
    'apps/v1 Deployment',
    'apps/v1 ReplicaSet',
    'apps/v1 StatefulSet',
    'autoscaling/v1 HorizontalPodAutoscaler',
    'autoscaling/v1 Scale',
    'autoscaling/v2beta1 HorizontalPodAutoscaler',
    'autoscaling/v2beta2 HorizontalPodAutoscaler',
    'batch/v1 CronJob',
    'batch/v1 Job',
    'batch/v1beta1 CronJob',
    'certificates.k8s.io/v1 CertificateSigningRequest',
    'certificates.k8s.io/v1beta1 CertificateSigningRequest',
    'coordination.k8s.io/v1 Lease',
    'coordination.k8s.io/v1beta1 Lease',
    'discovery.k8s.io/v1 EndpointSlice',
    'discovery.k8s.io/v1beta1 EndpointSlice',
    'events.k8s.io/v1 Event',
    'events.k8s.io/v1beta1 Event',
    'extensions/v1beta1 Ingress',
    'flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema',
    'flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration',
    'networking.k8s.io/v1 Ingress',
    'networking.k8s.io/v1 IngressClass',
    'networking.k8s.io/v1 NetworkPolicy',
    'networking.k8s.io/v1beta1 Ingress',
    'networking.k8s.io/v1beta1 IngressClass',
    'node.k8s.io/v1 RuntimeClass',
    'node.k8s.io/v1beta1 RuntimeClass',
    'policy/v1 PodDisruptionBudget',
    'policy/v1beta1 PodDisruptionBudget',
    'policy/v1beta1 PodSecurityPolicy',
    'rbac.authorization.k8s.io/v1 ClusterRole',
    'rbac.authorization.k8s.io/v1 ClusterRoleBinding',
    'rbac.authorization.k8s.io/v1 Role',
    'rbac.authorization.k8s.io/v1 RoleBinding',
    'rbac.authorization.k8s.io/v1beta1 ClusterRole',
    'rbac.authorization.k8s.io/v1beta1 ClusterRoleBinding',
    'rbac.authorization.k8s.io/v1beta1 Role',
    'rbac.authorization.k8s.io/v1beta1 RoleBinding',
    'scheduling.k8s.io/v1 PriorityClass',
    'scheduling.k8s.io/v1beta1 PriorityClass',
    'storage.k8s.io/v1 CSIDriver',
    'storage.k8s.io/v1 CSINode',
    'storage.k8s.io/v1 StorageClass',
    'storage.k8s.io/v1 VolumeAttachment',
    'storage.k8s.io/v1beta1 CSIDriver',
    'storage.k8s.io/v1beta1 CSINode',
    'storage.k8s.io/v1beta1 CSIStorageCapacity',
    'storage.k8s.io/v1beta1 StorageClass',
    'storage.k8s.io/v1beta1 VolumeAttachment',
    'v1 ComponentStatus',
    'v1 ConfigMap',
    'v1 Endpoints',
    'v1 Event',
    'v1 LimitRange',
    'v1 Namespace',
    'v1 Node',
    'v1 NodeProxyOptions',
    'v1 PersistentVolume',
    'v1 PersistentVolumeClaim',
    'v1 Pod',
    'v1 PodAttachOptions',
    'v1 PodExecOptions',
    'v1 PodPortForwardOptions',
    'v1 PodProxyOptions',
    'v1 PodTemplate',
    'v1 ReplicationController',
    'v1 ResourceQuota',
    'v1 Secret',
    'v1 Service',
    'v1 ServiceAccount',
    'v1 ServiceProxyOptions',
  ],
);

/** Whether kyaml answers this type's namespace scope without initialising the schema. */
export function hasPrecomputedScope(apiVersion: string, kind: string): boolean {
  return PRECOMPUTED_SCOPE_TYPES.has(`${apiVersion} ${kind}`);
}
