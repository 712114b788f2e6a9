import type { ChildProcess } from 'node:child_process';
import { abortedError, throwIfAborted } from '../abort.js';

export interface ProcessRequest {
  /** the executable and its arguments */
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin?: string;
  /** seconds before the process (and every process it started) is killed */
  timeout: number;
  /** bytes of stdout accepted before the process is killed as `outputTooLarge`; {@link MAX_STDOUT_BYTES} by default */
  maxStdoutBytes?: number;
  /** kills the process (and every process it started) when it aborts, as the timeout does */
  signal?: AbortSignal | undefined;
}

export interface ProcessResult {
  stdout: string;
  /** the last {@link STDERR_KEPT_BYTES} of stderr */
  stderr: string;
  /** exit code, null when killed by a signal */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** stdout passed `maxStdoutBytes`; what was read is dropped */
  outputTooLarge: boolean;
}

/** The most stdout a process may write (a larger string cannot be decoded into one JS string anyway). */
const MAX_STDOUT_BYTES = 256 * 1024 * 1024;
/** How much of the end of stderr is kept for error messages. */
export const STDERR_KEPT_BYTES = 4 * 1024 * 1024;
/**
 * How long output is still read after the process itself exited: a process it left behind may
 * hold the pipes open for as long as it lives, and must not hold the build.
 */
const EXIT_GRACE_MS = 200;

/**
 * Runs a process to completion: feeds stdin, collects stdout and the end of stderr. The
 * process runs in a process group of its own, so a timeout (or too much output, or the
 * request's signal) kills it and everything it started. Rejects when the process cannot start,
 * and with an ABORTED KustomizeError once an aborted process has exited (at once if the signal
 * had aborted before); callers judge the result.
 */
export async function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  const aborting = req.signal;
  throwIfAborted(aborting);
  // loaded when a build first runs a process: most builds never do, and it is slow to load
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = req.argv as [string, ...string[]];
    const child = spawn(cmd, args, { cwd: req.cwd, env: req.env, stdio: ['pipe', 'pipe', 'pipe'], detached: GROUPS });
    const stdout = new StdoutBuffer(req.maxStdoutBytes ?? MAX_STDOUT_BYTES);
    const stderr = new TailBuffer(STDERR_KEPT_BYTES);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, req.timeout * 1000);
    const onAbort = (): void => killGroup(child);
    aborting?.addEventListener('abort', onAbort, { once: true });
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      aborting?.removeEventListener('abort', onAbort);
      // the process has exited (and was waited for): nothing of it is left running
      if (aborting?.aborted) reject(abortedError(aborting));
      else resolve({ stdout: stdout.text(), stderr: stderr.text(), code, signal, timedOut, outputTooLarge: stdout.overflowed });
    };
    child.stdout.on('data', (d: Buffer) => {
      if (!stdout.add(d)) killGroup(child);
    });
    child.stderr.on('data', (d: Buffer) => stderr.add(d));
    child.on('error', (e) => {
      clearTimeout(timer);
      aborting?.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', finish);
    child.on('exit', (code, signal) => {
      // read what is left in the pipes for a moment, then stop waiting for whoever else holds them
      graceTimer = setTimeout(() => {
        killGroup(child);
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      }, timedOut || stdout.overflowed || aborting?.aborted ? 0 : EXIT_GRACE_MS);
    });
    // a process that does not read its input must not make us fail
    child.stdin.on('error', () => undefined);
    child.stdin.end(req.stdin ?? '');
  });
}

/** Process groups exist on POSIX systems; on Windows only the process itself is killed. */
const GROUPS = process.platform !== 'win32';

/** SIGKILLs the child's process group (the child and everything it started that did not leave it). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (GROUPS) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // the group is gone already
  }
}

/** Collects stdout up to a limit; past it, drops everything and says so. */
class StdoutBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  overflowed = false;

  constructor(private readonly limit: number) {}

  /** false once the limit is passed */
  add(chunk: Buffer): boolean {
    if (this.overflowed) return false;
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.overflowed = true;
      this.chunks = [];
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Keeps the last `limit` bytes written. */
class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0]!.length >= this.limit) this.size -= this.chunks.shift()!.length;
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.limit)).toString('utf8');
  }
}

/** Why a process stopped with `outputTooLarge`, for an error message. */
export function outputTooLargeReason(req: ProcessRequest): string {
  const limit = req.maxStdoutBytes ?? MAX_STDOUT_BYTES;
  return `stopped after writing more than ${limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MiB` : `${limit} bytes`} to stdout`;
}

/** The last part of a process's stderr, for an error message. */
export function stderrTail(stderr: string): string {
  const t = stderr.trim();
  if (!t) return '';
  return `\n${t.length > 4000 ? '...' + t.slice(-4000) : t}`;
}
