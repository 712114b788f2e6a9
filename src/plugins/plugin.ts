import type { Loader } from '../load/loader.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { KustomizeProfile } from '../versions/profiles.js';
import type { ResolvedOptions } from '../options.js';
import type { OpenApiSchemaSetting, SchemaNode } from '../openapi/schema.js';
import type { ParseDocuments } from '../yaml/parse.js';
import type { YMap } from '../yaml/value.js';

/**
 * What a plugin can see of the build: the loader of the kustomization that configured it
 * (relative files resolve against its directory, under its load restriction), the build's
 * options and signal, a place for warnings, and a YAML reader that parses a text once per build.
 */
export interface PluginContext {
  readonly loader: Loader;
  readonly options: Readonly<ResolvedOptions>;
  /** how the kustomize release the build behaves as (`options.kustomizeVersion`) differs from the others */
  readonly profile: KustomizeProfile;
  /** the build's OpenAPI schema (kustomize's default, or the one an `openapi:` field chose) */
  readonly openapi: OpenApiSchemaSetting;
  /** what the step can learn of custom resources' types from their CRDs, for strategic-merge patches */
  readonly customResources: CustomResourceTypes;
  /**
   * Aborts when the caller stops the build (the `signal` option of `build()`): a plugin that
   * waits on something (a request, a process) should stop it then. The build stops waiting for
   * the plugin either way.
   */
  readonly signal: AbortSignal;
  warn(message: string): void;
  /** The documents of a text the step reads (a patch…): parsed once per build and text; each call gets its own copy. */
  documents: ParseDocuments;
}

/**
 * What a strategic-merge patch on a custom resource learns of its type (see `--crd-merge`): how
 * its CRD merges its lists, and where to say that a patch replaced one of them.
 */
export interface CustomResourceTypes {
  /** `--crd-merge`: merge a custom resource's lists as its CRD says, instead of replacing them as kustomize does */
  readonly crdMerge: boolean;
  /**
   * The schema of a custom resource type (one kustomize's built-in schema does not have) from
   * the first that describes it of: a CRD among `resources` (those the step runs on), the
   * `crds:` of the step's kustomization and of its bases, the `--schema` files, the `openapi:`
   * file. Undefined when none does.
   */
  schemaOf(apiVersion: string, kind: string, resources: ResourceMap): CustomResourceSchema | undefined;
  /** Says that a patch replaced a list the type's schema merges (a `LIST_REPLACED` notice, placed at the list in the patch). */
  listReplaced(replaced: ReplacedList): void;
}

/** A custom resource type's schema, as strategic merge reads it. */
export interface CustomResourceSchema {
  /** its lists' `x-kubernetes-list-type`s given as patch strategies (see `listTypeStrategy`) */
  readonly node: SchemaNode;
  /** a CRD's (or kustomize's `crds:` form's), else a schema file's: what messages call it */
  readonly crd: boolean;
}

/** A list of a custom resource that a patch replaced, though the type's schema merges it. */
export interface ReplacedList {
  /** what happened, without the step (`spec.steps of Rollout/web was replaced …`) */
  readonly message: string;
  /** the patch file, as the step's config names it; none for the config's inline `patch` */
  readonly patchFile?: string;
  /** which document of that text the patch is */
  readonly document: number;
  /** the list's field in the patch (and the resource) */
  readonly path: readonly string[];
  readonly resource: { readonly apiVersion: string; readonly kind: string; readonly namespace: string; readonly name: string };
}

/** Produces new resources. */
export interface Generator {
  /** resources, or plain objects that will be read as resources */
  generate(ctx: PluginContext): (Resource | YMap)[] | Promise<(Resource | YMap)[]>;
}

/**
 * Edits, adds or removes resources in place. Resources may be edited freely (`Resource.obj` is
 * writable throughout) and added or removed through the map; the pipeline finds what changed.
 */
export interface Transformer {
  transform(resources: ResourceMap, ctx: PluginContext): void | Promise<void>;
}

/**
 * A builtin transformer that can run as one step with the next (the entries of an `images`
 * list share one walk of every resource this way). Not part of the plugin contract: the
 * pipeline asks builtins only.
 */
export interface JoiningTransformer extends Transformer {
  /**
   * This step and the `next` one as one step (run in this step's context), when running them
   * together does what running them in turn does, and fails as this one would first; undefined
   * when they do not join.
   */
  joinWith(next: Transformer): Transformer | undefined;
}

/** `first` and `next` run as one step, when `first` is a {@link JoiningTransformer} that joins `next`. */
export function joinsWith(first: Transformer, next: Transformer): Transformer | undefined {
  return 'joinWith' in first && typeof first.joinWith === 'function' ? (first as JoiningTransformer).joinWith(next) : undefined;
}

/**
 * A plugin that runs once for all the configs that name it in one phase of a kustomization:
 * the KEP's group executables, one call per API group. The pipeline gives the first of them
 * the configs of the others, which it drops, and lets `patches:` reach the configs first. Not
 * part of the plugin contract.
 */
export interface GroupedPlugin {
  /** plugins of one phase with the same key run as one, in the first one's place */
  readonly groupKey: string;
  /** its configs, in order (the virtual resources `patches:` may reach) */
  readonly configs: readonly Resource[];
  /** Takes the configs of `other` (of the same key) after its own. */
  absorb(other: GroupedPlugin): void;
  /** What runs once every generator of its phase has run, when it is a generator (the KEP's implicit transform). */
  afterGenerators(): Transformer;
}

/** The plugin as a {@link GroupedPlugin}, when it is one. */
export function groupedPlugin(plugin: Generator | Transformer): GroupedPlugin | undefined {
  return 'groupKey' in plugin && typeof plugin.groupKey === 'string' ? (plugin as unknown as GroupedPlugin) : undefined;
}

/**
 * Makes a configured plugin from its config object. Builtins, in-process plugins (ES modules
 * or registered through the library API) and the runtimes of external plugins all have this
 * shape: what they return implements `generate`, `transform` or both.
 */
export type PluginFactory = (config: YMap, ctx: PluginContext) => Plugin | Promise<Plugin>;

export type Plugin = Partial<Generator & Transformer> & (Generator | Transformer);

/** `plugin` with each of its `generate` and `transform` calls run inside `around`. */
export function aroundEachRun(plugin: Plugin, around: <T>(run: () => T | Promise<T>, ctx: PluginContext) => Promise<T>): Plugin {
  const wrapped = Object.create(plugin) as Plugin;
  const { generate, transform } = plugin;
  if (generate) wrapped.generate = (ctx) => around(() => generate.call(plugin, ctx), ctx);
  if (transform) wrapped.transform = (resources, ctx) => around(() => transform.call(plugin, resources, ctx), ctx);
  return wrapped;
}

/** An in-process plugin given to `build()`, chosen for configs of this apiVersion and kind. */
export interface PluginRegistration {
  apiVersion: string;
  kind: string;
  factory: PluginFactory;
}
