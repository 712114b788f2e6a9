import { DiskFileSystem } from '../fs/disk.js';
import type { FileSystem } from '../fs/filesystem.js';
import type { Loader } from '../load/loader.js';
import { OpenApiSchemaSetting } from '../openapi/schema.js';
import type { BuildOptions } from '../options.js';
import type { PluginContext } from '../plugins/plugin.js';

/** What every kustomization of one build shares: options, the schema choice, warnings, build metadata flags. */
export class BuildContext {
  readonly fs: FileSystem;
  readonly openapi = new OpenApiSchemaSetting();
  /** set from the top kustomization's `buildMetadata`; kustomize applies it to every kustomization below */
  buildMetadata: string[] = [];

  constructor(readonly options: BuildOptions) {
    this.fs = options.fs ?? new DiskFileSystem();
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
