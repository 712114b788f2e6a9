import { isMap } from '../yaml/value.js';
import type { Resource } from './resource.js';
import { ORIGIN_ANNOTATION, TRANSFORMATIONS_ANNOTATION, originYaml, transformationsYaml } from './origin.js';

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

/**
 * While a build tracks origins (`buildMetadata`), kustomize keeps them in the resource as the
 * `config.kubernetes.io/origin` and `alpha.config.kubernetes.io/transformations` annotations,
 * which a JSON 6902 patch sees and, replacing or removing `/metadata/annotations`, loses:
 * kustomize then takes the patch's own transformer for the resource's origin. These are the
 * annotations to show such a patch; {@link forgetLostOrigins} drops what it took away.
 */
export function originAnnotations(r: Resource): Record<string, string> {
  const out: Record<string, string> = {};
  if (r.origin) out[ORIGIN_ANNOTATION] = originYaml(r.origin);
  if (r.transformations?.length) out[TRANSFORMATIONS_ANNOTATION] = transformationsYaml(r.transformations);
  return out;
}

/** After a JSON patch: the origin records whose annotation the patch removed or rewrote are gone. */
export function forgetLostOrigins(r: Resource, shown: Record<string, string>): void {
  const ann = r.metadata()?.['annotations'];
  const kept = (key: string): boolean => isMap(ann) && ann[key] === shown[key];
  if (shown[ORIGIN_ANNOTATION] !== undefined && !kept(ORIGIN_ANNOTATION)) r.origin = undefined;
  if (shown[TRANSFORMATIONS_ANNOTATION] !== undefined && !kept(TRANSFORMATIONS_ANNOTATION)) r.transformations = undefined;
}
