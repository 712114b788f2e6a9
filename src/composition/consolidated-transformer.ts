import type { TransformerConfig } from '../kinds/composition.js';
import type { Loader } from '../load/loader.js';
import { isMap } from '../yaml/value.js';

/** One transformer of a consolidated Composition: its config and where it was written. */
export interface ConsolidatedTransformer {
  config: TransformerConfig;
  /** the absolute path of the file it was written in: a Composition, or a file of configs one named */
  file: string;
  /** the loader of the Composition it belongs to: its relative paths resolve from that directory */
  loader: Loader;
  /** the `transformers:` entry of its Composition that holds or names it (`transformers[2]`) */
  entry: string;
}

/** What tells transformers apart in a Composition: apiVersion, kind and `metadata.name`. */
interface TransformerId {
  apiVersion: string;
  kind: string;
  name: string;
}

export function transformerId(config: TransformerConfig): TransformerId {
  const meta = config['metadata'];
  return {
    apiVersion: String(config['apiVersion'] ?? ''),
    kind: String(config['kind'] ?? ''),
    name: String((isMap(meta) ? meta['name'] : undefined) ?? ''),
  };
}

export function sameTransformer(a: TransformerConfig, b: TransformerConfig): boolean {
  const x = transformerId(a);
  const y = transformerId(b);
  return x.apiVersion === y.apiVersion && x.kind === y.kind && x.name === y.name;
}

/** `Logger logger (example.com/v1)` */
export function describeTransformer(config: TransformerConfig): string {
  const id = transformerId(config);
  return `${id.kind} ${id.name} (${id.apiVersion})`;
}
