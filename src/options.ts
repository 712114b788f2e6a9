import { KustomizeError, type Warning } from './errors.js';
import type { FileSystem } from './fs/filesystem.js';
import type { LoadRestriction } from './load/loader.js';
import type { LockMode } from './load/remote/locked-source.js';
import type { RemoteSource } from './load/remote/remote-source.js';
import { DEFAULT_KUSTOMIZE_VERSION, kustomizeProfile } from './versions/profiles.js';

/** `--load-restrictor`, in kustomize's spelling (`LoadRestrictionsRootOnly`, `LoadRestrictionsNone`) or in {@link LoadRestriction}'s. */
export type LoadRestrictorOption = LoadRestriction | 'LoadRestrictionsRootOnly' | 'LoadRestrictionsNone';

const LOAD_RESTRICTIONS: Readonly<Record<LoadRestrictorOption, LoadRestriction>> = {
  LoadRestrictionsRootOnly: 'rootOnly',
  LoadRestrictionsNone: 'none',
  rootOnly: 'rootOnly',
  none: 'none',
};

/**
 * The load restriction a spelling names, for the CLI's flag and the library's option alike;
 * any other value is a USAGE error in kustomize's words, `given` saying where it was given.
 */
export function loadRestriction(value: unknown, given: string): LoadRestriction {
  if (typeof value === 'string' && Object.hasOwn(LOAD_RESTRICTIONS, value)) return LOAD_RESTRICTIONS[value as LoadRestrictorOption];
  throw new KustomizeError('USAGE', `illegal ${given} ${String(value)}; legal values: [LoadRestrictionsRootOnly LoadRestrictionsNone]`);
}

/** How resources are ordered in the output (`--reorder`, overridden by a kustomization's `sortOptions`). */
export type ReorderOption = 'legacy' | 'none' | 'unspecified';

/** A `--mount` or a container function's `mounts:` entry: what the container sees of the disk. */
export interface StorageMount {
  type?: string;
  src?: string;
  dst?: string;
  rw?: boolean;
}

/** Where input comes from. */
export interface InputOptions {
  /** where files are read from; the disk by default */
  fs: FileSystem | undefined;
  /** where remote resources (HTTP files, git repositories, OCI artifacts) come from; by default `fetch` and the `git` executable */
  remote: RemoteSource | undefined;
  /** directory relative paths are resolved against (the CLI's working directory); `/` for a custom file system */
  cwd: string | undefined;
  /** `--load-restrictor` */
  loadRestrictor: LoadRestriction;
  /**
   * `--remote-cache DIR` (the CLI also reads `KUSTOMIZE_TS_REMOTE_CACHE`): keep remote bases
   * across builds, git trees by commit, OCI trees by digest, HTTP files by URL (revalidated).
   * Unset, remote bases go to temporary directories removed after the build.
   */
  remoteCache: string | undefined;
  /** `--offline`: build remote references from `remoteCache` alone; a missing one is an error naming it */
  offline: boolean;
  /**
   * What the build does with the lock file beside its kustomization (`kustomization.lock.yaml`,
   * see `lock()`): `follow` it (the default), follow it and refuse inputs it does not list
   * (`locked`, the CLI's `--locked`), or `ignore` it (`--no-lock`).
   */
  lock: LockMode;
}

/** Which plugins may run, and how their processes and containers run. */
export interface PluginOptions {
  /** `--enable-alpha-plugins`: allow any plugin that is not builtin */
  enablePlugins: boolean;
  /** `--enable-exec`: allow exec KRM functions */
  enableExec: boolean;
  /** `--enable-star`: allow Starlark functions (also allowed by `enablePlugins`) */
  enableStar: boolean;
  /** `--network`: allow containers that ask for the network */
  network: boolean;
  /** `--network-name`: the network such containers join; unset, `host` (what kustomize uses) */
  networkName: string | undefined;
  /** `--mount`: extra mounts for container functions */
  mounts: StorageMount[];
  /** `--env`: `KEY=VALUE` or `KEY`, for container and exec functions */
  env: string[];
  /** `--as-current-user`: run containers as the calling uid:gid instead of nobody */
  asCurrentUser: boolean;
  /** the container engine for container functions (`docker`, `podman`, a path); default: podman or docker, whichever is installed */
  containerRuntime: string | undefined;
  /** where legacy plugins live; default: $KUSTOMIZE_PLUGIN_HOME, $XDG_CONFIG_HOME/kustomize/plugin, ~/.config/kustomize/plugin, ~/kustomize/plugin */
  pluginHome: string | undefined;
  /** seconds a plugin (process, in-process plugin, or one helm command) may run before it is stopped */
  pluginTimeout: number;
  /**
   * `--trusted-catalog` (repeatable): catalogs whose functions may run, named by their
   * reference exactly as written in `catalogs:` or by their `metadata.name`. Trust stands in
   * for `--enable-alpha-plugins`/`--enable-exec`; `--network` and `--mount` are still needed.
   */
  trustedCatalogs: string[];
  /** kustomize-ts's download cache (catalog exec functions, by digest); unset: $XDG_CACHE_HOME/kustomize-ts, else ~/.cache/kustomize-ts */
  cacheDir: string | undefined;
}

