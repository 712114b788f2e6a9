import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KustomizeError } from '../errors.js';
import type { ResId } from '../model/resid.js';
import type { Resource } from '../model/resource.js';
import { configuredInProcess } from './configure.js';
import { inProcessModulePath, loadPluginModule } from './in-process.js';
import { LegacyExecPlugin } from './legacy-exec.js';
import type { Plugin, PluginContext } from './plugin.js';
import { groupExecutableDir, pluginHome, pluginPath } from './plugin-home.js';
import { GroupExecutable } from './group-executable.js';

/**
 * What the plugin home holds for a config's type: an executable `<Kind>` (legacy exec plugin)
 * or an ES module `<Kind>.mjs`/`<Kind>.js` (in-process plugin, imported once per build:
 * `modules`); else the executable of its API group that the generators and transformers KEP
 * describes (`$XDG_CONFIG_HOME/kustomize/plugins/<group>`). What is not found names every
 * place that was looked at.
 */
export async function loadFromPluginHome(config: Resource, configuredIn: string, ctx: PluginContext, modules: Map<string, Promise<unknown>>): Promise<Plugin> {
  const id = config.originalId;
  checkNames(id);
  const home = pluginHome(ctx.options.pluginHome);
  const path = home && pluginPath(home, id);
  if (path) {
    if (isExecutableFile(path)) return new LegacyExecPlugin(path, config, configuredIn);
    const module = inProcessModulePath(path);
    if (module) {
      const factory = await loadPluginModule(module, modules);
      return configuredInProcess(() => factory(config.obj, ctx), id.toString(), ctx);
    }
    if (existsSync(path + '.so')) {
      throw new KustomizeError('PLUGIN_NOT_FOUND', `${path}.so is a Go plugin; kustomize-ts cannot load Go plugins (write it as an exec plugin or an ES module ${path}.mjs)`);
    }
  }
  const groupExecutable = id.group === '' ? undefined : join(groupExecutableDir(), id.group);
  if (groupExecutable && isExecutableFile(groupExecutable)) return new GroupExecutable(id.group, groupExecutable, config);
  const searched = path
    ? `no executable ${path}, nor module ${path}.mjs or ${path}.js`
    : 'no plugin home ($KUSTOMIZE_PLUGIN_HOME, $XDG_CONFIG_HOME/kustomize/plugin or ~/.config/kustomize/plugin)';
  const group = groupExecutable ? `, nor group executable ${groupExecutable}` : ' (a config of the core group has no group executable)';
  throw new KustomizeError('PLUGIN_NOT_FOUND', `unable to find plugin for ${id}: ${searched}${group}`);
}

/** Group, version and kind name a directory each: a separator or a dots-only name would climb out of the plugin home. */
function checkNames(id: ResId): void {
  for (const [what, name] of [
    ['group', id.group],
    ['version', id.version],
    ['kind', id.kind],
  ] as const) {
    if (/[/\\\0]/.test(name) || /^\.+$/.test(name)) {
      throw new KustomizeError('PLUGIN_NOT_FOUND', `plugin ${id}: the ${what} '${name}' is not a name (no path separators, not '.' or '..')`, { field: what });
    }
  }
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
