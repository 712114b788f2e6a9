import { spawn } from 'node:child_process';

/** What a finished command left: its exit status and everything it wrote. */
export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, with no input, collecting its output. */
export function runCommand(command: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
