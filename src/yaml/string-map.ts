import { formatNumber } from './go-number.js';
import { resolvePlainScalar } from './resolve.js';
import { scalarSourceText, untaggedText, valuesEqual, type Value, type YMap } from './value.js';

/**
 * A value of a labels or annotations map as kustomize's `map[string]string` holds it (kyaml's
 * GetLabels/GetAnnotations take each node's text): the text it was written with while it still
 * holds that value (`0123`, `null`, `~`; or the text a replacement wrote there untagged), else
 * its Go rendering; a map, a list, or a null written as nothing is "".
 */
export function stringMapText(m: YMap, key: string, v: Value): string {
  const source = scalarSourceText(m, key) ?? untaggedText(m, key, resolvePlainScalar);
  if (source !== undefined && valuesEqual(resolvePlainScalar(source), v)) return source;
  if (v === null || typeof v === 'object') return '';
  return typeof v === 'boolean' || typeof v === 'string' ? String(v) : formatNumber(v);
}
