import { checkTransformerConfig, compositionError, type TransformerConfig } from '../kinds/composition.js';
import { builtinSchema } from '../openapi/schema.js';
import { applyStrategicMerge, isDeleted } from '../patch/strategic-merge.js';
import { describeTransformer, sameTransformer, type ConsolidatedTransformer } from './consolidated-transformer.js';

/**
 * Applies `transformerOverrides` to the imported transformers: each override is a strategic
 * merge patch on the transformer with its apiVersion, kind and name (the builtin schema knows
 * none of these kinds, so maps merge and lists are replaced; `$patch: delete` removes the
 * transformer, which becomes undefined here). An override that matches nothing is an error.
 * The result is checked again, as if written in the overriding file.
 */
export function applyOverrides(
  imported: ConsolidatedTransformer[],
  overrides: TransformerConfig[],
  file: string,
): (ConsolidatedTransformer | undefined)[] {
  const out: (ConsolidatedTransformer | undefined)[] = [...imported];
  overrides.forEach((override, i) => {
    const field = `transformerOverrides[${i}]`;
    const at = out.findIndex((t) => t !== undefined && sameTransformer(t.config, override));
    if (at < 0) {
      const known = out.filter((t) => t !== undefined).map((t) => describeTransformer(t.config));
      const list = known.length > 0 ? `imported: ${known.join(', ')}` : 'nothing is imported';
      throw compositionError(file, field, `${describeTransformer(override)} matches no imported transformer (${list})`);
    }
    const target = out[at]!;
    const merged = applyStrategicMerge(target.config, override, builtinSchema());
    out[at] = isDeleted(merged) ? undefined : { ...target, config: checkTransformerConfig(merged, file, field) };
  });
  return out;
}
