/**
 * What a program opens, seen with strace: the files `kubectl kustomize` opened, to check that a
 * build's `inputs` list each of them (test/build/inputs-recall.test.ts, bench/inputs-recall.mjs).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';

/** A program's run under strace. */
export interface TracedRun {
  /** it exited 0 (and was not stopped at the timeout) */
  ok: boolean;
  timedOut: boolean;
  stdout: Buffer;
  stderr: string;
  /** the files it (and its children) opened successfully, as absolute paths */
  opened: Set<string>;
  /** opens relative to a descriptor whose path strace did not print: not in `opened` */
  unplaced: number;
}

/**
 * Runs `command args` in `cwd` under `strace -f -y -e trace=open,openat,openat2`, and gives
 * what it printed and the files it opened. With `timeoutMs`, its process group is killed then.
 */
export async function traceOpens(strace: string, command: string, args: readonly string[], options: { cwd: string; timeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<TracedRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'kts-strace-'));
  const log = join(scratch, 'strace.log');
  try {
    const straceArgs = ['-f', '-qq', '-y', '-e', 'trace=open,openat,openat2', '-e', 'signal=none', '-o', log, command, ...args];
    const run = await runToEnd(strace, straceArgs, options);
    let text = '';
    try {
      text = readFileSync(log, 'utf8');
    } catch {
      // strace could not start the program: nothing was opened
    }
    const { files, unplaced } = openedFiles(text, options.cwd);
    return { ...run, opened: files, unplaced };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function runToEnd(command: string, args: readonly string[], options: { cwd: string; timeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<Omit<TracedRun, 'opened' | 'unplaced'>> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            try {
              process.kill(-child.pid!, 'SIGKILL');
            } catch {
              // gone already
            }
          }, options.timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ ok: code === 0 && !timedOut, timedOut, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

const CALL = /^(\d+)\s+(?:open|openat|openat2)\((.*)$/;
const RESUMED = /^(\d+)\s+<\.\.\. (?:open|openat|openat2) resumed>(.*)$/;
/** the descriptor (with -y, followed by its path: `AT_FDCWD</repo>`, `3</tmp>`) and the path argument */
const PATH_ARGUMENT = /^(?:(AT_FDCWD|\d+)(?:<((?:[^>\\]|\\.)*)>)?, )?"((?:[^"\\]|\\.)*)"/;
const RESULT = /\)\s+=\s+(-?\d+)(?:[<\s]|$)/;

/**
 * The files a strace log (-f -y, open/openat/openat2) shows opened successfully, as absolute
 * paths: a relative one against the directory of the descriptor it names, or `cwd`.
 */
export function openedFiles(log: string, cwd: string): { files: Set<string>; unplaced: number } {
  const files = new Set<string>();
  const pending = new Map<string, string>(); // pid → the arguments of a call strace printed as unfinished
  let unplaced = 0;
  const finish = (args: string, rest: string) => {
    const p = PATH_ARGUMENT.exec(args);
    const r = RESULT.exec(rest);
    if (!p || !r || Number(r[1]) < 0) return;
    const file = unescapeC(p[3]!);
    if (isAbsolute(file)) files.add(normalize(file));
    else if (p[2] !== undefined) files.add(resolve(unescapeC(p[2]), file));
    else if (p[1] === undefined || p[1] === 'AT_FDCWD') files.add(resolve(cwd, file));
    else unplaced++;
  };
  for (const line of log.split('\n')) {
    const call = CALL.exec(line);
    if (call) {
      if (line.endsWith('<unfinished ...>')) pending.set(call[1]!, call[2]!);
      else finish(call[2]!, call[2]!);
      continue;
    }
    const resumed = RESUMED.exec(line);
    if (!resumed) continue;
    const started = pending.get(resumed[1]!);
    if (started === undefined) continue;
    pending.delete(resumed[1]!);
    finish(started, resumed[2]!);
  }
  return { files, unplaced };
}

/** A C string as strace prints it (`\"`, `\\`, `\n`, `\ooo`, `\xhh`), back to its text. */
function unescapeC(s: string): string {
  const bytes: number[] = [];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, '"': 34, '\\': 92 };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = s[++i]!;
    if (simple[next] !== undefined) bytes.push(simple[next]);
    else if (next === 'x') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const octal = /^[0-7]{1,3}/.exec(s.slice(i))?.[0] ?? next;
      bytes.push(parseInt(octal, 8));
      i += octal.length - 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Of `files` (absolute), the regular files under `top` (a real path), as real paths relative to
 * it: directories, files gone and files elsewhere (/etc, caches, temporary files) left out.
 */
export function regularFilesUnder(files: Iterable<string>, top: string): Set<string> {
  const out = new Set<string>();
  for (const file of files) {
    let real: string;
    try {
      real = realpathSync(file);
      if (!statSync(real).isFile()) continue;
    } catch {
      continue;
    }
    const rel = relative(top, real);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
    out.add(rel);
  }
  return out;
}

/** What kubectl opened that the inputs do not list (recall gaps), and what they list that it did not open. */
export function compareOpened(opened: ReadonlySet<string>, inputs: ReadonlySet<string>): { missed: string[]; extra: string[] } {
  return { missed: [...opened].filter((f) => !inputs.has(f)).sort(), extra: [...inputs].filter((f) => !opened.has(f)).sort() };
}
