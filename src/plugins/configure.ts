import { KustomizeError, wrapError } from '../errors.js';
import type { Resource } from '../model/resource.js';
import type { Plugin, PluginContext } from './plugin.js';
import type { PluginResolver } from './resolver.js';
import { settleWithin, timeBounded } from './time-bounded.js';

/** What a plugin must do in its place in the pipeline: generators generate, the rest transform. */
export type PluginRole = 'generator' | 'transformer' | 'validator';

/**
 * The plugin resolvers of a build (or of one layer of it), in order: the first that knows a
 * config configures it. Layers add their own (a kustomization's catalogs) before the last,
 * the plugin home, which reports what nobody found.
 */
export class PluginResolution {
  constructor(
    private readonly resolvers: readonly PluginResolver[],
    private readonly last: PluginResolver,
    /** the layer's own resolvers (its catalogs), named when nothing is found */
    private readonly layer: readonly PluginResolver[] = [],
  ) {}

  /** The same resolution with a layer's own resolvers tried before the last one. */
  withLayer(layer: readonly PluginResolver[]): PluginResolution {
    return layer.length === 0 ? this : new PluginResolution(this.resolvers, this.last, [...this.layer, ...layer]);
  }

  /** Configures the plugin a config names, checking that it can play `role`. */
  async configure(config: Resource, configuredIn: string, role: PluginRole, ctx: PluginContext): Promise<Plugin> {
    let plugin: Plugin | undefined;
    for (const r of [...this.resolvers, ...this.layer]) {
      plugin = await r.resolve(config, configuredIn, ctx);
      if (plugin) break;
    }
    plugin ??= await this.resolveLast(config, configuredIn, ctx);
    if (!plugin) throw new KustomizeError('PLUGIN_NOT_FOUND', `unable to find plugin for ${config.originalId}`);
    return checkRole(plugin, config, role);
  }

  /** The last resolver; what it cannot find names the layer's resolvers searched before it too. */
  private async resolveLast(config: Resource, configuredIn: string, ctx: PluginContext): Promise<Plugin | undefined> {
    try {
      return await this.last.resolve(config, configuredIn, ctx);
    } catch (e) {
      if (this.layer.length === 0 || !(e instanceof KustomizeError) || (e.code !== 'PLUGIN_NOT_FOUND' && e.code !== 'PLUGIN_DISABLED')) throw e;
      const searched = this.layer.map((r) => r.description).join(', ');
      throw new KustomizeError(e.code, `${e.message} (also searched: ${searched})`, { cause: e, ...(e.file && { file: e.file }) });
    }
  }
}

function checkRole(plugin: Plugin, config: Resource, role: PluginRole): Plugin {
  const ok = role === 'generator' ? typeof plugin.generate === 'function' : typeof plugin.transform === 'function';
  if (!ok) throw new KustomizeError('PLUGIN_NOT_FOUND', `plugin ${config.originalId} not a ${role === 'generator' ? 'generator' : 'transformer'}`);
  return plugin;
}

/** An in-process plugin that is not a builtin: its factory and each of its calls are bounded by the plugin timeout. */
export async function configuredInProcess(make: () => Plugin | Promise<Plugin>, id: string, ctx: PluginContext): Promise<Plugin> {
  const seconds = ctx.options.pluginTimeout;
  const describe = `plugin ${id}`;
  return timeBounded(await configured(() => settleWithin(make, seconds, describe, ctx.signal), id), seconds, describe);
}

/** Runs a plugin factory: what it throws, or a factory that returns no plugin, is the plugin's configuration failing. */
export async function configured(make: () => Plugin | Promise<Plugin>, id: string): Promise<Plugin> {
  try {
    const plugin = await make();
    if (!plugin || typeof plugin !== 'object') throw new KustomizeError('PLUGIN_FAILED', 'the factory returned no plugin');
    return plugin;
  } catch (e) {
    throw wrapError(e, `plugin ${id} fails configuration`);
  }
}
