import { KustomizeError, messageOf } from '../errors.js';
import { decode, DecodeError, type StructShape } from '../yaml/decode.js';
import { ObjectMetaShape } from '../kinds/shapes.js';
import { emitYaml } from '../yaml/emit.js';
import { isMap, type Value, type YMap } from '../yaml/value.js';

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
    if (e instanceof DecodeError) throw new KustomizeError('KUSTOMIZATION_INVALID', `trouble configuring builtin ${kind} with config: ${e.message}`, { ...(e.field && { field: e.field }), cause: e });
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

/** A config as kustomize marshals a Go struct: fields left empty (`omitempty`) are not written. */
export function marshalledConfig(fields: Record<string, Value | undefined>): YMap {
  const out: YMap = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isMap(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

/**
 * kustomize's error for a builtin it configured from a kustomization's fields: the config it
 * marshalled for the plugin, then the reason.
 */
export function configurationError(kind: string, config: YMap, e: unknown): KustomizeError {
  const code = e instanceof KustomizeError ? e.code : 'KUSTOMIZATION_INVALID';
  return new KustomizeError(code, `trouble configuring builtin ${kind} with config: \`\n${emitYaml(config)}\`: ${messageOf(e)}`, {
    cause: e,
    ...(e instanceof KustomizeError && e.file && { file: e.file }),
    ...(e instanceof KustomizeError && e.field && { field: e.field }),
  });
}
