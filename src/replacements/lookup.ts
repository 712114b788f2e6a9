import { KustomizeError } from '../errors.js';
import { isMap, setKey, type Value, type YMap, type YSeq } from '../yaml/value.js';
import { goAtoi, isListIndex, splitIndexNameValue } from './field-path.js';
import { nodeText, wrongKindMessage } from '../yaml/node.js';

/** A place holding a value: a key of a map or an index of a list. */
export interface Slot {
  readonly parent: YMap | YSeq;
  readonly key: string | number;
  /**
   * in a copy of a string's document that nothing writes back (kustomize 5.8 walks a target
   * path into JSON or YAML held in a string, and on the path that does not write it back, its
   * writes go nowhere)
   */
  readonly detached?: true;
}

export function readSlot(slot: Slot): Value {
  return (slot.parent as Record<string | number, Value>)[slot.key]!;
}

export function writeSlot(slot: Slot, v: Value): void {
  if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = v;
  else setKey(slot.parent, slot.key as string, v);
}

/**
 * kyaml's PathGetter without create: follows map keys, list indexes (`0`; `-` for the last
 * entry) and list-entry selectors (`[name=value]`, matched by exact text; the first match).
 * Blank parts are skipped. Undefined when the path leads nowhere; the value itself when it
 * has no part but blank ones.
 */
export function lookup(root: Value, path: readonly string[]): Value | undefined {
  const slot = lookupSlot(root, path);
  if (slot === null) return root;
  return slot && readSlot(slot);
}

/** {@link lookup}'s answer as the place holding it: null for a path of blank parts only. */
function lookupSlot(root: Value, path: readonly string[]): Slot | null | undefined {
  let cur: Value = root;
  let slot: Slot | null = null;
  for (const raw of path) {
    const part = raw.trim();
    if (part === '') continue;
    const next = lookupStep(cur, part);
    if (next === undefined) return undefined;
    slot = next;
    cur = readSlot(next);
  }
  return slot;
}

/** One step of {@link lookup}: where the (non-blank) `part` leads from `cur`; undefined for nowhere, an error for a value of the wrong kind. */
export function lookupStep(cur: Value, part: string): Slot | undefined {
  const idx = goAtoi(part);
  if (idx !== undefined) {
    if (idx < 0) throw new KustomizeError('REPLACEMENT_FAILED', `array index ${idx} cannot be negative`);
    const list = elements(cur);
    return idx < list.length ? { parent: list, key: idx } : undefined;
  }
  if (part === '-') {
    const list = elements(cur);
    return list.length > 0 ? { parent: list, key: list.length - 1 } : undefined;
  }
  if (isListIndex(part)) {
    const [name, value] = splitIndexNameValue(part);
    const list = elements(cur);
    const i = matchElement(list, name, value);
    return i < 0 ? undefined : { parent: list, key: i };
  }
  if (cur === null) return undefined;
  if (!isMap(cur)) throw new KustomizeError('REPLACEMENT_FAILED', wrongKindMessage('MappingNode', cur));
  return Object.prototype.hasOwnProperty.call(cur, part) ? { parent: cur, key: part } : undefined;
}

function elements(v: Value): YSeq {
  if (v === null) return [];
  if (!Array.isArray(v)) throw new KustomizeError('REPLACEMENT_FAILED', wrongKindMessage('SequenceNode', v));
  return v;
}

/** The index of the first entry whose text is `value` (`[=value]`), or that is a map whose field `name` has the text `value`; -1 for none. */
function matchElement(list: readonly Value[], name: string, value: string): number {
  if (name === '') return list.findIndex((e) => nodeText(e) === value);
  return list.findIndex((e) => isMap(e) && Object.prototype.hasOwnProperty.call(e, name) && nodeText(e[name]) === value);
}
