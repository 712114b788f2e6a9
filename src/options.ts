import type { FileSystem } from './fs/filesystem.js';
import type { LoadRestriction } from './load/loader.js';
import type { StorageMount } from './plugins/function-spec.js';
import type { PluginRegistration } from './plugins/plugin.js';
import type { RemoteSource } from './load/remote/remote-source.js';

/** How resources are ordered in the output (`--reorder`, overridden by a kustomization's `sortOptions`). */
export type ReorderOption = 'legacy' | 'none' | 'unspecified';

/** Options of a build; the CLI flags of `kustomize build` map onto these one to one. */
export interface BuildOptions {
  /** where files are read from; the disk by default */
  fs?: FileSystem;
  /** where remote resources (HTTP files, git repositories, OCI artifacts) come from; by default `fetch` and the `git` executable */
  remote?: RemoteSource;
  /** directory relative paths are resolved against (the CLI's working directory); `/` for in-memory trees */
  cwd?: string;
  /**
   * `--remote-cache DIR` (the CLI also reads `KUSTOMIZE_TS_REMOTE_CACHE`): keep remote bases
   * across builds, git trees by commit, OCI trees by digest, HTTP files by URL (revalidated).
   * Without it, remote bases go to temporary directories removed after the build.
   */
  remoteCache?: string;
  /** `--offline`: build remote references from `remoteCache` alone; a missing one is an error naming it */
  offline?: boolean;
  /** `--load-restrictor`; `rootOnly` by default */
  loadRestrictor?: LoadRestriction;
  /**
   * `--reorder`. `unspecified` (the CLI's default) means legacy order unless the top
   * kustomization has `sortOptions`; the library default is `none` (keep input order),
   * as kustomize's krusty.MakeDefaultOptions.
   */
  reorder?: ReorderOption;
  /** `--enable-managedby-label`: add `app.kubernetes.io/managed-by: kustomize-<version>` */
  addManagedByLabel?: boolean;
  /** `--enable-alpha-plugins`: allow any plugin that is not builtin */
  enablePlugins?: boolean;
  /** `--enable-exec`: allow exec KRM functions */
  enableExec?: boolean;
  /** `--network`: allow containers that ask for the network */
  network?: boolean;
  /** `--mount`: extra mounts for container functions */
  mounts?: StorageMount[];
  /** `--env`: `KEY=VALUE` or `KEY` for functions */
  env?: string[];
  /** `--as-current-user`: run containers as the calling uid:gid instead of nobody */
  asCurrentUser?: boolean;
  /** the container engine for container functions (`docker`, `podman`, a path); default: podman or docker, whichever is installed */
  containerRuntime?: string;
  /** in-process plugins, found by apiVersion and kind before the plugin home is searched */
  plugins?: PluginRegistration[];
  /** where legacy plugins live; default: $KUSTOMIZE_PLUGIN_HOME, $XDG_CONFIG_HOME/kustomize/plugin, ~/.config/kustomize/plugin, ~/kustomize/plugin */
  pluginHome?: string;
  /** `--enable-helm` */
  enableHelm?: boolean;
  /** `--helm-command`: the helm executable (a name looked up on PATH, or a path); default `helm` */
  helmCommand?: string;
  /** `--helm-api-versions`: Capabilities.APIVersions for charts that set no `apiVersions` */
  helmApiVersions?: string[];
  /** `--helm-kube-version`: Capabilities.KubeVersion for charts that set no `kubeVersion` */
  helmKubeVersion?: string;
  /** `--helm-debug`: run `helm template --debug` for every chart */
  helmDebug?: boolean;
  /** seconds a plugin process (or one helm command) may run before it is killed (default 120) */
  pluginTimeout?: number;
  /** receives warnings (kustomize prints them to stderr as `# Warning: ...`) */
  warn?: (message: string) => void;
}

/** The version string kustomize-ts reports, and writes in the managed-by label. */
export const VERSION = '0.1.0';
