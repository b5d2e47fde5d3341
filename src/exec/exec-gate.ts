/** An admitted exec's place in the gate. */
export interface GateTicket {
  /** Leaves the gate (idempotent). */
  release(): void;
  /** Whether the exec is waiting on something (all its processes parked): set once it has started. */
  idle: () => boolean;
}

/**
 * Admission of execs to one VM: at most `size` start at once, the rest wait their turn in order.
 *
 * A burst of execs is served best by the router's few shells: measured with 300 concurrent
 * `echo $i | cat` on 2 cores, 4 at a time took 7.9 s and 0.5 GiB of host memory, 16 at a time 26 s and
 * 1.5 GiB (fresh shells and a worker each). Long-running commands (servers, waits, execs that need each
 * other) must not keep the others out, though: an exec that has run for `holdMs` and is idle — every
 * process of it parked in a system call — stops counting, while the VM has processes to spare
 * (`hasRoom`). A busy one keeps its place: on a loaded machine every exec runs long, and letting more in
 * would only slow them all down. The check is repeated every `holdMs` for an exec that keeps its place.
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
   * Resolves with a ticket once the exec may run; rejects with `signal`'s reason if it is aborted first
   * (the exec then never ran).
   */
  enter(signal: AbortSignal): Promise<GateTicket> {
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

  private admit(): GateTicket {
    this.admitted++;
    let held = true;
    const ticket: GateTicket = {
      idle: () => false,
      release: () => {
        if (!held) return;
        held = false;
        clearTimeout(timer);
        this.admitted--;
        this.queue.shift()?.();
      },
    };
    const hold = (): void => {
      if (this.queue.length > 0 && this.hasRoom() && ticket.idle()) ticket.release();
      else timer = setTimeout(hold, this.holdMs).unref();
    };
    let timer = setTimeout(hold, this.holdMs).unref();
    return ticket;
  }
}
