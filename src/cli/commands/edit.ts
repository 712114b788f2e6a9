import { BUILTINS } from '../../builtins/table.js';
import type { Command } from '../command.js';
import { addCommand } from './edit/add.js';
import { fixCommand } from './edit/fix.js';
import { removeCommand } from './edit/remove.js';
import { setCommand } from './edit/set.js';

/** `edit add|set|remove|fix`: changes ./kustomization.yaml, keeping what it does not change as written. */
export const editCommand: Command = {
  name: 'edit',
  summary: 'Edits a kustomization file',
  usage: 'edit [command]',
  examples: `# Adds a configmap to the kustomization file
  kustomize-ts edit add configmap NAME --from-literal=k=v

  # Sets the nameprefix field
  kustomize-ts edit set nameprefix <prefix-value>

  # Sets the namesuffix field
  kustomize-ts edit set namesuffix <suffix-value>`,
  flags: [],
  subcommands: [
    addCommand,
    setCommand,
    fixCommand,
    removeCommand,
    {
      name: 'alpha-list-builtin-plugin',
      summary: '[Alpha] List the builtin plugins',
      usage: 'alpha-list-builtin-plugin [flags]',
      flags: [],
      async run(_args, io) {
        const names = [...BUILTINS.values()].filter((b) => !b.internal).map((b) => b.kind);
        io.out(`Builtin plugins:\n\n${names.map((n) => ` * ${n}\n`).join('')}`);
        return 0;
      },
    },
  ],
};
