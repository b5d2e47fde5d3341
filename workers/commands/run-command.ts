import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { SysError } from "../system.js";

/**
 * Starts `argv` with this process's stdin, stdout and stderr, as the GNU tools that run a command do
 * (nice, nohup, timeout): its pid, or the exit status when it cannot start — 127 when it is not found, 126
 * when it cannot run — after the line `<failure>: reason` (e.g. "timeout: failed to run command ‘x’").
 */
export function startCommand(p: ScriptProcess, argv: readonly string[], failure: string): { pid: number } | { status: number } {
  p.stdout.flush();
  p.stderr.flush();
  try {
    return { pid: p.sys.spawn(argv) };
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    p.stderr.write(`${failure}: ${strerror(e)}\n`);
    return { status: e.code === "ENOENT" ? 127 : 126 };
  }
}

/** The exit status a shell reports for a POSIX wait status: the code, or 128 + the signal. */
export const exitStatusOf = (status: number): number => ((status & 0x7f) === 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f));

/** Runs `argv` to its end (see startCommand): its exit status as a shell reports it. */
export function runCommand(p: ScriptProcess, argv: readonly string[], failure: string): number {
  const started = startCommand(p, argv, failure);
  return "status" in started ? started.status : exitStatusOf(p.sys.wait(started.pid));
}
