/** The kinds of host memory a VM holds, each counted against its `maxVmMemoryBytes`. */
export type Holding = "guest" | "files" | "pipes" | "output";

export interface MemoryUse {
  /** Linear memories of the VM's running guest processes. */
  guest: number;
  /** File data in the VM's file system. */
  files: number;
  /** Bytes buffered in pipes. */
  pipes: number;
  /** Output kept for exec results. */
  output: number;
  /** All of the above. */
  total: number;
  /** The VM's cap (Limits.maxVmMemoryBytes). */
  max: number;
}

/**
 * One VM's memory account. Whoever holds bytes takes them here first and gives them back when they are
 * gone; a take that would pass the cap is refused, and the taker turns that into the guest's error
 * (ENOSPC, EPIPE, ENOMEM, a stopped command). The host's memory is then bounded by the sum of the caps.
 */
export class MemoryBudget {
  private readonly held: Record<Holding, number> = { guest: 0, files: 0, pipes: 0, output: 0 };
  private used = 0;

  constructor(readonly max: number) {}

  /** Takes `n` bytes for `what`; false, taking nothing, when that would pass the cap. */
  tryTake(what: Holding, n: number): boolean {
    if (n > 0 && this.used + n > this.max) return false;
    this.held[what] += n;
    this.used += n;
    return true;
  }

  /** Gives back `n` bytes taken for `what`. */
  give(what: Holding, n: number): void {
    if (n > this.held[what]) throw new Error(`memory budget: giving back ${n} bytes of ${what}, holding ${this.held[what]}`);
    this.held[what] -= n;
    this.used -= n;
  }

  get free(): number {
    return this.max - this.used;
  }

  use(): MemoryUse {
    return { ...this.held, total: this.used, max: this.max };
  }
}
