import { KustomizeError } from '../errors.js';
import { cloneValue, isMap, type YMap } from '../yaml/value.js';
import type { Resource } from './resource.js';
import { ORIGIN_ANNOTATION, TRANSFORMATIONS_ANNOTATION, originYaml, transformationsYaml } from './origin.js';

const BEHAVIOR = 'internal.config.kubernetes.io/generatorBehavior';
const NEEDS_HASH = 'internal.config.kubernetes.io/needsHashSuffix';
const PREFIXES = 'internal.config.kubernetes.io/prefixes';
const SUFFIXES = 'internal.config.kubernetes.io/suffixes';
const PREVIOUS_KINDS = 'internal.config.kubernetes.io/previousKinds';
const PREVIOUS_NAMES = 'internal.config.kubernetes.io/previousNames';
const PREVIOUS_NAMESPACES = 'internal.config.kubernetes.io/previousNamespaces';
const HELM_GENERATED = 'internal.config.kubernetes.io/helm-generated';
const STATE_KEYS = [BEHAVIOR, NEEDS_HASH, PREFIXES, SUFFIXES, PREVIOUS_KINDS, PREVIOUS_NAMES, PREVIOUS_NAMESPACES, HELM_GENERATED];

/**
 * kustomize keeps a resource's build state in `internal.config.kubernetes.io/*` annotations
 * inside the object from the step that makes it to the end of the build, where patches and KRM
 * functions see it: a JSON patch can add to `/metadata/annotations` of a resource that has none
 * of its own once a namespace or a prefix was set, a function gets the annotations and gives
 * back what it wants kept. We keep the state on the Resource; {@link objectWithBuildState} shows
 * it in the object as kustomize has it, for what reads objects as kustomize's steps do (patches,
 * KRM functions), and {@link takeObjectWithBuildState} takes what they made of it back, the
 * annotations read into the state again. (`refBy` is not shown.)
 */
function buildStateAnnotations(r: Resource): Record<string, string> {
  const out: Record<string, string> = {};
  if (r.behavior) out[BEHAVIOR] = r.behavior;
  if (r.needsHashSuffix) out[NEEDS_HASH] = 'enabled';
  if (r.helmGenerated) out[HELM_GENERATED] = 'true';
  if (r.namePrefixes.length > 0) out[PREFIXES] = r.namePrefixes.join(',');
  if (r.nameSuffixes.length > 0) out[SUFFIXES] = r.nameSuffixes.join(',');
  if (r.previous.length > 0) {
    out[PREVIOUS_KINDS] = r.previous.map((p) => p.kind).join(',');
    out[PREVIOUS_NAMES] = r.previous.map((p) => p.name).join(',');
    out[PREVIOUS_NAMESPACES] = r.previous.map((p) => p.namespace).join(',');
  }
  return out;
}

/**
 * The resource's object as kustomize has it during a build: its build state in its annotations
 * (a copy, when it has state). With `origins`, its origin annotations too (see
 * {@link originAnnotations}), as a JSON patch sees them.
 */
export function objectWithBuildState(r: Resource, { origins = false } = {}): YMap {
  const state = origins ? { ...buildStateAnnotations(r), ...originAnnotations(r) } : buildStateAnnotations(r);
  if (Object.keys(state).length === 0) return r.view;
  const obj = cloneValue(r.view);
  let meta = obj['metadata'];
  if (!isMap(meta)) meta = obj['metadata'] = {};
  let ann = meta['annotations'];
  if (!isMap(ann)) ann = meta['annotations'] = {};
  Object.assign(ann, state);
  return obj;
}

/**
 * Takes `obj`, what a patch or a function made of {@link objectWithBuildState}, as the
 * resource's object: the build-state annotations it holds become the state (one it dropped is
 * gone, as in kustomize) and leave the object, with the annotation map when nothing else is in
 * it. With `restore`, the state shown is put back over what `obj` holds first, as kustomize does
 * after a JSON patch: such a patch can add build state, not change or remove it. With `origins`,
 * `obj` was shown the origin annotations: those it lost or rewrote are gone from the resource.
 */
export function takeObjectWithBuildState(r: Resource, obj: YMap, { restore = false, origins = false } = {}): void {
  const shown = buildStateAnnotations(r);
  const shownOrigins = origins ? originAnnotations(r) : {};
  // the resource's own metadata and annotation map, even where `obj` shares parts (see Resource)
  r.obj = obj;
  const meta = r.metadata();
  const ann = r.stringMap('annotations');
  const held: Record<string, string> = {};
  forgetLostOrigins(r, ann, shownOrigins);
  if (meta && ann) {
    let took = false;
    for (const key of STATE_KEYS) {
      if (!(key in ann)) continue;
      held[key] = String(ann[key]);
      delete ann[key];
      took = true;
    }
    // the origins the resource still holds are printed at the end, when the build asks for them
    for (const key of Object.keys(shownOrigins)) {
      if (!(key in ann)) continue;
      delete ann[key];
      took = true;
    }
    if (took && Object.keys(ann).length === 0) delete meta['annotations'];
  }
  if (restore) Object.assign(held, shown);
  if (Object.keys(held).length === 0 && Object.keys(shown).length === 0) return;
  const behavior = held[BEHAVIOR];
  if (behavior === 'create' || behavior === 'merge' || behavior === 'replace' || behavior === 'unspecified') r.behavior = behavior;
  else if (BEHAVIOR in shown) r.behavior = undefined;
  r.needsHashSuffix = held[NEEDS_HASH] === 'enabled';
  r.helmGenerated = held[HELM_GENERATED] === 'true';
  r.namePrefixes = list(held[PREFIXES]);
  r.nameSuffixes = list(held[SUFFIXES]);
  const kinds = list(held[PREVIOUS_KINDS]);
  const names = list(held[PREVIOUS_NAMES]);
  const namespaces = list(held[PREVIOUS_NAMESPACES]);
  if (kinds.length !== names.length || names.length !== namespaces.length) {
    throw new KustomizeError('RESOURCE_INVALID', `number of previous names, number of previous namespaces, number of previous kinds not equal (${r.id})`);
  }
  r.previous = names.map((name, i) => ({ kind: kinds[i]!, name, namespace: namespaces[i]! }));
}

function list(csv: string | undefined): string[] {
  return csv === undefined || csv === '' ? [] : csv.split(',');
}

/**
 * While a build tracks origins (`buildMetadata`), kustomize keeps them in the resource as the
 * `config.kubernetes.io/origin` and `alpha.config.kubernetes.io/transformations` annotations,
 * which a JSON 6902 patch sees and, replacing or removing `/metadata/annotations`, loses:
 * kustomize then takes the patch's own transformer for the resource's origin.
 */
function originAnnotations(r: Resource): Record<string, string> {
  const out: Record<string, string> = {};
  if (r.origin) out[ORIGIN_ANNOTATION] = originYaml(r.origin);
  if (r.transformations?.length) out[TRANSFORMATIONS_ANNOTATION] = transformationsYaml(r.transformations);
  return out;
}

/** The origin records whose annotation (`shown` before a patch) is no longer in `ann` as it was are gone. */
function forgetLostOrigins(r: Resource, ann: YMap | undefined, shown: Record<string, string>): void {
  const kept = (key: string): boolean => ann !== undefined && ann[key] === shown[key];
  if (shown[ORIGIN_ANNOTATION] !== undefined && !kept(ORIGIN_ANNOTATION)) r.origin = undefined;
  if (shown[TRANSFORMATIONS_ANNOTATION] !== undefined && !kept(TRANSFORMATIONS_ANNOTATION)) r.transformations = undefined;
}
