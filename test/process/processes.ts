import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether a process is running: not gone, and not a zombie (which answers signal 0 until it is reaped; its state is Z). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/**
 * Waits for a process to be gone: a SIGKILL takes effect when the kernel next runs the process.
 * It waits as long as that takes; the test's own timeout says when it is too long.
 */
export async function gone(pid: number): Promise<void> {
  while (alive(pid)) await sleep(20);
}

/** Waits for a file a process writes when it has got somewhere (written aside and renamed, so it is whole), and reads it. */
export async function fileWritten(path: string): Promise<string> {
  while (!existsSync(path)) await sleep(20);
  return readFileSync(path, 'utf8');
}
