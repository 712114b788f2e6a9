import type { Loader } from '../load/loader.js';
import type { Resource } from '../model/resource.js';

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
}

/** What a step does with the resources: add to them, change them, or check them. */
export type StepRole = 'generator' | 'transformer' | 'validator';
