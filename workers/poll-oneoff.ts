import { Errno } from "../src/abi/errno.js";
import { Sys } from "../src/abi/syscalls.js";
import { ClockId, EVENT_FD_HANGUP, EventType, SUBCLOCK_ABSTIME } from "../src/abi/wasi.js";
import type { GuestMemory } from "./guest-memory.js";
import type { GuestClocks } from "./guest-clocks.js";
import type { KernelClient } from "./kernel-client.js";

const SUBSCRIPTION_BYTES = 48;
const EVENT_BYTES = 32;

interface ClockSub {
  userdata: bigint;
  id: number;
  deadline: bigint;
}

/**
 * poll_oneoff: the fd subscriptions and the earliest clock deadline go to the kernel in one POLL call,
 * which waits there until an fd is ready or the deadline passes (src/kernel/poll.ts). Every subscription
 * ready on return is reported: fds as the kernel found them, clocks whose deadline has passed (and the one
 * the kernel's timer fired for, whatever this thread's clock says). Absolute deadlines become relative here.
 */
export function pollOneoff(mem: GuestMemory, k: KernelClient, clock: GuestClocks, inPtr: number, outPtr: number, nsubs: number, neventsPtr: number): number {
  if (nsubs === 0) return Errno.EINVAL;
  const view = mem.view;
  const request = k.channel.view;
  const clocks: ClockSub[] = [];
  const fds: Array<{ userdata: bigint; type: number }> = [];
  const invalid: bigint[] = [];
  let timeout: bigint | undefined; // of the earliest clock, relative
  let earliest = -1;
  for (let i = 0; i < nsubs; i++) {
    const s = inPtr + i * SUBSCRIPTION_BYTES;
    const userdata = view.getBigUint64(s, true);
    const type = view.getUint8(s + 8);
    if (type === EventType.CLOCK) {
      const id = view.getUint32(s + 16, true);
      // An unknown clock is an event at once, with error EINVAL (as wasmtime reports it).
      if (id > ClockId.THREAD_CPUTIME) {
        invalid.push(userdata);
        timeout = 0n;
        earliest = -1; // no clock fired: the wait is not to last
        continue;
      }
      const value = view.getBigUint64(s + 24, true);
      const now = clock.now(id);
      const deadline = view.getUint16(s + 40, true) & SUBCLOCK_ABSTIME ? value : now + value;
      const left = deadline > now ? deadline - now : 0n;
      if (timeout === undefined || left < timeout) {
        timeout = left;
        earliest = clocks.length;
      }
      clocks.push({ userdata, id, deadline });
    } else if (type === EventType.FD_READ || type === EventType.FD_WRITE) {
      if ((fds.length + 1) * 8 > k.data.length) return Errno.EINVAL;
      request.setUint32(fds.length * 8, view.getUint32(s + 16, true), true);
      request.setUint32(fds.length * 8 + 4, type, true);
      fds.push({ userdata, type });
    } else return Errno.EINVAL;
  }
  const t = timeout ?? 0n;
  const err = k.call(Sys.POLL, [fds.length, timeout === undefined ? 0 : 1, Number(t & 0xffffffffn), Number(t >> 32n)], fds.length * 8);
  if (err !== Errno.SUCCESS) return err;

  const reply = k.channel.view;
  const out = mem.view;
  let events = 0;
  const event = (userdata: bigint, error: number, type: number, nbytes: number, flags: number): void => {
    const e = outPtr + events++ * EVENT_BYTES;
    out.setBigUint64(e, userdata, true);
    out.setUint16(e + 8, error, true);
    out.setUint8(e + 10, type);
    out.setBigUint64(e + 16, BigInt(nbytes), true);
    out.setUint16(e + 24, flags, true);
  };
  fds.forEach((f, i) => {
    const state = reply.getUint16(i * 8 + 2, true);
    if (state & 1) event(f.userdata, reply.getUint16(i * 8, true), f.type, reply.getUint32(i * 8 + 4, true), state & 2 ? EVENT_FD_HANGUP : 0);
  });
  for (const userdata of invalid) event(userdata, Errno.EINVAL, EventType.CLOCK, 0, 0);
  const timedOut = k.out(1) === 1;
  clocks.forEach((c, i) => {
    if ((timedOut && i === earliest) || c.deadline <= clock.now(c.id)) event(c.userdata, Errno.SUCCESS, EventType.CLOCK, 0, 0);
  });
  mem.u32(neventsPtr, events);
  return Errno.SUCCESS;
}
