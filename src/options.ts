import type { FileSystem } from './fs/filesystem.js';
import type { LoadRestriction } from './load/loader.js';

/** How resources are ordered in the output (`--reorder`, overridden by a kustomization's `sortOptions`). */
export type ReorderOption = 'legacy' | 'none' | 'unspecified';

/** Options of a build; the CLI flags of `kustomize build` map onto these one to one. */
export interface BuildOptions {
  /** where files are read from; the disk by default */
  fs?: FileSystem;
  /** directory relative paths are resolved against (the CLI's working directory); `/` for in-memory trees */
  cwd?: string;
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
  /** `--enable-helm` */
  enableHelm?: boolean;
  /** `--helm-command` */
  helmCommand?: string;
  /** seconds a plugin process may run before it is killed */
  pluginTimeout?: number;
  /** receives warnings (kustomize prints them to stderr as `# Warning: ...`) */
  warn?: (message: string) => void;
}

/** The version string kustomize-ts reports, and writes in the managed-by label. */
export const VERSION = '0.1.0';
