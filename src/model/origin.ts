import { parseYamlDocument } from '../yaml/parse.js';
import { isMap, isSeq, type Value, type YMap } from '../yaml/value.js';

export const ORIGIN_ANNOTATION = 'config.kubernetes.io/origin';
export const TRANSFORMATIONS_ANNOTATION = 'alpha.config.kubernetes.io/transformations';

/**
 * Where a resource came from, or which plugin configuration transformed it: what kustomize
 * writes to `config.kubernetes.io/origin` and `alpha.config.kubernetes.io/transformations`
 * when `buildMetadata` asks for it.
 */
export interface Origin {
  /** file path relative to the root of the build (or the remote repo) */
  path?: string;
  repo?: string;
  ref?: string;
  /** the file that configured the generator/transformer */
  configuredIn?: string;
  /** the generator/transformer config's apiVersion/kind/name */
  configuredBy?: { apiVersion?: string; kind?: string; name?: string; namespace?: string };
}

/** The YAML kustomize writes for an origin: struct field order, not sorted keys. */
export function originYaml(o: Origin, indent = ''): string {
  const lines: string[] = [];
  const add = (k: string, v: string | undefined) => {
    if (v) lines.push(`${k}: ${v}`);
  };
  add('path', o.path);
  add('repo', o.repo);
  add('ref', o.ref);
  add('configuredIn', o.configuredIn);
  if (o.configuredBy) {
    lines.push('configuredBy:');
    const by = o.configuredBy;
    for (const k of ['apiVersion', 'kind', 'name', 'namespace'] as const) if (by[k]) lines.push(`  ${k}: ${by[k]}`);
  }
  return lines.map((l, i) => (i === 0 ? l : indent + l)).join('\n') + '\n';
}

export function originFromConfig(configuredIn: string, config: YMap): Origin {
  const meta = config['metadata'];
  const by: Origin['configuredBy'] = {};
  if (typeof config['apiVersion'] === 'string') by.apiVersion = config['apiVersion'];
  if (typeof config['kind'] === 'string') by.kind = config['kind'];
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    if (typeof meta['name'] === 'string') by.name = meta['name'];
    if (typeof meta['namespace'] === 'string') by.namespace = meta['namespace'];
  }
  return { configuredIn, configuredBy: by };
}

/**
 * Reads an origin written as annotation text (as plugins may return resources). Text that does
 * not read as one is no record: kustomize reads the annotation only when `buildMetadata` asks,
 * and builds whatever it holds otherwise.
 */
export function parseOrigin(text: string): Origin | undefined {
  try {
    return originFromValue(parseYamlDocument(text));
  } catch {
    return undefined;
  }
}

export function parseTransformations(text: string): Origin[] | undefined {
  try {
    const v = parseYamlDocument(text);
    return isSeq(v) ? v.map(originFromValue).filter((o): o is Origin => o !== undefined) : undefined;
  } catch {
    return undefined;
  }
}

function originFromValue(v: Value | undefined): Origin | undefined {
  if (!isMap(v)) return undefined;
  const o: Origin = {};
  for (const k of ['path', 'repo', 'ref', 'configuredIn'] as const) if (typeof v[k] === 'string') o[k] = v[k] as string;
  const by = v['configuredBy'];
  if (isMap(by)) {
    o.configuredBy = {};
    for (const k of ['apiVersion', 'kind', 'name', 'namespace'] as const) if (typeof by[k] === 'string') o.configuredBy[k] = by[k] as string;
  }
  return o;
}

/** The `alpha.config.kubernetes.io/transformations` annotation of a list of transformations. */
export function transformationsYaml(transformations: readonly Origin[]): string {
  return transformations.map((t) => '- ' + originYaml(t, '  ')).join('');
}
