import type { Loader } from '../load/loader.js';
import type { Resource } from '../model/resource.js';
import type { YMap } from '../yaml/value.js';

/**
 * One step of a build before it is configured: a plugin config object — builtin or not, from
 * a kustomization's fields, its `generators:`/`transformers:`/`validators:`, or a Composition —
 * with the file that configured it and the loader its relative paths resolve against.
 */
export interface StepConfig {
  config: Resource;
  /** the file the config came from (or the kustomization whose fields made it), for origins and messages */
  configuredIn: string;
  /** the root the step's files are read from, under its load restriction */
  loader: Loader;
  /**
   * Set for a builtin step made from a kustomization's fields: the config as kustomize
   * marshals it, shown in its configuration errors (`trouble configuring builtin X with config: …`).
   */
  shownConfig?: YMap;
  /** for such a step: the kustomization field it came from (`patches[2]`), named in its errors */
  field?: string;
}
