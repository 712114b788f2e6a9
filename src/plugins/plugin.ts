import type { Loader } from '../load/loader.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { ResolvedOptions } from '../options.js';
import type { Origin } from '../model/origin.js';
import type { OpenApiSchemaSetting } from '../openapi/schema.js';
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
  /** the build's OpenAPI schema (kustomize's default, or the one an `openapi:` field chose) */
  readonly openapi: OpenApiSchemaSetting;
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

/** Produces new resources. */
export interface Generator {
  /** resources, or plain objects that will be read as resources */
  generate(ctx: PluginContext): (Resource | YMap)[] | Promise<(Resource | YMap)[]>;
}

/** Edits, adds or removes resources in place. */
export interface Transformer {
  transform(resources: ResourceMap, ctx: PluginContext): void | Promise<void>;
  /**
   * True when `transform` reports every resource it edits with `resources.edited()` and adds or
   * removes resources only through the map: the pipeline then looks again at those alone
   * (a run of patches on a large map then costs what the patches touch, not the map's size).
   */
  readonly reportsEdits?: boolean;
  /**
   * True when `transform` writes a resource's shared parts only after copying them (see
   * `Resource.own`): with a cache, resources share what was parsed from their files with other
   * builds, frozen. Any other transformer is given resources that are writable throughout.
   */
  readonly copiesShared?: boolean;
  /**
   * This step and the `next` one as one step (run in this step's context), when running them
   * together does what running them in turn does, and fails as this one would first; undefined
   * when they do not join. (The entries of an `images` list share one walk of every resource
   * this way.)
   */
  joinWith?(next: Transformer): Transformer | undefined;
}

/** A configured plugin as the pipeline runs it, with where it was configured. */
export interface ConfiguredPlugin<P> {
  plugin: P;
  /** the config's apiVersion/kind/name and the file it came from, for messages and annotations */
  origin: Origin;
}

/**
 * Makes a configured plugin from its config object. Builtins, in-process plugins (ES modules
 * or registered through the library API) and the runtimes of external plugins all have this
 * shape: what they return implements `generate`, `transform` or both.
 */
export type PluginFactory = (config: YMap, ctx: PluginContext) => Plugin | Promise<Plugin>;

export type Plugin = Partial<Generator & Transformer> & (Generator | Transformer);

/** An in-process plugin given to `build()`, chosen for configs of this apiVersion and kind. */
export interface PluginRegistration {
  apiVersion: string;
  kind: string;
  factory: PluginFactory;
}
