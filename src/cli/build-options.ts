import { KustomizeError } from '../errors.js';
import { DEFAULT_OPTIONS, loadRestriction, type ReorderOption, type ResolvedOptions, type StorageMount } from '../options.js';
import type { FlagSpec, FlagValue } from './flags.js';
import { KUSTOMIZE_VERSION_ENV, KUSTOMIZE_VERSION_FLAG } from './kustomize-version.js';
import { kustomizeProfile } from '../versions/profiles.js';

/** A `kustomize build` flag and the option it sets: the CLI's options come only from this table. */
interface OptionFlag<K extends keyof ResolvedOptions> {
  flag: FlagSpec;
  option: K;
  parse(value: FlagValue): ResolvedOptions[K];
  /** the environment variable that sets the option when the flag is absent, and how its value is read */
  fromEnv?: { name: string; parse(value: string): ResolvedOptions[K] | undefined };
}

const optionFlag = <K extends keyof ResolvedOptions>(f: OptionFlag<K>): OptionFlag<keyof ResolvedOptions> => f as unknown as OptionFlag<keyof ResolvedOptions>;
const bool = (v: FlagValue) => v === true;
const text = (v: FlagValue) => String(v);
const list = (v: FlagValue) => (Array.isArray(v) ? v : [String(v)]);

/** The flags of `build` that set build options, grouped as the options are. */
export const BUILD_OPTION_FLAGS: readonly OptionFlag<keyof ResolvedOptions>[] = [
  // input
  optionFlag({
    flag: {
      name: 'load-restrictor',
      type: 'string',
      default: 'LoadRestrictionsRootOnly',
      help: "if set to 'LoadRestrictionsNone', local kustomizations may load files from outside their root. This does, however, break the relocatability of the kustomization.",
    },
    option: 'loadRestrictor',
    parse: (v) => loadRestriction(String(v), 'flag value --load-restrictor'),
  }),
  optionFlag({
    flag: { name: 'remote-cache', type: 'string', help: 'keep remote bases (git by commit, oci:// by digest, HTTP files by URL) in this directory across builds (default $KUSTOMIZE_TS_REMOTE_CACHE)' },
    option: 'remoteCache',
    parse: (v) => String(v) || undefined,
    fromEnv: { name: 'KUSTOMIZE_TS_REMOTE_CACHE', parse: (v) => v || undefined },
  }),
  optionFlag({ flag: { name: 'offline', type: 'bool', help: 'build remote references from the --remote-cache directory only' }, option: 'offline', parse: bool }),
  optionFlag({
    flag: { name: 'locked', type: 'bool', help: "follow the kustomization's lock file (kustomization.lock.yaml) and fail on any remote input it does not list" },
    option: 'lock',
    parse: (v) => (v === true ? 'locked' : 'follow'),
  }),
  optionFlag({ flag: { name: 'no-lock', type: 'bool', help: "ignore the kustomization's lock file: fetch remote inputs as they are now" }, option: 'lock', parse: (v) => (v === true ? 'ignore' : 'follow') }),
  // plugins and runtimes
  optionFlag({ flag: { name: 'enable-alpha-plugins', type: 'bool', help: 'enable kustomize plugins' }, option: 'enablePlugins', parse: bool }),
  optionFlag({
    flag: { name: 'enable-exec', type: 'bool', help: 'enable support for exec functions (raw executables); do not use for untrusted configs! (Alpha)' },
    option: 'enableExec',
    parse: bool,
  }),
  optionFlag({
    flag: { name: 'enable-star', type: 'bool', help: 'enable support for Starlark functions, run in-process (also enabled by --enable-alpha-plugins)' },
    option: 'enableStar',
    parse: bool,
  }),
  optionFlag({ flag: { name: 'network', type: 'bool', help: 'enable network access for functions that declare it' }, option: 'network', parse: bool }),
  optionFlag({
    flag: { name: 'network-name', type: 'string', help: 'the container network functions that declare network access join (default: host, as kustomize)' },
    option: 'networkName',
    parse: text,
  }),
  optionFlag({
    flag: { name: 'mount', type: 'list', help: "a list of storage options read from the filesystem (e.g. 'type=bind,src=./data,dst=/data')" },
    option: 'mounts',
    parse: (v) => list(v).map(parseStorageMount),
  }),
  optionFlag({ flag: { name: 'env', short: 'e', type: 'list', help: 'a list of environment variables to be used by functions (KEY=VALUE or KEY)' }, option: 'env', parse: list }),
  optionFlag({
    flag: { name: 'as-current-user', type: 'bool', help: 'use the uid and gid of the command executor to run the function in the container' },
    option: 'asCurrentUser',
    parse: bool,
  }),
  optionFlag({
    flag: { name: 'plugin-timeout', type: 'string', default: String(DEFAULT_OPTIONS.plugins.pluginTimeout), help: 'seconds a plugin may run before it is stopped' },
    option: 'pluginTimeout',
    parse: (v) => positiveSeconds(String(v)),
  }),
  optionFlag({
    flag: {
      name: 'trusted-catalog',
      type: 'list',
      help: "trust a KRM function catalog, named by its reference as written in 'catalogs:' or by its metadata.name; its functions then run without --enable-alpha-plugins/--enable-exec",
    },
    option: 'trustedCatalogs',
    parse: list,
  }),
  // helm
  optionFlag({ flag: { name: 'enable-helm', type: 'bool', help: 'Enable use of the Helm chart inflator generator.' }, option: 'enableHelm', parse: bool }),
  optionFlag({
    flag: { name: 'helm-command', type: 'string', default: DEFAULT_OPTIONS.helm.helmCommand, help: 'helm command (path to executable)' },
    option: 'helmCommand',
    parse: text,
  }),
  optionFlag({
    flag: { name: 'helm-api-versions', type: 'list', help: 'Kubernetes api versions used by Helm for Capabilities.APIVersions' },
    option: 'helmApiVersions',
    parse: list,
  }),
  optionFlag({
    flag: { name: 'helm-kube-version', type: 'string', help: 'Kubernetes version used by Helm for Capabilities.KubeVersion' },
    option: 'helmKubeVersion',
    parse: text,
  }),
  optionFlag({ flag: { name: 'helm-debug', type: 'bool', help: 'Enable debug output from the Helm chart inflator generator.' }, option: 'helmDebug', parse: bool }),
  // output
  optionFlag({
    flag: {
      name: 'reorder',
      type: 'string',
      default: 'legacy',
      help: "Reorder the resources just before output. Use 'legacy' to apply a legacy reordering (Namespaces first, Webhooks last, etc). Use 'none' to suppress a final reordering.",
      deprecated: "use the new 'sortOptions' field in kustomization.yaml instead.",
    },
    option: 'reorder',
    parse: (v) => reorderOption(String(v)),
  }),
  optionFlag({
    flag: { name: 'enable-managedby-label', type: 'bool', help: 'enable adding app.kubernetes.io/managed-by', deprecated: 'The flag `enable-managedby-label` has been deprecated. Use the `managedByLabel` option in the `buildMetadata` field instead.' },
    option: 'addManagedByLabel',
    parse: bool,
    fromEnv: { name: 'KUSTOMIZE_ENABLE_MANAGEDBY_LABEL', parse: (v) => v === 'on' || undefined },
  }),
  // custom resources' types
  optionFlag({
    flag: {
      name: 'crd-merge',
      type: 'bool',
      help: "strategic-merge patches merge a custom resource's lists as its CRD's schema says (x-kubernetes-list-type map or set) instead of replacing them",
    },
    option: 'crdMerge',
    parse: bool,
  }),
  optionFlag({
    flag: { name: 'schema', type: 'list', help: 'a file or directory of CRDs, OpenAPI documents or JSON Schemas of custom types (repeatable): validate checks their resources against them, --crd-merge merges their lists by them' },
    option: 'schemas',
    parse: list,
  }),
  // the kustomize release
  optionFlag({
    flag: KUSTOMIZE_VERSION_FLAG,
    option: 'kustomizeVersion',
    parse: (v) => kustomizeProfile(String(v), '--kustomize-version').version,
    fromEnv: { name: KUSTOMIZE_VERSION_ENV, parse: (v) => (v ? kustomizeProfile(v, `$${KUSTOMIZE_VERSION_ENV}`).version : undefined) },
  }),
];

