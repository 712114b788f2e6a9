import { VERSION } from '../../options.js';
import { KustomizeError } from '../../errors.js';
import type { Command } from '../command.js';
import { stringify } from 'yaml';

/** `version`: the version of kustomize-ts; `-o yaml|json` prints it with the platform, as kustomize prints its provenance. */
export const versionCommand: Command = {
  name: 'version',
  summary: 'Prints the kustomize-ts version',
  usage: 'version [flags]',
  examples: 'kustomize-ts version',
  flags: [
    { name: 'short', type: 'bool', help: 'short form', deprecated: 'and will be removed in the future.' },
    { name: 'output', short: 'o', type: 'string', help: "One of 'yaml' or 'json'." },
  ],
  async run({ flags }, io) {
    const output = flags.get('output');
    if (flags.get('short') === true && output !== undefined) throw new KustomizeError('USAGE', '--short and --output are mutually exclusive');
    // kustomize's provenance fields, with Node's version where kustomize gives Go's
    const provenance = { version: `kustomize-ts/v${VERSION}`, goOs: process.platform, goArch: process.arch, nodeVersion: process.version };
    if (output === 'yaml') io.out(`${stringify(provenance)}\n`);
    else if (output === 'json') io.out(`${JSON.stringify(provenance, null, 2)}\n`);
    else if (output !== undefined && output !== '') throw new KustomizeError('USAGE', `--output must be 'yaml' or 'json', not '${String(output)}'`);
    // Go's %v of kustomize's provenance struct: version, then its (here empty) commit, date, os, arch and Go version
    else if (flags.get('short') === true) io.out(`{${provenance.version}     }\n`);
    else io.out(`kustomize-ts v${VERSION}\n`);
    return 0;
  },
};
