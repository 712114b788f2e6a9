import { utf8DecodeStrict } from '../encoding/base64.js';
import type { FileSystem } from '../fs/filesystem.js';
import type { Loader } from '../load/loader.js';
import { OpenApiSchemaSetting } from '../openapi/schema.js';
import type { ResolvedOptions } from '../options.js';
import type { PluginResolution } from '../plugins/configure.js';
import type { PluginContext } from '../plugins/plugin.js';
import type { RemoteSource } from '../load/remote/remote-source.js';
import { defaultRemoteSource } from '../load/remote/default-remote.js';
import { CatalogStore } from '../catalog/catalog-store.js';
import { parseYamlDocuments, type ParseOptions } from '../yaml/parse.js';
import { ParsedTexts } from '../yaml/parsed-texts.js';
import type { Value } from '../yaml/value.js';
import type { BuildCache } from './build-cache.js';

/** How many characters of step texts one build keeps parsed (patches are small; this bounds a build that reads huge ones). */
const STEP_TEXT_CHARS = 4_000_000;

/**
 * What every kustomization of one build shares: the options, the file system, the plugin
 * resolvers, the schema choice, warnings, build metadata flags. One per build: two builds
 * never share one.
 */
export class BuildContext {
  readonly openapi = new OpenApiSchemaSetting();
  /** set from the top kustomization's `buildMetadata`; kustomize applies it to every kustomization below */
  buildMetadata: string[] = [];

  /** the catalogs the build's layers list, each fetched once, when first needed */
  readonly catalogs = new CatalogStore({ remote: () => this.remote() });

  /**
   * Whether what the build makes depends on nothing but its files and options: false once it
   * configures a step that is not a builtin or a Composition, or helm, or fetches anything remote.
   */
  filesDecide = true;

  private remoteSource: RemoteSource | undefined;

  /**
   * The texts steps parse (patches, replacement files) when there is no cache: one patch file
   * is often applied to many targets (argo-cd's redis-ha applies one to 45 resources).
   */
  private readonly stepTexts = new ParsedTexts(STEP_TEXT_CHARS);

  constructor(
    readonly options: Readonly<ResolvedOptions>,
    readonly fs: FileSystem,
    readonly resolution: PluginResolution,
    private readonly cache?: BuildCache,
  ) {}

  /** The text of a resource file's bytes (undefined when they are not UTF-8); with a cache, the text it had when it last read the same. */
  resourceText(path: string, bytes: Uint8Array): string | undefined {
    return this.cache ? this.cache.decoded.text(path, bytes) : utf8DecodeStrict(bytes);
  }

  /**
   * The documents of a resource file's text; with a cache, what it holds for that text, shared
   * and frozen: steps copy the parts they write (see `Resource.own`).
   */
  resourceDocuments(text: string, file: string): Value[] {
    return this.cache ? this.cache.parsed.sharedDocuments(text, file) : parseYamlDocuments(text, file);
  }

  /** The documents of a text a step reads, parsed once per build (with a cache, once per content); each call gets its own copy. */
  stepDocuments(text: string, file: string, options?: ParseOptions): Value[] {
    return (this.cache?.parsed ?? this.stepTexts).documents(text, file, options);
  }

  /** The source of remote resources, made on first use. */
  async remote(): Promise<RemoteSource> {
    this.filesDecide = false;
    this.remoteSource ??= this.options.remote ?? (await defaultRemoteSource(this.options));
    return this.remoteSource;
  }

  /** Removes what the build fetched. */
  cleanup(): void {
    this.remoteSource?.cleanup();
  }

  /** Whether origins are tracked at all (any buildMetadata entry turns tracking on, as in kustomize). */
  get trackOrigins(): boolean {
    return this.buildMetadata.length > 0;
  }

  warn(message: string): void {
    this.options.warn?.(message);
  }

  pluginContext(loader: Loader): PluginContext {
    return { loader, options: this.options, openapi: this.openapi, warn: (m) => this.warn(m), documents: (text, file, options) => this.stepDocuments(text, file, options) };
  }
}
