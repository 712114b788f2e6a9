import { editKustomization } from '../../../edit/edit.js';
import { messageOf } from '../../../errors.js';
import { build } from '../../../pipeline/build.js';
import type { Command } from '../../command.js';
import { workspace } from '../../workspace.js';

const FIXED = `
Fixed fields:
  patchesJson6902 -> patches
  patchesStrategicMerge -> patches
  commonLabels -> labels
`;

/** `edit fix`: deprecated fields to their successors; warns when the build's output changes, as kustomize does. */
export const fixCommand: Command = {
  name: 'fix',
  summary: 'Fix the missing fields in kustomization file',
  usage: 'fix [flags]',
  examples: `# Fix the missing and deprecated fields in kustomization file
  kustomize-ts edit fix`,
  flags: [
    {
      name: 'vars',
      type: 'bool',
      help: 'If specified, kustomize will attempt to convert vars to replacements. (Not supported by kustomize-ts: vars are left as they are.)',
    },
  ],
  async run({ flags }, io) {
    const { fs, dir } = workspace(io);
    const before = await build(dir, { fs }).then((r) => r.yaml, () => undefined);
    editKustomization(fs, dir, [{ op: 'fix' }], { notice: (m) => io.err(`${m}\n`) });
    io.out(FIXED);
    if (flags.get('vars') === true) io.err('kustomize-ts cannot convert vars to replacements yet; vars were left as they are\n');
    else {
      io.out(`To convert vars -> replacements, run the command \`kustomize edit fix --vars\`
WARNING: Converting vars to replacements will potentially overwrite many resource files 
and the resulting files may not produce the same output when \`kustomize build\` is run. 
We recommend doing this in a clean git repository where the change is easy to undo.
`);
    }
    try {
      const after = (await build(dir, { fs })).yaml;
      if (before !== undefined && after !== before) io.out(`Warning: 'Fixed' kustomization now produces different output when running \`kustomize build\`:\n...${after}...\n`);
    } catch (e) {
      io.out(`Warning: 'Fixed' kustomization now produces the error when running \`kustomize build\`: ${messageOf(e)}\n`);
    }
    return 0;
  },
};
