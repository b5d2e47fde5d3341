import type { MessagePort } from "node:worker_threads";

/** What Piscina keeps for each worker, as far as we touch it (piscina 5: worker_pool/index.js). */
interface WorkerInfo {
  port: MessagePort;
  ref(): unknown;
}

/**
 * Piscina refs a worker's message port while the worker has a task, so a task that never ends (a router
 * shell waiting for its next command) would hold the event loop forever. Given the `workerCreate` event's
 * worker, this makes its port never hold the loop; the processes hold it themselves while they run.
 * Piscina exposes its per-worker record only under a private symbol, found by its description; if a
 * Piscina version lacks it, nothing is changed (programs then need `dispose()` to exit).
 */
export function detachPort(worker: object): void {
  const key = Object.getOwnPropertySymbols(worker).find((s) => s.description === "Piscina.kWorkerData");
  const info = key && (worker as Record<symbol, Partial<WorkerInfo> | undefined>)[key];
  if (!info || typeof info.ref !== "function" || typeof info.port?.unref !== "function") return;
  const port = info.port;
  info.ref = () => info;
  port.unref();
}
