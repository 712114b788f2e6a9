import type { EditOp } from '../../../edit/ops.js';
import { KustomizeError } from '../../../errors.js';
import type { Command } from '../../command.js';
import type { FlagValue, ParsedArgs } from '../../flags.js';
import { runEdit } from '../../workspace.js';

/** A leaf of `edit`: turns its arguments into edit operations, which are applied to ./kustomization.yaml. */
export function editCommand(c: Omit<Command, 'run'> & { ops(args: ParsedArgs): EditOp[] }): Command {
  const { ops, ...command } = c;
  return { ...command, run: (args, io) => runEdit(io, ops(args)) };
}

export function usageError(message: string): never {
  throw new KustomizeError('USAGE', message);
}

export function stringFlag(flags: Map<string, FlagValue>, name: string): string | undefined {
  const v = flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function listFlag(flags: Map<string, FlagValue>, name: string): string[] {
  const v = flags.get(name);
  return Array.isArray(v) ? v : [];
}

/** A pflag string-slice flag: repeatable, each value comma-separated. */
export function sliceFlag(flags: Map<string, FlagValue>, name: string): string[] {
  return listFlag(flags, name).flatMap((v) => v.split(',')).filter((v) => v !== '');
}

/** `key:value` arguments as kustomize reads them (a value may be double-quoted; no `:` means an empty value). */
export function keyValuePairs(inputs: string[], kind: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const input of inputs) {
    const c = input.indexOf(':');
    if (c === 0) usageError(`invalid ${kind}: '${input}' (need k:v pair where v may be quoted)`);
    if (c < 0) out[input] = '';
    else {
      const value = input.slice(c + 1);
      out[input.slice(0, c)] = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
    }
  }
  return out;
}
