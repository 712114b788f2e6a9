import { KustomizeError } from '../errors.js';
import type { FieldSpec } from '../fieldspec/fieldspec.js';
import { FieldSpecsShape } from '../fieldspec/fieldspec.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Transformer } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { addNameAffix } from '../filters/name-affix.js';

interface PrefixConfig {
  prefix: string;
  fieldSpecs: FieldSpec[];
}

/** `namePrefix`: prepends to the names its field specs list (by default every `metadata/name`). */
export class PrefixTransformer implements Transformer {
  static readonly kind = 'PrefixTransformer';

  private constructor(readonly config: PrefixConfig) {}

  static fromConfig(config: YMap): PrefixTransformer {
    const c = decodeConfig<Partial<PrefixConfig>>(config, { struct: 'PrefixTransformerPlugin', fields: { prefix: 'string', fieldSpecs: FieldSpecsShape } }, PrefixTransformer.kind);
    if (!c.fieldSpecs) throw new KustomizeError('KUSTOMIZATION_INVALID', 'fieldSpecs is not expected to be nil');
    return new PrefixTransformer({ prefix: c.prefix ?? '', fieldSpecs: c.fieldSpecs });
  }

  transform(resources: ResourceMap): void {
    addNameAffix(resources, 'prefix', this.config.prefix, this.config.fieldSpecs);
  }
}
