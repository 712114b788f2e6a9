import type { FieldSpec } from '../fieldspec/fieldspec.js';
import { FieldSpecsShape } from '../fieldspec/fieldspec.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Transformer } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { setMapEntries } from '../filters/map-entries.js';

interface LabelConfig {
  labels: Record<string, string>;
  fieldSpecs: FieldSpec[];
}

/** `labels` and `commonLabels`: sets labels in the fields its field specs list (metadata, selectors, templates). */
export class LabelTransformer implements Transformer {
  static readonly kind = 'LabelTransformer';

  private constructor(readonly config: LabelConfig) {}

  static fromConfig(config: YMap): LabelTransformer {
    const c = decodeConfig<Partial<LabelConfig>>(
      config,
      { struct: 'LabelTransformerPlugin', fields: { labels: { map: 'string' }, fieldSpecs: FieldSpecsShape } },
      LabelTransformer.kind,
    );
    return new LabelTransformer({ labels: c.labels ?? {}, fieldSpecs: c.fieldSpecs ?? [] });
  }

  transform(resources: ResourceMap): void {
    setMapEntries(resources, this.config.labels, this.config.fieldSpecs);
  }
}
