import type { ProcessResult, ProcessTask } from "../src/abi/process-task.js";
import { runScript } from "./script-host.js";
import { runWasm } from "./wasm-host.js";

/** A pool worker's task: runs one process to completion, a WebAssembly command or one of workers/commands/. */
export default function runProcess(task: ProcessTask): ProcessResult | Promise<ProcessResult> {
  return task.kind === "wasm" ? runWasm(task) : runScript(task);
}
