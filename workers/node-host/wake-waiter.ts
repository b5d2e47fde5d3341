import { WakeSlot, wakeEntrySlot } from "../../src/abi/wake-ring.js";

/**
 * The guest's side of its wake ring (src/abi/wake-ring.ts): one Atomics.waitAsync on TAIL at a time; on
 * wake, every new entry is handed to `deliver` and HEAD is advanced. After an overflow the kernel dropped
 * events, so the guest re-arms what it waits for (`rearm`). Waiting does not hold the worker's loop: the
 * guest's handles do (runtime.ts `hold`).
 */
export class WakeWaiter {
  private readonly i32: Int32Array;
  private head = 0;
  /** Events read from the ring and not yet delivered, oldest first; `rearm` once they are, after an overflow. */
  private queue: [number, number][] = [];
  private rearmAfter = false;
  private scheduled = false;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly deliver: (fd: number, events: number) => void,
    private readonly rearm: () => void,
  ) {
    this.i32 = new Int32Array(buffer);
  }

  start(): void {
    const r = Atomics.waitAsync(this.i32, WakeSlot.TAIL, this.head);
    if (r.async) void r.value.then(() => this.drain());
    else queueMicrotask(() => this.drain());
  }

  private drain(): void {
    const tail = Atomics.load(this.i32, WakeSlot.TAIL);
    for (; this.head !== tail; this.head = (this.head + 1) | 0) {
      const slot = wakeEntrySlot(this.head >>> 0);
      this.queue.push([this.i32[slot]!, this.i32[slot + 1]!]);
    }
    Atomics.store(this.i32, WakeSlot.HEAD, this.head);
    if (Atomics.exchange(this.i32, WakeSlot.OVERFLOW, 0) === 1) this.rearmAfter = true;
    this.start();
    if (!this.scheduled) this.deliverNext();
  }

  /**
   * Delivers one event, and the next in a turn of its own: as in Node, where each ready handle is a callback
   * of the loop, the guest's promise jobs of one event run before the next event (a child's 'message' and its
   * 'exit' ready at once: a listener for 'exit' added after an `await` of the message still hears it).
   */
  private readonly deliverNext = (): void => {
    this.scheduled = false;
    const event = this.queue.shift();
    if (event) this.deliver(event[0], event[1]);
    if (this.queue.length > 0) {
      this.scheduled = true;
      setImmediate(this.deliverNext);
    } else if (this.rearmAfter) {
      this.rearmAfter = false;
      this.rearm();
    }
  };
}
