import type { FileSystem } from '../fs/filesystem.js';
import type { FlagSpec, ParsedArgs } from './flags.js';

/**
 * Where a command writes: its output and its messages (stdout and stderr for the real CLI); and
 * where the commands that work on the current directory (`create`, `edit`) work: the process's
 * directory on disk unless given (tests run them in memory).
 */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** absolute */
  cwd?: string;
  fs?: FileSystem;
  /** whether `err` writes to a terminal (progress bars are drawn there); by default asked of stderr */
  terminal?: boolean;
  /** the launcher that started this CLI (bin/kustomize-ts.js): `build-all`'s worker threads run it too */
  launcher?: string;
  /**
   * the name the CLI was started by, without the release a versioned link names (`kustomize`
   * for a link `kustomize` or `kustomize-v5.7.1` standing in for kustomize): what its messages
   * call it. Default `kustomize-ts`.
   */
  program?: string;
  /** the release the name it was started by asks for (`5.7.1` for a link `kustomize-v5.7.1`) */
  programRelease?: string;
}

/** The program's own name. */
export const PROGRAM = 'kustomize-ts';

/** The name the CLI's messages give the program: the one it was started by, else its own. */
export function programOf(io: CliIO): string {
  return io.program ?? PROGRAM;
}

/**
 * One command of the CLI (`build`, `version`, `edit`, …): its name, its help, its flags, and
 * what it does. A command with `subcommands` (`edit` → `add` → `resource`) dispatches on its
 * first positional argument instead of running.
 */
export interface Command {
  name: string;
  /** other names it answers to */
  aliases?: string[];
  /** one line for the parent's command list */
  summary: string;
  /** the usage line(s) after `Usage:` (without the program name), e.g. `build [DIR] [flags]` */
  usage: string;
  /** longer help shown above the usage, cobra-style */
  description?: string;
  /** examples shown in help */
  examples?: string;
  flags: FlagSpec[];
  /** flags this command and every command below it take (cobra's persistent flags; help lists them below as "Global Flags") */
  persistentFlags?: FlagSpec[];
  subcommands?: Command[];
  /** left out of help and completion (`__complete`, which the completion scripts call) */
  hidden?: boolean;
  /** the exit code of a wrong command line (a USAGE error), when not 1 as kubectl's */
  usageExit?: number;
  /** the exit code of any other error, when not 1 (`diff`'s 2, as diff has it) */
  errorExit?: number;
  /** runs the command; returns the exit code (errors thrown as KustomizeError are printed by the CLI as `Error: …`, exit 1) */
  run?(args: ParsedArgs, io: CliIO): Promise<number>;
}
