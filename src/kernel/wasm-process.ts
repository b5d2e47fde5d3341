import { Channel } from "../abi/channel.js";
import { loadModule, moduleStats } from "../modules/module-cache.js";
import { runInPool } from "../pool/process-pool.js";
import type { Kernel } from "./kernel.js";
import type { Process } from "./process.js";
import { serveSyscalls } from "./syscalls/dispatch.js";

/**
 * Runs `p` as a WebAssembly command in a pool worker. The worker makes system calls over its channel;
 * killing a computing process aborts its task, which terminates that worker (the pool replaces it).
 */
export function startWasmProcess(k: Kernel, p: Process, file: string): void {
  const channel = Channel.allocate();
  const abort = new AbortController();
  p.runner = { terminate: () => abort.abort() };
  serveSyscalls(k, p, channel);
  const env = Object.entries(p.env).map(([key, value]) => `${key}=${value}`);
  loadModule(file)
    .then((module) => {
      if (abort.signal.aborted) return { exitCode: 0, killed: true };
      moduleStats.instantiations++;
      return runInPool({ module, channel: channel.buffer, argv: p.argv, env }, abort.signal);
    })
    .then(
      (result) => k.exitProcess(p, result.exitCode),
      (error: unknown) => {
        if (!abort.signal.aborted) {
          // The worker died under the process (or the module would not compile): the process fails, the VM lives on.
          p.tellStderr(`${p.command}: process host failed: ${error instanceof Error ? error.message : String(error)}\n`);
        }
        k.exitProcess(p, 1);
      },
    )
    .finally(() => channel.wakeKernel());
}
