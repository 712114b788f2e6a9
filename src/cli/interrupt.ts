/** The signals that stop what the CLI runs: a terminal's Ctrl-C, and Kubernetes' (or any supervisor's) stop. */
export const STOPPING: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Runs `run` with a signal that aborts on SIGINT or SIGTERM. Plugin, helm and git processes run
 * in process groups of their own, which a terminal's Ctrl-C does not reach: unstopped, they
 * would outlive the CLI, and so would the temporary directories of remote bases. Once `run` has
 * settled (its processes killed, its directories removed), the CLI dies of the signal it got, as
 * it would have at once without this.
 */
export async function interruptible<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals): void => {
    received ??= signal;
    controller.abort(`interrupted (${signal})`);
  };
  for (const signal of STOPPING) process.on(signal, stop);
  try {
    return await run(controller.signal);
  } finally {
    for (const signal of STOPPING) process.off(signal, stop);
    if (received) process.kill(process.pid, received);
  }
}
