import type { PluginRegistration } from '../../src/plugins/plugin.js';

/** The config file of a {@link stampPlugin} step. */
export const STAMP_CONFIG = 'apiVersion: example.com/v1\nkind: Stamp\nmetadata:\n  name: s\n';

/** An in-process transformer that annotates each resource with how many times it has run: a step whose output the files do not decide. */
export function stampPlugin(): { registration: PluginRegistration; runs(): number } {
  let runs = 0;
  const registration: PluginRegistration = {
    apiVersion: 'example.com/v1',
    kind: 'Stamp',
    factory: () => ({
      transform(resources) {
        runs++;
        for (const r of resources.resources()) r.obj['metadata'] = { ...(r.obj['metadata'] as object), annotations: { run: String(runs) } };
      },
    }),
  };
  return { registration, runs: () => runs };
}
