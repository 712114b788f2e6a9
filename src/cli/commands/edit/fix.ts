import { editKustomization } from '../../../edit/edit.js';
import { messageOf } from '../../../errors.js';
import { build } from '../../../build/build.js';
import { programOf, type Command } from '../../command.js';
import { workspace } from '../../workspace.js';

const FIXED = `
Fixed fields:
  patchesJson6902 -> patches
  patchesStrategicMerge -> patches
  commonLabels -> labels
`;

const VARS_FIXED = '  vars -> replacements\n';

/** kustomize's advice, naming the program as it was called */
const varsHint = (program: string): string => `
To convert vars -> replacements, run the command \`${program} edit fix --vars\`

WARNING: Converting vars to replacements will potentially overwrite many resource files 
and the resulting files may not produce the same output when \`${program} build\` is run. 
We recommend doing this in a clean git repository where the change is easy to undo.
`;

/** `edit fix`: deprecated fields to their successors (`--vars`: vars to replacements); warns when the build's output changes, as kustomize does. */
export const fixCommand: Command = {
  name: 'fix',
  summary: 'Fix the missing fields in kustomization file',
  usage: 'fix [flags]',
  examples: `# Fix the missing and deprecated fields in kustomization file
  kustomize-ts edit fix

  # Also convert vars to replacements, rewriting the files that use them
  kustomize-ts edit fix --vars`,
  flags: [
    {
      name: 'vars',
      type: 'bool',
      help: 'If specified, kustomize will attempt to convert vars to replacements. \nWe recommend doing this in a clean git repository where the change is easy to undo.',
    },
  ],
  async run({ flags }, io) {
    const { fs, dir } = workspace(io);
    const vars = flags.get('vars') === true;
    // built as `kustomize build` with no flags builds (legacy order), to compare and to print
    const options = { fs, reorder: 'unspecified' } as const;
    // as kustomize: a kustomization that did not build counts as one that printed nothing
    const before = await build(dir, options).then((r) => r.yaml, () => '');
    await editKustomization(fs, dir, [{ op: 'fix', vars }], { notice: (m) => io.err(`${m}\n`) });
    io.out(vars ? FIXED + VARS_FIXED : FIXED + varsHint(programOf(io)));
    try {
      const after = (await build(dir, options)).yaml;
      if (after !== before) io.out(`Warning: 'Fixed' kustomization now produces different output when running \`${programOf(io)} build\`:\n...${after}...\n`);
    } catch (e) {
      io.out(`Warning: 'Fixed' kustomization now produces the error when running \`${programOf(io)} build\`: ${messageOf(e)}\n`);
    }
    return 0;
  },
};
