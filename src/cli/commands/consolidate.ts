import { consolidateComposition } from '../../composition/consolidate-path.js';
import { KustomizeError } from '../../errors.js';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from '../build-options.js';
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
  flags: BUILD_OPTION_FLAGS.filter((f) => f.option === 'loadRestrictor').map((f) => f.flag),
  async run(args, io) {
    if (args.positional.length > 1) throw new KustomizeError('USAGE', `specify one path to a Composition directory; got ${args.positional.length}`);
    const { loadRestrictor } = optionsFromFlags(args.flags, process.env);
    const { yaml } = await consolidateComposition(args.positional[0] ?? '.', loadRestrictor ? { loadRestrictor } : {});
    io.out(yaml);
    return 0;
  },
};
