import { Channel } from "../src/abi/channel.js";
import type { ProcessResult, ProcessTask } from "../src/abi/process-task.js";
import { runScript } from "./script-host.js";
import { runWasm } from "./wasm-host.js";

/** A pool worker's task: runs one process to completion, a WebAssembly command or one of workers/commands/. */
export default function runProcess(task: ProcessTask): ProcessResult | Promise<ProcessResult> {
  // Killed while its task waited for this worker: it does not start (Channel.cancelStart).
  if (!new Channel(task.channel).claimStart()) return { exitCode: 0, killed: true };
  return task.kind === "wasm" ? runWasm(task) : runScript(task);
}
