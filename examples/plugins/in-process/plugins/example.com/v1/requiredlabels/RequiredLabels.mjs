// An in-process plugin: the default export turns the config object into a plugin, the same
// shape kustomize-ts's builtins have. With `mode: fill` it adds missing labels (a transformer);
// with `mode: check` it only checks them and marks each resource (a validator, which may change
// nothing but the `validated-by` label).

/** @type {import('kustomize-ts').PluginFactory} */
export default function configure(config) {
  const wanted = config.labels ?? {};
  return {
    transform(resources) {
      for (const r of resources) {
        const labels = r.stringMap('labels') ?? {};
        for (const [key, value] of Object.entries(wanted)) {
          if (labels[key] !== undefined) continue;
          if (config.mode === 'check') throw new Error(`${r.id} lacks the label ${key}`);
          r.setStringMapEntry('labels', key, value);
        }
        if (config.mode === 'check') r.setStringMapEntry('labels', 'validated-by', config.metadata.name);
      }
    },
  };
}
