import { WASM_MAX_PAGES, WASM_PAGE_BYTES, type ProcessResult, type ProcessTask } from "../abi/process-task.js";
import { loadModule, moduleStats, type CompiledCommand } from "../modules/module-cache.js";
import type { Kernel } from "./kernel.js";
import { envEntries, startPoolProcess } from "./pool-process.js";
import type { Process } from "./process.js";

/** Runs `p` as a WebAssembly command in a pool worker, its memory bounded by Limits.maxProcessMemoryBytes. */
export function startWasmProcess(k: Kernel, p: Process, file: string): void {
  startPoolProcess(k, p, async (channel, aborted): Promise<ProcessTask | ProcessResult> => {
    const command = await loadModule(file);
    if (aborted.aborted) return { exitCode: 0, killed: true };
    const memory = memoryBounds(k, command);
    if (memory.initialPages > memory.maximumPages) {
      p.tellStderr(
        `${p.command}: out of memory: needs ${memory.initialPages * WASM_PAGE_BYTES} bytes, process limit ${k.limits.maxProcessMemoryBytes} bytes\n`,
      );
      return { exitCode: 1, killed: false };
    }
    moduleStats.instantiations++;
    return { kind: "wasm", module: command.module, channel: channel.buffer, argv: p.argv, env: envEntries(p), memory, rootFd: p.rootFd, collectFirst: p.longLived };
  });
}

/** The guest's memory: what the module needs to start, up to Limits.maxProcessMemoryBytes (and the module's own maximum). */
function memoryBounds(k: Kernel, command: CompiledCommand): { initialPages: number; maximumPages: number } {
  const limit = Math.min(Math.floor(k.limits.maxProcessMemoryBytes / WASM_PAGE_BYTES), WASM_MAX_PAGES);
  return { initialPages: command.minimumPages, maximumPages: Math.min(limit, command.maximumPages ?? limit) };
}
