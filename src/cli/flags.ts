import { KustomizeError } from '../errors.js';

/** A flag the CLI accepts: boolean, single value, or repeatable value. */
export interface FlagSpec {
  name: string;
  short?: string;
  type: 'bool' | 'string' | 'list';
  /** older spellings still accepted */
  aliases?: string[];
  help: string;
  default?: string;
  /** printed (as kubectl does) when the flag is used */
  deprecated?: string;
}

export type FlagValue = string | boolean | string[];

export interface ParsedArgs {
  flags: Map<string, FlagValue>;
  positional: string[];
}

/**
 * Parses arguments the way Go's pflag does: `--name value`, `--name=value`, `-n value`, `-nvalue`,
 * bare booleans, `--` ends flags; `_` in a flag name is read as `-`, as kubectl's normalizer does
 * (`--enable_alpha_plugins`).
 */
export function parseFlags(args: string[], specs: FlagSpec[], warn?: (message: string) => void): ParsedArgs {
  const byName = new Map<string, FlagSpec>();
  for (const s of specs) {
    byName.set(`--${s.name}`, s);
    if (s.short) byName.set(`-${s.short}`, s);
    for (const a of s.aliases ?? []) byName.set(`--${a}`, s);
  }
  const flags = new Map<string, FlagValue>();
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
    const long = arg.startsWith('--');
    const eq = long ? arg.indexOf('=') : -1;
    // `-ofile` and `-o=file`: a short flag with its value attached
    const key = long ? (eq < 0 ? arg : arg.slice(0, eq)).replace(/_/g, '-') : arg.slice(0, 2);
    const spec = byName.get(key);
    if (!spec) throw new KustomizeError('USAGE', `unknown ${long ? 'flag' : 'shorthand flag'}: ${long ? key : `'${arg[1]}' in ${arg}`}`);
    let value: string | undefined = long ? (eq < 0 ? undefined : arg.slice(eq + 1)) : arg.length > 2 ? arg.slice(arg[2] === '=' ? 3 : 2) : undefined;
    if (spec.deprecated) warn?.(`Flag --${spec.name} has been deprecated, ${spec.deprecated}`);
    if (spec.type === 'bool') {
      if (value !== undefined && !/^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.test(value)) {
        throw new KustomizeError('USAGE', `invalid argument "${value}" for "${key}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`);
      }
      flags.set(spec.name, value === undefined || /^(1|t|T|TRUE|true|True)$/.test(value));
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

/** The flags section of a command's help, cobra-style: sorted by name, deprecated flags left out, as pflag lists them. */
export function flagHelp(specs: FlagSpec[]): string {
  const sorted = specs.filter((s) => !s.deprecated).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const rows = sorted.map((s) => {
    const names = `${s.short ? `-${s.short}, ` : '    '}--${s.name}${s.type === 'bool' ? '' : ' ' + (s.type === 'list' ? 'stringArray' : 'string')}`;
    return [names, s.help + (s.default ? ` (default "${s.default}")` : '')] as const;
  });
  const width = Math.max(...rows.map(([n]) => n.length)) + 3;
  // a help text over several lines continues under its first line, as pflag prints it
  return rows.map(([n, h]) => `  ${n.padEnd(width)}${h.replace(/\n/g, `\n${' '.repeat(width + 2)}`)}`).join('\n');
}
