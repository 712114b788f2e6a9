import { KustomizeError } from '../errors.js';
import { fieldSpecSelects, visitField, type FieldSpec } from '../fieldspec/fieldspec.js';
import type { Replica } from '../kinds/kustomization.js';
import { ReplicaShape } from '../kinds/shapes.js';
import { FieldSpecsShape } from '../fieldspec/fieldspec.js';
import { gvkString } from '../model/resid.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Transformer } from '../plugins/plugin.js';
import { isStyled, type YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';

interface ReplicaCountConfig {
  replica: Replica;
  fieldSpecs: FieldSpec[];
}

/** `replicas`: sets the replica count of the named workloads (matched by current or earlier name). */
export class ReplicaCountTransformer implements Transformer {
  static readonly kind = 'ReplicaCountTransformer';

  private constructor(readonly config: ReplicaCountConfig) {}

  static fromConfig(config: YMap): ReplicaCountTransformer {
    const c = decodeConfig<Partial<ReplicaCountConfig>>(
      config,
      { struct: 'ReplicaCountTransformerPlugin', fields: { replica: ReplicaShape, fieldSpecs: FieldSpecsShape } },
      ReplicaCountTransformer.kind,
    );
    return new ReplicaCountTransformer({ replica: c.replica ?? {}, fieldSpecs: c.fieldSpecs ?? [] });
  }

  transform(resources: ResourceMap): void {
    const { name = '', count = 0 } = this.config.replica;
    let found = false;
    const named = resources.withName(name);
    for (const fs of this.config.fieldSpecs) {
      for (const r of named) {
        if (!r.allIds.some((id) => id.name === name && fieldSpecSelects(fs, id))) continue;
        found = true;
        if (fieldSpecSelects(fs, r.gvk)) {
          visitField(r.view, fs, 'scalar', (holder, key) => {
            // kustomize sets the count's text on the node, which keeps its style: one written quoted (or as a block) prints quoted, any other reads as an integer
            holder[key] = isStyled(holder, key) ? String(count) : count;
          });
        }
      }
    }
    resources.edited(named);
    if (!found) {
      const gvks = this.config.fieldSpecs.map((fs) => gvkString({ group: fs.group ?? '', version: fs.version ?? '', kind: fs.kind ?? '' }));
      throw new KustomizeError('TRANSFORMER_FAILED', `resource with name ${name} does not match a config with the following GVK [${gvks.join(' ')}]`);
    }
  }
}