/** `helmCharts` and the HelmChartInflationGenerator. */
export interface HelmOptions {
  /** `--enable-helm` */
  enableHelm: boolean;
  /** `--helm-command`: the helm executable (a name looked up on PATH, or a path) */
  helmCommand: string;
  /** `--helm-api-versions`: Capabilities.APIVersions for charts that set no `apiVersions` */
  helmApiVersions: string[];
  /** `--helm-kube-version`: Capabilities.KubeVersion for charts that set no `kubeVersion` */
  helmKubeVersion: string;
  /** `--helm-debug`: run `helm template --debug` for every chart */
  helmDebug: boolean;
}

/** What the output looks like, and where warnings go. */
export interface OutputOptions {
  /**
   * `--reorder`. `unspecified` (the CLI's default) means legacy order unless the top
   * kustomization has `sortOptions`; the library default is `none` (keep input order),
   * as kustomize's krusty.MakeDefaultOptions.
   */
  reorder: ReorderOption;
  /** `--enable-managedby-label`: add `app.kubernetes.io/managed-by: kustomize-ts-<version>` */
  addManagedByLabel: boolean;
  /** receives warnings (the CLI prints their messages to stderr, as kustomize prints its own) */
  warn: ((warning: Warning) => void) | undefined;
  /**
   * The name messages give the program when they advise a command (`Run 'kustomize-ts edit fix'
   * …`): the CLI passes the name it was started by, `kustomize` when a link of that name stands
   * in for kustomize.
   */
  programName: string;
}

/** What the build knows of custom resources' types beyond kustomize, and what strategic-merge patches make of it. */
export interface CustomTypeOptions {
  /**
   * `--crd-merge`: a strategic-merge patch merges a custom resource's lists as its CRD's schema
   * says (`x-kubernetes-list-type: map` by its `x-kubernetes-list-map-keys`, `set` as a set),
   * where kustomize replaces them. Off, the output is kustomize's, and a patch that replaced such
   * a list gives a `LIST_REPLACED` notice.
   */
  crdMerge: boolean;
  /**
   * `--schema PATH` (repeatable): files or directories of CRDs, OpenAPI documents or JSON
   * Schemas describing custom types, resolved against `cwd` and read through `fs` when a
   * strategic-merge patch first meets a custom resource.
   */
  schemas: string[];
}

/** Which kustomize release the build behaves as. */
export interface ReleaseOptions {
  /**
   * `--kustomize-version`: the kustomize release whose output, warnings and errors the build
   * gives (`5.4.2` … `5.8.1`, or `5.7` for the newest 5.7 release; see src/versions/profiles.ts).
   */
  kustomizeVersion: string;
}

/** Every option of a build, at its value or its default. */
export type ResolvedOptions = InputOptions & PluginOptions & HelmOptions & OutputOptions & CustomTypeOptions & ReleaseOptions;

