import { build } from '../build/build.js';
import { KustomizeError, messageOf } from '../errors.js';
import type { LoadRestriction } from '../load/loader.js';
import { VERSION, type BuildOptions, type ReorderOption } from '../options.js';
import { flagHelp, parseFlags, type FlagSpec } from './flags.js';
import { writeBuildOutput } from './write-output.js';

const BUILD_FLAGS: FlagSpec[] = [
  { name: 'output', short: 'o', type: 'string', help: 'If specified, write output to this path (a file, or an existing directory for one file per resource).' },
  {
    name: 'load-restrictor',
    aliases: ['load_restrictor'],
    type: 'string',
    default: 'LoadRestrictionsRootOnly',
    help: 'if set to \'LoadRestrictionsNone\', local kustomizations may load files from outside their root. This does, however, break the relocatability of the kustomization.',
  },
  { name: 'reorder', type: 'string', default: 'legacy', help: "Reorder the resources just before output. Use 'legacy' to apply a legacy reordering (Namespaces first, Webhooks last, etc). Use 'none' to suppress a final reordering. (deprecated: use sortOptions in the kustomization)" },
  { name: 'enable-managedby-label', type: 'bool', help: 'enable adding app.kubernetes.io/managed-by (deprecated: use buildMetadata: [managedByLabel])' },
  { name: 'enable-alpha-plugins', type: 'bool', help: 'enable kustomize plugins' },
  { name: 'enable-exec', type: 'bool', help: 'enable support for exec functions (raw executables); do not use for untrusted configs! (Alpha)' },
  { name: 'network', type: 'bool', help: 'enable network access for functions that declare it' },
  { name: 'network-name', type: 'string', default: 'bridge', help: 'the docker network to run the container in' },
  { name: 'mount', type: 'list', help: "a list of storage options read from the filesystem (e.g. 'type=bind,src=./data,dst=/data')" },
  { name: 'env', short: 'e', type: 'list', help: "a list of environment variables to be used by functions (KEY=VALUE or KEY)" },
  { name: 'as-current-user', type: 'bool', help: 'use the uid and gid of the command executor to run the function in the container' },
  { name: 'plugin-timeout', type: 'string', default: '120', help: 'seconds a plugin process may run before it is stopped' },
  { name: 'enable-helm', type: 'bool', help: 'Enable use of the Helm chart inflator generator.' },
  { name: 'helm-command', type: 'string', default: 'helm', help: 'helm command (path to executable)' },
  { name: 'helm-api-versions', type: 'list', help: 'Kubernetes api versions used by Helm for Capabilities.APIVersions' },
  { name: 'helm-kube-version', type: 'string', help: 'Kubernetes version used by Helm for Capabilities.KubeVersion' },
  { name: 'helm-debug', type: 'bool', help: 'Enable debug output from the Helm chart inflator generator.' },
  { name: 'help', short: 'h', type: 'bool', help: 'help for build' },
];

const USAGE = `kustomize-ts: kustomize, re-built in TypeScript.

Usage:
  kustomize-ts build [DIR] [flags]   print the resources DIR's kustomization describes (DIR defaults to .)
  kustomize-ts version              print the version
  kustomize-ts help                 print this help
`;

const BUILD_USAGE = `Build a set of KRM resources using a 'kustomization.yaml' file.
The DIR argument must be a path to a directory containing 'kustomization.yaml'.
If DIR is omitted, '.' is assumed.

Usage:
  kustomize-ts build DIR [flags]

Flags:
${flagHelp(BUILD_FLAGS)}
`;

/** Runs the CLI; returns the exit code. Output goes to the given streams (stdout/stderr by default). */
export async function main(
  args: string[],
  io: { out: (s: string) => void; err: (s: string) => void } = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'build':
        return await runBuild(rest, io);
      case 'version':
      case '--version':
        io.out(`kustomize-ts v${VERSION}\n`);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return 0;
      default:
        io.err(`Error: unknown command "${command}" for "kustomize-ts"\n\n${USAGE}`);
        return 1;
    }
  } catch (e) {
    io.err(`Error: ${messageOf(e)}\n`);
    return 1;
  }
}

async function runBuild(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): Promise<number> {
  const { flags, positional } = parseFlags(args, BUILD_FLAGS);
  if (flags.get('help')) {
    io.out(BUILD_USAGE);
    return 0;
  }
  if (positional.length > 1) throw new KustomizeError('USAGE', `specify one path to a kustomization directory; got ${positional.length}`);
  const options: BuildOptions = {
    loadRestrictor: loadRestriction(flags.get('load-restrictor') as string | undefined),
    reorder: reorderOption(flags.get('reorder') as string | undefined),
    addManagedByLabel: flags.get('enable-managedby-label') === true || process.env['KUSTOMIZE_ENABLE_MANAGEDBY_LABEL'] === 'on',
    enablePlugins: flags.get('enable-alpha-plugins') === true,
    enableExec: flags.get('enable-exec') === true,
    network: flags.get('network') === true,
    enableHelm: flags.get('enable-helm') === true,
    helmCommand: (flags.get('helm-command') as string | undefined) ?? 'helm',
    helmApiVersions: (flags.get('helm-api-versions') as string[] | undefined) ?? [],
    helmKubeVersion: (flags.get('helm-kube-version') as string | undefined) ?? '',
    helmDebug: flags.get('helm-debug') === true,
    pluginTimeout: Number(flags.get('plugin-timeout') ?? 120),
    warn: (m) => io.err(`${m}\n`),
  };
  const result = await build(positional[0] ?? '.', options);
  const output = flags.get('output') as string | undefined;
  if (output === undefined) {
    io.out(result.yaml);
  } else {
    writeBuildOutput(output, result);
  }
  return 0;
}

function loadRestriction(v: string | undefined): LoadRestriction {
  if (v === undefined || v === 'LoadRestrictionsRootOnly') return 'rootOnly';
  if (v === 'LoadRestrictionsNone') return 'none';
  throw new KustomizeError('USAGE', `illegal flag value --load-restrictor ${v}; legal values: [LoadRestrictionsRootOnly LoadRestrictionsNone]`);
}

function reorderOption(v: string | undefined): ReorderOption {
  if (v === undefined) return 'unspecified';
  if (v === 'legacy' || v === 'none') return v;
  throw new KustomizeError('USAGE', `illegal flag value --reorder ${v}; legal values: [legacy none]`);
}
