import { workerRecord } from "./worker-record.js";

/**
 * Pool workers that Piscina let go of (a task aborted, an idle worker retired) and whose threads have not
 * ended: `terminate()` returns at once, but the thread, its isolate and the guest's memory live on until
 * the worker's 'exit', later still on a loaded machine. A process whose worker was stopped owns it until
 * then (stopTask, Kernel.exitProcess): it keeps its slots, so the VM's limits bound these workers too.
 */
let dying = 0;
/** Of those, the ones stopped under a killed process (stopTask), which holds its slots until they end. */
let stopped = 0;
const endWaiters: Array<() => void> = [];
/** The ends of the workers destroyed during the current stopTask. */
let stopping: Promise<void>[] | undefined;

/** Piscina's `workerDestroy` listener. */
export function watchDestroyed(worker: object): void {
  const thread = workerRecord(worker)?.worker;
  if (typeof thread?.once !== "function" || thread.threadId === -1) return; // unknown, or already ended
  const underProcess = stopping !== undefined;
  dying++;
  if (underProcess) stopped++;
  const ended = new Promise<void>((resolve) =>
    thread.once("exit", () => {
      dying--;
      if (underProcess) stopped--;
      resolve();
      for (const w of endWaiters.splice(0)) w();
    }),
  );
  stopping?.push(ended);
}

/**
 * Aborts a pool task with `abort` and returns when the worker it ran on has ended, or undefined if no worker
 * was stopped (the task was still waiting for one). Piscina stops that worker within `abort()` (piscina 5:
 * the task's abort listener removes its worker, which emits `workerDestroy`).
 */
export function stopTask(abort: () => void): Promise<void> | undefined {
  const ends: Promise<void>[] = (stopping = []);
  try {
    abort();
  } finally {
    stopping = undefined;
  }
  return ends.length > 0 ? Promise.all(ends).then(() => undefined) : undefined;
}

/** Pool workers of this host process that were stopped and have not ended. */
export function dyingPoolWorkers(): number {
  return dying;
}

/** Pool workers stopped under killed processes that have not ended: each VM's maxProcesses bounds its share. */
export function stoppedPoolWorkers(): number {
  return stopped;
}

/** Resolves when the next stopped pool worker ends. */
export function poolWorkerEnded(): Promise<void> {
  return new Promise((resolve) => endWaiters.push(resolve));
}
