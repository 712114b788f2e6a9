import { AnnotationsTransformer } from '../builtins/AnnotationsTransformer.js';
import { ConfigMapGenerator } from '../builtins/ConfigMapGenerator.js';
import { helmChartFieldConfig, HelmChartInflationGenerator } from '../builtins/HelmChartInflationGenerator.js';
import { ImageTagTransformer } from '../builtins/ImageTagTransformer.js';
import { LabelTransformer } from '../builtins/LabelTransformer.js';
import { NamespaceTransformer } from '../builtins/NamespaceTransformer.js';
import { PatchJson6902Transformer } from '../builtins/PatchJson6902Transformer.js';
import { PatchStrategicMergeTransformer } from '../builtins/PatchStrategicMergeTransformer.js';
import { patchConfig, PatchTransformer } from '../builtins/PatchTransformer.js';
import { PrefixTransformer } from '../builtins/PrefixTransformer.js';
import { replacementsFieldConfig, ReplacementTransformer } from '../builtins/ReplacementTransformer.js';
import { ReplicaCountTransformer } from '../builtins/ReplicaCountTransformer.js';
import { SecretGenerator } from '../builtins/SecretGenerator.js';
import { SuffixTransformer } from '../builtins/SuffixTransformer.js';
import { mergeGeneratorOptions } from '../filters/generated-object.js';
import type { FieldSpec } from '../fieldspec/fieldspec.js';
import { mergeFieldSpecs, type TransformerConfig } from '../fieldspec/transformer-config.js';
import type { Kustomization } from '../kinds/kustomization.js';
import type { Loader } from '../load/loader.js';
import { Resource } from '../model/resource.js';
import { builtinConfig } from '../builtins/table.js';
import { marshalledConfig } from '../plugins/builtin-config.js';
import type { Value, YMap } from '../yaml/value.js';
import type { StepConfig } from './plan.js';

/**
 * The builtin steps a kustomization's own fields configure, in kustomize's order: each field
 * becomes the config object of the builtin that implements it — the same config a user could
 * write in `generators:`/`transformers:` with `apiVersion: builtin` — filled with the field's
 * values and the build's field specs.
 */
export class FieldSteps {
  constructor(
    private readonly k: Kustomization,
    private readonly loader: Loader,
    private readonly configuredIn: string,
    /** the kustomization file, absolute */
    private readonly file: string,
  ) {}

  generators(): StepConfig[] {
    const k = this.k;
    const out: StepConfig[] = [];
    (k.configMapGenerator ?? []).forEach((args, i) => {
      const options = mergeGeneratorOptions(args.options, k.generatorOptions);
      out.push(this.step(`configMapGenerator[${i}]`, ConfigMapGenerator.kind, asYMap({ ...args, ...(options && { options }) })));
    });
    (k.secretGenerator ?? []).forEach((args, i) => {
      const options = mergeGeneratorOptions(args.options, k.generatorOptions);
      out.push(this.step(`secretGenerator[${i}]`, SecretGenerator.kind, asYMap({ ...args, ...(options && { options }) })));
    });
    (k.helmCharts ?? []).forEach((chart, i) => {
      const config = helmChartFieldConfig(k.helmGlobals, chart);
      out.push(this.step(`helmCharts[${i}]`, HelmChartInflationGenerator.kind, config, marshalledConfig(config)));
    });
    return out;
  }

  transformers(tc: TransformerConfig): StepConfig[] {
    const k = this.k;
    const out: StepConfig[] = [];
    const add = (field: string, kind: string, config: YMap, shown?: YMap) => out.push(this.step(field, kind, config, shown));
    const psm = k.patchesStrategicMerge ?? [];
    if (psm.length > 0) add('patchesStrategicMerge', PatchStrategicMergeTransformer.kind, { paths: psm });
    out.push(...this.patches());
    if (k.namespace) add('namespace', NamespaceTransformer.kind, { namespace: k.namespace, fieldSpecs: specs(tc.namespace) });
    if (k.namePrefix) add('namePrefix', PrefixTransformer.kind, { prefix: k.namePrefix, fieldSpecs: specs(tc.namePrefix) });
    if (k.nameSuffix) add('nameSuffix', SuffixTransformer.kind, { suffix: k.nameSuffix, fieldSpecs: specs(tc.nameSuffix) });
    (k.labels ?? []).forEach((label, i) => add(`labels[${i}]`, LabelTransformer.kind, { labels: label.pairs ?? {}, fieldSpecs: specs(labelFieldSpecs(label, tc)) }));
    // kustomize follows `labels` with a commonLabels transformer even when there are none, and records it
    if (k.labels?.length || Object.keys(k.commonLabels ?? {}).length > 0) {
      add('commonLabels', LabelTransformer.kind, { labels: k.commonLabels ?? {}, fieldSpecs: specs(tc.commonLabels) });
    }
    if (k.commonAnnotations) add('commonAnnotations', AnnotationsTransformer.kind, { annotations: k.commonAnnotations, fieldSpecs: specs(tc.commonAnnotations) });
    (k.patchesJson6902 ?? []).forEach((p, i) => {
      add(`patchesJson6902[${i}]`, PatchJson6902Transformer.kind, marshalledConfig({ jsonOp: p.patch, path: p.path, target: p.target && marshalledConfig({ ...p.target }) }));
    });
    (k.replicas ?? []).forEach((replica, i) => add(`replicas[${i}]`, ReplicaCountTransformer.kind, { replica: asYMap(replica), fieldSpecs: specs(tc.replicas) }));
    (k.images ?? []).forEach((image, i) => add(`images[${i}]`, ImageTagTransformer.kind, { imageTag: asYMap(image), fieldSpecs: specs(tc.images) }));
    if (k.replacements?.length) {
      const { config, shown } = replacementsFieldConfig(k.replacements);
      add('replacements', ReplacementTransformer.kind, config, shown);
    }
    return out;
  }

  /** The `patches:` entries, a PatchTransformer step each. */
  patches(): StepConfig[] {
    return (this.k.patches ?? []).map((p, i) => this.step(`patches[${i}]`, PatchTransformer.kind, patchConfig(p)));
  }

  private step(field: string, kind: string, fields: YMap, shown: YMap = fields): StepConfig {
    return { config: new Resource(builtinConfig(kind, fields)), configuredIn: this.configuredIn, file: this.file, loader: this.loader, shownConfig: shown, field };
  }
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

function specs(fieldSpecs: readonly FieldSpec[]): Value {
  return fieldSpecs as unknown as Value;
}

/** A typed kustomization value as the plain YAML value it was decoded from. */
function asYMap(v: object): YMap {
  return v as YMap;
}
