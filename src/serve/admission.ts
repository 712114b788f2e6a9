/** Why a request was not admitted. */
type Refusal = 'queue-full' | 'aborted';

/**
 * At most `slots` builds at a time, and at most `queue` more waiting, first come first served;
 * a request beyond that is refused at once rather than left to wait unbounded.
 */
export class Admission {
  private running = 0;
  private readonly waiting: { admit: () => void }[] = [];

  constructor(
    private readonly slots: number,
    private readonly queue: number,
  ) {}

  get inFlight(): number {
    return this.running;
  }

  get queueDepth(): number {
    return this.waiting.length;
  }

  /**
   * A slot, once one is free: resolves to the function that frees it, or to why there is none
   * (the queue is full, or `signal` aborted while the request waited).
   */
  enter(signal: AbortSignal): Promise<(() => void) | Refusal> {
    if (signal.aborted) return Promise.resolve('aborted');
    if (this.running < this.slots) return Promise.resolve(this.take());
    if (this.waiting.length >= this.queue) return Promise.resolve('queue-full');
    return new Promise((resolve) => {
      const entry = {
        admit: () => {
          signal.removeEventListener('abort', leave);
          resolve(this.take());
        },
      };
      const leave = (): void => {
        this.waiting.splice(this.waiting.indexOf(entry), 1);
        resolve('aborted');
      };
      signal.addEventListener('abort', leave, { once: true });
      this.waiting.push(entry);
    });
  }

  private take(): () => void {
    this.running++;
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.running--;
      // the slot passes straight to the first waiting: running never drops below what waits for it
      this.waiting.shift()?.admit();
    };
  }
}
