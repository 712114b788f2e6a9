import type { Resource } from '../model/resource.js';
import { originYaml } from '../model/origin.js';
import { emitYaml, formatNumber } from '../yaml/emit.js';
import { isMap, type YMap } from '../yaml/value.js';

export interface RenderOptions {
  originAnnotations: boolean;
  transformerAnnotations: boolean;
}

const ORIGIN_ANNOTATION = 'config.kubernetes.io/origin';
const TRANSFORMATIONS_ANNOTATION = 'alpha.config.kubernetes.io/transformations';

/**
 * The build's output: resources with the build-metadata annotations asked for, as YAML
 * documents joined by `---` (kustomize prints nothing for an empty build).
 */
export function renderResources(resources: readonly Resource[], options: RenderOptions): { resources: Resource[]; yaml: string } {
  const out = resources.map((r) => {
    stringifyAnnotations(r.obj);
    if (options.originAnnotations && r.origin) annotate(r.obj, ORIGIN_ANNOTATION, originYaml(r.origin));
    if (options.transformerAnnotations && r.transformations?.length) {
      annotate(r.obj, TRANSFORMATIONS_ANNOTATION, r.transformations.map((t) => '- ' + originYaml(t, '  ')).join(''));
    }
    return r;
  });
  return { resources: out, yaml: out.map((r) => emitYaml(r.obj)).join('---\n') };
}

/**
 * kustomize rewrites every resource's annotations as a string map when it strips its build
 * annotations at the end, so `happy: true` comes out as `happy: "true"`.
 */
function stringifyAnnotations(obj: YMap): void {
  const meta = obj['metadata'];
  const ann = isMap(meta) ? meta['annotations'] : undefined;
  if (!isMap(ann)) return;
  for (const k of Object.keys(ann)) {
    const v = ann[k];
    if (typeof v === 'string') continue;
    ann[k] = v === null || typeof v === 'object' ? '' : typeof v === 'boolean' ? String(v) : formatNumber(v!);
  }
}

function annotate(obj: YMap, key: string, value: string): void {
  let meta = obj['metadata'];
  if (!isMap(meta)) meta = obj['metadata'] = {};
  let ann = meta['annotations'];
  if (!isMap(ann)) ann = meta['annotations'] = {};
  ann[key] = value;
}
