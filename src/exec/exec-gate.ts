/**
 * Admission of execs to one VM: at most `size` run at once, the rest wait their turn in order. Each exec
 * may start several processes, and a VM runs at most Limits.maxProcesses, so without this a burst of
 * execs would make the commands themselves fail with EAGAIN; with it they wait and all finish.
 */
export class ExecGate {
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly size: number) {}

  /**
   * Resolves with a release function once the exec may run; rejects with `signal`'s reason if it is
   * aborted first (the exec then never ran).
   */
  enter(signal: AbortSignal): Promise<() => void> {
    const release = (): void => {
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    };
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const admit = (): void => {
        signal.removeEventListener("abort", onAbort);
        resolve(release);
      };
      const onAbort = (): void => {
        this.queue.splice(this.queue.indexOf(admit), 1);
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.queue.push(admit);
    });
  }
}
