import type { FileSystem } from '../fs/filesystem.js';
import type { Loader } from '../load/loader.js';
import { OpenApiSchemaSetting } from '../openapi/schema.js';
import type { BuildOptions } from '../options.js';
import type { PluginContext } from '../plugins/plugin.js';
import type { RemoteSource } from '../load/remote/remote-source.js';
import { defaultRemoteSource } from '../load/remote/default-remote.js';

/** What every kustomization of one build shares: options, the schema choice, warnings, build metadata flags. */
export class BuildContext {
  readonly fs: FileSystem;
  readonly openapi = new OpenApiSchemaSetting();
  /** set from the top kustomization's `buildMetadata`; kustomize applies it to every kustomization below */
  buildMetadata: string[] = [];

  private remoteSource: RemoteSource | undefined;

  constructor(
    readonly options: BuildOptions,
    fs: FileSystem,
  ) {
    this.fs = fs;
  }

  /** The source of remote resources, made on first use. */
  async remote(): Promise<RemoteSource> {
    if (!this.remoteSource) {
      this.remoteSource = this.options.remote ?? (await defaultRemoteSource());
    }
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
    if (this.options.warn) this.options.warn(message);
  }

  pluginContext(loader: Loader): PluginContext {
    return { loader, options: this.options, openapi: this.openapi, warn: (m) => this.warn(m) };
  }
}
