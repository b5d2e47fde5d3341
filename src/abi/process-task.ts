/** What the kernel hands a worker to run one process, and what the worker answers when it ends. */

/** Size of a WebAssembly page: memory sizes travel in pages. */
export const WASM_PAGE_BYTES = 65536;
/** Pages a 32-bit memory can have at most (4 GiB). */
export const WASM_MAX_PAGES = 65536;
/** The import through which the worker gives a guest its memory (src/modules/memory-import.ts makes it). */
export const GUEST_MEMORY_IMPORT = { module: "agentos", name: "memory" } as const;

export interface ProcessTask {
  /** Compiled once per host process; structured clone shares the compiled code. */
  module: WebAssembly.Module;
  /** The process's system-call channel (see channel.ts). */
  channel: SharedArrayBuffer;
  argv: string[];
  /** `KEY=VALUE` entries. */
  env: string[];
  /**
   * The guest's linear memory, in 64 KiB pages: the module imports it as `agentos.memory` (see
   * src/modules/memory-import.ts) and the worker creates it with these bounds. Growing past `maximumPages`
   * fails inside the guest (memory.grow returns -1), so one guest cannot grow the host without bound.
   */
  memory: { initialPages: number; maximumPages: number };
}

export interface ProcessResult {
  exitCode: number;
  /** The kernel killed it: the exit status is the signal's. */
  killed: boolean;
}
