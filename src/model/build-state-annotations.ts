import { isMap } from '../yaml/value.js';
import type { Resource } from './resource.js';

/**
 * kustomize keeps a resource's build state in `internal.config.kubernetes.io/*` annotations
 * inside the object, where a JSON 6902 patch from `patches:` sees it: such a patch can add to
 * `/metadata/annotations` of a resource that has none of its own, or copy the map elsewhere.
 * We keep that state on the Resource instead; these functions show it to such a patch and take
 * it away again. (`refBy` and an unspecified generator behavior are not shown.)
 */
export function buildStateAnnotations(r: Resource): Record<string, string> {
  const out: Record<string, string> = {};
  if (r.behavior) out['internal.config.kubernetes.io/generatorBehavior'] = r.behavior;
  if (r.needsHashSuffix) out['internal.config.kubernetes.io/needsHashSuffix'] = 'enabled';
  if (r.namePrefixes.length > 0) out['internal.config.kubernetes.io/prefixes'] = r.namePrefixes.join(',');
  if (r.nameSuffixes.length > 0) out['internal.config.kubernetes.io/suffixes'] = r.nameSuffixes.join(',');
  if (r.previous.length > 0) {
    out['internal.config.kubernetes.io/previousKinds'] = r.previous.map((p) => p.kind).join(',');
    out['internal.config.kubernetes.io/previousNames'] = r.previous.map((p) => p.name).join(',');
    out['internal.config.kubernetes.io/previousNamespaces'] = r.previous.map((p) => p.namespace).join(',');
  }
  return out;
}

/** Adds the build-state annotations to the object, making an annotation map if it has none. */
export function showBuildState(r: Resource, state: Record<string, string>): void {
  if (Object.keys(state).length === 0) return;
  const meta = r.metadata();
  if (!meta) return;
  let ann = meta['annotations'];
  if (!isMap(ann)) {
    ann = {};
    meta['annotations'] = ann;
  }
  Object.assign(ann, state);
}

/** Takes the build-state annotations out again, and the annotation map if nothing else is left in it. */
export function hideBuildState(r: Resource, state: Record<string, string>): void {
  const meta = r.metadata();
  const ann = meta?.['annotations'];
  if (!meta || !isMap(ann)) return;
  for (const k of Object.keys(state)) delete ann[k];
  if (Object.keys(ann).length === 0) delete meta['annotations'];
}
