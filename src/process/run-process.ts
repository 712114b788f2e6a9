import { spawn } from 'node:child_process';

export interface ProcessRequest {
  /** the executable and its arguments */
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin?: string;
  /** seconds before the process is killed */
  timeout: number;
}

export interface ProcessResult {
  stdout: string;
  stderr: string;
  /** exit code, null when killed by a signal */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
}

/**
 * Runs a process to completion: feeds stdin, collects stdout and stderr, kills it after the
 * timeout. Rejects only when the process cannot start; callers judge the result.
 */
export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = req.argv as [string, ...string[]];
    const child = spawn(cmd, args, { cwd: req.cwd, env: req.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, req.timeout * 1000);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    let done = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code, signal, timedOut });
    };
    child.on('close', finish);
    // a killed process's own children may still hold its output open: stop waiting for them
    child.on('exit', (code, signal) => {
      if (!timedOut) return;
      child.stdout.destroy();
      child.stderr.destroy();
      finish(code, signal);
    });
    // a process that does not read its input must not make us fail
    child.stdin.on('error', () => undefined);
    child.stdin.end(req.stdin ?? '');
  });
}

/** The last part of a process's stderr, for an error message. */
export function stderrTail(stderr: string): string {
  const t = stderr.trim();
  if (!t) return '';
  return `\n${t.length > 4000 ? '...' + t.slice(-4000) : t}`;
}
