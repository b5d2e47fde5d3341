import { workerRecord } from "./worker-record.js";

/**
 * Piscina refs a worker's message port while the worker has a task, so a task that never ends (a router
 * shell waiting for its next command) would hold the event loop forever. Given the `workerCreate` event's
 * worker, this makes its port never hold the loop; the processes hold it themselves while they run. If a
 * Piscina version lacks the worker's record (worker-record.ts), nothing is changed (programs then need
 * `dispose()` to exit).
 */
export function detachPort(worker: object): void {
  const info = workerRecord(worker);
  if (!info || typeof info.ref !== "function" || typeof info.port?.unref !== "function") return;
  const port = info.port;
  info.ref = () => info;
  port.unref();
}
