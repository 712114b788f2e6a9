import type { EntryField } from '../../../edit/ops/entries.js';
import type { GeneratorKind } from '../../../edit/ops/generators.js';
import type { MetadataKind } from '../../../edit/ops/metadata.js';
import type { Command } from '../../command.js';
import type { FlagSpec } from '../../flags.js';
import { editCommand, keyValuePairs, listFlag, sliceFlag, stringFlag, usageError } from './edit-command.js';
import { buildMetadataCommand } from './buildmetadata.js';
import { PATCH_FLAGS, patchFromFlags } from './patch-flags.js';

function pathsCommand(name: string, field: EntryField, summary: string, missing: string, flags: FlagSpec[] = []): Command {
  return editCommand({
    name,
    summary,
    usage: `${name} [flags]`,
    examples: `add ${name} {filepath}`,
    flags,
    ops: ({ positional, flags: f }) => {
      if (positional.length === 0) usageError(missing);
      return [{ op: 'addEntries', field, entries: positional, noVerify: f.get('no-verify') === true }];
    },
  });
}

function generatorCommand(kind: GeneratorKind): Command {
  const what = kind === 'configmap' ? 'configmap' : 'secret';
  const flags: FlagSpec[] = [
    {
      name: 'from-file',
      type: 'list',
      help: `Key file can be specified using its file path, in which case file basename will be used as ${what} key, or optionally with a key and file path, in which case the given key will be used.  Specifying a directory will iterate each named file in the directory whose basename is a valid ${what} key.`,
    },
    { name: 'from-literal', type: 'list', help: `Specify a key and literal value to insert in ${what} (i.e. mykey=somevalue)` },
    { name: 'from-env-file', type: 'string', help: `Specify the path to a file to read lines of key=val pairs to create a ${what} (i.e. a Docker .env file).` },
    { name: 'disableNameSuffixHash', type: 'bool', help: `Disable the name suffix for the ${what}` },
    { name: 'namespace', type: 'string', help: kind === 'configmap' ? 'Specify the namespace of the ConfigMap' : 'Specify the namespace of the secret' },
  ];
  if (kind === 'configmap') {
    flags.push({
      name: 'behavior',
      type: 'string',
      help: 'Specify the behavior for config map generation, i.e whether to create a new configmap (the default),  to merge with a previously defined one, or to replace an existing one. Merge and replace should be used only  when overriding an existing configmap defined in a base',
    });
  } else flags.push({ name: 'type', type: 'string', default: 'Opaque', help: "Specify the secret type this can be 'Opaque' (default), or 'kubernetes.io/tls'" });
  return editCommand({
    name: kind,
    summary: kind === 'configmap' ? 'Adds a configmap to the kustomization file' : 'Adds a secret to the kustomization file.',
    usage:
      kind === 'configmap'
        ? 'configmap NAME [--namespace=namespace-name] [--behavior={create|merge|replace}] [--from-file=[key=]source] [--from-literal=key1=value1] [flags]'
        : 'secret NAME [--from-file=[key=]source] [--from-literal=key1=value1] [--type=Opaque|kubernetes.io/tls] [flags]',
    examples: `# Adds a ${what} to the kustomization file (with a specified key)
  kustomize-ts edit add ${what} my-${what} --from-file=my-key=file/path --from-literal=my-literal=12345

  # Adds a ${what} to the kustomization file (key is the filename)
  kustomize-ts edit add ${what} my-${what} --from-file=file/path

  # Adds a ${what} from env-file
  kustomize-ts edit add ${what} my-${what} --from-env-file=env/path.env`,
    flags,
    ops: ({ positional, flags: f }) => {
      if (positional.length !== 1) usageError('failed to validate flags: name must be specified once');
      const behavior = stringFlag(f, 'behavior');
      return [
        {
          op: 'addGenerator',
          kind,
          name: positional[0]!,
          ...(stringFlag(f, 'namespace') && { namespace: stringFlag(f, 'namespace') }),
          literals: listFlag(f, 'from-literal'),
          files: sliceFlag(f, 'from-file'),
          ...(stringFlag(f, 'from-env-file') && { envFile: stringFlag(f, 'from-env-file') }),
          ...(behavior && { behavior: behavior as 'create' }),
          disableNameSuffixHash: f.get('disableNameSuffixHash') === true,
          ...(kind === 'secret' && { type: stringFlag(f, 'type') ?? 'Opaque' }),
        },
      ];
    },
  });
}

