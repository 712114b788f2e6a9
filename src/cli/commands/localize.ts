import { KustomizeError } from '../../errors.js';
import { basename, join, resolve } from '../../fs/path.js';
import { localize } from '../../localize/localize.js';
import { build } from '../../build/build.js';
import { programOf, type CliIO, type Command } from '../command.js';
import { workspace } from '../workspace.js';

/** `localize [target [destination]]`: a copy of a kustomization that builds without the network. */
export const localizeCommand: Command = {
  name: 'localize',
  summary: '[Alpha] Creates localized copy of target kustomization root at destination',
  usage: 'localize [target [destination]] [flags]',
  description: `[Alpha] Creates copy of target kustomization directory or
versioned URL at destination, where remote references in the original
are replaced by local references to the downloaded remote content.

If target is not specified, the current working directory will be used.
Destination is a path to a new directory in an existing directory. If
destination is not specified, a new directory will be created in the current
working directory.

Unlike kustomize's, the localized kustomization files keep their comments and
field order; only the references in them change.`,
  examples: `# Localize the current working directory, with default scope and destination
  kustomize-ts localize

  # Localize some local directory, with scope and default destination
  kustomize-ts localize /home/path/scope/target --scope /home/path/scope

  # Localize remote at set destination relative to working directory
  kustomize-ts localize https://github.com/kubernetes-sigs/kustomize//api/krusty/testdata/localize/simple?ref=v4.5.7 path/non-existing-dir`,
  flags: [
    {
      name: 'scope',
      type: 'string',
      help: 'Path to directory inside of which localize is limited to running. Cannot specify for remote targets, as scope is by default the containing repo. If not specified for local target, scope defaults to target.',
    },
    {
      name: 'no-verify',
      type: 'bool',
      help: 'Does not verify that the outputs of kustomize build for target and newDir are the same after localization. If not specified, this flag defaults to false and will run kustomize build.',
    },
  ],
  async run({ flags, positional }, io) {
    if (positional.length > 2) throw new KustomizeError('USAGE', `accepts at most 2 arg(s), received ${positional.length}`);
    const { fs, dir } = workspace(io);
    const target = positional[0] ?? '.';
    const scope = (flags.get('scope') as string | undefined) ?? '';
    const dst = await localize(target, { fs, cwd: dir, ...(scope && { scope }), ...(positional[1] && { destination: positional[1] }) });
    if (flags.get('no-verify') !== true) {
      const buildDst = scope !== '' && scope !== target ? join(dst, basename(resolve(dir, target))) : dst;
      const original = await verificationBuild(io, target, dir);
      const localized = await verificationBuild(io, buildDst, dir);
      if (original !== localized) {
        io.err(lineDiff(original, localized));
        io.err(`VERIFICATION FAILED: \`kustomize build\` for ${target} and ${dst} are different after localization.\n`);
        return 1;
      }
      io.err(`VERIFICATION SUCCESS: \`kustomize build\` for ${target} and ${dst} are the same after localization.\n`);
    }
    io.err(`SUCCESS: localized "${target}" to directory ${dst}\n`);
    return 0;
  },
};

async function verificationBuild(io: CliIO, target: string, cwd: string): Promise<string> {
  const { fs } = workspace(io);
  try {
    return (await build(target, { fs, cwd })).yaml;
  } catch (e) {
    io.err(
      `If your target directory requires flags to build: \n1. Add executable permissions for the downloaded exec binaries in '${target}'. \n2. Run ${programOf(io)} build with the necessary flags and self-verify the outputs.\n`,
    );
    throw e;
  }
}

/** The lines only one of the outputs has, `-` for the original's, `+` for the copy's. */
function lineDiff(original: string, localized: string): string {
  const a = original.split('\n');
  const b = localized.split('\n');
  return [...a.filter((l) => !b.includes(l)).map((l) => `- ${l}`), ...b.filter((l) => !a.includes(l)).map((l) => `+ ${l}`)].join('\n') + '\n';
}
