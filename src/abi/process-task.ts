/** What the kernel hands a worker to run one process, and what the worker answers when it ends. */

/** Size of a WebAssembly page: memory sizes travel in pages. */
export const WASM_PAGE_BYTES = 65536;
/** Pages a 32-bit memory can have at most (4 GiB). */
export const WASM_MAX_PAGES = 65536;
/** The import through which the worker gives a guest its memory (src/modules/memory-import.ts makes it). */
export const GUEST_MEMORY_IMPORT = { module: "agentos", name: "memory" } as const;

/** A WebAssembly command, or one of the runtime's own commands written in TypeScript (workers/commands/). */
export type ProcessTask = WasmTask | ScriptTask;

interface TaskBase {
  /** The process's system-call channel (see channel.ts). */
  channel: SharedArrayBuffer;
  argv: string[];
  /** `KEY=VALUE` entries. */
  env: string[];
}

export interface WasmTask extends TaskBase {
  kind: "wasm";
  /** Compiled once per host process; structured clone shares the compiled code. */
  module: WebAssembly.Module;
  /**
   * The guest's linear memory, in 64 KiB pages: the module imports it as `agentos.memory` (see
   * src/modules/memory-import.ts) and the worker creates it with these bounds. Growing past `maximumPages`
   * fails inside the guest (memory.grow returns -1), so one guest cannot grow the host without bound.
   */
  memory: { initialPages: number; maximumPages: number };
  /** Its root preopen's fd (Process.rootFd). */
  rootFd: number;
  /** The worker collects its garbage before it starts the process (SpawnRequest.longLived). */
  collectFirst: boolean;
}

export interface ScriptTask extends TaskBase {
  kind: "script";
  /** The module workers/commands/<script> that runs it. */
  script: string;
  /** The process's working directory: a script resolves its own paths. */
  cwd: string;
  /** Limits.maxProcessMemoryBytes: what a script may hold (a command that must buffer its input checks it). */
  maxMemoryBytes: number;
  /** Limits.maxVmMemoryBytes: the memory of the whole VM (`free` shows it as the total). */
  maxVmMemoryBytes: number;
}

export interface ProcessResult {
  exitCode: number;
  /** The kernel killed it: the exit status is the signal's. */
  killed: boolean;
}

/** What a booted worker of guest `node` is told to run (src/kernel/node-process.ts → workers/node-host/runtime.ts). */
export interface NodeTask {
  argv: string[];
  /** `KEY=VALUE` entries. */
  env: string[];
  cwd: string;
  pid: number;
  /** 0 when started by the host. */
  ppid: number;
}
