// The kernel's side of a process's wake ring (src/kernel/wake-ring.ts): one-shot interests, checked against
// the fd's level when armed, so that a guest that armed after its last EAGAIN cannot miss the wake-up.
import { describe, expect, it } from "vitest";
import { WAKE_ENTRIES, WakeEvent, WakeSlot, allocateWakeRing, wakeEntrySlot } from "../src/abi/wake-ring.js";
import { MemoryBudget } from "../src/kernel/memory-budget.js";
import { Pipe } from "../src/kernel/pipe.js";
import { WakeRing } from "../src/kernel/wake-ring.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function setup(): { ring: WakeRing; i32: Int32Array; pipe: Pipe; events: () => [number, number][] } {
  const buffer = allocateWakeRing();
  const i32 = new Int32Array(buffer);
  const pipe = new Pipe(new MemoryBudget(1 << 20), 16);
  pipe.readEnd.retain();
  pipe.writeEnd.retain();
  let head = 0;
  /** What the guest would read: the entries since the last call. */
  const events = (): [number, number][] => {
    const out: [number, number][] = [];
    for (; head < i32[WakeSlot.TAIL]!; head++) out.push([i32[wakeEntrySlot(head)]!, i32[wakeEntrySlot(head) + 1]!]);
    Atomics.store(i32, WakeSlot.HEAD, head);
    return out;
  };
  return { ring: new WakeRing(buffer), i32, pipe, events };
}

describe("wake ring", () => {
  it("arming an fd that is ready queues its event at once", () => {
    const { ring, pipe, events } = setup();
    pipe.write(bytes("x"));
    ring.arm(5, pipe.readEnd, WakeEvent.READ);
    expect(events()).toEqual([[5, WakeEvent.READ]]);
  });

  it("an fd that is not ready is watched, and its event queued when data arrives, once", () => {
    const { ring, pipe, events } = setup();
    ring.arm(5, pipe.readEnd, WakeEvent.READ);
    expect(events()).toEqual([]);
    pipe.write(bytes("a"));
    expect(events()).toEqual([[5, WakeEvent.READ]]);
    // One-shot: more data raises nothing until the guest arms again (after its next EAGAIN).
    pipe.write(bytes("b"));
    expect(events()).toEqual([]);
    ring.arm(5, pipe.readEnd, WakeEvent.READ);
    expect(events()).toEqual([[5, WakeEvent.READ]]);
  });

  it("the end of file (the writer gone) is readiness too", () => {
    const { ring, pipe, events } = setup();
    ring.arm(7, pipe.readEnd, WakeEvent.READ);
    pipe.writeEnd.release();
    expect(events()).toEqual([[7, WakeEvent.READ]]);
  });

  it("a write interest fires when a full pipe gets room", () => {
    const { ring, pipe, events } = setup();
    pipe.write(bytes("0123456789abcdef"));
    ring.arm(6, pipe.writeEnd, WakeEvent.WRITE);
    expect(events()).toEqual([]);
    pipe.readEnd.read(new Uint8Array(16), new AbortController().signal);
    expect(events()).toEqual([[6, WakeEvent.WRITE]]);
  });

  it("arming twice keeps one interest; disarming (the fd closed) drops it", () => {
    const { ring, pipe, events } = setup();
    ring.arm(5, pipe.readEnd, WakeEvent.READ);
    ring.arm(5, pipe.readEnd, WakeEvent.READ);
    ring.disarm(5);
    pipe.write(bytes("a"));
    expect(events()).toEqual([]);
  });

  it("a full ring sets OVERFLOW instead of overwriting what the guest has not read", () => {
    const { ring, i32, pipe, events } = setup();
    pipe.write(bytes("a"));
    for (let i = 0; i < WAKE_ENTRIES; i++) ring.arm(i, pipe.readEnd, WakeEvent.READ);
    expect(i32[WakeSlot.OVERFLOW]).toBe(0);
    ring.arm(WAKE_ENTRIES, pipe.readEnd, WakeEvent.READ);
    expect(i32[WakeSlot.OVERFLOW]).toBe(1);
    const got = events();
    expect(got.length).toBe(WAKE_ENTRIES);
    expect(got[0]).toEqual([0, WakeEvent.READ]);
    expect(got.at(-1)).toEqual([WAKE_ENTRIES - 1, WakeEvent.READ]);
  });
});
