import { KustomizeError } from '../errors.js';
import { COMPOSITION_API_VERSION, COMPOSITION_API_VERSIONS, COMPOSITION_KIND } from '../kinds/composition.js';
import type { Loader } from '../load/loader.js';
import { Resource } from '../model/resource.js';
import { Accumulator } from '../pipeline/accumulator.js';
import type { BuildTarget } from '../pipeline/target.js';
import type { Plugin } from '../plugins/plugin.js';
import type { PluginResolver } from '../plugins/resolver.js';

/** A directory's target, as the target loader reads it: here only a Composition will do. */
export type CompositionLoader = (loader: Loader) => BuildTarget;

/**
 * The config a Kustomization's `generators:`, `transformers:` or `validators:` entry naming a
 * Composition directory stands for: run the Composition at `path` (relative to the
 * kustomization). As a validator its output is discarded.
 */
export function compositionStep(path: string, discardOutput: boolean): Resource {
  return new Resource({
    apiVersion: COMPOSITION_API_VERSION,
    kind: COMPOSITION_KIND,
    metadata: { name: path },
    path,
    ...(discardOutput && { discardOutput: true }),
  });
}

/**
 * Configures `kind: Composition` step configs: as a generator the Composition runs with no
 * input and what it makes is generated; as a transformer it runs on the current resources and
 * its output replaces them; with `discardOutput` it runs on copies and changes nothing.
 */
export function compositionResolver(load: CompositionLoader): PluginResolver {
  return {
    description: 'Compositions',
    async resolve(config, configuredIn, ctx) {
      if (config.kind !== COMPOSITION_KIND || !COMPOSITION_API_VERSIONS.includes(config.apiVersion)) return undefined;
      const path = config.obj['path'];
      if (typeof path !== 'string' || path === '') {
        throw new KustomizeError('PLUGIN_FAILED', `${config.originalId} (configured in ${configuredIn}): a Composition step needs the path of a Composition directory`, { file: configuredIn });
      }
      const target = load(ctx.loader.child(path));
      if (target.kind !== COMPOSITION_KIND) throw new KustomizeError('COMPOSITION_INVALID', `expected a Composition for path '${path}' but got a ${target.kind}`);
      const discard = config.obj['discardOutput'] === true;
      const plugin: Plugin = {
        // its own steps run as any step does
        copiesShared: true,
        async generate() {
          return [...(await target.accumulate()).resources.resources()];
        },
        async transform(resources) {
          const acc = new Accumulator();
          acc.resources.appendAll(discard ? resources.resources().map((r) => r.clone()) : resources.resources());
          await target.accumulate(acc);
          if (!discard) resources.setAll([...acc.resources.resources()]);
        },
      };
      return plugin;
    },
  };
}
