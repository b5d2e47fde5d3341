/**
 * Admission of execs to one VM: at most `size` start at once, the rest wait their turn in order.
 *
 * A burst of execs is served best by the router's few shells: measured with 300 concurrent
 * `echo $i | cat` on 2 cores, 4 at a time took 7.9 s and 0.5 GiB of host memory, 16 at a time 26 s and
 * 1.5 GiB (fresh shells and a worker each). An exec that has run for `holdMs` stops counting, so that
 * long-running commands (servers, waits, execs that need each other) never keep the others out for long;
 * but only while `hasRoom()` (the VM has processes to spare): on an overloaded machine, where every exec
 * runs long, letting more in would only make their commands fail to start.
 */
export class ExecGate {
  private admitted = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly holdMs: number,
    private readonly hasRoom: () => boolean,
  ) {}

  /**
   * Resolves with a release function once the exec may run; rejects with `signal`'s reason if it is
   * aborted first (the exec then never ran). Release is idempotent.
   */
  enter(signal: AbortSignal): Promise<() => void> {
    if (this.admitted < this.size) return Promise.resolve(this.admit());
    return new Promise((resolve, reject) => {
      const next = (): void => {
        signal.removeEventListener("abort", onAbort);
        resolve(this.admit());
      };
      const onAbort = (): void => {
        this.queue.splice(this.queue.indexOf(next), 1);
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.queue.push(next);
    });
  }

  private admit(): () => void {
    this.admitted++;
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      this.admitted--;
      this.queue.shift()?.();
    };
    const hold = (): void => {
      if (this.hasRoom()) release();
      else timer = setTimeout(hold, this.holdMs).unref();
    };
    let timer = setTimeout(hold, this.holdMs).unref();
    return release;
  }
}
