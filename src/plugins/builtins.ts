import { AnnotationsTransformer } from '../builtins/AnnotationsTransformer.js';
import { ConfigMapGenerator } from '../builtins/ConfigMapGenerator.js';
import { HashTransformer } from '../builtins/HashTransformer.js';
import { HelmChartInflationGenerator } from '../builtins/HelmChartInflationGenerator.js';
import { IAMPolicyGenerator } from '../builtins/IAMPolicyGenerator.js';
import { ImageTagTransformer } from '../builtins/ImageTagTransformer.js';
import { LabelTransformer } from '../builtins/LabelTransformer.js';
import { NameReferenceTransformer } from '../builtins/NameReferenceTransformer.js';
import { NamespaceTransformer } from '../builtins/NamespaceTransformer.js';
import { PatchJson6902Transformer } from '../builtins/PatchJson6902Transformer.js';
import { PatchStrategicMergeTransformer } from '../builtins/PatchStrategicMergeTransformer.js';
import { PatchTransformer } from '../builtins/PatchTransformer.js';
import { PrefixSuffixTransformer } from '../builtins/PrefixSuffixTransformer.js';
import { PrefixTransformer } from '../builtins/PrefixTransformer.js';
import { ReplacementTransformer } from '../builtins/ReplacementTransformer.js';
import { ReplicaCountTransformer } from '../builtins/ReplicaCountTransformer.js';
import { SecretGenerator } from '../builtins/SecretGenerator.js';
import { SortOrderTransformer } from '../builtins/SortOrderTransformer.js';
import { SuffixTransformer } from '../builtins/SuffixTransformer.js';
import { ValueAddTransformer } from '../builtins/ValueAddTransformer.js';
import type { TransformerConfig } from '../fieldspec/transformer-config.js';
import type { YMap } from '../yaml/value.js';
import type { Plugin, PluginContext } from './plugin.js';

/** A builtin plugin: the only way to make one is from its config. */
export interface Builtin {
  kind: string;
  role: 'generator' | 'transformer';
  configure(config: YMap, ctx: PluginContext): Plugin;
  /**
   * The list of the build's field specs this builtin uses when its config has none of its own
   * (kustomize's defaults merged with `configurations:`; the kustomization field that drives it
   * fills its config from the same list).
   */
  fieldSpecs?: keyof TransformerConfig;
  /** run by the build itself when it finishes; like kustomize, a config cannot name it */
  internal?: true;
}

const transformer = (kind: string, configure: Builtin['configure'], fieldSpecs?: keyof TransformerConfig): Builtin => ({
  kind,
  role: 'transformer',
  configure,
  ...(fieldSpecs && { fieldSpecs }),
});
const internal = (b: Builtin): Builtin => ({ ...b, internal: true });
const generator = (kind: string, configure: Builtin['configure']): Builtin => ({ kind, role: 'generator', configure });

/** Every builtin, by kind: what a config with `apiVersion: builtin` can name, and the build's own finishing steps. */
export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(
  [
    generator(ConfigMapGenerator.kind, (c) => ConfigMapGenerator.fromConfig(c)),
    generator(SecretGenerator.kind, (c) => SecretGenerator.fromConfig(c)),
    generator(IAMPolicyGenerator.kind, (c) => IAMPolicyGenerator.fromConfig(c)),
    generator(HelmChartInflationGenerator.kind, (c, ctx) => HelmChartInflationGenerator.fromConfig(c, ctx)),
    transformer(AnnotationsTransformer.kind, (c) => AnnotationsTransformer.fromConfig(c), 'commonAnnotations'),
    transformer(HashTransformer.kind, () => HashTransformer.fromConfig()),
    transformer(ImageTagTransformer.kind, (c) => ImageTagTransformer.fromConfig(c), 'images'),
    transformer(LabelTransformer.kind, (c) => LabelTransformer.fromConfig(c), 'commonLabels'),
    internal(transformer(NameReferenceTransformer.kind, (c) => NameReferenceTransformer.fromConfig(c), 'nameReference')),
    transformer(NamespaceTransformer.kind, (c) => NamespaceTransformer.fromConfig(c), 'namespace'),
    transformer(PatchJson6902Transformer.kind, (c, ctx) => PatchJson6902Transformer.fromConfig(c, ctx)),
    transformer(PatchStrategicMergeTransformer.kind, (c, ctx) => PatchStrategicMergeTransformer.fromConfig(c, ctx)),
    transformer(PatchTransformer.kind, (c, ctx) => PatchTransformer.fromConfig(c, ctx)),
    transformer(PrefixSuffixTransformer.kind, (c) => PrefixSuffixTransformer.fromConfig(c), 'namePrefix'),
    transformer(PrefixTransformer.kind, (c) => PrefixTransformer.fromConfig(c), 'namePrefix'),
    transformer(ReplacementTransformer.kind, (c, ctx) => ReplacementTransformer.fromConfig(c, ctx)),
    transformer(ReplicaCountTransformer.kind, (c) => ReplicaCountTransformer.fromConfig(c), 'replicas'),
    internal(transformer(SortOrderTransformer.kind, (c) => SortOrderTransformer.fromConfig(c))),
    transformer(SuffixTransformer.kind, (c) => SuffixTransformer.fromConfig(c), 'nameSuffix'),
    transformer(ValueAddTransformer.kind, (c, ctx) => ValueAddTransformer.fromConfig(c, ctx)),
  ].map((b) => [b.kind, b] as const),
);

/** A config object for a builtin: `apiVersion: builtin`, the kind, then the builtin's own fields. */
export function builtinConfig(kind: string, fields: YMap): YMap {
  return { apiVersion: 'builtin', kind, ...fields };
}
