import type { MessagePort, Worker } from "node:worker_threads";

/** What Piscina keeps for each worker, as far as we touch it (piscina 5: worker_pool/index.js). */
export interface WorkerRecord {
  worker: Worker;
  port: MessagePort;
  ref(): unknown;
}

/**
 * The record behind a worker of Piscina's `workerCreate` and `workerDestroy` events. Piscina exposes it only
 * under a private symbol, found by its description; a Piscina version that lacks it gives undefined.
 */
export function workerRecord(worker: object): Partial<WorkerRecord> | undefined {
  const key = Object.getOwnPropertySymbols(worker).find((s) => s.description === "Piscina.kWorkerData");
  return key && (worker as Record<symbol, Partial<WorkerRecord> | undefined>)[key];
}
