import { KustomizeError } from '../errors.js';
import { decode, DecodeError, type StructShape } from '../yaml/decode.js';
import type { Resource } from '../model/resource.js';
import { parseYamlDocument } from '../yaml/parse.js';
import { isMap, type Value } from '../yaml/value.js';
import type { StorageMount } from '../options.js';

/** How a KRM function runs: in a container image or as a local executable. */
export interface FunctionSpec {
  deferFailure?: boolean;
  container?: {
    image?: string;
    network?: boolean;
    mounts?: StorageMount[];
    envs?: string[];
  };
  exec?: {
    path?: string;
    args?: string[];
    envs?: string[];
  };
  /** a script run by the in-process Starlark runtime (kustomize had this until v5.5) */
  starlark?: {
    path?: string;
    url?: string;
    name?: string;
  };
}


export const MountShape: StructShape = { struct: 'StorageMount', fields: { type: 'string', src: 'string', dst: 'string', rw: 'bool' } };
const FunctionSpecShape: StructShape = {
  struct: 'FunctionSpec',
  fields: {
    deferFailure: 'bool',
    container: {
      struct: 'ContainerSpec',
      fields: { image: 'string', network: 'bool', mounts: { list: MountShape }, storageMounts: { list: MountShape }, envs: { list: 'string' } },
    },
    exec: { struct: 'ExecSpec', fields: { path: 'string', args: { list: 'string' }, envs: { list: 'string' } } },
    starlark: { struct: 'StarlarkSpec', fields: { path: 'string', url: 'string', name: 'string' } },
  },
};

export const FUNCTION_ANNOTATION = 'config.kubernetes.io/function';
const LEGACY_FUNCTION_ANNOTATION = 'config.k8s.io/function';
const LEGACY_CONTAINER_ANNOTATION = 'config.kubernetes.io/container';

/**
 * The function spec of a plugin config, if it declares one: the `config.kubernetes.io/function`
 * annotation (or its legacy spellings: `config.k8s.io/function`, `metadata.configFn`, or a bare
 * image in `config.kubernetes.io/container`). Unknown fields are refused, as kyaml does.
 */
export function functionSpecOf(config: Resource): FunctionSpec | undefined {
  const ann = config.stringMap('annotations') ?? {};
  const text = ann[FUNCTION_ANNOTATION] ?? ann[LEGACY_FUNCTION_ANNOTATION];
  let raw = typeof text === 'string' ? parseYamlDocument(text, `${config.id} annotation ${FUNCTION_ANNOTATION}`) : undefined;
  if (raw === undefined) {
    const configFn = config.metadata()?.['configFn'];
    if (isMap(configFn)) raw = configFn;
  }
  if (raw === undefined && typeof ann[LEGACY_CONTAINER_ANNOTATION] === 'string') raw = { container: { image: ann[LEGACY_CONTAINER_ANNOTATION] } };
  if (raw === undefined || raw === null) return undefined;
  let spec: FunctionSpec & { container?: { storageMounts?: StorageMount[] } };
  try {
    spec = decode(raw, FunctionSpecShape);
  } catch (e) {
    if (e instanceof DecodeError) throw new KustomizeError('PLUGIN_FAILED', `${config.id}: invalid function spec: ${e.message}`, { ...(e.field && { field: `metadata.annotations.${FUNCTION_ANNOTATION}.${e.field}` }), cause: e });
    throw e;
  }
  if (spec.container?.storageMounts) {
    spec.container.mounts = [...(spec.container.mounts ?? []), ...spec.container.storageMounts];
    delete spec.container.storageMounts;
  }
  if (!spec.container?.image && !spec.exec?.path && !spec.starlark?.path && !spec.starlark?.url) return undefined;
  return spec;
}

/** kpt's `StarlarkRun` function config: the script in `source`, its parameters in `params`. */
export function starlarkRunConfig(functionConfig: Value | undefined): { source: string; name: string } | undefined {
  if (functionConfig === null || typeof functionConfig !== 'object' || Array.isArray(functionConfig)) return undefined;
  const apiVersion = functionConfig['apiVersion'];
  if (functionConfig['kind'] !== 'StarlarkRun' || typeof apiVersion !== 'string' || !apiVersion.startsWith('fn.kpt.dev/')) return undefined;
  const source = functionConfig['source'];
  if (typeof source !== 'string') return undefined;
  const meta = functionConfig['metadata'];
  const name = meta && typeof meta === 'object' && !Array.isArray(meta) && typeof meta['name'] === 'string' ? meta['name'] : 'StarlarkRun';
  return { source, name };
}
