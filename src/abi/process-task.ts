/** What the kernel hands a worker to run one process, and what the worker answers when it ends. */
export interface ProcessTask {
  /** Compiled once per host process; structured clone shares the compiled code. */
  module: WebAssembly.Module;
  /** The process's system-call channel (see channel.ts). */
  channel: SharedArrayBuffer;
  argv: string[];
  /** `KEY=VALUE` entries. */
  env: string[];
}

export interface ProcessResult {
  exitCode: number;
  /** The kernel killed it: the exit status is the signal's. */
  killed: boolean;
}
