import { KustomizeError } from '../errors.js';
import type { GeneratorArgs, GeneratorOptions } from '../kinds/kustomization.js';
import { Resource, type GenerationBehavior } from '../model/resource.js';
import type { YMap } from '../yaml/value.js';

/**
 * The resource a ConfigMap/Secret generator makes from its args and data: metadata with the
 * options' labels and annotations, `immutable` when asked, and the generation behavior and
 * hash-suffix request kept as build state.
 */
export function generatedResource(kind: 'ConfigMap' | 'Secret', args: GeneratorArgs, body: YMap): Resource {
  if (!args.name) throw new KustomizeError('GENERATOR_FAILED', `a ${kind.toLowerCase()} must have a name`);
  const metadata: YMap = { name: args.name };
  if (args.namespace) metadata['namespace'] = args.namespace;
  const options = args.options ?? {};
  if (options.labels && Object.keys(options.labels).length > 0) metadata['labels'] = { ...options.labels };
  if (options.annotations && Object.keys(options.annotations).length > 0) metadata['annotations'] = { ...options.annotations };
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
