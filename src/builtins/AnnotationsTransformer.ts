import type { FieldSpec } from '../fieldspec/fieldspec.js';
import { FieldSpecsShape } from '../fieldspec/fieldspec.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Transformer } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { setMapEntries } from '../filters/map-entries.js';

interface AnnotationsConfig {
  annotations: Record<string, string>;
  fieldSpecs: FieldSpec[];
}

/** `commonAnnotations`: sets annotations in the fields its field specs list. */
export class AnnotationsTransformer implements Transformer {
  static readonly kind = 'AnnotationsTransformer';

  private constructor(readonly config: AnnotationsConfig) {}

  static fromConfig(config: YMap): AnnotationsTransformer {
    const c = decodeConfig<Partial<AnnotationsConfig>>(
      config,
      { struct: 'AnnotationsTransformerPlugin', fields: { annotations: { map: 'string' }, fieldSpecs: FieldSpecsShape } },
      AnnotationsTransformer.kind,
    );
    return new AnnotationsTransformer({ annotations: c.annotations ?? {}, fieldSpecs: c.fieldSpecs ?? [] });
  }

  transform(resources: ResourceMap): void {
    setMapEntries(resources, this.config.annotations, this.config.fieldSpecs);
  }
}
