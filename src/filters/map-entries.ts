import { KustomizeError } from '../errors.js';
import { specsSelecting, visitField, type FieldSpec } from '../fieldspec/fieldspec.js';
import type { ResourceMap } from '../model/resource-map.js';
import { isMap, setKey } from '../yaml/value.js';

/**
 * Sets string entries in the map fields the field specs name (labels, selectors,
 * annotations), creating the maps where the spec says so.
 */
export function setMapEntries(resources: ResourceMap, entries: Record<string, string>, fieldSpecs: FieldSpec[]): void {
  const keys = Object.keys(entries).sort();
  if (keys.length === 0) return;
  const specsFor = specsSelecting(fieldSpecs);
  for (const r of resources) {
    for (const fs of specsFor(r.gvk)) {
      visitField(r.obj, fs, 'map', (holder, field) => {
        let m = holder[field];
        if (m === null) m = holder[field] = {};
        if (!isMap(m)) throw new KustomizeError('TRANSFORMER_FAILED', `wrong node kind: expected MappingNode at '${fs.path}' of ${r.id}`);
        for (const k of keys) setKey(m, k, entries[k]!);
      });
    }
  }
}
