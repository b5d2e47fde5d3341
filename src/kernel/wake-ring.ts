import { WAKE_ENTRIES, WakeEvent, WakeSlot, wakeEntrySlot } from "../abi/wake-ring.js";
import type { OpenFile } from "./open-file.js";

/**
 * The kernel's side of a process's wake ring (src/abi/wake-ring.ts): one-shot interests in its fds, each
 * watching the open file until it is ready, then written to the ring and dropped. Owned by the process:
 * closing an fd drops its interests, the exit drops all.
 */
export class WakeRing {
  private readonly i32: Int32Array;
  /** fd * 2 + (write ? 1 : 0) → stop watching. */
  private readonly armed = new Map<number, () => void>();

  constructor(readonly buffer: SharedArrayBuffer) {
    this.i32 = new Int32Array(buffer);
  }

  arm(fd: number, file: OpenFile, events: number): void {
    for (const [bit, op] of [[WakeEvent.READ, "read"], [WakeEvent.WRITE, "write"]] as const) {
      if ((events & bit) === 0) continue;
      const key = fd * 2 + (bit === WakeEvent.WRITE ? 1 : 0);
      if (this.armed.has(key)) continue;
      if (file.readiness(op).ready) {
        this.push(fd, bit);
        continue;
      }
      const unwatch = file.watchReadiness(() => {
        if (!file.readiness(op).ready) return;
        this.drop(key);
        this.push(fd, bit);
      });
      this.armed.set(key, unwatch);
    }
  }

  /** Forgets the interests in `fd` (it was closed). */
  disarm(fd: number): void {
    this.drop(fd * 2);
    this.drop(fd * 2 + 1);
  }

  disarmAll(): void {
    for (const unwatch of this.armed.values()) unwatch();
    this.armed.clear();
  }

  private drop(key: number): void {
    this.armed.get(key)?.();
    this.armed.delete(key);
  }

  private push(fd: number, events: number): void {
    const tail = this.i32[WakeSlot.TAIL]!;
    if (tail - Atomics.load(this.i32, WakeSlot.HEAD) >= WAKE_ENTRIES) {
      Atomics.store(this.i32, WakeSlot.OVERFLOW, 1);
    } else {
      const slot = wakeEntrySlot(tail);
      this.i32[slot] = fd;
      this.i32[slot + 1] = events;
      Atomics.store(this.i32, WakeSlot.TAIL, (tail + 1) | 0);
    }
    Atomics.notify(this.i32, WakeSlot.TAIL);
  }
}
