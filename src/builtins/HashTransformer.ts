import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { Transformer } from '../plugins/plugin.js';
import { goJson } from '../yaml/go-json.js';
import { isMap, type Value, type YMap } from '../yaml/value.js';
import { sha256Hex } from '../encoding/sha256.js';

/**
 * Appends a content hash to the names of generated ConfigMaps and Secrets (and of anything a
 * generator plugin marked as needing one), so that a change of content rolls the workloads
 * that mount them. Runs once, at the end of the top-level build.
 */
export class HashTransformer implements Transformer {
  static readonly kind = 'HashTransformer';

  private constructor() {}

  static fromConfig(): HashTransformer {
    return new HashTransformer();
  }

  transform(resources: ResourceMap): void {
    for (const r of resources) {
      if (!r.needsHashSuffix) continue;
      const hash = contentHash(r);
      r.storePreviousId();
      r.setName(`${r.name}-${hash}`);
    }
  }
}

/**
 * kustomize's hash: sha256 of Go's JSON encoding of the kind, the data and an always-empty
 * name (kustomize looks the name up with a path it cannot resolve), first ten hex digits with
 * vowel-like digits replaced so the suffix never spells words.
 */
export function contentHash(r: Resource): string {
  return encodeHash(sha256Hex(goJson(hashInput(r))));
}

function hashInput(r: Resource): Value {
  const o = r.view;
  const field = (k: string): Value => {
    const v = o[k];
    return v === undefined ? '' : v;
  };
  if (r.kind === 'ConfigMap') {
    const m: YMap = { kind: 'ConfigMap', name: '', data: field('data') };
    if (isMap(o['binaryData'])) m['binaryData'] = o['binaryData'];
    return m;
  }
  if (r.kind === 'Secret') {
    const m: YMap = { kind: 'Secret', type: field('type'), name: '', data: field('data') };
    if (isMap(o['stringData'])) m['stringData'] = o['stringData'];
    return m;
  }
  return o;
}

const HASH_LETTERS: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };

function encodeHash(hex: string): string {
  let out = '';
  for (const c of hex.slice(0, 10)) out += HASH_LETTERS[c] ?? c;
  return out;
}
