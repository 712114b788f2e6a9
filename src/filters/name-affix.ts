import { FieldPathError, fieldSpecSelects, perGvk, specsSelecting, visitField, type FieldSpec, type FieldVisitor } from '../fieldspec/fieldspec.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { wrongKindMessage } from '../yaml/node.js';
import { isMap, isSeq } from '../yaml/value.js';
import { setUntaggedField } from '../yaml/string-styles.js';

/** Kinds whose names kustomize never prefixes or suffixes. */
const SKIPPED = [{ kind: 'CustomResourceDefinition' }, { group: 'apiregistration.k8s.io', kind: 'APIService' }, { kind: 'Namespace' }];

/**
 * Adds a prefix or suffix to the fields its field specs name (by default `metadata/name`),
 * remembering the old id and the affix so name references can follow the rename.
 */
export function addNameAffix(resources: ResourceMap, side: 'prefix' | 'suffix', affix: string, fieldSpecs: FieldSpec[]): void {
  const skipped = perGvk((gvk) => SKIPPED.some((s) => fieldSpecSelects(s, gvk)));
  const affixed: FieldVisitor = (holder, key) => {
    const v = holder[key];
    // visitField names the field and the object, as kustomize does
    if (isMap(v) || isSeq(v)) throw new FieldPathError(wrongKindMessage('ScalarNode', v));
    const s = v === null || v === undefined ? '' : String(v);
    // written untagged in the field's style: a plain name that reads as a number is one
    setUntaggedField(holder, key, side === 'prefix' ? affix + s : s + affix);
  };
  const specsFor = specsSelecting(fieldSpecs);
  for (const r of resources) {
    const original = r.originalId;
    if (skipped(original)) continue;
    for (const fs of specsFor(original)) {
      if (fs.path === 'metadata/name') recordAffix(r, side, affix);
      visitField(r.view, fs, 'scalar', affixed);
    }
  }
}

function recordAffix(r: Resource, side: 'prefix' | 'suffix', affix: string): void {
  if (affix === '') return;
  if (side === 'prefix') r.namePrefixes.push(affix);
  else r.nameSuffixes.push(affix);
  r.storePreviousId();
}
