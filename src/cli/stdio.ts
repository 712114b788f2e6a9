import { writeSync } from 'node:fs';
import type { CliIO } from './command.js';

/**
 * The process's standard output and error, written directly (`fs.writeSync`): `process.stdout`
 * would first load Node's stream modules, about a tenth of a small build's run.
 */
export const STDIO: CliIO = { out: (text) => writeAll(1, text), err: (text) => writeAll(2, text) };

/** How long to wait for a full pipe to drain, when the descriptor is non-blocking (another process set it so). */
const DRAIN_WAIT_MS = 1;

/**
 * Writes all of `text` to `fd`. A reader that stops early (`kustomize-ts build | head -1`)
 * closes the pipe: the CLI then stops quietly, with the status of a process killed by SIGPIPE
 * (as kubectl, 128 + 13).
 */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(141);
      if (code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, DRAIN_WAIT_MS);
    }
  }
}
