import { getHeapStatistics, queryObjects } from "node:v8";
import { resourceLimits } from "node:worker_threads";

/**
 * What one guest `node` process may hold, and what it holds: the budget that the guest's allocations
 * (workers/node-guest/internal/memory-limit.js) and the worker's helpers that allocate for it (zlib, scrypt,
 * pbkdf2: zlib-ops.ts, crypto-ops.ts, host-ops.ts) are refused past.
 *
 * The budget is Limits.maxProcessMemoryBytes: the pool gives the worker a heap limit of that many MiB
 * (src/kernel/node-process.ts, src/pool/node-workers.ts), and the worker reads it back from its own
 * resourceLimits, so no field of the task carries it. The isolate is the guest's alone (one worker per
 * process), so V8's statistics are what this process holds: its heap in use, and the external memory,
 * which counts every ArrayBuffer's and non-shared WebAssembly memory's backing store, of the guest's realm
 * and of the worker's (zlib's and crypto's outputs) alike. What V8 does not count there (SharedArrayBuffers,
 * the growth of a resizable ArrayBuffer) the guest counts itself and passes as `untracked`.
 */

const MiB = 1024 * 1024;
const heapMb = resourceLimits.maxOldGenerationSizeMb;
/** The process's budget in bytes (unbounded when the worker was started without a heap limit: not a guest's worker). */
export const budgetBytes = typeof heapMb === "number" && heapMb > 0 ? heapMb * MiB : Number.MAX_SAFE_INTEGER;

/**
 * What allocations are refused past: the budget less a reserve, so that a guest refused an allocation can
 * still report it and run its handlers (its error, its stderr write) without passing the budget, where the
 * kernel kills it at its next system call (src/kernel/guest-memory-account.ts).
 */
const limitBytes = budgetBytes - Math.min(16 * MiB, Math.floor(budgetBytes / 16));

/** What the isolate holds now (~5 µs): heap in use (with garbage not yet collected) and external memory. */
export function heldBytes(): number {
  const s = getHeapStatistics() as ReturnType<typeof getHeapStatistics> & { external_memory: number };
  return s.used_heap_size + s.external_memory;
}

/**
 * A full garbage collection, so that what is measured after it is what the guest keeps (V8 frees
 * ArrayBuffers only when it collects their objects). Node offers no `gc()` without --expose-gc, which is a
 * process-wide flag and would give every context made later a `gc` global; `v8.queryObjects` collects all
 * available garbage before it counts (V8's HeapProfiler::QueryObjects). Tens of milliseconds: it runs only
 * when an allocation would otherwise be refused.
 */
function collectGarbage(): void {
  try {
    queryObjects(Function, { format: "count" });
  } catch {
    // an older Node without v8.queryObjects: the measure stands as it is
  }
}

/**
 * The room left once `bytes` more are held besides `untracked` bytes V8 does not count, or -1 when they do
 * not fit (garbage is collected first then).
 */
export function admit(bytes: number, untracked = 0): number {
  let room = limitBytes - heldBytes() - untracked - bytes;
  if (room >= 0) return room;
  collectGarbage();
  room = limitBytes - heldBytes() - untracked - bytes;
  return room >= 0 ? room : -1;
}

/** The bytes this process may still allocate (garbage collected first when little is left), at least 1. */
export function roomBytes(): number {
  let room = limitBytes - heldBytes();
  if (room < budgetBytes / 4) {
    collectGarbage();
    room = limitBytes - heldBytes();
  }
  return Math.max(1, room);
}
