import type { EntryField } from '../../../edit/ops/entries.js';
import type { GeneratorKind } from '../../../edit/ops/generators.js';
import type { MetadataKind } from '../../../edit/ops/metadata.js';
import type { Command } from '../../command.js';
import { buildMetadataCommand } from './buildmetadata.js';
import { editCommand, stringFlag, usageError } from './edit-command.js';
import { PATCH_FLAGS, patchFromFlags } from './patch-flags.js';

function pathsCommand(name: string, field: EntryField, missing: string): Command {
  return editCommand({
    name,
    summary: `Removes one or more ${field} from kustomization.yaml`,
    usage: `${name} [flags]`,
    examples: `remove ${name} my-${name}.yml
  remove ${name} ${name}1.yml ${name}2.yml ${name}3.yml
  remove ${name} ${field}/*.yml`,
    flags: [],
    ops: ({ positional }) => {
      if (positional.length === 0) usageError(missing);
      return [{ op: 'removeEntries', field, patterns: positional }];
    },
  });
}

function generatorCommand(kind: GeneratorKind): Command {
  const Kind = kind === 'configmap' ? 'ConfigMap' : 'Secret';
  return editCommand({
    name: kind,
    summary: `Removes the specified ${kind}(s) from kustomization.yaml`,
    usage: `${kind} NAME [,NAME] [--namespace=namespace-name] [flags]`,
    description: `Removes the specified ${kind}(s) from the kustomization.yaml file in the specified namespace.
If multiple ${kind} names are specified, the command will not fail on ${kind} names that were not found in the file,
but will issue a warning for each name that wasn't found.`,
    examples: `# Removes a single ${kind} named 'my-${kind}' in the default namespace
  kustomize-ts edit remove ${kind} my-${kind}

  # Removes ${kind}s named 'my-${kind}' and 'other-${kind}' in namespace 'test-namespace'
  kustomize-ts edit remove ${kind} my-${kind},other-${kind} --namespace=test-namespace`,
    flags: [{ name: 'namespace', type: 'string', help: `Namespace to remove ${Kind}(s) from` }],
    ops: ({ positional, flags }) => {
      if (positional.length === 0) usageError(`at least one ${kind} name must be specified`);
      if (positional.length > 1) {
        usageError(`too many arguments: [${positional.join(' ')}]; to provide multiple ${kind}s to remove, please separate ${kind} names by commas`);
      }
      return [{ op: 'removeGenerators', kind, names: positional[0]!.split(','), ...(stringFlag(flags, 'namespace') && { namespace: stringFlag(flags, 'namespace') }) }];
    },
  });
}

function metadataCommand(kind: MetadataKind): Command {
  return editCommand({
    name: kind,
    summary: `Removes one or more common${kind === 'label' ? 'Labels' : 'Annotations'} from kustomization.yaml`,
    usage: `${kind} [flags]`,
    examples: `remove ${kind} {${kind}Key1},{${kind}Key2}`,
    // kustomize's `remove annotation` says "label" in its argument errors and help too
    flags: [{ name: 'ignore-non-existence', short: 'i', type: 'bool', help: "ignore error if the given label doesn't exist" }],
    ops: ({ positional, flags }) => {
      if (positional.length === 0) usageError('must specify label');
      if (positional.length > 1) usageError('labels must be comma-separated, with no spaces');
      for (const key of positional[0]!.split(',')) if (key === '') usageError("invalid label: '' (name is empty)");
      return [{ op: 'removeMetadata', kind, keys: positional[0]!.split(','), ignoreMissing: flags.get('ignore-non-existence') === true }];
    },
  });
}

/** `edit remove …`: the entries kustomize's `edit remove` removes. */
export const removeCommand: Command = {
  name: 'remove',
  summary: 'Removes items from the kustomization file',
  usage: 'remove [command]',
  examples: `# Removes resources from the kustomization file
  kustomize-ts edit remove resource {filepath} {filepath}
  kustomize-ts edit remove resource {pattern}

  # Removes one or more configmap from the kustomization file
  kustomize-ts edit remove configmap {name1},{name2}

  # Removes one or more secret from the kustomization file
  kustomize-ts edit remove secret {name1},{name2}

  # Removes one or more components from the kustomization file
  kustomize-ts edit remove component {filepath} {filepath}

  # Removes one or more patches from the kustomization file
  kustomize-ts edit remove patch --path {filepath} --group {target group name} --version {target version}

  # Removes one or more commonLabels from the kustomization file
  kustomize-ts edit remove label {labelKey1},{labelKey2}

  # Removes one or more commonAnnotations from the kustomization file
  kustomize-ts edit remove annotation {annotationKey1},{annotationKey2}

  # Removes one or more transformers from the kustomization file
  kustomize-ts edit remove transformer <filepath>`,
  flags: [],
  subcommands: [
    generatorCommand('configmap'),
    generatorCommand('secret'),
    pathsCommand('resource', 'resources', 'must specify a resource file'),
    pathsCommand('component', 'components', 'must specify a component file'),
    metadataCommand('label'),
    metadataCommand('annotation'),
    editCommand({
      name: 'patch',
      summary: 'Removes a patch from kustomization.yaml',
      usage: 'patch [flags]',
      description: `Removes a patch from patches field. The fields specified by flags must
exactly match the patch item to successfully remove the item.`,
      examples: 'remove patch --path {filepath} --group {target group name} --version {target version}',
      flags: PATCH_FLAGS,
      ops: ({ flags }) => [{ op: 'removePatch', patch: patchFromFlags(flags) }],
    }),
    pathsCommand('transformer', 'transformers', 'must specify a transformer file'),
    buildMetadataCommand('remove'),
  ],
};