function metadataCommand(kind: MetadataKind): Command {
  const flags: FlagSpec[] = [{ name: 'force', short: 'f', type: 'bool', help: `overwrite common${kind === 'label' ? 'Label' : 'Annotation'} if it already exists` }];
  if (kind === 'label') {
    flags.push(
      { name: 'without-selector', type: 'bool', help: 'using add labels without selector option' },
      { name: 'include-templates', type: 'bool', help: 'include labels in templates (requires --without-selector)' },
    );
  }
  return editCommand({
    name: kind,
    summary: `Adds one or more common${kind === 'label' ? 'Labels' : 'Annotations'} to kustomization.yaml`,
    usage: `${kind} [flags]`,
    examples: `add ${kind} {${kind}Key1:${kind}Value1} {${kind}Key2:${kind}Value2}`,
    flags,
    ops: ({ positional, flags: f }) => {
      if (positional.length === 0) usageError(`must specify ${kind}`);
      if (f.get('include-templates') === true && f.get('without-selector') !== true) usageError('--without-selector flag must be specified for --include-templates to work');
      return [
        {
          op: 'addMetadata',
          kind,
          pairs: keyValuePairs(positional, kind),
          force: f.get('force') === true,
          withoutSelector: f.get('without-selector') === true,
          includeTemplates: f.get('include-templates') === true,
        },
      ];
    },
  });
}

/** `edit add …`: every kind of entry kustomize's `edit add` adds. */
export const addCommand: Command = {
  name: 'add',
  summary: 'Adds an item to the kustomization file',
  usage: 'add [command]',
  examples: `# Adds a secret to the kustomization file
  kustomize-ts edit add secret NAME --from-literal=k=v

  # Adds a configmap to the kustomization file
  kustomize-ts edit add configmap NAME --from-literal=k=v

  # Adds a resource to the kustomization
  kustomize-ts edit add resource <filepath>

  # Adds a patch to the kustomization
  kustomize-ts edit add patch --path {filepath} --group {target group name} --version {target version}

  # Adds a component to the kustomization
  kustomize-ts edit add component <filepath>

  # Adds one or more base directories to the kustomization
  kustomize-ts edit add base <filepath>
  kustomize-ts edit add base <filepath1>,<filepath2>,<filepath3>

  # Adds one or more commonLabels to the kustomization
  kustomize-ts edit add label {labelKey1:labelValue1} {labelKey2:labelValue2}

  # Adds one or more commonAnnotations to the kustomization
  kustomize-ts edit add annotation {annotationKey1:annotationValue1} {annotationKey2:annotationValue2}

  # Adds a transformer configuration to the kustomization
  kustomize-ts edit add transformer <filepath>

  # Adds a configuration file to the kustomization
  kustomize-ts edit add configuration <filepath>

  # Adds a generator configuration to the kustomization
  kustomize-ts edit add generator <filepath>`,
  flags: [],
  subcommands: [
    generatorCommand('configmap'),
    generatorCommand('secret'),
    pathsCommand('resource', 'resources', 'Add the name of a file containing a resource to the kustomization file', 'must specify a resource file', [
      { name: 'no-verify', type: 'bool', help: 'skip validation for resources' },
    ]),
    pathsCommand('component', 'components', 'Add the name of a file containing a component to the kustomization file', 'must specify a component file'),
    editCommand({
      name: 'base',
      summary: 'Adds one or more bases to the kustomization.yaml in current directory',
      usage: 'base [flags]',
      examples: 'add base {filepath1},{filepath2}',
      flags: [],
      ops: ({ positional }) => {
        if (positional.length !== 1) usageError('must specify a base directory');
        return [{ op: 'addBases', paths: positional[0]!.split(',') }];
      },
    }),
    editCommand({
      name: 'patch',
      summary: 'Add an item to patches field',
      usage: 'patch [flags]',
      description: `This command will add an item to patches field in the kustomization file.
Each item may:

 - be either a strategic merge patch, or a JSON patch
 - be either a file, or an inline string
 - target a single resource or multiple resources`,
      examples: 'add patch --path {filepath} --group {target group name} --version {target version}',
      flags: PATCH_FLAGS,
      ops: ({ flags }) => {
        // checked before the file is read, as kustomize's Validate does
        const patch = patchFromFlags(flags);
        if (patch.patch && patch.path) usageError("patch and path can't be set at the same time");
        if (!patch.patch && !patch.path) usageError('must provide either patch or path');
        return [{ op: 'addPatch', patch }];
      },
    }),
    metadataCommand('label'),
    metadataCommand('annotation'),
    buildMetadataCommand('add'),
    pathsCommand('transformer', 'transformers', 'Add the name of a file containing a transformer configuration to the kustomization file', 'must specify a yaml file which contains a transformer plugin resource'),
    pathsCommand('generator', 'generators', 'Add the name of a file containing a generator configuration to the kustomization file', 'must specify a yaml file which contains a generator plugin resource'),
    pathsCommand('configuration', 'configurations', 'Add the name of a file containing a configuration to the kustomization file', 'must specify a yaml file which contains a configuration resource'),
  ],
};
