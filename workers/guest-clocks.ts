import { ClockId } from "../src/abi/wasi.js";

/** Node ≥ 23.9 reports the calling thread's own CPU time; Node 20 does not. */
const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;

/** Nanoseconds of CPU time this thread has used, or undefined where Node cannot tell. */
function threadCpuNs(): bigint | undefined {
  if (threadCpuUsage === undefined) return undefined;
  const { user, system } = threadCpuUsage.call(process);
  return BigInt(user + system) * 1000n;
}

/** A guest process's clocks, read on the thread that runs it. */
export interface GuestClocks {
  /** Nanoseconds on WASI clock `id` (a known one). */
  now(id: number): bigint;
  /** clock_res_get's answer for `id`. */
  resolution(id: number): bigint;
}

/**
 * The clocks of a process starting now. Realtime and monotonic are the host's (the kernel's thread reads the
 * same ones). The two CPU-time clocks are the same (a WebAssembly process is one thread) and count from the
 * process's start, as on Linux: the thread's CPU time where Node reports it, else the time the process has
 * existed, an upper bound of its CPU time. They never read another process's CPU or the host's.
 */
export function guestClocks(): GuestClocks {
  const cpuStart = threadCpuNs();
  const wallStart = process.hrtime.bigint();
  const cpu = cpuStart === undefined ? () => process.hrtime.bigint() - wallStart : () => threadCpuNs()! - cpuStart;
  return {
    now: (id) =>
      id === ClockId.REALTIME
        ? BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6))
        : id === ClockId.MONOTONIC
          ? process.hrtime.bigint()
          : cpu(),
    // Realtime comes from performance.now() (microseconds, or coarser if the host coarsens it); CPU time where
    // Node reports it, in microseconds; the rest from hrtime.
    resolution: (id) => (id === ClockId.REALTIME || (id >= ClockId.PROCESS_CPUTIME && cpuStart !== undefined) ? 1000n : 1n),
  };
}
