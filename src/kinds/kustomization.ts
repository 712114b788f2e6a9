import { KustomizeError } from '../errors.js';
import { parseYamlDocuments } from '../yaml/parse.js';
import type { Value } from '../yaml/value.js';
import { decode, DecodeError } from '../yaml/decode.js';
import { KustomizationShape } from './shapes.js';
import type { FieldSpec } from '../fieldspec/fieldspec.js';
import type { Selector } from '../model/selector.js';
import type { KustomizeProfile } from '../versions/profiles.js';

export const KUSTOMIZATION_API_VERSION = 'kustomize.config.k8s.io/v1beta1';
export const COMPONENT_API_VERSION = 'kustomize.config.k8s.io/v1alpha1';

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface Patch {
  path?: string;
  patch?: string;
  target?: Selector;
  options?: Record<string, boolean>;
}

export interface Image {
  name?: string;
  newName?: string;
  newTag?: string;
  digest?: string;
  tagSuffix?: string;
}

export interface Replica {
  name?: string;
  count?: number;
}

interface Label {
  pairs?: Record<string, string>;
  includeSelectors?: boolean;
  includeTemplates?: boolean;
  includeVolumeClaimTemplates?: boolean;
  fields?: FieldSpec[];
}

export interface GeneratorOptions {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  disableNameSuffixHash?: boolean;
  immutable?: boolean;
}

export interface GeneratorArgs {
  namespace?: string;
  name?: string;
  behavior?: string;
  literals?: string[];
  files?: string[];
  envs?: string[];
  env?: string;
  options?: GeneratorOptions;
}

export interface SecretArgs extends GeneratorArgs {
  type?: string;
}

export interface FieldOptions {
  delimiter?: string;
  index?: number;
  encoding?: string;
  create?: boolean;
}

export interface Replacement {
  source?: Selector & { fieldPath?: string; options?: FieldOptions };
  /** a literal value instead of a source (kustomize 5.7 on) */
  sourceValue?: string;
  targets?: { select?: Selector; reject?: Selector[]; fieldPaths?: string[]; options?: FieldOptions }[];
}

export interface ReplacementField extends Replacement {
  path?: string;
}

export interface Var {
  name?: string;
  objref?: Selector & { apiVersion?: string };
  fieldref?: { fieldpath?: string };
}

export interface SortOptions {
  order?: string;
  legacySortOptions?: { orderFirst?: string[]; orderLast?: string[] };
}

export interface HelmGlobals {
  chartHome?: string;
  configHome?: string;
}

export interface HelmChart {
  name?: string;
  version?: string;
  repo?: string;
  releaseName?: string;
  namespace?: string;
  additionalValuesFiles?: string[];
  valuesFile?: string;
  valuesInline?: Record<string, Value>;
  valuesMerge?: string;
  includeCRDs?: boolean;
  skipHooks?: boolean;
  apiVersions?: string[];
  kubeVersion?: string;
  nameTemplate?: string;
  skipTests?: boolean;
  debug?: boolean;
  devel?: boolean;
}

export interface HelmChartArgs {
  chartName?: string;
  chartVersion?: string;
  chartRepoURL?: string;
  chartHome?: string;
  chartRepoName?: string;
  helmBin?: string;
  helmHome?: string;
  values?: string;
  valuesLocal?: Record<string, Value>;
  valuesMerge?: string;
  releaseName?: string;
  releaseNamespace?: string;
  extraArgs?: string[];
}

/** A kustomization file (kind Kustomization or Component), after kustomize's fix-ups. */
export interface Kustomization {
  apiVersion: string;
  kind: 'Kustomization' | 'Component';
  metadata?: ObjectMeta;
  openapi?: Record<string, string>;
  namePrefix?: string;
  nameSuffix?: string;
  namespace?: string;
  commonLabels?: Record<string, string>;
  labels?: Label[];
  commonAnnotations?: Record<string, string>;
  patchesStrategicMerge?: string[];
  patchesJson6902?: Patch[];
  patches?: Patch[];
  images?: Image[];
  replacements?: ReplacementField[];
  replicas?: Replica[];
  vars?: Var[];
  sortOptions?: SortOptions;
  resources?: string[];
  components?: string[];
  crds?: string[];
  configMapGenerator?: GeneratorArgs[];
  secretGenerator?: SecretArgs[];
  helmGlobals?: HelmGlobals;
  helmCharts?: HelmChart[];
  generatorOptions?: GeneratorOptions;
  configurations?: string[];
  generators?: string[];
  transformers?: string[];
  validators?: string[];
  buildMetadata?: string[];
  /** KRM function catalogs (KEP-2906) this layer's plugin configs are resolved through: paths, URLs, git or oci:// references */
  catalogs?: string[];
}

