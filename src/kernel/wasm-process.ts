import { Channel } from "../abi/channel.js";
import { WASM_MAX_PAGES, WASM_PAGE_BYTES, type ProcessResult } from "../abi/process-task.js";
import { loadModule, moduleStats, type CompiledCommand } from "../modules/module-cache.js";
import { runInPool } from "../pool/process-pool.js";
import { openGuestMemory, releaseGuestMemory } from "./guest-memory-account.js";
import type { Kernel } from "./kernel.js";
import type { Process } from "./process.js";
import { serveSyscalls } from "./syscalls/dispatch.js";

/**
 * Runs `p` as a WebAssembly command in a pool worker. The worker makes system calls over its channel;
 * killing a computing process aborts its task, which terminates that worker (the pool replaces it).
 * This runner owns the process's guest-memory charge: opened here, given back on every way out.
 */
export function startWasmProcess(k: Kernel, p: Process, file: string): void {
  const channel = Channel.allocate();
  const abort = new AbortController();
  p.runner = { terminate: () => abort.abort() };
  openGuestMemory(p);
  serveSyscalls(k, p, channel);
  const env = Object.entries(p.env).map(([key, value]) => `${key}=${value}`);
  const exit = (code: number): void => {
    k.exitProcess(p, code);
    // After the exit, so that a request still in flight finds the account closed and charges nothing.
    releaseGuestMemory(k, p);
  };
  loadModule(file)
    .then((command): ProcessResult | Promise<ProcessResult> => {
      if (abort.signal.aborted) return { exitCode: 0, killed: true };
      const memory = memoryBounds(k, command);
      if (memory.initialPages > memory.maximumPages) {
        p.tellStderr(
          `${p.command}: out of memory: needs ${memory.initialPages * WASM_PAGE_BYTES} bytes, process limit ${k.limits.maxProcessMemoryBytes} bytes\n`,
        );
        return { exitCode: 1, killed: false };
      }
      moduleStats.instantiations++;
      return runInPool({ module: command.module, channel: channel.buffer, argv: p.argv, env, memory }, abort.signal);
    })
    .then(
      (result) => exit(result.exitCode),
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

/** The guest's memory: what the module needs to start, up to Limits.maxProcessMemoryBytes (and the module's own maximum). */
function memoryBounds(k: Kernel, command: CompiledCommand): { initialPages: number; maximumPages: number } {
  const limit = Math.min(Math.floor(k.limits.maxProcessMemoryBytes / WASM_PAGE_BYTES), WASM_MAX_PAGES);
  return { initialPages: command.minimumPages, maximumPages: Math.min(limit, command.maximumPages ?? limit) };
}
