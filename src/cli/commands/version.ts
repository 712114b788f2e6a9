import { VERSION } from '../../options.js';
import type { Command } from '../command.js';

/** `version`: the version of kustomize-ts. */
export const versionCommand: Command = {
  name: 'version',
  summary: 'Prints the kustomize-ts version',
  usage: 'version [flags]',
  flags: [],
  async run(_args, io) {
    io.out(`kustomize-ts v${VERSION}\n`);
    return 0;
  },
};
