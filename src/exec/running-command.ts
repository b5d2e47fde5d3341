import type { OutputCollector } from "./output.js";

/** Where a command started through the API writes: the caller owns both collectors. */
export interface CommandOutput {
  stdout: OutputCollector;
  stderr: OutputCollector;
}

/** A command started through the API, whether in a fresh process or in a router shell. */
export interface RunningCommand {
  readonly running: boolean;
  /** Resolves with the exit code once the command and everything it started have ended. */
  wait(): Promise<number>;
  /** True while every process of the command is parked in a system call (waiting, not computing). */
  idle(): boolean;
  /** Signals the command and everything it started. */
  kill(signal: number): void;
}
