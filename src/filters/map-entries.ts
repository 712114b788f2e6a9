import { FieldPathError, specsSelecting, visitField, type FieldSpec, type FieldVisitor } from '../fieldspec/fieldspec.js';
import { wrongKindMessage } from '../yaml/node.js';
import type { ResourceMap } from '../model/resource-map.js';
import { isMap } from '../yaml/value.js';
import { readsAsNonString11, setStringField } from '../yaml/string-styles.js';

/**
 * Sets string entries in the map fields the field specs name (labels, selectors,
 * annotations), creating the maps where the spec says so; each entry styled as kyaml sets it.
 */
export function setMapEntries(resources: ResourceMap, entries: Record<string, string>, fieldSpecs: FieldSpec[]): void {
  const keys = Object.keys(entries).sort();
  if (keys.length === 0) return;
  const quoted = keys.map((k) => readsAsNonString11(entries[k]!));
  const specsFor = specsSelecting(fieldSpecs);
  const visit: FieldVisitor = (holder, field) => {
    let m = holder[field];
    if (m === null) m = holder[field] = {};
    // visitField names the field and the object, as kustomize does
    if (!isMap(m)) throw new FieldPathError(wrongKindMessage('MappingNode', m));
    keys.forEach((k, i) => setStringField(m, k, entries[k]!, quoted[i]!));
  };
  for (const r of resources) {
    for (const fs of specsFor(r.gvk)) visitField(r.view, fs, 'map', visit);
  }
}
