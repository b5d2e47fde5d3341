/** Node's timers fire at once for delays past 2^31-1 ms (~24.8 days); longer ones are chained here. */
const MAX_DELAY = 2 ** 31 - 1;

/** Calls `fn` after `ms` milliseconds, however long (Infinity: never). Returns a function that cancels it. */
export function setLongTimeout(fn: () => void, ms: number): () => void {
  if (ms === Infinity) return () => {};
  let timer: NodeJS.Timeout;
  const arm = (left: number): void => {
    timer = setTimeout(() => (left > MAX_DELAY ? arm(left - MAX_DELAY) : fn()), Math.min(left, MAX_DELAY));
  };
  arm(ms);
  return () => clearTimeout(timer);
}
