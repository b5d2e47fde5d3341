import { GUEST_MEMORY_IMPORT, type ProcessResult, type WasmTask } from "../src/abi/process-task.js";
import { hostImports } from "./host-imports.js";
import { netImports } from "./net-imports.js";
import { GuestMemory } from "./guest-memory.js";
import { GuestExit, KernelClient } from "./kernel-client.js";
import { wasiPreview1 } from "./wasi-preview1.js";
import { collectGarbage } from "./collect-garbage.js";

/**
 * Runs a WebAssembly command to completion in this worker. System calls block this thread on the channel;
 * the kernel answers them. A trap ends the process with status 1 and its message on stderr.
 *
 * The guest's memory is made here with the task's maximum and imported by the module (the module cache
 * rewrote its definition into an import): a guest that grows past it gets -1 from memory.grow, its
 * allocator aborts and it traps, while the host stays as it was.
 */
export function runWasm(task: WasmTask): ProcessResult {
  const mem = new GuestMemory();
  const k = new KernelClient(task.channel, mem);
  try {
    if (task.collectFirst) collectGarbage();
    const memory = new WebAssembly.Memory({ initial: task.memory.initialPages, maximum: task.memory.maximumPages });
    mem.attach(memory);
    const imports = {
      wasi_snapshot_preview1: wasiPreview1(mem, k, task.argv, task.env, task.rootFd),
      ...hostImports(mem, k),
      ...netImports(mem, k),
      [GUEST_MEMORY_IMPORT.module]: { [GUEST_MEMORY_IMPORT.name]: memory },
    };
    const instance = new WebAssembly.Instance(task.module, imports as unknown as WebAssembly.Imports);
    (instance.exports._start as () => void)();
    return { exitCode: 0, killed: false };
  } catch (e) {
    return failed(k, task.argv, e, e instanceof WebAssembly.RuntimeError ? "trap: " : "");
  }
}

/** How a process that threw ends: its exit or kill, or status 1 with the error on its stderr. */
export function failed(k: KernelClient, argv: readonly string[], e: unknown, prefix = ""): ProcessResult {
  if (e instanceof GuestExit) return { exitCode: e.code, killed: e.killed };
  const name = argv[0]?.split("/").pop() ?? "process";
  const message = e instanceof Error ? e.message : String(e);
  try {
    k.writeText(2, `${name}: ${prefix}${message}\n`);
  } catch (inner) {
    if (inner instanceof GuestExit) return { exitCode: 1, killed: inner.killed };
    throw inner;
  }
  return { exitCode: 1, killed: false };
}
