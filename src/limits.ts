/** Every limit of the runtime, in one place. */

/** Workers kept ready when idle. */
export const POOL_MIN_THREADS = 2;
/**
 * Upper bound on concurrent guest processes of all VMs together. Each running process holds a worker,
 * and processes wait on each other, so this is a cap on concurrency, not a queue length.
 */
export const POOL_MAX_THREADS = 256;
/** An idle worker above the minimum is retired after this long. */
export const POOL_IDLE_TIMEOUT_MS = 30_000;
