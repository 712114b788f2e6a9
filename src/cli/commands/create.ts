import { createKustomization } from '../../edit/create.js';
import type { Command } from '../command.js';
import { keyValuePairs, stringFlag } from './edit/edit-command.js';
import { workspace } from '../workspace.js';

/** `create`: a new kustomization.yaml in the current directory. */
export const createCommand: Command = {
  name: 'create',
  aliases: ['init'],
  summary: 'Create a new kustomization in the current directory',
  usage: 'create [flags]',
  examples: `# Create a new overlay from the base '../base".
  kustomize-ts create --resources ../base

  # Create a new kustomization detecting resources in the current directory.
  kustomize-ts create --autodetect

  # Create a new kustomization with multiple resources and fields set.
  kustomize-ts create --resources deployment.yaml,service.yaml,../base --namespace staging --nameprefix acme-`,
  flags: [
    { name: 'resources', type: 'string', help: 'Name of a file containing a file to add to the kustomization file.' },
    { name: 'namespace', type: 'string', help: 'Set the value of the namespace field in the kustomization file.' },
    { name: 'annotations', type: 'string', help: 'Add one or more common annotations.' },
    { name: 'labels', type: 'string', help: 'Add one or more common labels.' },
    { name: 'nameprefix', type: 'string', help: 'Sets the value of the namePrefix field in the kustomization file.' },
    { name: 'namesuffix', type: 'string', help: 'Sets the value of the nameSuffix field in the kustomization file.' },
    { name: 'autodetect', type: 'bool', help: 'Search for kubernetes resources in the current directory to be added to the kustomization file.' },
    { name: 'recursive', type: 'bool', help: 'Enable recursive directory searching for resource auto-detection.' },
  ],
  async run({ flags }, io) {
    const { fs, dir } = workspace(io);
    const split = (name: string) => (stringFlag(flags, name) ?? '').split(',').filter((s) => s !== '');
    await createKustomization(fs, dir, {
      resources: split('resources'),
      ...(stringFlag(flags, 'namespace') && { namespace: stringFlag(flags, 'namespace') }),
      ...(stringFlag(flags, 'nameprefix') && { namePrefix: stringFlag(flags, 'nameprefix') }),
      ...(stringFlag(flags, 'namesuffix') && { nameSuffix: stringFlag(flags, 'namesuffix') }),
      labels: keyValuePairs(split('labels'), 'label'),
      annotations: keyValuePairs(split('annotations'), 'annotation'),
      autodetect: flags.get('autodetect') === true,
      recursive: flags.get('recursive') === true,
      notice: (m) => io.err(`${m}\n`),
    });
    return 0;
  },
};
