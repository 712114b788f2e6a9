import { FieldSpecsShape, gvkFields } from '../fieldspec/fieldspec.js';
import type { Shape, StructShape } from '../yaml/decode.js';

/**
 * The shapes of the typed objects kustomize reads, shared by the Kustomization kind and the
 * configs of the builtin plugins that take the same objects.
 */

const str = 'string' as const;
const bool = 'bool' as const;
const strings: Shape = { list: str };
const stringMap: Shape = { map: str };

const resIdFields = { ...gvkFields, name: str, namespace: str };

export const ObjectMetaShape: StructShape = {
  struct: 'ObjectMeta',
  fields: { name: str, namespace: str, labels: stringMap, annotations: stringMap },
};

export const SelectorShape: StructShape = {
  struct: 'Selector',
  fields: { ...resIdFields, labelSelector: str, annotationSelector: str },
};

export const PatchShape: StructShape = {
  struct: 'Patch',
  fields: { path: str, patch: str, target: SelectorShape, options: { map: bool } },
};

export const ImageShape: StructShape = {
  struct: 'Image',
  fields: { name: str, newName: str, newTag: str, digest: str, tagSuffix: str },
};

export const ReplicaShape: StructShape = { struct: 'Replica', fields: { name: str, count: 'int' } };

const LabelShape: StructShape = {
  struct: 'Label',
  fields: {
    pairs: stringMap,
    includeSelectors: bool,
    includeTemplates: bool,
    includeVolumeClaimTemplates: bool,
    fields: FieldSpecsShape,
  },
};

const GeneratorOptionsShape: StructShape = {
  struct: 'GeneratorOptions',
  fields: { labels: stringMap, annotations: stringMap, disableNameSuffixHash: bool, immutable: bool },
};

const KvPairSourcesShape: StructShape = {
  struct: 'KvPairSources',
  fields: { literals: strings, files: strings, envs: strings, env: str },
};

const GeneratorArgsShape: StructShape = {
  struct: 'GeneratorArgs',
  fields: { namespace: str, name: str, behavior: str, options: GeneratorOptionsShape },
  inline: [KvPairSourcesShape],
};

export const ConfigMapArgsShape: StructShape = { struct: 'ConfigMapArgs', fields: {}, inline: [GeneratorArgsShape] };
export const SecretArgsShape: StructShape = { struct: 'SecretArgs', fields: { type: str }, inline: [GeneratorArgsShape] };

const FieldOptionsShape: StructShape = {
  struct: 'FieldOptions',
  fields: { delimiter: str, index: 'int', encoding: str, create: bool },
};

export const ReplacementShape: StructShape = {
  struct: 'Replacement',
  fields: {
    source: { struct: 'SourceSelector', fields: { ...resIdFields, fieldPath: str, options: FieldOptionsShape } },
    sourceValue: str,
    targets: {
      list: {
        struct: 'TargetSelector',
        fields: { select: SelectorShape, reject: { list: SelectorShape }, fieldPaths: strings, options: FieldOptionsShape },
      },
    },
  },
};

export const ReplacementFieldShape: StructShape = { struct: 'ReplacementField', fields: { path: str }, inline: [ReplacementShape] };

const VarShape: StructShape = {
  struct: 'Var',
  fields: {
    name: str,
    objref: { struct: 'Target', fields: { apiVersion: str, ...resIdFields } },
    fieldref: { struct: 'FieldSelector', fields: { fieldpath: str } },
  },
};

export const SortOptionsShape: StructShape = {
  struct: 'SortOptions',
  fields: {
    order: str,
    legacySortOptions: { struct: 'LegacySortOptions', fields: { orderFirst: strings, orderLast: strings } },
  },
};

export const HelmGlobalsShape: StructShape = { struct: 'HelmGlobals', fields: { chartHome: str, configHome: str } };

export const HelmChartShape: StructShape = {
  struct: 'HelmChart',
  fields: {
    name: str,
    version: str,
    repo: str,
    releaseName: str,
    namespace: str,
    additionalValuesFiles: strings,
    valuesFile: str,
    valuesInline: { map: 'any' },
    valuesMerge: str,
    includeCRDs: bool,
    skipHooks: bool,
    apiVersions: strings,
    kubeVersion: str,
    nameTemplate: str,
    skipTests: bool,
    debug: bool,
    devel: bool,
  },
};

const HelmChartArgsShape: StructShape = {
  struct: 'HelmChartArgs',
  fields: {
    chartName: str,
    chartVersion: str,
    chartRepoURL: str,
    chartHome: str,
    chartRepoName: str,
    helmBin: str,
    helmHome: str,
    values: str,
    valuesLocal: { map: 'any' },
    valuesMerge: str,
    releaseName: str,
    releaseNamespace: str,
    extraArgs: strings,
  },
};

export const KustomizationShape: StructShape = {
  struct: 'Kustomization',
  fields: {
    apiVersion: str,
    kind: str,
    metadata: ObjectMetaShape,
    openapi: stringMap,
    namePrefix: str,
    nameSuffix: str,
    namespace: str,
    commonLabels: stringMap,
    labels: { list: LabelShape },
    commonAnnotations: stringMap,
    patchesStrategicMerge: strings,
    patchesJson6902: { list: PatchShape },
    patches: { list: PatchShape },
    images: { list: ImageShape },
    imageTags: { list: ImageShape },
    replacements: { list: ReplacementFieldShape },
    replicas: { list: ReplicaShape },
    vars: { list: VarShape },
    sortOptions: SortOptionsShape,
    resources: strings,
    components: strings,
    crds: strings,
    bases: strings,
    configMapGenerator: { list: ConfigMapArgsShape },
    secretGenerator: { list: SecretArgsShape },
    helmGlobals: HelmGlobalsShape,
    helmCharts: { list: HelmChartShape },
    helmChartInflationGenerator: { list: HelmChartArgsShape },
    generatorOptions: GeneratorOptionsShape,
    configurations: strings,
    generators: strings,
    transformers: strings,
    validators: strings,
    buildMetadata: strings,
    catalogs: strings,
  },
};
