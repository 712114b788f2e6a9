import { BUILTIN_GENERATORS, BUILTIN_TRANSFORMERS } from '../builtins/registry.js';
import { KustomizeError, wrapError } from '../errors.js';
import { gvkString } from '../model/resid.js';
import type { Resource } from '../model/resource.js';
import type { Generator, PluginContext, Transformer } from './plugin.js';

/**
 * Turns a plugin config object (from `generators:`, `transformers:` or `validators:`) into a
 * runnable plugin: builtins by kind when `apiVersion: builtin`; anything else only when the
 * build enables plugins.
 */
export class PluginLoader {
  loadGenerator(config: Resource, ctx: PluginContext): Generator {
    return this.load(config, ctx, 'generator') as Generator;
  }

  loadTransformer(config: Resource, ctx: PluginContext): Transformer {
    return this.load(config, ctx, 'transformer') as Transformer;
  }

  private load(config: Resource, ctx: PluginContext, role: 'generator' | 'transformer'): Generator | Transformer {
    const id = config.originalId;
    if (id.group === '' && id.version === 'builtin') {
      const factory = role === 'generator' ? BUILTIN_GENERATORS.get(id.kind) : BUILTIN_TRANSFORMERS.get(id.kind);
      if (!factory) {
        const other = role === 'generator' ? BUILTIN_TRANSFORMERS.get(id.kind) : BUILTIN_GENERATORS.get(id.kind);
        if (other) throw new KustomizeError('PLUGIN_NOT_FOUND', `plugin ${id} not a ${role}`);
        throw new KustomizeError('PLUGIN_NOT_FOUND', `unable to load builtin ${gvkString(id)}`);
      }
      try {
        return factory(config.obj, ctx);
      } catch (e) {
        throw wrapError(e, `plugin ${id} fails configuration`);
      }
    }
    if (!ctx.options.enablePlugins) {
      throw new KustomizeError('PLUGIN_DISABLED', `external plugins disabled; unable to load external plugin '${id.kind}'`);
    }
    throw new KustomizeError('PLUGIN_NOT_FOUND', `unable to load plugin ${id}`);
  }
}
