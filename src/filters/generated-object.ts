import { KustomizeError } from '../errors.js';
import type { GeneratorArgs, GeneratorOptions } from '../kinds/kustomization.js';
import { Resource, type GenerationBehavior } from '../model/resource.js';
import type { YMap } from '../yaml/value.js';
import { readsAsNonString11, setStringField } from '../yaml/string-styles.js';

/**
 * The resource a ConfigMap/Secret generator makes from its args and data: metadata with the
 * options' labels and annotations, `immutable` when asked, and the generation behavior and
 * hash-suffix request kept as build state.
 */
export function generatedResource(kind: 'ConfigMap' | 'Secret', args: GeneratorArgs, body: YMap): Resource {
  if (!args.name) throw new KustomizeError('GENERATOR_FAILED', `a ${kind.toLowerCase()} must have a name`);
  // styled as kyaml writes them: the options' labels and annotations single-quoted
  const metadata: YMap = {};
  setStringField(metadata, 'name', args.name, readsAsNonString11(args.name));
  if (args.namespace) setStringField(metadata, 'namespace', args.namespace, readsAsNonString11(args.namespace));
  const options = args.options ?? {};
  for (const field of ['labels', 'annotations'] as const) {
    const entries = options[field] ?? {};
    if (Object.keys(entries).length === 0) continue;
    const m: YMap = (metadata[field] = {});
    for (const key of Object.keys(entries).sort()) setStringField(m, key, entries[key]!, true);
  }
  const obj: YMap = { apiVersion: 'v1', kind, metadata, ...body };
  if (options.immutable) obj['immutable'] = true;
  const r = new Resource(obj);
  r.behavior = parseBehavior(args.behavior);
  r.needsHashSuffix = !options.disableNameSuffixHash;
  return r;
}

function parseBehavior(b: string | undefined): GenerationBehavior {
  return b === 'create' || b === 'merge' || b === 'replace' ? b : 'unspecified';
}

/** kustomize's generatorOptions: the kustomization-wide ones fill what a generator does not set. */
export function mergeGeneratorOptions(local: GeneratorOptions | undefined, global: GeneratorOptions | undefined): GeneratorOptions | undefined {
  if (!global) return local;
  const out: GeneratorOptions = { ...(local ?? {}) };
  if (global.labels) out.labels = { ...global.labels, ...(local?.labels ?? {}) };
  if (global.annotations) out.annotations = { ...global.annotations, ...(local?.annotations ?? {}) };
  if (global.disableNameSuffixHash) out.disableNameSuffixHash = true;
  if (global.immutable) out.immutable = true;
  return out;
}
