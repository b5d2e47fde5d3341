import { RET_KILLED, State, type Channel } from "../../abi/channel.js";
import { Errno } from "../../abi/errno.js";
import { chargeGuestMemory } from "../guest-memory-account.js";
import { KernelError } from "../kernel-error.js";
import type { Kernel } from "../kernel.js";
import { ProcessKilled, type Process } from "../process.js";
import type { SyscallHandler } from "./context.js";
import { traceSyscall, tracing } from "./trace.js";
import { fdSyscalls } from "./fd.js";
import { netSyscalls } from "./net.js";
import { pathSyscalls } from "./path.js";
import { processSyscalls } from "./process.js";
import { SYSCALL_TURN_MS, SYSCALLS_PER_TURN } from "../../limits.js";


/** Call number → handler: the kernel side of the list in src/abi/syscalls.ts. */
export const syscallTable: Readonly<Record<number, SyscallHandler>> = {
  ...fdSyscalls,
  ...pathSyscalls,
  ...processSyscalls,
  ...netSyscalls,
};

function errnoOf(k: Kernel, p: Process, e: unknown): number {
  if (e instanceof ProcessKilled || p.killedBy !== undefined) return RET_KILLED;
  if (e instanceof KernelError) return e.errno;
  // Whatever else failed (a bug, a RangeError from storage, a stack overflow) must neither hang the guest
  // nor reach the host's event loop: the guest gets EIO and the kernel records the cause.
  k.fault(e);
  return Errno.EIO;
}

/** Processes (of every VM) whose guest is running between two system calls. */
let computing = 0;

/**
 * Serves a process's system calls until it exits: each request is handled at once, or parked until the
 * event that completes it. The kernel learns of requests through Atomics.waitAsync; only while this is
 * the one process computing does it watch the channel for a moment first (Channel.spinWhile), since
 * watching one channel would delay every other. `served` is called once the kernel is done with the
 * channel: the process has exited and no request of it is pending or parked.
 */
export function serveSyscalls(k: Kernel, p: Process, ch: Channel, served?: () => void): void {
  let awaiting = false;
  const expectRequest = (yes: boolean): void => {
    if (yes !== awaiting) computing += yes ? 1 : -1;
    awaiting = yes;
  };
  const finish = (ret: number, replyLength: number): void => {
    p.inSyscall = false;
    if (tracing) traceSyscall(p, ch, ret, replyLength);
    expectRequest(p.state === "running");
    ch.respond(ret, replyLength, computing <= 1);
  };
  const pump = (): void => {
    let budget = SYSCALLS_PER_TURN;
    const turnEnds = performance.now() + SYSCALL_TURN_MS;
    for (;;) {
      if (!ch.hasRequest) {
        if (p.state !== "running") {
          expectRequest(false);
          served?.();
          return;
        }
        if (computing !== 1 || !ch.spinWhile(State.RESPONSE)) {
          const next = ch.nextRequest();
          if (next) void next.then(pump);
          else pump();
          return;
        }
      }
      expectRequest(false);
      if (--budget === 0 || performance.now() > turnEnds) {
        // Yield to the event loop so that other processes, timeouts and kills get their turn.
        setImmediate(pump);
        return;
      }
      const handler = syscallTable[ch.op];
      let result: number | Promise<number>;
      p.inSyscall = true;
      try {
        // Before the kill check: a guest the VM has no memory for is killed here and answered "killed".
        chargeGuestMemory(k, p, ch);
        // A killed process may still run until its worker is stopped: it gets nothing done any more.
        if (p.killedBy !== undefined) throw p.killSignal.reason;
        if (!handler) throw new KernelError(Errno.ENOSYS);
        result = handler(k, p, ch);
      } catch (e) {
        finish(errnoOf(k, p, e), 0);
        continue;
      }
      if (typeof result === "number") {
        finish(Errno.SUCCESS, result);
        continue;
      }
      k.quieted(); // parked: the process waits
      result.then(
        (n) => finish(Errno.SUCCESS, n),
        (e) => finish(errnoOf(k, p, e), 0),
      ).then(pump);
      return;
    }
  };
  expectRequest(true);
  pump();
}
