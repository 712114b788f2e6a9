import { KustomizeError, messageOf } from '../errors.js';
import type { Resource } from '../model/resource.js';
import { cloneValue, isMap, type Value } from '../yaml/value.js';
import { splitFieldPath } from './field-path.js';
import { lookup } from './lookup.js';
import { decodeTagged, isScalar, nodeText, tagOf, type ScalarTag } from '../yaml/node.js';
import { selectSource, sourceIdString, type SourceSelector } from './select.js';

export const DEFAULT_FIELD_PATH = 'metadata.name';

/**
 * The value a replacement copies: a node of the source (or part of one), as kustomize holds
 * it: its text (what a scalar target takes) and the node itself (what replaces a map or list
 * target, and what a created field becomes).
 */
export interface ReplacementValue {
  /** the kind of node a missing target field is created as */
  readonly kind: 'scalar' | 'map' | 'seq';
  /** the node's text; "" for maps and lists */
  readonly text: string;
  /** a fresh copy of the node, decoded */
  copy(): Value;
}

/**
 * The source's own node, read where it is at each use: kustomize copies from that node, so a
 * target that writes into it (the source resource selected by a target too) changes what the
 * targets after it get (`nginx` appended to itself with a delimiter gives them `nginx-nginx`).
 */
function liveValue(current: () => Value): ReplacementValue {
  return {
    get kind() {
      const v = current();
      return isScalar(v) ? 'scalar' : Array.isArray(v) ? 'seq' : 'map';
    },
    get text() {
      const v = current();
      return isScalar(v) ? nodeText(v) : '';
    },
    copy: () => {
      const v = current();
      return isScalar(v) ? v : cloneValue(v);
    },
  };
}

/** A scalar node with the given tag and text (part of a split value, or a literal). */
export function scalarValue(tag: ScalarTag, text: string): ReplacementValue {
  return { kind: 'scalar', text, copy: () => decodeTagged(tag, text) };
}

/** The value the replacement's source selects: the one resource, the field, the part of it. */
export function sourceValue(resources: readonly Resource[], source: SourceSelector): ReplacementValue {
  const resource = selectSource(resources, source);
  const fieldPath = source.fieldPath || DEFAULT_FIELD_PATH;
  const path = splitFieldPath(fieldPath);
  let found: Value | undefined;
  try {
    found = lookup(resource.view, path);
  } catch (e) {
    throw new KustomizeError('REPLACEMENT_FAILED', `error looking up replacement source: ${messageOf(e)}`, { cause: e });
  }
  if (isNilOrEmpty(found)) {
    throw new KustomizeError('REPLACEMENT_FAILED', `fieldPath \`${fieldPath}\` is missing for replacement source ${sourceIdString(source)}`);
  }
  const delimiter = source.options?.delimiter;
  if (delimiter) return part(found, delimiter, source.options?.index ?? 0);
  const first = found;
  return liveValue(() => lookup(resource.view, path) ?? first);
}

function isNilOrEmpty(v: Value | undefined): v is undefined | null {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isMap(v) && Object.keys(v).length === 0;
}

/** `options.delimiter`/`index` on the source: one part of a scalar's text (a new node, kustomize's too). */
function part(v: Value, delimiter: string, index: number): ReplacementValue {
  if (!isScalar(v)) throw new KustomizeError('REPLACEMENT_FAILED', 'delimiter option can only be used with scalar nodes');
  const text = nodeText(v);
  const parts = text.split(delimiter);
  if (index >= parts.length || index < 0) {
    throw new KustomizeError('REPLACEMENT_FAILED', `options.index ${index} is out of bounds for value ${text}`);
  }
  return scalarValue(tagOf(v), parts[index]!);
}
