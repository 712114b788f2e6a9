import { consolidateComposition } from '../../composition/consolidate-path.js';
import { KustomizeError } from '../../errors.js';
import type { LoadRestriction } from '../../load/loader.js';
import type { Command } from '../command.js';

/**
 * `kustomize-ts consolidate [DIR]`: the transformer list of a Composition, after imports,
 * overrides and ordering, printed as a flat Composition; nothing is run (the debugging
 * command KEP-2299 suggests).
 */
export const consolidateCommand: Command = {
  name: 'consolidate',
  summary: "print a Composition's consolidated transformer list without running it",
  usage: 'consolidate [DIR] [flags]',
  description: `Read the Composition in DIR (composition.yaml), apply its transformersFrom imports,
transformerOverrides and transformerOrder, and print the resulting transformer list as a flat
Composition. Nothing is run. Each transformer is preceded by a comment naming the file it was
written in: relative paths in its config resolve from that file's directory.
If DIR is omitted, '.' is assumed.`,
  examples: '  kustomize-ts consolidate overlays/staging > flat/composition.yaml',
  flags: [
    {
      name: 'load-restrictor',
      aliases: ['load_restrictor'],
      type: 'string',
      default: 'LoadRestrictionsRootOnly',
      help: "if set to 'LoadRestrictionsNone', Compositions may load files from outside their root",
    },
  ],
  async run(args, io) {
    if (args.positional.length > 1) throw new KustomizeError('USAGE', `specify one path to a Composition directory; got ${args.positional.length}`);
    const restriction = restrictionOf(args.flags.get('load-restrictor') as string | undefined);
    const { yaml } = await consolidateComposition(args.positional[0] ?? '.', { loadRestrictor: restriction });
    io.out(yaml);
    return 0;
  },
};

function restrictionOf(v: string | undefined): LoadRestriction {
  if (v === undefined || v === 'LoadRestrictionsRootOnly') return 'rootOnly';
  if (v === 'LoadRestrictionsNone') return 'none';
  throw new KustomizeError('USAGE', `illegal flag value --load-restrictor ${v}; legal values: [LoadRestrictionsRootOnly LoadRestrictionsNone]`);
}
