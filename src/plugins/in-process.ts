import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { KustomizeError } from '../errors.js';
import { importModule } from './import-module.js';
import type { PluginFactory } from './plugin.js';

/** The module extensions an in-process plugin may have in the plugin home. */
const IN_PROCESS_EXTENSIONS = ['.mjs', '.js'];

/** The in-process plugin module next to `pluginPath` (`<Kind>.mjs` or `<Kind>.js`), if any. */
export function inProcessModulePath(pluginPath: string): string | undefined {
  return IN_PROCESS_EXTENSIONS.map((ext) => pluginPath + ext).find((p) => existsSync(p));
}

/**
 * Loads an in-process plugin: an ES module whose default export (or `configure` export) is a
 * PluginFactory, the same shape builtins have. `cache` (one per build) keeps a module from
 * being imported twice in a build.
 */
export function loadPluginModule(path: string, cache: Map<string, Promise<unknown>>): Promise<PluginFactory> {
  let loaded = cache.get(path) as Promise<PluginFactory> | undefined;
  if (!loaded) {
    loaded = importModule(pathToFileURL(path).href).then((mod) => {
      const factory = (mod['configure'] ?? mod['default']) as PluginFactory | undefined;
      if (typeof factory !== 'function') {
        throw new KustomizeError('PLUGIN_NOT_FOUND', `in-process plugin ${path} must export a function (default or 'configure') taking (config, context)`);
      }
      return factory;
    });
    cache.set(path, loaded);
  }
  return loaded;
}
