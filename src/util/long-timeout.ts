/** Node's timers fire at once for delays past 2^31-1 ms (~24.8 days); longer ones are chained here. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * Calls `fn` once `ms` milliseconds have passed, however long (Infinity: never), and never before: Node measures a
 * timer from the event loop's cached time, which can be milliseconds stale when the timer is set after synchronous
 * work, so an early wake-up is re-armed for the rest. (The global `performance` is read at each call, so that fake
 * timers in tests move it too.) Returns a function that cancels it.
 */
export function setLongTimeout(fn: () => void, ms: number): () => void {
  if (ms === Infinity) return () => {};
  const deadline = performance.now() + ms;
  let timer: NodeJS.Timeout;
  const arm = (): void => {
    const left = deadline - performance.now();
    if (left <= 0) return fn();
    timer = setTimeout(arm, Math.min(Math.ceil(left), MAX_DELAY));
  };
  timer = setTimeout(arm, Math.min(ms, MAX_DELAY));
  return () => clearTimeout(timer);
}
