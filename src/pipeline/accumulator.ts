import { KustomizeError } from '../errors.js';
import { emptyTransformerConfig, mergeTransformerConfigs, type TransformerConfig } from '../fieldspec/transformer-config.js';
import { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { isMap, type Value, type YMap } from '../yaml/value.js';
import { freshStringMap } from '../yaml/string-styles.js';
import { stringMapText } from '../yaml/string-map.js';
import { VarSet } from '../vars/vars.js';
import type { CrdsFile } from './custom-resource-types.js';

/**
 * What a kustomization has gathered so far: its resources, the field specs its transformers
 * use (kustomize's defaults plus every `configurations:` met), the `crds:` files met (whose
 * types strategic-merge patches may merge by), and its vars.
 */
export class Accumulator {
  readonly resources = new ResourceMap();
  config: TransformerConfig = emptyTransformerConfig();
  crds: readonly CrdsFile[] = [];
  readonly vars = new VarSet();

  mergeConfig(config: TransformerConfig): void {
    this.config = mergeTransformerConfigs(this.config, config);
  }

  /** Adds `crds:` files, those already met (by a base, or a component) kept once. */
  addCrds(crds: readonly CrdsFile[]): void {
    const more = crds.filter((c) => !this.crds.some((had) => had.file === c.file));
    if (more.length > 0) this.crds = [...this.crds, ...more];
  }

  /** Adds another kustomization's result (a base): its resources must not clash with ours. */
  absorbBase(base: Accumulator): void {
    this.resources.appendAll(base.resources);
    this.mergeConfig(base.config);
    this.addCrds(base.crds);
    this.vars.absorb(base.vars);
  }

  /**
   * Adds generated resources: new ids are appended; an existing id is merged into or
   * replaced, as the generator's behavior says.
   */
  absorbGenerated(generated: Resource[]): void {
    for (const r of generated) {
      const id = r.id;
      const matches = this.resources.byAnyId(id);
      if (matches.length === 0) {
        if (r.behavior === 'merge' || r.behavior === 'replace') {
          throw new KustomizeError('GENERATOR_FAILED', `id ${id} does not exist; cannot merge or replace`);
        }
        this.resources.append(r);
        continue;
      }
      if (matches.length > 1) {
        throw new KustomizeError('GENERATOR_FAILED', `found multiple objects ${matches.map((m) => m.id).join(', ')} that could accept merge of ${id}`);
      }
      const old = matches[0]!;
      if (r.behavior === 'replace') {
        copyMetadataFrom(r, old);
      } else if (r.behavior === 'merge') {
        const origin = old.origin;
        copyMetadataFrom(r, old);
        for (const field of ['data', 'binaryData']) {
          const merged = mergedStringMaps(old.view[field], r.view[field]);
          if (Object.keys(merged).length > 0) r.view[field] = merged;
          else delete r.view[field];
        }
        if (origin) r.origin = origin;
      } else {
        throw new KustomizeError('GENERATOR_FAILED', `id ${id} exists; behavior must be merge or replace`);
      }
      this.resources.replace(old, r);
    }
  }
}

/**
 * kustomize's CopyMergeMetaDataFieldsFrom: the new object keeps its content but takes the
 * old one's name, namespace and build history (its generation behavior too); labels and
 * annotations are merged (new wins).
 */
function copyMetadataFrom(r: Resource, old: Resource): void {
  for (const field of ['labels', 'annotations'] as const) {
    const merged = mergedStringMaps(old.stringMap(field), r.stringMap(field));
    const meta = r.metadata(true)!;
    if (Object.keys(merged).length > 0) meta[field] = merged;
    else delete meta[field];
  }
  r.setName(old.name);
  if (old.namespace) r.setNamespace(old.namespace);
  else delete r.metadata()!['namespace'];
  const needsHash = r.needsHashSuffix;
  const origin = r.origin;
  r.copyStateFrom(old);
  r.needsHashSuffix = needsHash && old.needsHashSuffix;
  r.origin = origin ?? old.origin;
}

/**
 * kustomize's mergeStringMaps of two maps it reads as `map[string]string` (labels, annotations,
 * a ConfigMap's data): each value becomes the text it was written with (`0123`, `2001-12-14`), so
 * a `false` a JSON patch wrote into the data merges as the string "false" (and is hashed so); the new map's values win. The map is
 * written afresh, its strings styled as kyaml writes them.
 */
function mergedStringMaps(old: Value | undefined, added: Value | undefined): YMap {
  const out = new Map<string, string>();
  // a null is "" whatever its text (`~`, `null`): kyaml's GetDataMap takes a null node's value as empty
  for (const m of [old, added]) if (isMap(m)) for (const k of Object.keys(m)) out.set(k, m[k] === null ? '' : stringMapText(m, k, m[k]!));
  return freshStringMap(out);
}
