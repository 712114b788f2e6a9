import type { Resource } from '../model/resource.js';
import type { Plugin, PluginContext } from './plugin.js';

/**
 * Finds the plugin a step config names. A build holds an ordered list of these — builtins,
 * in-process plugins registered with the build, explicit function specs (exec, container,
 * starlark), the catalogs of the layer, the legacy plugin home — and the first that knows
 * the config configures it.
 */
export interface PluginResolver {
  /** what this resolver searches, for messages (`builtins`, `catalog https://…`) */
  readonly description: string;
  /**
   * The configured plugin, or undefined when this resolver has nothing for the config.
   * Throws (a KustomizeError) when it knows the config but may not or cannot run it:
   * disabled by a flag, untrusted, a digest mismatch, a bad config.
   */
  resolve(config: Resource, configuredIn: string, ctx: PluginContext): Promise<Plugin | undefined>;
}
