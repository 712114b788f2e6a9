import { CatalogStore } from '../../catalog/catalog-store.js';
import { viewCatalog, type CatalogViewFormat } from '../../catalog/view.js';
import { KustomizeError } from '../../errors.js';
import { DiskFileSystem } from '../../fs/disk.js';
import { Loader } from '../../load/loader.js';
import type { Command } from '../command.js';

const FORMATS: Record<string, CatalogViewFormat> = { text: 'text', yaml: 'yaml', json: 'json' };

const view: Command = {
  name: 'view',
  summary: 'Show a KRM function catalog: its publishers, functions, runtimes and digests',
  usage: 'catalog view REF [-o yaml|json]',
  description:
    'Fetches the catalog REF (a local path, an http(s) URL, a git reference naming a file, or oci://HOST/REPO:TAG)\n' +
    'and prints what trusting it with `build --trusted-catalog REF` would allow to run.',
  examples: '  kustomize-ts catalog view ./catalog.yaml\n  kustomize-ts catalog view oci://registry.example.com/catalogs/example:v1 -o yaml',
  flags: [{ name: 'output', short: 'o', type: 'string', help: "print the catalog as 'yaml' or 'json' instead of for people" }],
  async run(args, io) {
    if (args.positional.length !== 1) throw new KustomizeError('USAGE', `catalog view takes one catalog reference; got ${args.positional.length}`);
    const output = args.flags.get('output') as string | undefined;
    const format = output === undefined ? 'text' : FORMATS[output];
    if (!format) throw new KustomizeError('USAGE', `illegal flag value --output ${output}; legal values: [yaml json]`);
    const fs = new DiskFileSystem();
    const { NodeRemoteSource } = await import('../../load/remote/node-remote.js');
    const remote = new NodeRemoteSource();
    try {
      const store = new CatalogStore({ remote: async () => remote });
      const loaded = await store.load(args.positional[0]!, Loader.atRoot(fs, '.', 'none', process.cwd()));
      io.out(viewCatalog(loaded, format));
    } finally {
      remote.cleanup();
    }
    return 0;
  },
};

/** `kustomize-ts catalog view REF`: look at a catalog before trusting it. */
export const catalogCommand: Command = {
  name: 'catalog',
  summary: 'Look at KRM function catalogs (KEP-2906)',
  usage: 'catalog view REF [flags]',
  flags: [],
  subcommands: [view],
};