/** The raw decoded file, before fix-ups; deprecated fields still present. */
export interface RawKustomization extends Omit<Kustomization, 'kind' | 'apiVersion'> {
  apiVersion?: string;
  kind?: string;
  bases?: string[];
  imageTags?: Image[];
  helmChartInflationGenerator?: HelmChartArgs[];
}

/** The deprecated fields, each with its successor (and what kustomize's warning says of it). */
const DEPRECATIONS: { field: keyof RawKustomization; successor: string; note?: string }[] = [
  { field: 'bases', successor: 'resources' },
  { field: 'commonLabels', successor: 'labels' },
  { field: 'imageTags', successor: 'images' },
  { field: 'patchesJson6902', successor: 'patches' },
  { field: 'patchesStrategicMerge', successor: 'patches' },
  { field: 'vars', successor: 'replacements', note: '[EXPERIMENTAL]' },
];

/** The fields kustomize warns are deprecated (an editor does not offer them). */
export const DEPRECATED_FIELDS: ReadonlySet<string> = new Set(DEPRECATIONS.map(({ field }) => field));

/** Where the deprecation warnings of the kustomizations read go, and the name of the program whose fix they advise. */
export interface DeprecationWarnings {
  warn(message: string): void;
  /** `kustomize-ts`, or the name the program was started by (`kustomize` for a stand-in) */
  program: string;
}

/** The deprecated field a `FIELD_DEPRECATED` warning's message is about (an editor puts the warning at its key). */
export function deprecatedFieldOf(message: string): string | undefined {
  return DEPRECATIONS.find(({ field }) => message.startsWith(`# Warning: '${field}' is deprecated.`))?.field;
}

/**
 * Reads a kustomization file's text the way kustomize does: YAML 1.1 scalars, duplicate keys
 * allowed (last wins), unknown fields refused, deprecated fields moved to their successors
 * with a warning each (given before the kind and apiVersion are checked, as kustomize does).
 */
export function readKustomization(text: string, file: string, dir: string, deprecations: DeprecationWarnings, profile: KustomizeProfile): Kustomization {
  const raw = decodeKustomizationText(text, file);
  refuseFieldsUnknownTo(profile, raw, file);
  for (const { field, successor, note } of DEPRECATIONS) {
    if (raw[field] === undefined) continue;
    // kustomize's words, the fix named by the program's name
    const said = [`# Warning: '${field}' is deprecated. Please use '${successor}' instead.`, ...(note ? [note] : [])];
    deprecations.warn(`${said.join(' ')} Run '${deprecations.program} edit fix' to update your Kustomization automatically.`);
  }
  const k = fixKustomization(raw);
  if (isEmpty(k)) throw new KustomizeError('KUSTOMIZATION_INVALID', `kustomization.yaml is empty`, { file });
  const problems: string[] = [];
  if (k.kind !== 'Kustomization' && k.kind !== 'Component') problems.push('kind should be Kustomization or Component');
  const required = k.kind === 'Component' ? COMPONENT_API_VERSION : KUSTOMIZATION_API_VERSION;
  if (k.apiVersion !== required) problems.push(`apiVersion for ${k.kind} should be ${required}`);
  if (problems.length > 0) {
    throw new KustomizeError('KUSTOMIZATION_INVALID', `Failed to read kustomization file under ${dir}:\n${problems.join('\n')}`, { file });
  }
  return k;
}

