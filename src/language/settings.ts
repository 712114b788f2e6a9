import { KustomizeError } from '../errors.js';
import type { RemoteSource } from '../load/remote/remote-source.js';
import type { GivenOptions } from '../options.js';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSIONS } from '../schema/kubernetes-versions.js';
import { DEFAULT_KUSTOMIZE_VERSION, KUSTOMIZE_PROFILES, kustomizeProfile, type KustomizeProfile } from '../versions/profiles.js';

/**
 * What the editor's workspace settings allow and ask (the `kustomize` section of the client's
 * configuration). Nothing runs a program and nothing is fetched over the network unless `allow`
 * says so: a repository opened in an editor is not trusted by being opened.
 */
export interface LanguageSettings {
  /** each maps to the CLI flag of the same effect; all false by default */
  allow: {
    /** `--enable-alpha-plugins`: container KRM functions, legacy exec plugins, in-process plugins */
    plugins: boolean;
    /** `--enable-exec`: exec KRM functions (with `plugins`) */
    exec: boolean;
    /** `--enable-helm`: `helmCharts` run helm (which may fetch the charts it names) */
    helm: boolean;
    /** `--enable-star`: Starlark functions (run in-process) */
    starlark: boolean;
    /** remote bases, files and catalogs are fetched; containers that ask for the network get it (`--network`) */
    network: boolean;
  };
  /** validation checks built-in kinds against this release's schemas */
  kubernetesVersion: string;
  /** `--schema`: CRD files or directories, relative to the workspace folder */
  schemas: string[];
  /** `--strict`: fields the schema does not declare are errors */
  strict: boolean;
  /** `--ignore-missing-schemas`: a custom resource without its CRD is not checked (true: its CRD is usually in the cluster, not the repository) */
  ignoreMissingSchemas: boolean;
  /** whether outputs are checked against their schemas at all */
  validate: boolean;
  /** `--crd-merge` */
  crdMerge: boolean;
  /** `--load-restrictor` */
  loadRestrictor: 'LoadRestrictionsRootOnly' | 'LoadRestrictionsNone';
  /** directories not searched for roots, as `build-all --exclude` takes them */
  exclude: string[];
  /** `--kustomize-version`: the kustomize release builds behave as */
  kustomizeVersion: string;
}

export const DEFAULT_SETTINGS: Readonly<LanguageSettings> = Object.freeze({
  allow: Object.freeze({ plugins: false, exec: false, helm: false, starlark: false, network: false }),
  kubernetesVersion: DEFAULT_KUBERNETES_VERSION,
  schemas: [],
  strict: false,
  ignoreMissingSchemas: true,
  validate: true,
  crdMerge: false,
  loadRestrictor: 'LoadRestrictionsRootOnly',
  exclude: [],
  kustomizeVersion: DEFAULT_KUSTOMIZE_VERSION,
});

/** What the build's errors say of what an `allow` setting allows: the CLI flag it stands for, or that the build was offline. */
const ALLOWED_BY: readonly [said: string, setting: keyof LanguageSettings['allow']][] = [
  ['--enable-alpha-plugins', 'plugins'],
  ['--enable-exec', 'exec'],
  ['--enable-helm', 'helm'],
  ['--enable-star', 'starlark'],
  ['--network', 'network'],
  ['offline:', 'network'],
];

/** The setting that allows what an error refused, from the flag its message names (`kustomize.allow.exec`). */
export function allowingSetting(message: string): string | undefined {
  const found = ALLOWED_BY.find(([said]) => new RegExp(`${said}(?![\\w-])`).test(message));
  return found && `kustomize.allow.${found[1]}`;
}

/**
 * Settings as the client sent them (any JSON): each known one of the right type taken, the rest
 * left at their defaults and named in `problems` (a mistyped setting is no reason to stop).
 */
