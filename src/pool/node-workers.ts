import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { Channel } from "../abi/channel.js";
import type { NodeTask } from "../abi/process-task.js";
import { allocateWakeRing } from "../abi/wake-ring.js";
import { NODE_SPARE_HEAP_SIZES, NODE_SPARE_WORKERS } from "../limits.js";
import { PACKAGE_DIR } from "../util/package-dir.js";
import { entryPoint } from "./entry-point.js";

/**
 * The workers that run guest `node` processes: one per process, used once (a realm that ran a guest is
 * never given another: its FinalizationRegistry callbacks and pending jobs would run in the next one).
 * Not the WebAssembly pool: each needs its own flags and heap limit. Booting one (a thread, an isolate,
 * the guest's context with its builtins) takes tens of milliseconds, so NODE_SPARE_WORKERS of them are
 * kept booted for each of the last NODE_SPARE_HEAP_SIZES heap sizes, and one boots again each time one's
 * process is done. A spare has its process's system-call channel and wake ring already, so that everything
 * the runtime sets up over them is done while booting; it then sleeps in Atomics.wait until `start`.
 *
 * `--experimental-vm-modules`: the guest's ES modules are `vm.SourceTextModule`s. `--expose-internals`: the
 * runtime sets the guest's own `import()` callback in place of Node's (workers/node-host/import-callback.ts).
 * `--no-warnings`: Node's own warnings (the experimental VM modules, the internal binding) are the worker's
 * business, and nothing else writes to its stdio.
 */
const EXEC_ARGV = ["--experimental-vm-modules", "--expose-internals", "--no-warnings"];

/** A booted worker, with the channel and wake ring its process will use. */
export class NodeWorker {
  constructor(
    readonly worker: Worker,
    readonly channel: Channel,
    readonly wake: SharedArrayBuffer,
    private readonly started: Int32Array,
  ) {}

  /** Gives the worker its process; it wakes at once (it waits on `started`, not on its event loop). */
  start(task: NodeTask): void {
    this.worker.postMessage(task);
    Atomics.store(this.started, 0, 1);
    Atomics.notify(this.started, 0);
  }
}

const spares = new Map<number, Promise<NodeWorker>[]>();
/** Workers booted and not yet ended (running a process, or spare), and who waits for the next to end. */
let live = 0;
const exitWaiters: (() => void)[] = [];

/** Node workers of this host process that have not ended: spares and those running a process. */
export function liveNodeWorkers(): number {
  return live;
}

/** Resolves when the next node worker ends. */
export function nodeWorkerEnded(): Promise<void> {
  return new Promise((resolve) => exitWaiters.push(resolve));
}
/**
 * Code caches of the guest runtime's modules (workers/node-host/runtime.ts), made by the first worker this
 * host process boots and given to every later one: a bounded set, one entry per module of the runtime.
 */
let codeCache: Record<string, Uint8Array> | undefined;
/** The first boot's polyfill packages and resolutions (workers/node-host/runtime-sources.ts), given to the next ones. */
let polyfills: unknown;

function boot(heapMb: number): Promise<NodeWorker> {
  const channel = Channel.allocate();
  const wake = allocateWakeRing();
  const started = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(entryPoint("workers/node-host/runtime"), {
    execArgv: EXEC_ARGV,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.max(4, Math.min(32, heapMb >> 3)) },
    // The guest never writes to the worker's own stdio, and it is not the host's. It is left unread: reading
    // a worker's stdio holds the host's event loop until the worker ends, which a spare never does.
    stdout: true,
    stderr: true,
    workerData: { guestDir: pathToFileURL(join(PACKAGE_DIR, "workers/node-guest/")).href, codeCache, polyfills, channel: channel.buffer, wake, started: started.buffer },
  });
  worker.unref();
  live++;
  worker.once("exit", () => {
    live--;
    for (const w of exitWaiters.splice(0)) w();
  });
  return new Promise<NodeWorker>((resolve, reject) => {
    const failed = (e: unknown): void => reject(e instanceof Error ? e : new Error(`node worker exited while booting (${String(e)})`));
    worker.once("message", (ready: { codeCache?: Record<string, Uint8Array>; polyfills?: unknown }) => {
      codeCache ??= ready.codeCache;
      polyfills ??= ready.polyfills;
      worker.off("error", failed).off("exit", failed);
      resolve(new NodeWorker(worker, channel, wake, started));
    });
    worker.once("error", failed).once("exit", failed);
  });
}

/** A booted worker with a heap of `heapMb`, taken from the spares (and one booted in its place). */
export function takeNodeWorker(heapMb: number): Promise<NodeWorker> {
  let list = spares.get(heapMb);
  if (!list) {
    spares.set(heapMb, (list = []));
    // Spares are kept for the heap sizes used last only: VMs with ever new limits must not pile up workers.
    for (const [size, old] of spares) {
      if (spares.size <= NODE_SPARE_HEAP_SIZES) break;
      spares.delete(size);
      for (const w of old) void w.then((spare) => spare.worker.terminate(), () => undefined);
    }
  }
  const taken = list.shift() ?? boot(heapMb);
  // The replacement boots once this worker is done: booting takes a core for tens of milliseconds, which on
  // a small machine the running process would lose (measured: a CPU-bound guest 1.0× → 1.6× the host's time).
  void taken.then(
    (w) => w.worker.once("exit", () => refill(heapMb, list)),
    () => refill(heapMb, list),
  );
  return taken;
}

/** A worker booted for one process with a heap of `heapMb`, outside the spares (a size asked for rarely). */
export function bootNodeWorker(heapMb: number): Promise<NodeWorker> {
  return boot(heapMb);
}

function refill(heapMb: number, list: Promise<NodeWorker>[]): void {
  if (spares.get(heapMb) !== list) return; // its heap size was dropped meanwhile
  while (list.length < NODE_SPARE_WORKERS) {
    const spare = boot(heapMb);
    // A spare that failed to boot is dropped; the next take boots its own and reports why.
    spare.catch(() => list.splice(list.indexOf(spare) >>> 0, 1));
    list.push(spare);
  }
}
