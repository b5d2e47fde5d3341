import { setLongTimeout } from "../util/long-timeout.js";
import type { Kernel } from "./kernel.js";
import type { OpenFile, Readiness } from "./open-file.js";
import type { Process } from "./process.js";

/** One fd subscription of poll_oneoff; `file` is undefined for an fd the process does not have. */
export interface PollSubscription {
  file: OpenFile | undefined;
  op: "read" | "write";
}

/** A bad fd is "ready": the guest learns of it (EBADF) at once instead of waiting. */
const BAD_FD: Readiness = Object.freeze({ ready: true, nbytes: 0, hangup: false });

/**
 * poll_oneoff's wait. Answers at once when a subscription is ready or `timeoutMs` is 0; otherwise parks
 * the process until a file it watches becomes ready or `timeoutMs` (undefined: none) passes. Nothing
 * repeats: the files wake it when their state changes, and there is one timer at a time; every watcher and
 * the timer go on wake and on kill. `answer` writes the reply from each subscription's state, all of them
 * taken at the moment of waking, and whether the timeout passed.
 */
export function pollFiles(
  k: Kernel,
  p: Process,
  subs: readonly PollSubscription[],
  timeoutMs: number | undefined,
  answer: (states: readonly Readiness[], timedOut: boolean) => number,
): number | Promise<number> {
  const states = (): Readiness[] => subs.map((s) => (s.file ? s.file.readiness(s.op) : BAD_FD));
  const now = states();
  if (timeoutMs === 0 || now.some((r) => r.ready)) return answer(now, timeoutMs === 0);
  return k.park(p, (resolve) => {
    const wake = (): void => {
      const st = states();
      if (st.some((r) => r.ready)) finish(st, false);
    };
    const unwatch = subs.flatMap((s) => (s.file ? [s.file.watchReadiness(wake)] : []));
    // Node may run a timer up to a loop turn early (its clock is the turn's start); the guest's clock must
    // have reached the deadline, so an early timer is armed once more for what is left.
    const deadline = performance.now() + (timeoutMs ?? 0);
    const arm = (ms: number): (() => void) =>
      setLongTimeout(() => {
        const left = deadline - performance.now();
        if (left > 0) cancelTimer = arm(left);
        else finish(states(), true);
      }, ms);
    let cancelTimer = timeoutMs === undefined ? undefined : arm(timeoutMs);
    const cancel = (): void => {
      for (const u of unwatch) u();
      cancelTimer?.();
    };
    const finish = (st: readonly Readiness[], timedOut: boolean): void => {
      cancel();
      resolve(answer(st, timedOut));
    };
    return cancel;
  });
}
