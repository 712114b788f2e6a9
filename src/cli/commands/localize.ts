import type { Command } from '../command.js';
import { KustomizeError } from '../../errors.js';

/** `localize`: placeholder replaced below. */
export const localizeCommand: Command = {
  name: 'localize',
  summary: '[Alpha] Creates localized copy of target kustomization root at destination',
  usage: 'localize [target [destination]] [flags]',
  flags: [],
  async run() {
    throw new KustomizeError('USAGE', 'localize is not implemented yet');
  },
};
