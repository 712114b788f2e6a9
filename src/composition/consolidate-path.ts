import type { FileSystem } from '../fs/filesystem.js';
import { defaultFileSystem } from '../fs/default-fs.js';
import { Loader } from '../load/loader.js';
import { checkOptionNames, DEFAULT_OPTIONS, loadRestriction, optionNames, type LoadRestrictorOption } from '../options.js';
import { consolidateWithCatalogs } from './consolidate.js';
import { requireCompositionFile } from './composition-file.js';
import type { ConsolidatedTransformer } from './consolidated-transformer.js';
import { printComposition } from './print.js';

export interface ConsolidateOptions {
  /** where files are read from; the disk by default */
  fs?: FileSystem;
  /** directory relative paths are resolved against; the process's working directory on disk, `/` for a custom file system */
  cwd?: string;
  /** `--load-restrictor`; `rootOnly` by default */
  loadRestrictor?: LoadRestrictorOption;
}

const CONSOLIDATE_OPTION_NAMES = optionNames<ConsolidateOptions>({ fs: true, cwd: true, loadRestrictor: true });

export interface ConsolidatedComposition {
  /** the transformers in the order they would run, each with the file it was written in */
  transformers: { config: ConsolidatedTransformer['config']; file: string }[];
  /** the catalogs they resolve through, each with the directory its reference is relative to */
  catalogs: { reference: string; dir: string }[];
  /** the same as a flat Composition (what `kustomize-ts consolidate` prints) */
  yaml: string;
}

/** The consolidated transformer list of the Composition in directory `path`, without running anything. */
export async function consolidateComposition(path: string, options: ConsolidateOptions = {}): Promise<ConsolidatedComposition> {
  checkOptionNames(options, CONSOLIDATE_OPTION_NAMES, 'consolidateComposition()');
  const restriction = loadRestriction(options.loadRestrictor ?? DEFAULT_OPTIONS.input.loadRestrictor, 'loadRestrictor');
  const fs = options.fs ?? (await defaultFileSystem());
  const cwd = options.cwd ?? (options.fs ? '/' : process.cwd());
  const loader = Loader.atRoot(fs, path, restriction, cwd);
  const consolidated = consolidateWithCatalogs(loader, requireCompositionFile(loader));
  return {
    transformers: consolidated.transformers.map((t) => ({ config: t.config, file: t.file })),
    catalogs: consolidated.catalogs.map((c) => ({ reference: c.reference, dir: c.loader.root })),
    yaml: printComposition(consolidated),
  };
}