export function readSettings(given: unknown): { settings: LanguageSettings; problems: string[] } {
  const problems: string[] = [];
  const from = isObject(given) ? given : {};
  const take = <T>(name: string, value: unknown, fallback: T, ok: (v: unknown) => boolean): T => {
    if (value === undefined || value === null) return fallback;
    if (ok(value)) return value as T;
    problems.push(`kustomize.${name}: ${JSON.stringify(value)} is not a valid value; using ${JSON.stringify(fallback)}`);
    return fallback;
  };
  const bool = (v: unknown) => typeof v === 'boolean';
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  const allow = isObject(from['allow']) ? from['allow'] : {};
  const d = DEFAULT_SETTINGS;
  const settings: LanguageSettings = {
    allow: {
      plugins: take('allow.plugins', allow['plugins'], d.allow.plugins, bool),
      exec: take('allow.exec', allow['exec'], d.allow.exec, bool),
      helm: take('allow.helm', allow['helm'], d.allow.helm, bool),
      starlark: take('allow.starlark', allow['starlark'], d.allow.starlark, bool),
      network: take('allow.network', allow['network'], d.allow.network, bool),
    },
    kubernetesVersion: take('kubernetesVersion', from['kubernetesVersion'], d.kubernetesVersion, (v) => typeof v === 'string' && KUBERNETES_VERSIONS.includes(v.split('.').slice(0, 2).join('.'))),
    schemas: take('schemas', from['schemas'], d.schemas, strings),
    strict: take('strict', from['strict'], d.strict, bool),
    ignoreMissingSchemas: take('ignoreMissingSchemas', from['ignoreMissingSchemas'], d.ignoreMissingSchemas, bool),
    validate: take('validate', from['validate'], d.validate, bool),
    crdMerge: take('crdMerge', from['crdMerge'], d.crdMerge, bool),
    loadRestrictor: take('loadRestrictor', from['loadRestrictor'], d.loadRestrictor, (v) => v === 'LoadRestrictionsRootOnly' || v === 'LoadRestrictionsNone'),
    exclude: take('exclude', from['exclude'], d.exclude, strings),
    kustomizeVersion: take('kustomizeVersion', from['kustomizeVersion'], d.kustomizeVersion, (v) => typeof v === 'string' && KUSTOMIZE_PROFILES.some((p) => p.version === v)),
  };
  return { settings, problems };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The kustomize release the settings' builds behave as: what navigation and completion select by. */
export function profileOf(settings: LanguageSettings): KustomizeProfile {
  return kustomizeProfile(settings.kustomizeVersion, 'kustomize.kustomizeVersion');
}

/** The build options the settings give, for a build in the workspace folder `cwd`. */
export function buildOptionsOf(settings: LanguageSettings, cwd: string): GivenOptions {
  const { allow } = settings;
  return {
    cwd,
    // the order `kustomize-ts build` prints (legacy, unless the kustomization's sortOptions say otherwise): a preview is its output
    reorder: 'unspecified',
    enablePlugins: allow.plugins,
    enableExec: allow.exec,
    enableHelm: allow.helm,
    enableStar: allow.starlark,
    network: allow.network,
    loadRestrictor: settings.loadRestrictor,
    crdMerge: settings.crdMerge,
    schemas: settings.schemas,
    kustomizeVersion: settings.kustomizeVersion,
    // without the network, nothing is fetched: not a base, a file, a catalog or an exec function's program
    ...(!allow.network && { remote: NO_NETWORK, offline: true }),
  };
}

/** The remote source of a workspace that does not allow the network: every fetch is refused, naming the setting. */
const NO_NETWORK: RemoteSource = {
  fetchFile: async (url) => {
    throw networkRefused(url);
  },
  clone: async (spec) => {
    throw networkRefused(spec.raw);
  },
  pullTree: async (ref) => {
    throw networkRefused(ref.raw);
  },
  pullLayer: async (ref) => {
    throw networkRefused(ref.raw);
  },
  cleanup: () => {},
};

function networkRefused(url: string): KustomizeError {
  return new KustomizeError('REMOTE_UNSUPPORTED', `'${url}' is fetched over the network, which the editor does not do unless the setting kustomize.allow.network allows it`, { remote: url });
}
