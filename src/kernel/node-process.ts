import type { Transferable as WorkerTransferable, Worker } from "node:worker_threads";
import { bootNodeWorker, takeNodeWorker } from "../pool/node-workers.js";
import type { Kernel } from "./kernel.js";
import { envEntries } from "./pool-process.js";
import type { Process } from "./process.js";
import { serveSyscalls } from "./syscalls/dispatch.js";
import { openGuestMemory } from "./guest-memory-account.js";
import { WakeRing } from "./wake-ring.js";

const MiB = 1024 * 1024;
/** Exit status of a guest whose heap passed its limit: Node aborts (SIGABRT) then. */
const OUT_OF_MEMORY_STATUS = 134;

/**
 * Runs `p` as a guest `node` process in a worker of its own (src/pool/node-workers.ts). The guest makes
 * system calls over the channel and waits for readiness on its wake ring; its heap is capped by
 * Limits.maxProcessMemoryBytes. A kill that the guest does not catch stops the worker.
 */
export function startNodeProcess(k: Kernel, p: Process): void {
  let worker: Worker | undefined;
  let terminated = false;
  p.runner = {
    terminate: () => {
      terminated = true;
      if (worker) void worker.terminate();
      else k.exitProcess(p, 0);
    },
  };
  // The guest's heap and ArrayBuffers are counted against the VM (workers/node-host/runtime.ts HeapMeter)
  // until the process gives back its slots (Kernel.exitProcess).
  openGuestMemory(p);
  const limitMb = Math.max(16, Math.floor(k.limits.maxProcessMemoryBytes / MiB));
  const askedMb = requestedHeapMb(p);
  // A smaller heap than the limit (`--max-old-space-size`, a Worker's resourceLimits) is rare: its worker
  // boots for it, rather than keep spares of every size asked for.
  const heapMb = askedMb === undefined ? limitMb : Math.max(16, Math.min(limitMb, askedMb));
  (heapMb === limitMb ? takeNodeWorker(heapMb) : bootNodeWorker(heapMb)).then(
    (spare) => {
      const { channel, wake } = spare;
      const w = (worker = spare.worker);
      if (terminated) return void w.terminate().then(() => k.exitProcess(p, 0));
      p.wakeRing = new WakeRing(wake);
      serveSyscalls(k, p, channel);
      let outOfMemory = false;
      w.on("error", (e: Error & { code?: string }) => {
        if (e.code === "ERR_WORKER_OUT_OF_MEMORY") {
          outOfMemory = true;
          // A thread's parent reports it (ERR_WORKER_OUT_OF_MEMORY), as Node reports a Worker's.
          if (!p.isThread) p.tellStderr(`\n<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n`);
        } else p.tellStderr(`node: ${e.message}\n`);
      });
      // The guest's exit is reported first (a message), the worker's end after its teardown.
      w.on("message", (m: { exit?: unknown }) => {
        if (typeof m.exit === "number") k.exitProcess(p, m.exit);
      });
      w.on("exit", (code) => {
        k.exitProcess(p, outOfMemory ? OUT_OF_MEMORY_STATUS : code);
        channel.wakeKernel();
      });
      spare.start({ argv: p.argv, env: envEntries(p), cwd: p.cwd, pid: p.pid, ppid: p.parent?.pid ?? 0 });
      // What is posted to the runtime goes after the task, which the runtime reads first; never as a throw in the
      // kernel's promise chain, where it would be the host's unhandled rejection. A link whose ports are closed (DataCloneError: the thread at its other end ended, or its parent, before this
      // process booted) links nothing any more; any other failure is the guest's to hear of.
      const post = (message: object, transfer: WorkerTransferable[]): void => {
        try {
          w.postMessage(message, transfer);
        } catch (e) {
          if (!(e instanceof Error && e.name === "DataCloneError")) p.tellStderr(`node: could not link a worker thread's shared memory: ${e instanceof Error ? e.message : String(e)}\n`);
        }
      };
      p.toRuntime = post;
      for (const [message, transfer] of p.runtimeInbox.splice(0)) post(message, transfer);
    },
    (e: unknown) => {
      p.tellStderr(`node: could not start: ${e instanceof Error ? e.message : String(e)}\n`);
      k.exitProcess(p, 1);
    },
  );
}

/**
 * The old-generation size `--max-old-space-size=N` asks for, in MiB, from NODE_OPTIONS or the options before
 * the script (the kernel starts the guest's worker with its heap limit, so it reads them before the guest).
 */
function requestedHeapMb(p: Process): number | undefined {
  let asked: number | undefined;
  const read = (args: readonly string[]): void => {
    for (const a of args) {
      if (!a.startsWith("-")) break;
      const m = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(a);
      if (m) asked = Number(m[1]);
    }
  };
  read((p.env.NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean));
  read(p.argv.slice(1));
  return asked;
}
