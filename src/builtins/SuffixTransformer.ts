import { KustomizeError } from '../errors.js';
import type { FieldSpec } from '../fieldspec/fieldspec.js';
import { FieldSpecsShape } from '../fieldspec/fieldspec.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Transformer } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { addNameAffix } from '../filters/name-affix.js';

interface SuffixConfig {
  suffix: string;
  fieldSpecs: FieldSpec[];
}

/** `nameSuffix`: appends to the names its field specs list (by default every `metadata/name`). */
export class SuffixTransformer implements Transformer {
  static readonly kind = 'SuffixTransformer';

  private constructor(readonly config: SuffixConfig) {}

  static fromConfig(config: YMap): SuffixTransformer {
    const c = decodeConfig<Partial<SuffixConfig>>(config, { struct: 'SuffixTransformerPlugin', fields: { suffix: 'string', fieldSpecs: FieldSpecsShape } }, SuffixTransformer.kind);
    if (!c.fieldSpecs) throw new KustomizeError('KUSTOMIZATION_INVALID', 'fieldSpecs is not expected to be nil');
    return new SuffixTransformer({ suffix: c.suffix ?? '', fieldSpecs: c.fieldSpecs });
  }

  transform(resources: ResourceMap): void {
    addNameAffix(resources, 'suffix', this.config.suffix, this.config.fieldSpecs);
  }
}
