import type { Generator, PluginContext, Transformer } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { AnnotationsTransformer } from './AnnotationsTransformer.js';
import { ConfigMapGenerator } from './ConfigMapGenerator.js';
import { HelmChartInflationGenerator } from './HelmChartInflationGenerator.js';
import { IAMPolicyGenerator } from './IAMPolicyGenerator.js';
import { ValueAddTransformer } from './ValueAddTransformer.js';
import { HashTransformer } from './HashTransformer.js';
import { ImageTagTransformer } from './ImageTagTransformer.js';
import { LabelTransformer } from './LabelTransformer.js';
import { NamespaceTransformer } from './NamespaceTransformer.js';
import { PatchJson6902Transformer } from './PatchJson6902Transformer.js';
import { PatchStrategicMergeTransformer } from './PatchStrategicMergeTransformer.js';
import { PatchTransformer } from './PatchTransformer.js';
import { PrefixSuffixTransformer } from './PrefixSuffixTransformer.js';
import { PrefixTransformer } from './PrefixTransformer.js';
import { ReplacementTransformer } from './ReplacementTransformer.js';
import { ReplicaCountTransformer } from './ReplicaCountTransformer.js';
import { SecretGenerator } from './SecretGenerator.js';
import { SuffixTransformer } from './SuffixTransformer.js';

export type GeneratorFactory = (config: YMap, ctx: PluginContext) => Generator;
export type TransformerFactory = (config: YMap, ctx: PluginContext) => Transformer;

/**
 * The builtin plugins a config with `apiVersion: builtin` can name, by kind. The kustomization
 * fields drive the same classes (see build/builtin-plugins.ts).
 */
export const BUILTIN_GENERATORS: ReadonlyMap<string, GeneratorFactory> = new Map<string, GeneratorFactory>([
  [ConfigMapGenerator.kind, (c) => ConfigMapGenerator.fromConfig(c)],
  [SecretGenerator.kind, (c) => SecretGenerator.fromConfig(c)],
  [IAMPolicyGenerator.kind, (c) => IAMPolicyGenerator.fromConfig(c)],
  [HelmChartInflationGenerator.kind, (c, ctx) => HelmChartInflationGenerator.fromConfig(c, ctx)],
]);

export const BUILTIN_TRANSFORMERS: ReadonlyMap<string, TransformerFactory> = new Map<string, TransformerFactory>([
  [AnnotationsTransformer.kind, (c) => AnnotationsTransformer.fromConfig(c)],
  [HashTransformer.kind, () => HashTransformer.fromConfig()],
  [ImageTagTransformer.kind, (c) => ImageTagTransformer.fromConfig(c)],
  [LabelTransformer.kind, (c) => LabelTransformer.fromConfig(c)],
  [NamespaceTransformer.kind, (c) => NamespaceTransformer.fromConfig(c)],
  [PatchJson6902Transformer.kind, (c, ctx) => PatchJson6902Transformer.fromConfig(c, ctx)],
  [PatchStrategicMergeTransformer.kind, (c, ctx) => PatchStrategicMergeTransformer.fromConfig(c, ctx)],
  [PatchTransformer.kind, (c, ctx) => PatchTransformer.fromConfig(c, ctx)],
  [PrefixSuffixTransformer.kind, (c) => PrefixSuffixTransformer.fromConfig(c)],
  [PrefixTransformer.kind, (c) => PrefixTransformer.fromConfig(c)],
  [ReplacementTransformer.kind, (c, ctx) => ReplacementTransformer.fromConfig(c, ctx)],
  [ReplicaCountTransformer.kind, (c) => ReplicaCountTransformer.fromConfig(c)],
  [SuffixTransformer.kind, (c) => SuffixTransformer.fromConfig(c)],
  [ValueAddTransformer.kind, (c, ctx) => ValueAddTransformer.fromConfig(c, ctx)],
]);
