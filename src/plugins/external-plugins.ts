import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { KustomizeError } from '../errors.js';
import type { Resource } from '../model/resource.js';
import { functionSpecOf } from './function-spec.js';
import { inProcessModulePath, loadPluginModule } from './in-process.js';
import { KrmFunction } from './krm-function.js';
import { LegacyExecPlugin } from './legacy-exec.js';
import { configuredInProcess } from './loader.js';
import type { Plugin, PluginContext } from './plugin.js';
import { pluginHome, pluginPath } from './plugin-home.js';

/**
 * A plugin that runs code from outside the build: a KRM function (the config carries a function
 * spec), else what the plugin home holds for the config's type — an executable `<Kind>`
 * (legacy exec plugin) or an ES module `<Kind>.mjs`/`<Kind>.js` (in-process plugin).
 */
export async function loadExternalPlugin(config: Resource, configFile: string, ctx: PluginContext): Promise<Plugin> {
  const spec = functionSpecOf(config);
  if (spec) return new KrmFunction(config, spec, configFile);
  const id = config.originalId;
  const home = pluginHome(ctx.options.pluginHome);
  if (!home) {
    throw new KustomizeError(
      'PLUGIN_NOT_FOUND',
      `unable to find plugin for ${id}: no plugin home ($KUSTOMIZE_PLUGIN_HOME, $XDG_CONFIG_HOME/kustomize/plugin or ~/.config/kustomize/plugin)`,
    );
  }
  const path = pluginPath(home, id);
  if (isExecutableFile(path)) return new LegacyExecPlugin(path, config, configFile);
  const module = inProcessModulePath(path);
  if (module) {
    const factory = await loadPluginModule(module);
    return configuredInProcess(() => factory(config.obj, ctx), id.toString(), ctx);
  }
  if (existsSync(path + '.so')) {
    throw new KustomizeError('PLUGIN_NOT_FOUND', `${path}.so is a Go plugin; kustomize-ts cannot load Go plugins (write it as an exec plugin or an ES module ${path}.mjs)`);
  }
  throw new KustomizeError('PLUGIN_NOT_FOUND', `unable to find plugin for ${id}: no executable ${path}, nor module ${path}.mjs or ${path}.js`);
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
