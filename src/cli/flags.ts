import { KustomizeError } from '../errors.js';

/** A flag the CLI accepts: boolean, single value, or repeatable value. */
export interface FlagSpec {
  name: string;
  short?: string;
  type: 'bool' | 'string' | 'list';
  /** older spellings kustomize still accepts */
  aliases?: string[];
  help: string;
  default?: string;
}

export interface ParsedArgs {
  flags: Map<string, string | boolean | string[]>;
  positional: string[];
}

/** Parses arguments the way Go's pflag does: `--name value`, `--name=value`, `-n value`, bare booleans, `--` ends flags. */
export function parseFlags(args: string[], specs: FlagSpec[]): ParsedArgs {
  const byName = new Map<string, FlagSpec>();
  for (const s of specs) {
    byName.set(`--${s.name}`, s);
    if (s.short) byName.set(`-${s.short}`, s);
    for (const a of s.aliases ?? []) byName.set(`--${a}`, s);
  }
  const flags = new Map<string, string | boolean | string[]>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const key = eq < 0 ? arg : arg.slice(0, eq);
    const spec = byName.get(key);
    if (!spec) throw new KustomizeError('USAGE', `unknown flag: ${key}`);
    let value: string | undefined = eq < 0 ? undefined : arg.slice(eq + 1);
    if (spec.type === 'bool') {
      if (value !== undefined && value !== 'true' && value !== 'false') {
        throw new KustomizeError('USAGE', `invalid argument "${value}" for "${key}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`);
      }
      flags.set(spec.name, value !== 'false');
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= args.length) throw new KustomizeError('USAGE', `flag needs an argument: ${key}`);
      value = args[++i]!;
    }
    if (spec.type === 'list') {
      const prev = flags.get(spec.name);
      flags.set(spec.name, [...(Array.isArray(prev) ? prev : []), value]);
    } else flags.set(spec.name, value);
  }
  return { flags, positional };
}

export function flagHelp(specs: FlagSpec[]): string {
  const rows = specs.map((s) => {
    const names = `${s.short ? `-${s.short}, ` : '    '}--${s.name}${s.type === 'bool' ? '' : ' ' + (s.type === 'list' ? 'stringArray' : 'string')}`;
    return [names, s.help + (s.default ? ` (default "${s.default}")` : '')] as const;
  });
  const width = Math.max(...rows.map(([n]) => n.length)) + 3;
  return rows.map(([n, h]) => `  ${n.padEnd(width)}${h}`).join('\n');
}
