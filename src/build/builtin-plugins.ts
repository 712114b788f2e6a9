import { AnnotationsTransformer } from '../builtins/AnnotationsTransformer.js';
import { ConfigMapGenerator } from '../builtins/ConfigMapGenerator.js';
import { configuring, marshalledConfig } from '../builtins/config.js';
import { mergeGeneratorOptions } from '../builtins/generated-object.js';
import { HelmChartInflationGenerator } from '../builtins/HelmChartInflationGenerator.js';
import { ImageTagTransformer } from '../builtins/ImageTagTransformer.js';
import { LabelTransformer } from '../builtins/LabelTransformer.js';
import { NamespaceTransformer } from '../builtins/NamespaceTransformer.js';
import { PatchJson6902Transformer } from '../builtins/PatchJson6902Transformer.js';
import { PatchStrategicMergeTransformer } from '../builtins/PatchStrategicMergeTransformer.js';
import { PatchTransformer, patchConfig } from '../builtins/PatchTransformer.js';
import { PrefixTransformer } from '../builtins/PrefixTransformer.js';
import { ReplacementTransformer } from '../builtins/ReplacementTransformer.js';
import { ReplicaCountTransformer } from '../builtins/ReplicaCountTransformer.js';
import { SecretGenerator } from '../builtins/SecretGenerator.js';
import { SuffixTransformer } from '../builtins/SuffixTransformer.js';
import { mergeFieldSpecs, type TransformerConfig } from '../fieldspec/transformer-config.js';
import type { FieldSpec } from '../fieldspec/fieldspec.js';
import type { Kustomization } from '../kinds/kustomization.js';
import type { Origin } from '../model/origin.js';
import type { ConfiguredPlugin, Generator, PluginContext, Transformer } from '../plugins/plugin.js';

/**
 * The builtin plugins a kustomization's own fields configure, in kustomize's order. Each is
 * the same class a `generators:`/`transformers:` entry with `apiVersion: builtin` gets; here
 * its config comes from the fields and the field specs of the build.
 */
export function fieldGenerators(k: Kustomization, configuredIn: string): ConfiguredPlugin<Generator>[] {
  const out: ConfiguredPlugin<Generator>[] = [];
  const origin = (kind: string): Origin => ({ configuredIn, configuredBy: { apiVersion: 'builtin', kind } });
  const helm = HelmChartInflationGenerator.fromKustomization(k.helmGlobals, k.helmCharts ?? []);
  // kustomize configures all of them before running any: helm's configuration errors come first
  if (helm.length > 0) out.push({ plugin: HelmChartInflationGenerator.configureFirst(helm), origin: origin(HelmChartInflationGenerator.kind) });
  for (const args of k.configMapGenerator ?? []) {
    const options = mergeGeneratorOptions(args.options, k.generatorOptions);
    out.push({ plugin: new ConfigMapGenerator({ ...args, ...(options && { options }) }), origin: origin(ConfigMapGenerator.kind) });
  }
  for (const args of k.secretGenerator ?? []) {
    const options = mergeGeneratorOptions(args.options, k.generatorOptions);
    out.push({ plugin: new SecretGenerator({ ...args, ...(options && { options }) }), origin: origin(SecretGenerator.kind) });
  }
  for (const plugin of helm) out.push({ plugin, origin: origin(HelmChartInflationGenerator.kind) });
  return out;
}

export function fieldTransformers(
  k: Kustomization,
  tc: TransformerConfig,
  ctx: PluginContext,
  configuredIn: string,
): ConfiguredPlugin<Transformer>[] {
  const out: ConfiguredPlugin<Transformer>[] = [];
  const add = (plugin: Transformer, kind: string) => out.push({ plugin, origin: { configuredIn, configuredBy: { apiVersion: 'builtin', kind } } });

  const psm = k.patchesStrategicMerge ?? [];
  if (psm.length > 0) {
    const kind = PatchStrategicMergeTransformer.kind;
    add(configuring(kind, { paths: psm }, () => PatchStrategicMergeTransformer.create(psm, '', ctx)), kind);
  }
  for (const p of k.patches ?? []) {
    add(configuring(PatchTransformer.kind, patchConfig(p), () => PatchTransformer.create(p, ctx)), PatchTransformer.kind);
  }
  if (k.namespace) {
    add(new NamespaceTransformer({ namespace: k.namespace, fieldSpecs: tc.namespace }), NamespaceTransformer.kind);
  }
  if (k.namePrefix) add(new PrefixTransformer({ prefix: k.namePrefix, fieldSpecs: tc.namePrefix }), PrefixTransformer.kind);
  if (k.nameSuffix) add(new SuffixTransformer({ suffix: k.nameSuffix, fieldSpecs: tc.nameSuffix }), SuffixTransformer.kind);
  for (const label of k.labels ?? []) {
    add(new LabelTransformer({ labels: label.pairs ?? {}, fieldSpecs: labelFieldSpecs(label, tc) }), LabelTransformer.kind);
  }
  // kustomize follows `labels` with a commonLabels transformer even when there are none, and records it
  if (k.labels?.length || Object.keys(k.commonLabels ?? {}).length > 0) {
    add(new LabelTransformer({ labels: k.commonLabels ?? {}, fieldSpecs: tc.commonLabels }), LabelTransformer.kind);
  }
  if (k.commonAnnotations) {
    add(new AnnotationsTransformer({ annotations: k.commonAnnotations, fieldSpecs: tc.commonAnnotations }), AnnotationsTransformer.kind);
  }
  for (const p of k.patchesJson6902 ?? []) {
    const config = { ...(p.target && { target: p.target }), ...(p.path && { path: p.path }), ...(p.patch && { jsonOp: p.patch }) };
    const shown = marshalledConfig({ jsonOp: config.jsonOp, path: config.path, target: config.target && marshalledConfig({ ...config.target }) });
    add(configuring(PatchJson6902Transformer.kind, shown, () => PatchJson6902Transformer.create(config, ctx)), PatchJson6902Transformer.kind);
  }
  for (const replica of k.replicas ?? []) {
    add(new ReplicaCountTransformer({ replica, fieldSpecs: tc.replicas }), ReplicaCountTransformer.kind);
  }
  for (const image of k.images ?? []) add(new ImageTagTransformer({ imageTag: image, fieldSpecs: tc.images }), ImageTagTransformer.kind);
  if (k.replacements?.length) add(ReplacementTransformer.create(k.replacements, ctx), ReplacementTransformer.kind);
  return out;
}

/** The fields a `labels` entry writes: its own, plus selectors, templates or claim templates as it asks. */
function labelFieldSpecs(label: NonNullable<Kustomization['labels']>[number], tc: TransformerConfig): FieldSpec[] {
  let fss = mergeFieldSpecs(label.fields ?? [], tc.labels);
  if (label.includeSelectors) return mergeFieldSpecs(fss, tc.commonLabels);
  fss = mergeFieldSpecs(fss, [{ path: 'metadata/labels', create: true }]);
  if (label.includeTemplates) fss = mergeFieldSpecs(fss, tc.templateLabels);
  if (label.includeVolumeClaimTemplates) fss = mergeFieldSpecs(fss, tc.volumeClaimTemplateLabels);
  return fss;
}
