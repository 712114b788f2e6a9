import { KustomizeError } from '../errors.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { takeObjectWithBuildState } from '../model/build-state-annotations.js';
import { BEHAVIOR_ANNOTATION, NEEDS_HASH_ANNOTATION } from './resource-list.js';

/**
 * Resources a generator plugin printed: a name hash only where the plugin asks for one with
 * `kustomize.config.k8s.io/needs-hash: "true"`, a merge/replace behavior where it sets
 * `kustomize.config.k8s.io/behavior`; both annotations are consumed.
 */
export function generatedResources(resources: Resource[], describe: string): Resource[] {
  for (const r of resources) {
    // the build state a generator gives, as kustomize takes it: in its annotations
    takeObjectWithBuildState(r, r.view);
    const meta = r.metadata();
    const ann = r.stringMap('annotations');
    if (!ann || !meta) continue;
    const hash = ann[NEEDS_HASH_ANNOTATION];
    if (hash !== undefined) {
      const text = String(hash);
      if (!/^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.test(text)) {
        throw new KustomizeError('PLUGIN_FAILED', `${describe}: the annotation "${NEEDS_HASH_ANNOTATION}" contains an invalid value ("${text}")`);
      }
      r.needsHashSuffix = /^(1|t|T|TRUE|true|True)$/.test(text);
    }
    const behavior = ann[BEHAVIOR_ANNOTATION];
    if (behavior === 'create' || behavior === 'merge' || behavior === 'replace') r.behavior = behavior;
    delete ann[NEEDS_HASH_ANNOTATION];
    delete ann[BEHAVIOR_ANNOTATION];
    if (Object.keys(ann).length === 0) delete meta['annotations'];
  }
  return resources;
}

/**
 * Takes a transformer plugin's output as the new state of the map, matching by id: a resource
 * that comes back keeps its place with the new content (its build state read from the
 * annotations the plugin kept, as kustomize does), a new id is appended, and an id that does
 * not come back is removed.
 */
export function applyTransformerOutput(resources: ResourceMap, output: Resource[], describe: string): void {
  const seen = new Set<string>();
  for (const r of output) {
    const key = r.id.key;
    if (seen.has(key)) throw new KustomizeError('PLUGIN_FAILED', `plugin ${describe} generated duplicate resource: ${r.id}`);
    seen.add(key);
  }
  const kept: Resource[] = [];
  const added: Resource[] = [];
  const byKey = new Map(resources.resources().map((r) => [r.id.key, r] as const));
  for (const out of output) {
    const existing = byKey.get(out.id.key);
    // what comes back is the resource as kustomize has it: its build state is what its annotations say
    if (!existing) {
      takeObjectWithBuildState(out, out.view);
      added.push(out);
      continue;
    }
    takeObjectWithBuildState(existing, out.view);
    if (out.origin) existing.origin = out.origin;
    if (out.transformations) existing.transformations = out.transformations;
  }
  for (const r of resources.resources()) if (seen.has(r.id.key)) kept.push(r);
  resources.setAll([...kept, ...added]);
}
