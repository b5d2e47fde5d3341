import { Signal } from "../abi/wasi.js";
import { KernelError } from "../kernel/kernel-error.js";
import type { Kernel } from "../kernel/kernel.js";
import { LoopHold } from "../util/loop-hold.js";
import { setLongTimeout } from "../util/long-timeout.js";
import type { ExecGate, GateTicket } from "./exec-gate.js";
import { OutputCollector, type OutputStop } from "./output.js";
import type { CommandOutput, RunningCommand } from "./running-command.js";

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Present (true) when output passed a limit and the command was stopped; the output is what came before. */
  truncated?: true;
}

export interface ExecRun {
  kernel: Kernel;
  gate: ExecGate;
  /** Starts the command writing to `output`; may throw EAGAIN when the VM or the pool has no room yet. */
  start: (output: CommandOutput) => RunningCommand;
  timeout: number | undefined;
  signal: AbortSignal | undefined;
  maxOutputBytes: number;
  onStdout: ((chunk: Uint8Array) => void) | undefined;
  onStderr: ((chunk: Uint8Array) => void) | undefined;
}

/** The exit code a stopped exec reports, and the line it adds to stderr. */
interface Ending {
  exitCode: number;
  note: string;
  /** A listener's exception: the exec rejects with it. */
  error?: unknown;
}

/**
 * Runs one exec to its result: waits for admission (ExecGate) and for room to start, then for the
 * command and everything it started. Whatever happens first of timeout, abort, output past its limit or
 * a listener that throws ends the command (its whole process tree) and decides the result; every wait on
 * the way can be ended by them.
 */
export async function runExec(run: ExecRun): Promise<ExecResult> {
  let ending: Ending | undefined;
  let handle: RunningCommand | undefined;
  const ended = new AbortController();
  const end = (e: Ending): void => {
    if (ending) return;
    ending = e;
    ended.abort();
    if (handle?.running) handle.kill(Signal.SIGKILL);
  };
  const cancelTimer =
    run.timeout === undefined
      ? () => {}
      : setLongTimeout(() => end({ exitCode: 124, note: `agentos: timed out after ${run.timeout} ms\n` }), run.timeout);
  const onAbort = (): void => end({ exitCode: 130, note: "agentos: aborted\n" });
  if (run.signal?.aborted) onAbort();
  else run.signal?.addEventListener("abort", onAbort, { once: true });

  const onStop = (why: OutputStop): void =>
    why.kind === "limit"
      ? end({ exitCode: 141, note: `agentos: ${why.stream} passed ${why.limit} (${why.bytes} bytes); the command was stopped\n` })
      : end({ exitCode: 137, note: "", error: why.error });
  const memory = run.kernel.memory;
  const options = { keep: true, maxBytes: run.maxOutputBytes, memory, onStop };
  const output: CommandOutput = {
    stdout: new OutputCollector("stdout", options, run.onStdout),
    stderr: new OutputCollector("stderr", options, run.onStderr),
  };
  const endedPromise = new Promise<void>((resolve) => ended.signal.addEventListener("abort", () => resolve(), { once: true }));
  let ticket: GateTicket | undefined;
  try {
    ticket = await run.gate.enter(ended.signal).catch(() => undefined);
    let exitCode = 0;
    while (ticket && !ending) {
      try {
        handle = run.start(output);
      } catch (e) {
        if (!(e instanceof KernelError) || e.code !== "EAGAIN") throw e;
        // The room may come from a stopped worker's end, which holds nothing of the host's loop: an exec that
        // waits holds it, or the program would exit under its caller.
        const hold = new LoopHold();
        hold.set(true);
        await Promise.race([run.kernel.processSlotFreed(), endedPromise]).finally(() => hold.set(false));
        continue;
      }
      const started = handle;
      ticket.idle = () => started.idle();
      exitCode = await handle.wait();
      break;
    }
    if (ending?.error !== undefined) throw ending.error;
    const result: ExecResult = {
      exitCode: ending?.exitCode ?? exitCode,
      stdout: output.stdout.text(),
      stderr: output.stderr.text() + (ending?.note ?? ""),
    };
    if (output.stdout.truncated || output.stderr.truncated) result.truncated = true;
    return result;
  } finally {
    ticket?.release();
    cancelTimer();
    run.signal?.removeEventListener("abort", onAbort);
    output.stdout.release();
    output.stderr.release();
  }
}
