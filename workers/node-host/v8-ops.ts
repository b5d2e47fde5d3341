import { getHeapCodeStatistics, getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import type { HostOp } from "./host-ops.js";

/** The guest's `v8` heap statistics, as JSON of numbers and strings: this worker's isolate is the guest's alone. */
export function v8Ops(): Record<string, HostOp> {
  return {
    heapStatistics: (kind) => JSON.stringify(kind === "spaces" ? getHeapSpaceStatistics() : kind === "code" ? getHeapCodeStatistics() : getHeapStatistics()),
  };
}
