import type { CatalogEntry } from '../catalog/resolver.js';
import type { TransformerConfig } from '../fieldspec/transformer-config.js';
import type { Kustomization, SortOptions, Var } from '../kinds/kustomization.js';
import type { Loader } from '../load/loader.js';
import type { Resource } from '../model/resource.js';
import type { PluginRole } from '../plugins/configure.js';
import type { YMap } from '../yaml/value.js';

/**
 * What a directory's kind makes of it, phase by phase. A Kustomization, a Component and a
 * Composition each compile to one (src/plan/kustomization.ts, src/composition/compile.ts);
 * one runner executes them all (src/pipeline/run-plan.ts).
 */
export interface Plan {
  readonly kind: 'Kustomization' | 'Component' | 'Composition';
  readonly loader: Loader;
  /** the name of the file that holds it, in its directory */
  readonly fileName: string;
  /** that file relative to the top of the build (or its repository): origins and messages name it */
  readonly configuredIn: string;
  /** the output order it asks for (only a Kustomization can) */
  readonly sortOptions: SortOptions | undefined;
  readonly openapi: Kustomization['openapi'];
  /** the catalogs its steps' plugins are also looked for in */
  readonly catalogs: readonly CatalogEntry[];
  /**
   * its `patches:` entries as the steps of its transformer phase: those whose target selects
   * the config of a group executable patch that config instead (the KEP's virtual resources)
   */
  readonly patches: readonly StepConfig[];
  readonly phases: readonly Phase[];
  /**
   * the namespace the kustomizations below it inherit, where the build's kustomize release
   * passes one down (5.8 on, for their Helm charts): its own `namespace`, else the one it inherited
   */
  readonly namespaceBelow: string | undefined;
}

export type Phase =
  /** `resources:` — files, and the kustomizations of directories and of git and OCI trees — appended */
  | { readonly phase: 'resources'; readonly entries: readonly string[] }
  /** field specs added to the accumulation's: kustomize's defaults, with `configurations:` files (or inline configs) and `crds:` */
  | { readonly phase: 'fieldSpecs'; readonly configurations: readonly string[]; readonly crds: readonly string[] }
  /**
   * Steps, every one configured before any runs, as kustomize configures a phase. Their configs
   * may take the field specs accumulated so far; `configs` lists the entries of
   * `generators:`, `transformers:` or `validators:` whose configs follow them.
   */
  | { readonly phase: 'steps'; readonly steps: (fieldSpecs: TransformerConfig) => readonly PlanStep[]; readonly configs?: ConfigEntries }
  /** `components:` — each run on the accumulation so far */
  | { readonly phase: 'components'; readonly entries: readonly string[] }
  | { readonly phase: 'vars'; readonly vars: readonly Var[] };

/** The entries of `generators:`, `transformers:` or `validators:`: inline configs, files of configs, directories (Compositions among them). */
export interface ConfigEntries {
  readonly role: PluginRole;
  readonly entries: readonly string[];
}

/**
 * One step: a plugin (builtin or not) configured from its config, or a nested plan — a
 * Composition's `ResourceAccumulator` (its resources join as a base's do) or inline
 * Kustomization (run on the accumulation itself).
 */
export type PlanStep =
  | { readonly run: 'plugin'; readonly role: PluginRole; readonly step: StepConfig }
  | { readonly run: 'nested'; readonly join: 'base' | 'onto'; readonly step: StepConfig; readonly plan: Plan };

/**
 * A plugin step before it is configured: its config object, with the file that configured it
 * and the loader its relative paths resolve against.
 */
export interface StepConfig {
  config: Resource;
  /** the file the config came from (or the kustomization whose fields made it), for origins and messages */
  configuredIn: string;
  /** the root the step's files are read from, under its load restriction */
  loader: Loader;
  /** the absolute path of the file that configured it, for errors (none for a config from a fetched tree's file) */
  file?: string;
  /**
   * Set for a builtin step made from a kustomization's fields: the config as kustomize
   * marshals it, shown in its configuration errors (`trouble configuring builtin X with config: …`).
   */
  shownConfig?: YMap;
  /** for such a step: the kustomization field it came from (`patches[2]`), named in its errors */
  field?: string;
  /** for a plugin's config: the `generators:`, `transformers:` or `validators:` entry that listed it (`transformers[0]`) */
  entry?: string;
}
