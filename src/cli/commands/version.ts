import { KUSTOMIZE_VERSION, VERSION } from '../../options.js';
import { KustomizeError } from '../../errors.js';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from '../build-options.js';
import { KUSTOMIZE_VERSION_FLAG } from '../kustomize-version.js';
import type { Command } from '../command.js';
import { stringify } from 'yaml';

/** Go's names for Node's platforms and architectures, as kustomize's `goOs` and `goArch` say them. */
const GO_OS: Readonly<Record<string, string>> = { win32: 'windows', sunos: 'solaris' };
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386', ppc64: 'ppc64le' };

/**
 * `version`: the kustomize version whose behaviour kustomize-ts follows (the default, or the one
 * `--kustomize-version`, the program's name or $KUSTOMIZE_TS_VERSION chose), first, for the tools
 * that parse kustomize's version (Argo CD reads `version --short`, trims the braces and takes
 * the first semver), then kustomize-ts's own, for people.
 */
/** The one option flag `version` takes. */
const RELEASE_FLAGS = BUILD_OPTION_FLAGS.filter((f) => f.flag === KUSTOMIZE_VERSION_FLAG);

export const versionCommand: Command = {
  name: 'version',
  summary: 'Prints the kustomize version kustomize-ts follows, and its own',
  usage: 'version [flags]',
  examples: 'kustomize-ts version',
  flags: [
    { name: 'short', type: 'bool', help: 'short form', deprecated: 'and will be removed in the future.' },
    { name: 'output', short: 'o', type: 'string', help: "One of 'yaml' or 'json'." },
    KUSTOMIZE_VERSION_FLAG,
  ],
  async run({ flags }, io) {
    const output = flags.get('output');
    if (flags.get('short') === true && output !== undefined) throw new KustomizeError('USAGE', '--short and --output are mutually exclusive');
    const kustomizeVersion = optionsFromFlags(flags, process.env, undefined, RELEASE_FLAGS).kustomizeVersion ?? KUSTOMIZE_VERSION;
    // kustomize's provenance fields (without goVersion: there is no Go here), then ours
    const provenance = {
      version: `kustomize/v${kustomizeVersion}`,
      gitCommit: 'unknown',
      buildDate: 'unknown',
      goOs: GO_OS[process.platform] ?? process.platform,
      goArch: GO_ARCH[process.arch] ?? process.arch,
      kustomizeTsVersion: `v${VERSION}`,
      nodeVersion: process.version,
    };
    if (output === 'yaml') io.out(`${stringify(provenance)}\n`);
    else if (output === 'json') io.out(`${JSON.stringify(provenance, null, 2)}\n`);
    else if (output !== undefined && output !== '') throw new KustomizeError('USAGE', `--output must be 'yaml' or 'json', not '${String(output)}'`);
    // Go's %v of kustomize's short provenance (version, commit, build date, os, arch, Go version),
    // ours where the build date goes
    else if (flags.get('short') === true) io.out(`{${provenance.version}  kustomize-ts/v${VERSION}   }\n`);
    else io.out(`v${kustomizeVersion} (kustomize-ts v${VERSION})\n`);
    return 0;
  },
};
