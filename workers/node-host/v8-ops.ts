import { getHeapCodeStatistics, getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import type { HostOp } from "./host-ops.js";
import { admit, budgetBytes } from "./memory-budget.js";

/** The guest's `v8` heap statistics, as JSON of numbers and strings: this worker's isolate is the guest's alone. */
export function v8Ops(): Record<string, HostOp> {
  return {
    heapStatistics: (kind) => JSON.stringify(kind === "spaces" ? getHeapSpaceStatistics() : kind === "code" ? getHeapCodeStatistics() : getHeapStatistics()),
    /** The process's memory budget in bytes (workers/node-host/memory-budget.ts). */
    memoryBudget: () => budgetBytes,
    /** The room left after an allocation of `bytes` (-1: it does not fit), `untracked` being what the guest holds that V8 does not count. */
    memoryAdmit: (bytes, untracked) => admit(typeof bytes === "number" && bytes > 0 ? bytes : 0, typeof untracked === "number" && untracked > 0 ? untracked : 0),
  };
}