/** The defaults, by group: the one place they are written. */
export const DEFAULT_OPTIONS: {
  readonly input: Readonly<InputOptions>;
  readonly plugins: Readonly<PluginOptions>;
  readonly helm: Readonly<HelmOptions>;
  readonly output: Readonly<OutputOptions>;
  readonly customTypes: Readonly<CustomTypeOptions>;
  readonly release: Readonly<ReleaseOptions>;
} = {
  input: { fs: undefined, remote: undefined, cwd: undefined, loadRestrictor: 'rootOnly', remoteCache: undefined, offline: false, lock: 'follow' },
  plugins: {
    enablePlugins: false,
    enableExec: false,
    enableStar: false,
    network: false,
    networkName: undefined,
    mounts: [],
    env: [],
    asCurrentUser: false,
    containerRuntime: undefined,
    pluginHome: undefined,
    pluginTimeout: 120,
    trustedCatalogs: [],
    cacheDir: undefined,
  },
  helm: { enableHelm: false, helmCommand: 'helm', helmApiVersions: [], helmKubeVersion: '', helmDebug: false },
  output: { reorder: 'none', addManagedByLabel: false, warn: undefined, programName: 'kustomize-ts' },
  customTypes: { crdMerge: false, schemas: [] },
  release: { kustomizeVersion: DEFAULT_KUSTOMIZE_VERSION },
};

/** Every option at its default. */
const DEFAULTS: Readonly<ResolvedOptions> = Object.freeze({ ...DEFAULT_OPTIONS.input, ...DEFAULT_OPTIONS.plugins, ...DEFAULT_OPTIONS.helm, ...DEFAULT_OPTIONS.output, ...DEFAULT_OPTIONS.customTypes, ...DEFAULT_OPTIONS.release });

/** The name of every option, read from {@link DEFAULT_OPTIONS}. */
export const OPTION_NAMES: readonly (keyof ResolvedOptions)[] = Object.freeze(Object.keys(DEFAULTS) as (keyof ResolvedOptions)[]);

/** The options as a caller gives them: any of them (the rest take their defaults), the load restrictor in either spelling. */
export type GivenOptions = Partial<Omit<ResolvedOptions, 'loadRestrictor'>> & { loadRestrictor?: LoadRestrictorOption };

/** The options with every unset one at its default (`undefined` counts as unset). */
export function resolveOptions(options: GivenOptions): ResolvedOptions {
  const out: Record<string, unknown> = { ...DEFAULTS };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) out[key] = value;
  if (options.loadRestrictor !== undefined) out['loadRestrictor'] = loadRestriction(options.loadRestrictor, 'loadRestrictor');
  if (options.kustomizeVersion !== undefined) out['kustomizeVersion'] = kustomizeProfile(options.kustomizeVersion, 'kustomizeVersion').version;
  return out as unknown as ResolvedOptions;
}

/**
 * The names of an options type, written once as the keys of an object the compiler checks
 * against the type (none missing, none extra), for {@link checkOptionNames}.
 */
export function optionNames<T>(names: { readonly [K in keyof Required<T>]: true }): readonly (keyof T & string)[] {
  return Object.keys(names) as (keyof T & string)[];
}

/**
 * Refuses the names of `options` that `entry` (e.g. `build()`) does not know, listing those it
 * does: in JavaScript a misspelt option would otherwise be ignored without a word.
 */
export function checkOptionNames(options: object, known: readonly string[], entry: string): void {
  const unknown = Object.keys(options).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const names = unknown.map((name) => `'${name}'`).join(', ');
  throw new KustomizeError('USAGE', `${entry}: unknown option${unknown.length > 1 ? 's' : ''} ${names}; the options are: ${[...known].sort().join(', ')}`);
}

/** What `validate` takes besides a build's options. */
export interface ValidateOnlyOptions {
  /** the Kubernetes release whose schemas built-in types are checked against (`1.36`); default: the newest shipped */
  kubernetesVersion?: string;
  /** refuse fields a schema does not declare (kubeconform's -strict) */
  strict?: boolean;
  /** count a resource whose type has no schema as skipped, not as an error */
  ignoreMissingSchemas?: boolean;
}

/** The names of {@link ValidateOnlyOptions}. */
export const VALIDATE_ONLY_OPTION_NAMES = optionNames<ValidateOnlyOptions>({ kubernetesVersion: true, strict: true, ignoreMissingSchemas: true });

/** The version string kustomize-ts reports, and writes in the managed-by label. */
export const VERSION = '0.1.0';

/**
 * The kustomize release whose behaviour kustomize-ts follows by default (the README's "Which
 * kustomize it follows"): the version `kustomize-ts version` reports unless another is chosen.
 */
export const KUSTOMIZE_VERSION = DEFAULT_KUSTOMIZE_VERSION;
