import { Piscina } from "piscina";
import type { ProcessResult, ProcessTask } from "../abi/process-task.js";
import { detachPort } from "./detached-port.js";
import { entryPoint } from "./entry-point.js";
import { watchDestroyed } from "./dying-workers.js";
import { POOL_IDLE_TIMEOUT_MS, POOL_MAX_THREADS, POOL_MIN_THREADS } from "../limits.js";

/**
 * The worker pool shared by every VM of this host process. Each guest process occupies one worker for its
 * whole life, and a process can block waiting for another (a pipe, waitpid); so the pool grows with demand
 * (up to a high cap) instead of queueing, which could deadlock a pipeline. The pool never keeps the host
 * process alive: Piscina unrefs its workers, and their ports are unref'd here (detached-port.ts); each
 * process holds the loop itself while it runs (Process.loopHold), so an idle router shell, which occupies
 * a worker with a task that never ends, does not keep a program that forgot `dispose()` from exiting.
 */
let pool: Piscina<ProcessTask, ProcessResult> | undefined;

export function processPool(): Piscina<ProcessTask, ProcessResult> {
  if (pool) return pool;
  pool = new Piscina<ProcessTask, ProcessResult>({
    filename: entryPoint("workers/process-host").href,
    minThreads: POOL_MIN_THREADS,
    maxThreads: POOL_MAX_THREADS,
    idleTimeout: POOL_IDLE_TIMEOUT_MS,
    maxQueue: "auto",
  });
  pool.on("workerCreate", detachPort);
  pool.on("workerDestroy", watchDestroyed);
  return pool;
}

export function runInPool(task: ProcessTask, signal: AbortSignal): Promise<ProcessResult> {
  return processPool().run(task, { signal });
}

/**
 * Guest processes of all VMs that hold (or are about to hold) a worker. Past POOL_MAX_THREADS a spawn
 * fails with EAGAIN instead of queueing: a queued process could wait for a worker held by its own parent.
 */
let slotsTaken = 0;
const slotWaiters: Array<() => void> = [];

export function takePoolSlot(): boolean {
  if (slotsTaken >= POOL_MAX_THREADS) return false;
  slotsTaken++;
  return true;
}

export function givePoolSlot(): void {
  slotsTaken--;
  for (const w of slotWaiters.splice(0)) w();
}

/** Whether a guest process could take a slot now. */
export function poolHasRoom(): boolean {
  return slotsTaken < POOL_MAX_THREADS;
}

/** Resolves when a pool slot is next given back. */
export function poolSlotFreed(): Promise<void> {
  return new Promise((resolve) => slotWaiters.push(resolve));
}
