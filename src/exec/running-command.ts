import type { OutputCollector } from "./output.js";

/** A command started through the API, whether in a fresh process or in a router shell. */
export interface RunningCommand {
  readonly stdout: OutputCollector;
  readonly stderr: OutputCollector;
  readonly running: boolean;
  /** Resolves with the exit code once the command and everything it started have ended. */
  wait(): Promise<number>;
  /** Signals the command and everything it started. */
  kill(signal: number): void;
}
