import { AnnotationsTransformer } from './AnnotationsTransformer.js';
import { ConfigMapGenerator } from './ConfigMapGenerator.js';
import { HashTransformer } from './HashTransformer.js';
import { HelmChartInflationGenerator } from './HelmChartInflationGenerator.js';
import { IAMPolicyGenerator } from './IAMPolicyGenerator.js';
import { ImageTagTransformer } from './ImageTagTransformer.js';
import { LabelTransformer } from './LabelTransformer.js';
import { NameReferenceTransformer } from './NameReferenceTransformer.js';
import { NamespaceTransformer } from './NamespaceTransformer.js';
import { PatchJson6902Transformer } from './PatchJson6902Transformer.js';
import { PatchStrategicMergeTransformer } from './PatchStrategicMergeTransformer.js';
import { PatchTransformer } from './PatchTransformer.js';
import { PrefixSuffixTransformer } from './PrefixSuffixTransformer.js';
import { PrefixTransformer } from './PrefixTransformer.js';
import { ReplacementTransformer } from './ReplacementTransformer.js';
import { ReplicaCountTransformer } from './ReplicaCountTransformer.js';
import { SecretGenerator } from './SecretGenerator.js';
import { SortOrderTransformer } from './SortOrderTransformer.js';
import { SuffixTransformer } from './SuffixTransformer.js';
import { ValueAddTransformer } from './ValueAddTransformer.js';
import type { TransformerConfig } from '../fieldspec/transformer-config.js';
import type { YMap } from '../yaml/value.js';
import { KustomizeError } from '../errors.js';
import { gvkString } from '../model/resid.js';
import { configured } from '../plugins/configure.js';
import type { Plugin, PluginContext } from '../plugins/plugin.js';
import type { PluginResolver } from '../plugins/resolver.js';
import type { BuiltinState } from './state.js';

/** A builtin plugin: the only way to make one is from its config. */
interface Builtin {
  kind: string;
  role: 'generator' | 'transformer';
  configure(config: YMap, ctx: PluginContext, build: BuiltinState): Plugin;
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
    generator(HelmChartInflationGenerator.kind, (c, ctx, build) => HelmChartInflationGenerator.fromConfig(c, ctx, build)),
    transformer(AnnotationsTransformer.kind, (c) => AnnotationsTransformer.fromConfig(c), 'commonAnnotations'),
    transformer(HashTransformer.kind, () => HashTransformer.fromConfig()),
    transformer(ImageTagTransformer.kind, (c) => ImageTagTransformer.fromConfig(c), 'images'),
    transformer(LabelTransformer.kind, (c, ctx, build) => LabelTransformer.fromConfig(c, build.notices.of(ctx)), 'commonLabels'),
    internal(transformer(NameReferenceTransformer.kind, (c) => NameReferenceTransformer.fromConfig(c), 'nameReference')),
    transformer(NamespaceTransformer.kind, (c) => NamespaceTransformer.fromConfig(c), 'namespace'),
    transformer(PatchJson6902Transformer.kind, (c, ctx, build) => PatchJson6902Transformer.fromConfig(c, ctx, build.notices.of(ctx))),
    transformer(PatchStrategicMergeTransformer.kind, (c, ctx) => PatchStrategicMergeTransformer.fromConfig(c, ctx)),
    transformer(PatchTransformer.kind, (c, ctx, build) => PatchTransformer.fromConfig(c, ctx, build.notices.of(ctx))),
    transformer(PrefixSuffixTransformer.kind, (c) => PrefixSuffixTransformer.fromConfig(c), 'namePrefix'),
    transformer(PrefixTransformer.kind, (c) => PrefixTransformer.fromConfig(c), 'namePrefix'),
    transformer(ReplacementTransformer.kind, (c, ctx, build) => ReplacementTransformer.fromConfig(c, ctx, build.notices.of(ctx))),
    transformer(ReplicaCountTransformer.kind, (c) => ReplicaCountTransformer.fromConfig(c), 'replicas'),
    internal(transformer(SortOrderTransformer.kind, (c, ctx) => SortOrderTransformer.fromConfig(c, ctx.profile.namespaceKinds))),
    transformer(SuffixTransformer.kind, (c) => SuffixTransformer.fromConfig(c), 'nameSuffix'),
    transformer(ValueAddTransformer.kind, (c, ctx) => ValueAddTransformer.fromConfig(c, ctx)),
  ].map((b) => [b.kind, b] as const),
);

/** A config object for a builtin: `apiVersion: builtin`, the kind, then the builtin's own fields. */
export function builtinConfig(kind: string, fields: YMap): YMap {
  return { apiVersion: 'builtin', kind, ...fields };
}

/** `apiVersion: builtin` configs: the builtin of that kind (always allowed). */
export function builtinResolver(build: BuiltinState): PluginResolver {
  return {
    description: 'builtins',
    async resolve(config, _configuredIn, ctx) {
      const id = config.originalId;
      if (id.group !== '' || id.version !== 'builtin') return undefined;
      const builtin = BUILTINS.get(id.kind);
      if (!builtin || builtin.internal) throw new KustomizeError('PLUGIN_NOT_FOUND', `unable to load builtin ${gvkString(id)}`);
      return configured(() => builtin.configure(config.view, ctx, build), id.toString());
    },
  };
}
