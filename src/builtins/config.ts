import { KustomizeError } from '../errors.js';
import { decode, DecodeError, type StructShape } from '../kinds/decode.js';
import { ObjectMetaShape } from '../kinds/shapes.js';
import { isMap, type YMap } from '../yaml/value.js';

/**
 * Reads a builtin plugin's config object. Like kustomize (a plain yaml.Unmarshal into the
 * plugin struct) it ignores fields the plugin does not know, such as apiVersion and kind;
 * `metadata.name`/`namespace` fill `name`/`namespace` when those are not set.
 */
export function decodeConfig<T>(config: YMap, shape: StructShape, kind: string): T {
  const withMeta: StructShape = { ...shape, fields: { ...shape.fields, metadata: ObjectMetaShape } };
  let out: Record<string, unknown>;
  try {
    out = decode<Record<string, unknown>>(config, withMeta, { lenient: true }) ?? {};
  } catch (e) {
    if (e instanceof DecodeError) throw new KustomizeError('KUSTOMIZATION_INVALID', `trouble configuring builtin ${kind} with config: ${e.message}`, { cause: e });
    throw e;
  }
  const meta = config['metadata'];
  if (isMap(meta)) {
    if (out['name'] === undefined && typeof meta['name'] === 'string' && 'name' in allFields(shape)) out['name'] = meta['name'];
    if (out['namespace'] === undefined && typeof meta['namespace'] === 'string' && 'namespace' in allFields(shape)) {
      out['namespace'] = meta['namespace'];
    }
  }
  delete out['metadata'];
  return out as T;
}

function allFields(shape: StructShape): Record<string, unknown> {
  return Object.assign({}, ...(shape.inline ?? []).map(allFields), shape.fields);
}
