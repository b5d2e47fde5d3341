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
/** Persistent shells the exec router keeps per VM; more concurrent execs run in fresh processes. */
export const ROUTER_SHELLS_PER_VM = 4;
/**
 * Persistent shells of all VMs together. Each holds a pool worker for good, so this stays well below
 * POOL_MAX_THREADS: the commands they run need workers too.
 */
export const ROUTER_SHELLS_MAX = 64;
/** How long a killed guest that is computing gets to reach a system call before its worker is stopped. */
export const KILL_GRACE_MS = 20;
