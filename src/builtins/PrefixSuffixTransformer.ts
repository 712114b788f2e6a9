import type { FieldSpec } from '../fieldspec/fieldspec.js';
import { FieldSpecsShape } from '../fieldspec/fieldspec.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Transformer } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { addNameAffix } from '../filters/name-affix.js';

/** The legacy composite of PrefixTransformer and SuffixTransformer, still accepted as a builtin. */
export class PrefixSuffixTransformer implements Transformer {
  static readonly kind = 'PrefixSuffixTransformer';

  private constructor(readonly config: { prefix: string; suffix: string; fieldSpecs: FieldSpec[] }) {}

  static fromConfig(config: YMap): PrefixSuffixTransformer {
    const c = decodeConfig<{ prefix?: string; suffix?: string; fieldSpecs?: FieldSpec[] }>(
      config,
      { struct: 'PrefixSuffixTransformerPlugin', fields: { prefix: 'string', suffix: 'string', fieldSpecs: FieldSpecsShape } },
      PrefixSuffixTransformer.kind,
    );
    return new PrefixSuffixTransformer({ prefix: c.prefix ?? '', suffix: c.suffix ?? '', fieldSpecs: c.fieldSpecs ?? [] });
  }

  transform(resources: ResourceMap): void {
    addNameAffix(resources, 'prefix', this.config.prefix, this.config.fieldSpecs);
    addNameAffix(resources, 'suffix', this.config.suffix, this.config.fieldSpecs);
  }
}
