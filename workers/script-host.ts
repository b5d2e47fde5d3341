import type { ProcessResult, ScriptTask } from "../src/abi/process-task.js";
import { GuestExit } from "./kernel-client.js";
import { Output, System } from "./system.js";
import { failed } from "./wasm-host.js";

/** What one of the runtime's own commands gets: the system, its command line, buffered stdout and stderr. */
export interface ScriptProcess {
  sys: System;
  /** Limits.maxVmMemoryBytes of the process's VM. */
  maxVmMemoryBytes: number;
  argv: readonly string[];
  stdout: Output;
  stderr: Output;
}

/** A module of workers/commands/: runs the process and answers its exit status. */
export type Script = (p: ScriptProcess) => number;

/**
 * Runs one of the runtime's own commands (workers/commands/<name>) in this worker: commands that process
 * data run here rather than on the kernel's thread, which serves every VM. An exception ends the process
 * with status 1 and its message on stderr, as a trap does.
 */
export async function runScript(task: ScriptTask): Promise<ProcessResult> {
  const sys = new System(task.channel, task.argv, task.env, task.cwd, task.maxMemoryBytes);
  const p: ScriptProcess = { sys, maxVmMemoryBytes: task.maxVmMemoryBytes, argv: task.argv, stdout: new Output(sys, 1), stderr: new Output(sys, 2) };
  try {
    if (!/^[a-z0-9-]+$/.test(task.script)) throw new Error(`no such script: ${task.script}`);
    const script = ((await import(new URL(`./commands/${task.script}.js`, import.meta.url).href)) as { default: Script }).default;
    const exitCode = script(p);
    p.stdout.flush();
    p.stderr.flush();
    return { exitCode, killed: false };
  } catch (e) {
    if (e instanceof GuestExit) return failed(sys.k, task.argv, e);
    try {
      p.stdout.flush();
      p.stderr.flush();
    } catch (inner) {
      return failed(sys.k, task.argv, inner);
    }
    return failed(sys.k, task.argv, e);
  }
}
