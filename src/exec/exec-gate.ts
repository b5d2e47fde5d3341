/** An admitted exec's place in the gate. */
export interface GateTicket {
  /** Leaves the gate (idempotent). */
  release(): void;
  /** Whether the exec is waiting on something (all its processes parked): set once it has started. */
  idle: () => boolean;
}

/** What the gate needs to know of its VM. */
export interface GateVm {
  /** The VM has processes to spare for one more exec. */
  hasRoom(): boolean;
  /** Calls `listener` whenever a process of the VM starts waiting or exits; returns its removal. */
  watchQuiet(listener: () => void): () => void;
}

/**
 * Admission of execs to one VM: at most `size` start at once, the rest wait their turn in order.
 *
 * A burst of execs is served best by the router's few shells: measured with 300 concurrent
 * `echo $i | cat` on 2 cores, 4 at a time took 7.9 s and 0.5 GiB of host memory, 16 at a time 26 s and
 * 1.5 GiB (fresh shells and a worker each). Long-running commands (servers, waits, execs that need each
 * other) must not keep the others out, though: once an exec has run for `holdMs`, it stops counting as
 * soon as it is idle — every process of it parked in a system call — while others wait and the VM has
 * processes to spare. A busy one keeps its place: on a loaded machine every exec runs long, and letting
 * more in would only slow them all down. Idleness is looked at when a process of the VM starts waiting
 * or exits, never on a timer.
 */
export class ExecGate {
  private admitted = 0;
  private readonly queue: Array<() => void> = [];
  /** Admitted execs past `holdMs`, which leave as soon as they are idle. */
  private readonly overdue = new Set<GateTicket>();
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly size: number,
    private readonly holdMs: number,
    private readonly vm: GateVm,
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
      this.letIdleGo();
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
        clearTimeout(deadline);
        this.forget(ticket);
        this.admitted--;
        this.queue.shift()?.();
      },
    };
    const deadline = setTimeout(() => {
      this.overdue.add(ticket);
      this.unwatch ??= this.vm.watchQuiet(() => this.letIdleGo());
      this.letIdleGo();
    }, this.holdMs).unref();
    return ticket;
  }

  /** Overdue execs that are idle stop counting, while others wait and the VM has room. */
  private letIdleGo(): void {
    for (const t of this.overdue) {
      if (this.queue.length === 0 || !this.vm.hasRoom()) return;
      if (t.idle()) t.release();
    }
  }

  private forget(ticket: GateTicket): void {
    if (!this.overdue.delete(ticket) || this.overdue.size > 0) return;
    this.unwatch?.();
    this.unwatch = undefined;
  }
}
