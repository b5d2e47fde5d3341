/**
 * Streams an exec's output to the terminal as it comes, and afterwards prints what the result holds
 * that was never streamed: the note `exec` appends to stderr on a timeout or an abort.
 */
import type { ExecResult } from "../agent-os.js";

export class TerminalOutput {
  #stderrBytes = 0;

  constructor(
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
  ) {}

  readonly onStdout = (chunk: Uint8Array): void => {
    this.stdout.write(chunk);
  };

  readonly onStderr = (chunk: Uint8Array): void => {
    this.#stderrBytes += chunk.byteLength;
    this.stderr.write(chunk);
  };

  /** Prints the tail of `result.stderr` that no listener saw (the exec's own note). */
  finish(result: ExecResult): void {
    const kept = Buffer.from(result.stderr);
    if (kept.byteLength > this.#stderrBytes) this.stderr.write(kept.subarray(this.#stderrBytes));
    this.#stderrBytes = 0;
  }
}