/**
 * The build options the flags set. Every option flag is read from the table, so none can be
 * declared and dropped; an option whose flag is absent keeps its CLI default (`--reorder`
 * unspecified, the managed-by label from the environment); `program`, the name the CLI was
 * started by, is the one its messages advise commands by.
 */
export function optionsFromFlags(
  flags: ReadonlyMap<string, FlagValue>,
  env: Record<string, string | undefined>,
  program?: string,
  table: readonly OptionFlag<keyof ResolvedOptions>[] = BUILD_OPTION_FLAGS,
): Partial<ResolvedOptions> {
  if (flags.get('locked') === true && flags.get('no-lock') === true) throw new KustomizeError('USAGE', '--locked and --no-lock cannot be combined');
  const options: Partial<Record<keyof ResolvedOptions, unknown>> = { reorder: 'unspecified' satisfies ReorderOption, ...(program !== undefined && { programName: program }) };
  for (const { flag, option, parse, fromEnv } of table) {
    const value = flags.get(flag.name);
    const envValue = fromEnv && env[fromEnv.name];
    if (value !== undefined) options[option] = parse(value);
    else if (fromEnv && envValue !== undefined) options[option] = fromEnv.parse(envValue);
  }
  return options as Partial<ResolvedOptions>;
}

function reorderOption(v: string): ReorderOption {
  if (v === 'legacy' || v === 'none') return v;
  throw new KustomizeError('USAGE', `illegal flag value --reorder ${v}; legal values: [legacy none]`);
}

function positiveSeconds(v: string): number {
  const n = /^\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
  if (!(n > 0) || !Number.isFinite(n)) throw new KustomizeError('USAGE', `invalid argument "${v}" for "--plugin-timeout" flag: a number of seconds greater than 0`);
  return n;
}

const MOUNT_KEYS: Readonly<Record<string, 'type' | 'src' | 'dst' | 'rw'>> = { type: 'type', src: 'src', source: 'src', dst: 'dst', target: 'dst', rw: 'rw' };

/**
 * A `--mount` value as kustomize reads it: `type=bind,src=./data,dst=/data[,rw=true]`, with
 * `source`/`target` for `src`/`dst`. A key given twice is refused: `src=./data,source=/etc`
 * would otherwise mount `/etc`.
 */
function parseStorageMount(text: string): StorageMount {
  const mount: StorageMount = {};
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1);
    const field = Object.hasOwn(MOUNT_KEYS, key) ? MOUNT_KEYS[key] : undefined;
    if (!field) throw new KustomizeError('USAGE', `invalid storage option "${part}" in --mount ${text}: keys are type, src (source), dst (target) and rw`);
    if (seen.has(field)) throw new KustomizeError('USAGE', `--mount ${text}: ${field} is given twice`);
    seen.add(field);
    if (field === 'rw') mount.rw = /^(1|t|T|TRUE|true|True)$/.test(value);
    else mount[field] = value;
  }
  return mount;
}
