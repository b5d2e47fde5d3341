import { Channel } from "../abi/channel.js";
import type { ProcessResult, ProcessTask } from "../abi/process-task.js";
import { SPARE_CHANNELS } from "../limits.js";
import { stopTask } from "../pool/dying-workers.js";
import { runInPool } from "../pool/process-pool.js";
import { openGuestMemory } from "./guest-memory-account.js";
import type { Kernel } from "./kernel.js";
import type { Process } from "./process.js";
import { serveSyscalls } from "./syscalls/dispatch.js";

/** Channels of exited processes for the next ones, at most SPARE_CHANNELS (see there). */
const spareChannels: Channel[] = [];

/**
 * Keeps the channel of a process that neither its worker nor the kernel uses any more, zeroed as a new one
 * is: nothing of one process's system calls reaches the next.
 */
function giveBack(channel: Channel): void {
  if (spareChannels.length >= SPARE_CHANNELS) return;
  new Uint8Array(channel.buffer).fill(0);
  spareChannels.push(channel);
}

/**
 * Runs `p` in a pool worker, with the task `prepare` makes for its channel (or the result it ends with
 * before it runs). The worker makes system calls over the channel. A process killed before a worker
 * started it never starts (Channel.cancelStart); killing a computing process aborts its task, which
 * terminates that worker (the pool replaces it). Either way its status is delivered at once, but it keeps
 * its slots and its guest-memory charge (opened here) until its task is handed back or its worker has
 * ended (Kernel.exitProcess): the VM's limits bound the workers that killed processes still cost.
 */
export function startPoolProcess(
  k: Kernel,
  p: Process,
  prepare: (channel: Channel, aborted: AbortSignal) => Promise<ProcessTask | ProcessResult>,
): void {
  const channel = spareChannels.pop() ?? Channel.allocate();
  const abort = new AbortController();
  /** What the host still does for the process after its exit, which it owns until done. */
  let hostBusy: Promise<void> | undefined;
  p.runner = {
    terminate: () => {
      if (!channel.cancelStart()) return void (hostBusy = stopTask(() => abort.abort()));
      // No worker started it: it never will, and the worker that takes its task (one may be booting for
      // it) hands it back at once.
      hostBusy = finished;
      exit(0);
    },
  };
  openGuestMemory(p);
  // The channel goes back for another process once neither side uses it: the worker returned (a worker
  // that was stopped may still be running, so its channel is not reused) and the kernel served its last call.
  let returned = false;
  let served = false;
  serveSyscalls(k, p, channel, () => {
    served = true;
    if (returned) giveBack(channel);
  });
  const exit = (code: number): void => k.exitProcess(p, code, hostBusy);
  const finished = prepare(channel, abort.signal)
    .then((task): ProcessResult | Promise<ProcessResult> => {
      // Killed while it was being prepared: it need not take (and, by force, cost) a worker.
      if (abort.signal.aborted || p.killedBy !== undefined) return { exitCode: 0, killed: true };
      return "kind" in task ? runInPool(task, abort.signal) : task;
    })
    .then(
      (result) => {
        returned = !abort.signal.aborted;
        exit(result.exitCode);
        if (returned && served) giveBack(channel);
      },
      (error: unknown) => {
        if (!abort.signal.aborted) {
          // The worker died under the process (or the module would not compile): the process fails, the VM lives on.
          p.tellStderr(`${p.command}: process host failed: ${error instanceof Error ? error.message : String(error)}\n`);
        }
        exit(1);
      },
    )
    .finally(() => channel.wakeKernel());
}

/** `KEY=VALUE` entries of a process's environment. */
export const envEntries = (p: Process): string[] => Object.entries(p.env).map(([key, value]) => `${key}=${value}`);

/** Runs `p` as one of the runtime's own commands, workers/commands/<script>, in a pool worker. */
export function startScriptProcess(k: Kernel, p: Process, script: string): void {
  startPoolProcess(k, p, (channel) =>
    Promise.resolve({
      kind: "script",
      script,
      channel: channel.buffer,
      argv: p.argv,
      env: envEntries(p),
      cwd: p.cwd,
      maxMemoryBytes: k.limits.maxProcessMemoryBytes,
      maxVmMemoryBytes: k.limits.maxVmMemoryBytes,
    }),
  );
}
