import { BUILTIN_GENERATORS, BUILTIN_TRANSFORMERS } from '../builtins/registry.js';
import { KustomizeError, wrapError } from '../errors.js';
import { gvkString } from '../model/resid.js';
import type { Resource } from '../model/resource.js';
import type { Generator, Plugin, PluginContext, Transformer } from './plugin.js';
import { pluginTimeoutOf, settleWithin, timeBounded } from './time-bounded.js';

export type PluginRole = 'generator' | 'transformer';

/**
 * Turns a plugin config object (from `generators:`, `transformers:` or `validators:`) into a
 * runnable plugin:
 *
 * 1. `apiVersion: builtin` → the builtin of that kind (always allowed);
 * 2. anything else needs `--enable-alpha-plugins`, then, in order: an in-process plugin
 *    registered with the build; a KRM function (the config has a function spec); a plugin in
 *    the plugin home — an executable `<Kind>` (legacy exec plugin) or an ES module
 *    `<Kind>.mjs`/`<Kind>.js` (in-process plugin).
 */
export class PluginLoader {
  async load(config: Resource, configFile: string, ctx: PluginContext, role: PluginRole): Promise<Generator | Transformer> {
    const plugin = await this.configure(config, configFile, ctx, role);
    const ok = role === 'generator' ? typeof plugin.generate === 'function' : typeof plugin.transform === 'function';
    if (!ok) throw new KustomizeError('PLUGIN_NOT_FOUND', `plugin ${config.originalId} not a ${role}`);
    return plugin;
  }

  private async configure(config: Resource, configFile: string, ctx: PluginContext, role: PluginRole): Promise<Plugin> {
    const id = config.originalId;
    if (id.group === '' && id.version === 'builtin') {
      const factory = (role === 'generator' ? BUILTIN_GENERATORS : BUILTIN_TRANSFORMERS).get(id.kind);
      if (!factory) {
        const other = (role === 'generator' ? BUILTIN_TRANSFORMERS : BUILTIN_GENERATORS).get(id.kind);
        if (other) throw new KustomizeError('PLUGIN_NOT_FOUND', `plugin ${id} not a ${role}`);
        throw new KustomizeError('PLUGIN_NOT_FOUND', `unable to load builtin ${gvkString(id)}`);
      }
      return configured(() => factory(config.obj, ctx), id.toString());
    }
    if (!ctx.options.enablePlugins) {
      throw new KustomizeError('PLUGIN_DISABLED', `external plugins disabled; unable to load external plugin '${id.kind}' (enable plugins with --enable-alpha-plugins)`);
    }
    const registered = ctx.options.plugins?.find((p) => p.apiVersion === config.apiVersion && p.kind === config.kind);
    if (registered) return configuredInProcess(() => registered.factory(config.obj, ctx), id.toString(), ctx);
    // running external code needs Node: loaded only when a build asks for it
    const { loadExternalPlugin } = await import('./external-plugins.js');
    return loadExternalPlugin(config, configFile, ctx);
  }
}

/** An in-process plugin that is not a builtin: its factory and each of its calls are bounded by the plugin timeout. */
export async function configuredInProcess(make: () => Plugin | Promise<Plugin>, id: string, ctx: PluginContext): Promise<Plugin> {
  const seconds = pluginTimeoutOf(ctx);
  const describe = `plugin ${id}`;
  return timeBounded(await configured(() => settleWithin(make, seconds, describe), id), seconds, describe);
}

export async function configured(make: () => Plugin | Promise<Plugin>, id: string): Promise<Plugin> {
  try {
    const plugin = await make();
    if (!plugin || typeof plugin !== 'object') throw new Error('the factory returned no plugin');
    return plugin;
  } catch (e) {
    throw wrapError(e, `plugin ${id} fails configuration`);
  }
}
