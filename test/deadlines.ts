// Deadlines of the suites that run many guest and host processes. They are there to end a hang, never to judge
// speed: a loaded 2-core machine (a CPU hog per core beside the suite) starts a guest `node` in seconds where a
// quiet one takes tens of milliseconds, so each deadline is far above what such a machine needs.

/**
 * One process: a guest command's exec timeout, or the kill of a host process. The slowest differential case
 * (crypto-dh-many-live) took 49 s with five cases side by side on a 2-core machine at load 17 plus two CPU hogs.
 */
export const RUN_DEADLINE_MS = 120_000;
/** One test that runs a process in the VM and one on the host, side by side. */
export const CASE_DEADLINE_MS = RUN_DEADLINE_MS + 60_000;
/** A beforeAll that creates a VM and writes fixtures, without running the cases. */
export const SETUP_DEADLINE_MS = 300_000;
/** A test's deadline (vitest's testTimeout), and a hook's (hookTimeout). */
export const TEST_DEADLINE_MS = 300_000;
export const HOOK_DEADLINE_MS = SETUP_DEADLINE_MS;
/**
 * How late a timer, an exec's timeout or a kill may land on a loaded machine: a check that a 300 ms timeout
 * ended a command that would otherwise run for ever allows 300 ms + LATE_MS.
 */
export const LATE_MS = 10_000;

/**
 * CPU time (user + system, ms) this process spent since `start` (process.cpuUsage()): for "is it quick"
 * checks, which wall-clock time would make depend on what else the machine runs. It counts every thread of
 * the process, the VM's workers included.
 */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
