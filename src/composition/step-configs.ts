import { Resource } from '../model/resource.js';
import type { StepConfig } from '../plan/plan.js';
import { FUNCTION_ANNOTATION } from '../kinds/function-spec.js';
import { emitYaml } from '../yaml/emit.js';
import { cloneValue, isMap, type YMap } from '../yaml/value.js';
import type { ConsolidatedTransformer } from './consolidated-transformer.js';

/**
 * A consolidated transformer as a step config. The runtime field becomes the
 * `config.kubernetes.io/function` annotation, so a Composition's functions are found, gated
 * (`--enable-alpha-plugins`, `--enable-exec`, …) and refused with the same messages as any
 * function config.
 */
export function stepConfig(t: ConsolidatedTransformer): StepConfig {
  return { config: new Resource(withFunctionAnnotation(t.config)), configuredIn: t.loader.originPath(t.file), file: t.file, loader: t.loader, entry: t.entry };
}

function withFunctionAnnotation(config: YMap): YMap {
  const out = cloneValue(config);
  const provider = out['provider'];
  if (provider === undefined) return out;
  delete out['provider'];
  const metadata = out['metadata'] as YMap;
  const annotations = isMap(metadata['annotations']) ? metadata['annotations'] : (metadata['annotations'] = {});
  annotations[FUNCTION_ANNOTATION] = emitYaml(provider);
  return out;
}
