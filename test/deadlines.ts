// Deadlines of the suites that run many guest and host processes. They are there to end a hang, never to judge
// speed: a loaded 2-core machine (a CPU hog per core beside the suite) starts a guest `node` in seconds where a
// quiet one takes tens of milliseconds, so each deadline is far above what such a machine needs.

/** One process: a guest command's exec timeout, or the kill of a host process. */
export const RUN_DEADLINE_MS = 60_000;
/** One test that runs a process in the VM and one on the host, side by side. */
export const CASE_DEADLINE_MS = 2 * RUN_DEADLINE_MS;
/** A beforeAll that creates a VM and writes fixtures, without running the cases. */
export const SETUP_DEADLINE_MS = 300_000;
