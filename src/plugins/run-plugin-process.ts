import { KustomizeError } from '../errors.js';
import { outputTooLargeReason, runProcess, stderrTail, type ProcessRequest } from '../process/run-process.js';

/**
 * Runs a plugin's process; any failure (cannot start, non-zero exit, signal, timeout, too much output) is one
 * PLUGIN_FAILED error naming the plugin, with the end of its stderr.
 */
export async function runPluginProcess(req: ProcessRequest & { describe: string }): Promise<string> {
  return (await runPluginProcessExiting(req, [0])).stdout;
}

/** {@link runPluginProcess}, an exit status in `accepted` being the plugin's answer rather than a failure. */
export async function runPluginProcessExiting(req: ProcessRequest & { describe: string }, accepted: readonly number[]): Promise<{ stdout: string; code: number }> {
  let result;
  try {
    result = await runProcess(req);
  } catch (e) {
    // ABORTED stays what it is
    if (e instanceof KustomizeError) throw e;
    throw new KustomizeError('PLUGIN_FAILED', `${req.describe}: cannot run ${req.argv[0]}: ${(e as Error).message}`, { cause: e });
  }
  if (result.timedOut) {
    throw new KustomizeError('PLUGIN_FAILED', `${req.describe}: timed out after ${req.timeout}s (raise it with --plugin-timeout)${stderrTail(result.stderr)}`);
  }
  if (result.outputTooLarge) throw new KustomizeError('PLUGIN_FAILED', `${req.describe}: ${outputTooLargeReason(req)}${stderrTail(result.stderr)}`);
  if (result.code === null || !accepted.includes(result.code)) {
    const status = result.code === null ? `signal ${result.signal}` : `exit status ${result.code}`;
    throw new KustomizeError('PLUGIN_FAILED', `${req.describe}: couldn't execute function: ${status}${stderrTail(result.stderr)}`);
  }
  return { stdout: result.stdout, code: result.code };
}
