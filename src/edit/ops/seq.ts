import { isMap, isScalar, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import { keyOf } from '../kustomization-document.js';

/** The scalar items of a list as strings (other items as their JSON). */
export function stringItems(seq: YAMLSeq | undefined): string[] {
  return (seq?.items ?? []).map((item) => (isScalar(item) ? String(item.value) : JSON.stringify((item as Node).toJSON())));
}

/** The map items of a list. */
export function mapItems(seq: YAMLSeq | undefined): YAMLMap[] {
  return (seq?.items ?? []).filter((item): item is YAMLMap => isMap(item));
}

/** A string field of a map item. */
export function stringField(map: YAMLMap, key: string): string | undefined {
  const v = map.get(key);
  return v === undefined || v === null ? undefined : String(v);
}

/**
 * Sets `key` in an existing map: in place when present, otherwise before the first key that
 * sorts after it, so a map written in kustomize's (sorted) order stays sorted.
 */
export function setSorted(map: YAMLMap, key: string, value: unknown): void {
  if (map.has(key)) {
    const existing = map.get(key, true);
    const plain = isScalar(value) ? value.value : value;
    // a scalar changes value in place, keeping its comment
    if (isScalar(existing) && (plain === null || typeof plain !== 'object')) existing.value = plain;
    else map.set(key, value);
    return;
  }
  const at = map.items.findIndex((p) => keyOf(p) > key);
  map.set(key, value);
  if (at >= 0) map.items.splice(at, 0, map.items.pop()!);
}
