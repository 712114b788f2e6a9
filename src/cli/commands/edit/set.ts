import { IMAGE_FORMAT_ERROR, parseImageArg } from '../../../edit/ops/images.js';
import { parseReplicasArg } from '../../../edit/ops/replicas.js';
import type { GeneratorKind } from '../../../edit/ops/generators.js';
import type { MetadataKind } from '../../../edit/ops/metadata.js';
import type { SetField } from '../../../edit/ops/fields.js';
import type { Command } from '../../command.js';
import { buildMetadataCommand } from './buildmetadata.js';
import { editCommand, keyValuePairs, listFlag, stringFlag, usageError } from './edit-command.js';

function fieldCommand(name: string, field: SetField['field'], what: string, example: string): Command {
  return editCommand({
    name,
    summary: `Sets the value of the ${field} field in the kustomization file`,
    usage: `${name} [flags]`,
    examples: `The command
    set ${name} ${example}
  will add the field "${field}: ${example}" to the kustomization file if it doesn't exist,
  and overwrite the value with "${example}" if the field does exist.`,
    flags: [],
    ops: ({ positional }) => {
      if (positional.length !== 1) usageError(`must specify exactly one ${what} value`);
      return [{ op: 'setField', field, value: positional[0]! }];
    },
  });
}

function generatorCommand(kind: GeneratorKind): Command {
  const Kind = kind === 'configmap' ? 'ConfigMap' : 'Secret';
  return editCommand({
    name: kind,
    summary: `Edits the value for an existing key for a ${Kind} in the kustomization.yaml file`,
    usage: `${kind} NAME [--from-literal=key1=value1] [--namespace=namespace-name] [--new-namespace=new-namespace-name] [flags]`,
    description: `Edits the value for an existing key in an existing ${Kind} in the kustomization.yaml file.
${Kind} name, ${Kind} namespace, and key name must match an existing entry in the kustomization.yaml file for this command to succeed.
When namespace is omitted, the default namespace is used. Conversely, when an entry without a specified namespace exists
in the kustomization.yaml file, it can be updated by either omitting the namespace on the kustomize-ts edit set ${kind} invocation or by
specifying --namespace=default.`,
    examples: `# Edits an existing ${Kind}, changing the value of key1 to 2, and namespace is implicitly defined as "default"
  kustomize-ts edit set ${kind} my-${kind} --from-literal=key1=2

  # Edits an existing ${Kind}, changing namespace to "new-namespace"
  kustomize-ts edit set ${kind} my-${kind} --namespace=current-namespace --new-namespace=new-namespace`,
    flags: [
      { name: 'from-literal', type: 'list', help: `Specify an existing key and a new value to update a ${Kind} (i.e. mykey=newvalue)` },
      { name: 'namespace', type: 'string', help: `Current namespace of the target ${Kind}` },
      { name: 'new-namespace', type: 'string', help: `New namespace value for the target ${Kind}` },
    ],
    ops: ({ positional, flags }) => {
      if (positional.length !== 1) usageError('failed to validate flags: name must be specified once');
      return [
        {
          op: 'setGenerator',
          kind,
          name: positional[0]!,
          ...(stringFlag(flags, 'namespace') && { namespace: stringFlag(flags, 'namespace') }),
          literals: listFlag(flags, 'from-literal'),
          ...(stringFlag(flags, 'new-namespace') && { newNamespace: stringFlag(flags, 'new-namespace') }),
        },
      ];
    },
  });
}

function metadataCommand(kind: MetadataKind): Command {
  const field = kind === 'label' ? 'commonLabels' : 'commonAnnotations';
  return editCommand({
    name: kind,
    summary: `Sets one or more ${field} in kustomization.yaml`,
    usage: `${kind} [flags]`,
    examples: `set ${kind} {${kind}Key1:${kind}Value1} {${kind}Key2:${kind}Value2}`,
    flags: [],
    ops: ({ positional }) => {
      if (positional.length === 0) usageError(`must specify ${kind}`);
      return [{ op: 'setMetadata', kind, pairs: keyValuePairs(positional, kind) }];
    },
  });
}

/** `edit set …`: the fields kustomize's `edit set` sets. */
export const setCommand: Command = {
  name: 'set',
  summary: 'Sets the value of different fields in kustomization file',
  usage: 'set [command]',
  examples: `# Sets the nameprefix field
  kustomize-ts edit set nameprefix <prefix-value>

  # Sets the namesuffix field
  kustomize-ts edit set namesuffix <suffix-value>

  # Edits a field in an existing configmap in the kustomization file
  kustomize-ts edit set configmap my-configmap --from-literal=key1=value1

  # Edits a field in an existing secret in the kustomization file
  kustomize-ts edit set secret my-secret --from-literal=key1=value1`,
  flags: [],
  subcommands: [
    generatorCommand('configmap'),
    generatorCommand('secret'),
    fieldCommand('nameprefix', 'namePrefix', 'prefix', 'acme-'),
    fieldCommand('namesuffix', 'nameSuffix', 'suffix', '-acme'),
    fieldCommand('namespace', 'namespace', 'namespace', 'staging'),
    editCommand({
      name: 'image',
      summary: 'Sets images and their new names, new tags or digests in the kustomization file',
      usage: 'image [flags]',
      description: `Sets images and their new names, new tags or digests in the kustomization file: an image
already listed is replaced, a new one added. ${IMAGE_FORMAT_ERROR.replace(/^invalid format of image, use/, 'Use')}
The image tag can only contain alphanumeric, '.', '_' and '-'. Passing * (asterisk) either as the new name,
the new tag, or the digest will preserve the appropriate values from the kustomization file.`,
      examples: `The command
    set image postgres=eu.gcr.io/my-project/postgres:latest my-app=my-registry/my-app@sha256:24a0c4b4a4c0eb97a1aabb8e29f18e917d05abfe1b7a7c07857230879ce7d3d3
  will add
    images:
    - name: postgres
      newName: eu.gcr.io/my-project/postgres
      newTag: latest
    - digest: sha256:24a0c4b4a4c0eb97a1aabb8e29f18e917d05abfe1b7a7c07857230879ce7d3d3
      name: my-app
      newName: my-registry/my-app
  to the kustomization file if it doesn't exist,
  and overwrite the previous ones if the image name exists.`,
      flags: [],
      ops: ({ positional }) => {
        if (positional.length === 0) usageError('no image specified');
        return [{ op: 'setImages', images: positional.map(parseImageArg) }];
      },
    }),
    buildMetadataCommand('set'),
    editCommand({
      name: 'replicas',
      summary: 'Sets replicas count for resources in the kustomization file',
      usage: 'replicas [flags]',
      examples: `The command
    set replicas my-app=3 other-app=1
  will add
    replicas:
    - count: 3
      name: my-app
    - count: 1
      name: other-app
  to the kustomization file if it doesn't exist,
  and overwrite the previous ones if the replicas name exists.`,
      flags: [],
      ops: ({ positional }) => {
        if (positional.length === 0) usageError('no replicas specified');
        return [{ op: 'setReplicas', replicas: positional.map(parseReplicasArg) }];
      },
    }),
    metadataCommand('label'),
    metadataCommand('annotation'),
  ],
};
