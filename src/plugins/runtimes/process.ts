import { spawn } from 'node:child_process';
import { KustomizeError } from '../../errors.js';

export interface ProcessRequest {
  /** the executable and its arguments */
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin?: string;
  /** seconds before the process is killed */
  timeout: number;
  /** names the plugin in errors */
  describe: string;
}

export interface ProcessResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs an external plugin process to completion: feeds stdin, collects stdout and stderr, kills
 * it after the timeout. Any failure (cannot start, non-zero exit, signal, timeout) is one
 * PLUGIN_FAILED error naming the plugin, with the end of its stderr.
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
      reject(new KustomizeError('PLUGIN_FAILED', `${req.describe}: cannot run ${cmd}: ${e.message}`, { cause: e }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut) {
        reject(new KustomizeError('PLUGIN_FAILED', `${req.describe}: timed out after ${req.timeout}s (raise it with --plugin-timeout)${tail(stderr)}`));
      } else if (code !== 0) {
        const status = code === null ? `signal ${signal}` : `exit status ${code}`;
        reject(new KustomizeError('PLUGIN_FAILED', `${req.describe}: couldn't execute function: ${status}${tail(stderr)}`));
      } else resolve({ stdout, stderr });
    });
    // a plugin that does not read its input must not make us fail
    child.stdin.on('error', () => undefined);
    child.stdin.end(req.stdin ?? '');
  });
}

function tail(stderr: string): string {
  const t = stderr.trim();
  if (!t) return '';
  return `\n${t.length > 4000 ? '...' + t.slice(-4000) : t}`;
}
