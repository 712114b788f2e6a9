import type { Command } from '../../command.js';
import { editCommand, usageError } from './edit-command.js';

const BUILD_METADATA_HELP = `The following options are valid:
  - originAnnotations
  - transformerAnnotations
  - managedByLabel
originAnnotations will add the annotation config.kubernetes.io/origin to each resource, describing where
each resource originated from.
transformerAnnotations will add the annotation alpha.config.kubernetes.io/transformations to each resource,
describing the transformers that have acted upon the resource.
managedByLabel will add the label app.kubernetes.io/managed-by to each resource, describing which version
of kustomize managed the resource.`;

/** `edit add|set|remove buildmetadata OPTION,...`. */
export function buildMetadataCommand(verb: 'add' | 'set' | 'remove'): Command {
  const op = ({ add: 'addEntries', set: 'setEntries', remove: 'removeEntries' } as const)[verb];
  const title = { add: 'Adds', set: 'Sets', remove: 'Removes' }[verb];
  return editCommand({
    name: 'buildmetadata',
    summary: `${title} one or more buildMetadata options to the kustomization.yaml in the current directory`,
    usage: 'buildmetadata [flags]',
    description: `${title} one or more buildMetadata options to the kustomization.yaml in the current directory.${verb === 'set' ? '\nExisting options in the buildMetadata field will be replaced entirely by the new options set by this command.' : ''}
${BUILD_METADATA_HELP}`,
    examples: `${verb} buildmetadata {option1},{option2}`,
    flags: [],
    ops: ({ positional }) => {
      if (positional.length === 0) usageError('must specify a buildMetadata option');
      if (positional.length > 1) usageError(`too many arguments: [${positional.join(' ')}]; to provide multiple buildMetadata options, please separate options by comma`);
      const options = positional[0]!.split(',');
      return [op === 'removeEntries' ? { op, field: 'buildMetadata', patterns: options } : { op, field: 'buildMetadata', entries: options }];
    },
  });
}
