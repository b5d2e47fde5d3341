import type { MemoryBudget } from "./memory-budget.js";

/**
 * A bounded FIFO of bytes (a stream socket's receive buffer): it takes at most `capacity` bytes, each one
 * counted against the VM's memory while it is held. The queue is the one owner of what it holds: `clear`
 * gives everything back.
 */
export class ByteQueue {
  private chunks: Uint8Array[] = [];
  private head = 0; // bytes already consumed from chunks[0]
  private held = 0;

  constructor(
    private readonly memory: MemoryBudget,
    public capacity: number,
  ) {}

  get length(): number {
    return this.held;
  }

  get room(): number {
    return Math.max(0, this.capacity - this.held);
  }

  /** Copies in what fits of `data`; returns how much (0 when full, or when the VM has no memory left for it). */
  put(data: Uint8Array): number {
    const n = Math.min(data.length, this.room);
    if (n === 0 || !this.memory.tryTake("pipes", n)) return 0;
    this.chunks.push(data.slice(0, n));
    this.held += n;
    return n;
  }

  /** Copies up to `target.length` bytes out; `peek` leaves them queued. */
  take(target: Uint8Array, peek = false): number {
    let n = 0;
    let i = 0;
    let head = this.head;
    while (n < target.length && i < this.chunks.length) {
      const c = this.chunks[i]!;
      const k = Math.min(c.length - head, target.length - n);
      target.set(c.subarray(head, head + k), n);
      n += k;
      head += k;
      if (head === c.length) {
        i++;
        head = 0;
      }
    }
    if (peek) return n;
    this.chunks.splice(0, i);
    this.head = head;
    this.held -= n;
    this.memory.give("pipes", n);
    return n;
  }

  clear(): void {
    this.memory.give("pipes", this.held);
    this.chunks = [];
    this.head = 0;
    this.held = 0;
  }
}
