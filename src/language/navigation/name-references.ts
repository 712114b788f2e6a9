import { fieldSpecSelects, splitFieldPath } from '../../fieldspec/fieldspec.js';
import { DEFAULT_TRANSFORMER_CONFIG } from '../../fieldspec/defaults.js';
import type { Resource } from '../../model/resource.js';
import { writtenString, type RenderedRoot, type WrittenString } from './rendered.js';

/**
 * Where the other resources of a root's output refer to `target` by name, as kustomize's name
 * references know them (its default `nameReference` field specs: a Deployment's volume's
 * `configMap.name`, a RoleBinding's `subjects`…): each field whose output value is the target's
 * name, at the places a source file wrote it as one of the target's names (the name reference
 * step rewrote it from there).
 */
export function nameReferencesTo(rendered: RenderedRoot, target: Resource): WrittenString[] {
  const specs = DEFAULT_TRANSFORMER_CONFIG.nameReference.filter((ref) => fieldSpecSelects(ref.gvk, target.id)).flatMap((ref) => ref.fieldSpecs);
  if (specs.length === 0) return [];
  const found: WrittenString[] = [];
  for (const referrer of rendered.index.resources) {
    if (referrer === target) continue;
    const paths = new Set(specs.filter((fs) => fs.path && fieldSpecSelects(fs, referrer.id)).map((fs) => splitFieldPath(fs.path!).map((p) => p.replace(/\[\]$/, '')).join('.')));
    if (paths.size === 0) continue;
    for (const field of rendered.index.recordOf(referrer)?.fields ?? []) {
      if (field.value !== target.name) continue;
      // a list's items are crossed: `volumes[0].configMap.name` is the spec's `volumes/configMap/name`; a map referring by its `name` (a subject) counts
      const path = field.path.replace(/\[\d+\]/g, '');
      if (!paths.has(path) && !(path.endsWith('.name') && paths.has(path.slice(0, -'.name'.length)))) continue;
      for (const written of [...field.history, field]) {
        const at = writtenString(rendered.root, written);
        if (at && target.hasHadName(at.value)) found.push(at);
      }
    }
  }
  return found;
}
