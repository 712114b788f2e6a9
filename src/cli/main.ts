import { messageOf } from '../errors.js';
import { KustomizeError } from '../errors.js';
import { PROGRAM, programOf, type CliIO, type Command } from './command.js';
import { buildCommand } from './commands/build.js';
import { affectedCommand } from './commands/affected.js';
import { buildAllCommand } from './commands/build-all.js';
import { diffCommand } from './commands/diff.js';
import { explainCommand } from './commands/explain.js';
import { catalogCommand } from './commands/catalog.js';
import { consolidateCommand } from './commands/consolidate.js';
import { completionCommands } from './commands/completion.js';
import { createCommand } from './commands/create.js';
import { editCommand } from './commands/edit.js';
import { localizeCommand } from './commands/localize.js';
import { lockCommand } from './commands/lock.js';
import { lspCommand } from './commands/lsp.js';
import { serveCommand } from './commands/serve.js';
import { validateCommand } from './commands/validate.js';
import { versionCommand } from './commands/version.js';
import { flagHelp, parseFlags, type FlagSpec } from './flags.js';
import { STDIO } from './stdio.js';
import { releaseInProgramName, withProgramVersion } from './kustomize-version.js';

export { restoreDeferredCaCerts } from './deferred-ca-certs.js';

/** The commands of the CLI, by name: one module each under ./commands. */
export const COMMANDS: readonly Command[] = [
  affectedCommand,
  buildCommand,
  buildAllCommand,
  catalogCommand,
  consolidateCommand,
  createCommand,
  diffCommand,
  editCommand,
  explainCommand,
  localizeCommand,
  lockCommand,
  lspCommand,
  serveCommand,
  validateCommand,
  versionCommand,
  ...completionCommands(() => ROOT),
];

/** cobra's `-h, --help`, on every command */
function helpFlag(command: Command): FlagSpec {
  return { name: 'help', short: 'h', type: 'bool', help: `help for ${command.name}` };
}

const STACK_TRACE_FLAG = '--stack-trace';

const ROOT: Command = {
  name: PROGRAM,
  summary: 'kustomize, re-built in TypeScript',
  usage: '[command]',
  description: 'Manages declarative configuration of Kubernetes: kustomize, re-built in TypeScript.',
  flags: [],
  // parsed by main() wherever it stands; declared here for help and completion
  persistentFlags: [{ name: 'stack-trace', type: 'bool', help: 'print a stack-trace on error' }],
  subcommands: [...COMMANDS],
};

/** How the launcher started the CLI: its own file, and the path it was called by (`process.argv[1]`: a link's, when a link started it). */
interface Launch {
  launcher: string;
  calledAs: string;
}

/** Runs the CLI; returns the exit code. Output goes to the given streams (stdout/stderr by default). */
export async function main(args: string[], io: CliIO = STDIO, launch?: Launch): Promise<number> {
  if (launch) {
    const called = releaseInProgramName(programName(launch.calledAs));
    io = { ...io, launcher: launch.launcher, program: called.name, ...(called.release !== undefined && { programRelease: called.release }) };
  }
  const program = programOf(io);
  if (args[0] === '--version') args = ['version', ...args.slice(1)];
  // a global flag, accepted anywhere before `--`
  const end = args.includes('--') ? args.indexOf('--') : args.length;
  const stackTrace = args.slice(0, end).some((a) => a.replace(/_/g, '-') === STACK_TRACE_FLAG);
  if (stackTrace) args = [...args.slice(0, end).filter((a) => a.replace(/_/g, '-') !== STACK_TRACE_FLAG), ...args.slice(end)];
  try {
    return await dispatch(ROOT, [program], [], args, io);
  } catch (e) {
    io.err(`Error: ${messageOf(e)}\n`);
    if (stackTrace && e instanceof Error && e.stack) io.err(`${e.stack}\n`);
    return 1;
  }
}