/**
 * The kustomization file's fields as written (deprecated ones included), checked against the
 * Kustomization shape; an empty file is an empty object. Editing commands validate with this.
 */
export function decodeKustomizationText(text: string, file: string): RawKustomization {
  // like kustomize, only the first document counts
  const docs = parseYamlDocuments(text, file, { dialect: 'yaml11' });
  try {
    return decode<RawKustomization>(docs[0] ?? {}, KustomizationShape) ?? {};
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw new KustomizeError('KUSTOMIZATION_INVALID', `invalid Kustomization: ${e.message} (in ${file})`, { file, ...(e.field && { field: e.field }), cause: e });
  }
}

/**
 * Refuses the fields the kustomize release of `profile` does not know yet, as its strict
 * decoding does: `json: unknown field "sourceValue"`.
 */
function refuseFieldsUnknownTo(profile: KustomizeProfile, raw: RawKustomization, file: string): void {
  const refuse = (field: string, at: string) => {
    throw new KustomizeError('KUSTOMIZATION_INVALID', `invalid Kustomization: json: unknown field "${field}" (in ${file})`, { file, field: at });
  };
  if (!profile.replacementSourceValue) for (const [i, r] of (raw.replacements ?? []).entries()) if (r?.sourceValue !== undefined) refuse('sourceValue', `replacements[${i}].sourceValue`);
  if (!profile.helmChartDevel) for (const [i, c] of (raw.helmCharts ?? []).entries()) if (c?.devel !== undefined) refuse('devel', `helmCharts[${i}].devel`);
  if (profile.patchOptions === 'allowNameChange-allowKindChange') {
    for (const [i, p] of (raw.patches ?? []).entries()) {
      const other = Object.keys(p?.options ?? {}).find((name) => name !== 'allowNameChange' && name !== 'allowKindChange');
      if (other !== undefined) refuse(other, `patches[${i}].options.${other}`);
    }
  }
}

function fixKustomization(raw: RawKustomization): Kustomization {
  const { bases, imageTags, helmChartInflationGenerator, ...rest } = raw;
  const k = rest as Kustomization;
  const kind = raw.kind || 'Kustomization';
  k.kind = kind as Kustomization['kind'];
  k.apiVersion = raw.apiVersion || (kind === 'Component' ? COMPONENT_API_VERSION : KUSTOMIZATION_API_VERSION);
  if (bases) k.resources = [...(k.resources ?? []), ...bases];
  if (imageTags) k.images = [...(k.images ?? []), ...imageTags];
  for (const g of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])]) {
    if (g.env) {
      g.envs = [...(g.envs ?? []), g.env];
      delete g.env;
    }
  }
  if (helmChartInflationGenerator) {
    const { charts, globals } = splitHelmChartArgs(helmChartInflationGenerator);
    if (!k.helmGlobals && (globals.chartHome || globals.configHome)) k.helmGlobals = globals;
    k.helmCharts = [...(k.helmCharts ?? []), ...charts];
  }
  return k;
}

/** The deprecated helmChartInflationGenerator entries, as helmCharts plus helmGlobals (kustomize drops `releaseNamespace`). */
export function splitHelmChartArgs(args: HelmChartArgs[]): { charts: HelmChart[]; globals: HelmGlobals } {
  const globals: HelmGlobals = {};
  const charts = args.map((a): HelmChart => {
    if (a.chartHome) globals.chartHome = a.chartHome;
    if (a.helmHome) globals.configHome = a.helmHome;
    const c: HelmChart = {};
    if (a.chartName) c.name = a.chartName;
    if (a.chartVersion) c.version = a.chartVersion;
    if (a.chartRepoURL) c.repo = a.chartRepoURL;
    if (a.releaseName) c.releaseName = a.releaseName;
    if (a.values) c.valuesFile = a.values;
    if (a.valuesLocal) c.valuesInline = a.valuesLocal;
    if (a.valuesMerge) c.valuesMerge = a.valuesMerge;
    return c;
  });
  return { charts, globals };
}

function isEmpty(k: Kustomization): boolean {
  return Object.keys(k).every((key) => key === 'apiVersion' || key === 'kind' || key === 'metadata');
}
