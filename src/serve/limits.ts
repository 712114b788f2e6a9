/** How much a render server takes on at once, and for how long. */
export interface ServerLimits {
  /** builds running at once */
  maxConcurrency: number;
  /** requests waiting for a build slot beyond those; more get 503 */
  queue: number;
  /** seconds a request may take, waiting included, before it gets 504 and its build is stopped */
  timeoutSeconds: number;
  /** bytes of request body */
  maxBodyBytes: number;
  /** bytes the build cache holds at most, as it estimates them */
  cacheBytes: number;
}

/** The limits a server has unless told otherwise: the one place they are written. */
export const DEFAULT_LIMITS: Readonly<ServerLimits> = Object.freeze({
  maxConcurrency: 4,
  queue: 64,
  timeoutSeconds: 60,
  maxBodyBytes: 64 * 1024,
  cacheBytes: 512 * 2 ** 20,
});
