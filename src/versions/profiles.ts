import { KustomizeError } from '../errors.js';

/**
 * How one kustomize release behaves where releases differ: what a build under that release's
 * profile consults (through its options, `profileOf`), so no step asks which version it runs.
 * Each field names a behaviour and says in which release it changed, with kustomize's pull request.
 */
export interface KustomizeProfile {
  /** the release, `5.7.1` */
  readonly version: string;
  /**
   * How `replacements` targets' `select` and `reject` match a resource's group, version, kind,
   * name and namespace: the value exactly (empty matches anything), or as a regular expression
   * that must match the whole value (5.8.0, #5863).
   */
  readonly replacementTargetSelectors: 'exact' | 'anchored-regex';
  /**
   * When a `patches` text that reads both as a strategic-merge patch and as a JSON patch is
   * refused ("illegally qualifies as both"): always, so a file of blank lines or comments is
   * refused (before 5.7), or only when it holds something as both (5.7.0, #5771).
   */
  readonly patchReadAsBoth: 'refused' | 'refused-when-not-empty';
  /**
   * What a `patches` text of no documents (an empty file, blank lines, comments) does: it is an
   * empty JSON patch, which fails without a target (before 5.8.1), or nothing (5.8.1, #5990).
   */
  readonly emptyPatch: 'empty-json-patch' | 'ignored';
  /**
   * Whether a replacement target's field path may run on into JSON or YAML held in a string
   * (`data.config\.json.config.hostname`: the field `config.hostname` of the document in
   * `data.config.json`), the string printed again after the write (5.8.0, #5679); before, a
   * path through a string fails ("wrong node kind").
   */
  readonly replacementIntoStrings: boolean;
  /** whether a replacement may give its value as `sourceValue` instead of a `source` (5.7.0, #5630); before, an unknown field */
  readonly replacementSourceValue: boolean;
  /** whether `helmCharts` entries take `devel` (5.7.0, #5865); before, an unknown field */
  readonly helmChartDevel: boolean;
  /**
   * What a `patches` entry's `options` may name: anything (a map of booleans, before 5.8), or
   * only `allowNameChange` and `allowKindChange`, any other an unknown field (5.8.0, #5930).
   */
  readonly patchOptions: 'any-names' | 'allowNameChange-allowKindChange';
  /**
   * What becomes of an object whose kind ends in `List` but that has no `items` among the
   * resources a kustomization lists or a generator makes: dropped, as an empty list (before
   * 5.5), or kept as the object it is (5.5.0, #5745).
   */
  readonly listWithoutItems: 'dropped' | 'kept';
  /**
   * How the legacy sort orders two kinds named `Namespace` when one is the core kind: by their
   * group like any other kinds (a custom `Namespace` first, before 5.5), or the core kind first
   * (5.5.0, #5458).
   */
  readonly namespaceKinds: 'by-group' | 'core-first';
  /** whether a ValidatingAdmissionPolicyBinding's `spec/policyName` refers to its policy by name, so renames reach it (5.4.3, #5698) */
  readonly admissionPolicyNameReference: boolean;
  /** whether `images` rewrite image volumes' `volumes[]/image/reference` besides containers' images (5.7.0, #5921) */
  readonly imageVolumes: boolean;
  /**
   * The namespace a `helmCharts` entry without one is rendered in: none (before 5.8), or its
   * kustomization's `namespace`, else the nearest one of the kustomizations above it (5.8.0,
   * #5940; 5.8.1, #6044).
   */
  readonly helmChartNamespace: 'as-written' | 'kustomization-or-above';
  /** whether the `namespace` field sets the namespace of what Helm rendered (before 5.8), or leaves it to Helm (5.8.0, #5940, #5971) */
  readonly namespaceOnHelmOutput: boolean;
  /**
   * whether a kustomization's `namespace` becomes the `namespace` of the kustomizations below it
   * that have none, for every step they run (5.8.0 only, #5940: the regressions #6031 and #6027,
   * undone by 5.8.1, #6044)
   */
  readonly namespaceIntoBases: boolean;
}

const V5_4_2: KustomizeProfile = {
  version: '5.4.2',
  replacementTargetSelectors: 'exact',
  patchReadAsBoth: 'refused',
  emptyPatch: 'empty-json-patch',
  replacementIntoStrings: false,
  replacementSourceValue: false,
  helmChartDevel: false,
  patchOptions: 'any-names',
  listWithoutItems: 'dropped',
  namespaceKinds: 'by-group',
  admissionPolicyNameReference: false,
  imageVolumes: false,
  helmChartNamespace: 'as-written',
  namespaceOnHelmOutput: true,
  namespaceIntoBases: false,
};
const V5_4_3: KustomizeProfile = { ...V5_4_2, version: '5.4.3', admissionPolicyNameReference: true };
const V5_5_0: KustomizeProfile = { ...V5_4_3, version: '5.5.0', listWithoutItems: 'kept', namespaceKinds: 'core-first' };
const V5_6_0: KustomizeProfile = { ...V5_5_0, version: '5.6.0' };
const V5_7_0: KustomizeProfile = { ...V5_6_0, version: '5.7.0', patchReadAsBoth: 'refused-when-not-empty', replacementSourceValue: true, helmChartDevel: true, imageVolumes: true };
const V5_7_1: KustomizeProfile = { ...V5_7_0, version: '5.7.1' };
const V5_8_0: KustomizeProfile = {
  ...V5_7_1,
  version: '5.8.0',
  replacementTargetSelectors: 'anchored-regex',
  replacementIntoStrings: true,
  patchOptions: 'allowNameChange-allowKindChange',
  helmChartNamespace: 'kustomization-or-above',
  namespaceOnHelmOutput: false,
  namespaceIntoBases: true,
};
const V5_8_1: KustomizeProfile = { ...V5_8_0, version: '5.8.1', emptyPatch: 'ignored', namespaceIntoBases: false };

/** Every release kustomize-ts can behave as, oldest first. */
export const KUSTOMIZE_PROFILES: readonly KustomizeProfile[] = Object.freeze([V5_4_2, V5_4_3, V5_5_0, V5_6_0, V5_7_0, V5_7_1, V5_8_0, V5_8_1].map((p) => Object.freeze(p)));

/** The release kustomize-ts follows unless told otherwise. */
export const DEFAULT_KUSTOMIZE_VERSION = '5.8.1';

/** The versions a profile can be asked by, as a usage error lists them: `5.4.2, …, 5.8.1`. */
const SUPPORTED_KUSTOMIZE_VERSIONS = KUSTOMIZE_PROFILES.map((p) => p.version).join(', ');

/**
 * The profile a version names: `5.7.1` or `v5.7.1`, or `5.7` for the newest patch of 5.7.
 * Any other is a `VERSION_UNSUPPORTED` error listing those supported, `given` saying where it
 * was given (`--kustomize-version`, `kustomizeVersion`…).
 */
export function kustomizeProfile(version: string, given: string): KustomizeProfile {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version);
  const found = m && (m[3] === undefined ? KUSTOMIZE_PROFILES.filter((p) => p.version.startsWith(`${m[1]}.${m[2]}.`)).at(-1) : KUSTOMIZE_PROFILES.find((p) => p.version === `${m[1]}.${m[2]}.${m[3]}`));
  if (found) return found;
  throw new KustomizeError('VERSION_UNSUPPORTED', `${given}: kustomize version '${version}' is not supported; the supported versions are ${SUPPORTED_KUSTOMIZE_VERSIONS} (5.7 means the newest 5.7 release)`);
}