/** Finds the (sub)command the arguments name and runs it, or prints help; `inherited` are the persistent flags of the commands above. */
async function dispatch(command: Command, path: string[], inherited: FlagSpec[], args: string[], io: CliIO): Promise<number> {
  const first = args[0];
  if (command.subcommands && first !== undefined && !first.startsWith('-')) {
    if (first === 'help') return dispatch(command, path, inherited, [...args.slice(1), '--help'], io);
    const sub = command.subcommands.find((c) => c.name === first || c.aliases?.includes(first));
    if (!sub) {
      // cobra refuses an unknown command only at the root; below it (`edit add foo`), a command
      // that only groups others prints its help, as kustomize does
      if (path.length > 1 && !command.run) {
        io.out(help(command, path, inherited));
        return 0;
      }
      io.err(`Error: unknown command "${first}" for "${path.join(' ')}"\n\n${help(command, path, inherited)}`);
      return 1;
    }
    return dispatch(sub, [...path, sub.name], [...inherited, ...(command.persistentFlags ?? [])], args.slice(1), io);
  }
  try {
    const parsed = withProgramVersion(
      parseFlags(args, [...localFlags(command), ...inherited], (m) => io.err(`${m}\n`)),
      command.flags,
      io.program,
      io.programRelease,
    );
    if (parsed.flags.get('help') === true || !command.run) {
      io.out(help(command, path, inherited));
      return 0;
    }
    if (command.subcommands && parsed.positional.length > 0) throw new KustomizeError('USAGE', `unknown command "${parsed.positional[0]}" for "${path.join(' ')}"`);
    return await command.run(parsed, io);
  } catch (e) {
    const exit = e instanceof KustomizeError ? exitOf(e, command) : undefined;
    if (exit === undefined) throw e;
    io.err(`Error: ${(e as KustomizeError).message}\n`);
    return exit;
  }
}

/** The exit code of a failed command, when not 1: a kustomize version without a profile is a usage error of every command. */
function exitOf(e: KustomizeError, command: Command): number | undefined {
  if (e.code === 'VERSION_UNSUPPORTED') return 2;
  return e.code === 'USAGE' ? command.usageExit : command.errorExit;
}

/** What a worker thread of the CLI's `build-all` and `affected` runs (the launcher calls it in the thread). */
export async function workerMain(): Promise<void> {
  (await import('../build/root-worker.js')).workerMain();
}

/**
 * The program's name as it was called: the file name of the path it was started by, without
 * the `.js` of the launcher's own file (`node bin/kustomize-ts.js`, npm's shims on Windows).
 */
export function programName(calledAs: string): string {
  // the file name after the last separator, / or (on Windows) \
  return calledAs.replace(/^.*[\\/]/, '').replace(/\.[cm]?js$/, '') || PROGRAM;
}

/** A command's own flags, its persistent ones and `--help`. */
function localFlags(command: Command): FlagSpec[] {
  return [...command.flags, ...(command.persistentFlags ?? []), helpFlag(command)];
}

/** Cobra-style help, in cobra's order: description, usage, aliases, examples, subcommands, flags, global flags. */
function help(command: Command, path: string[], inherited: FlagSpec[]): string {
  const parent = path.length === 1 ? path[0]! : path.slice(0, -1).join(' ');
  const lines: string[] = [];
  if (command.description ?? command.summary) lines.push(command.description ?? command.summary, '');
  lines.push('Usage:', `  ${[parent, command.usage].filter(Boolean).join(' ')}`, '');
  if (command.aliases?.length) lines.push('Aliases:', `  ${[command.name, ...command.aliases].join(', ')}`, '');
  if (command.examples) lines.push('Examples:', `  ${command.examples}`, '');
  const shown = command.subcommands?.filter((c) => !c.hidden) ?? [];
  if (shown.length) {
    const width = Math.max(...shown.map((c) => c.name.length)) + 3;
    lines.push('Available Commands:', ...shown.map((c) => `  ${c.name.padEnd(width)}${c.summary}`), '');
  }
  lines.push('Flags:', flagHelp(localFlags(command)), '');
  if (inherited.length) lines.push('Global Flags:', flagHelp(inherited), '');
  if (shown.length) lines.push(`Use "${path.join(' ')} [command] --help" for more information about a command.`, '');
  return lines.join('\n');
}
