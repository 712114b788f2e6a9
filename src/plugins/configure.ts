import { KustomizeError, wrapError } from '../errors.js';
import type { Resource } from '../model/resource.js';
import type { Plugin, PluginContext } from './plugin.js';
import type { PluginResolver } from './resolver.js';

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
  ) {}

  /** The same resolution with a layer's own resolvers tried before the last one. */
  withLayer(layer: readonly PluginResolver[]): PluginResolution {
    return layer.length === 0 ? this : new PluginResolution([...this.resolvers, ...layer], this.last);
  }

  /** Configures the plugin a config names, checking that it can play `role`. */
  async configure(config: Resource, configuredIn: string, role: PluginRole, ctx: PluginContext): Promise<Plugin> {
    let plugin: Plugin | undefined;
    for (const r of this.resolvers) {
      plugin = await r.resolve(config, configuredIn, ctx);
      if (plugin) break;
    }
    plugin ??= await this.last.resolve(config, configuredIn, ctx);
    if (!plugin) throw new KustomizeError('PLUGIN_NOT_FOUND', `unable to find plugin for ${config.originalId}`);
    return checkRole(plugin, config, role);
  }
}

function checkRole(plugin: Plugin, config: Resource, role: PluginRole): Plugin {
  const ok = role === 'generator' ? typeof plugin.generate === 'function' : typeof plugin.transform === 'function';
  if (!ok) throw new KustomizeError('PLUGIN_NOT_FOUND', `plugin ${config.originalId} not a ${role === 'generator' ? 'generator' : 'transformer'}`);
  return plugin;
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
