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
    const events: [number, number][] = [];
    for (; this.head !== tail; this.head = (this.head + 1) | 0) {
      const slot = wakeEntrySlot(this.head >>> 0);
      events.push([this.i32[slot]!, this.i32[slot + 1]!]);
    }
    Atomics.store(this.i32, WakeSlot.HEAD, this.head);
    const overflowed = Atomics.exchange(this.i32, WakeSlot.OVERFLOW, 0) === 1;
    this.start();
    for (const [fd, ev] of events) this.deliver(fd, ev);
    if (overflowed) this.rearm();
  }
}
