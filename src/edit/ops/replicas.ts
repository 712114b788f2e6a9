import type { YAMLMap } from 'yaml';
import { KustomizeError } from '../../errors.js';
import type { EditContext } from '../context.js';
import { sortByName } from './images.js';
import { mapItems, setSorted, stringField } from './seq.js';

/** `edit set replicas`: each count replaces the entry of the same name (or is added); kept sorted by name. */
export interface SetReplicas {
  op: 'setReplicas';
  replicas: { name: string; count: number }[];
}

const REPLICAS_FORMAT_ERROR = 'invalid format of replica, use the following format: <name>=<count>';

/** Reads one `edit set replicas` argument, `name=count`. */
export function parseReplicasArg(arg: string): { name: string; count: number } {
  const parts = arg.split('=');
  if (parts.length !== 2 || !/^[+-]?\d+$/.test(parts[1]!)) throw new KustomizeError('EDIT_INVALID', REPLICAS_FORMAT_ERROR);
  return { name: parts[0]!, count: Number(parts[1]) };
}

export function setReplicas(ctx: EditContext, op: SetReplicas): void {
  if (op.replicas.length === 0) throw new KustomizeError('EDIT_INVALID', 'no replicas specified');
  const seq = ctx.doc.list('replicas');
  for (const { name, count } of op.replicas) {
    const entry = mapItems(seq).find((m) => stringField(m, 'name') === name);
    if (entry) setSorted(entry, 'count', count);
    else seq.add(ctx.doc.node({ count, name }) as YAMLMap);
  }
  sortByName(seq.items);
}
