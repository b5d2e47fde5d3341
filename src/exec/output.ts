import type { MemoryBudget } from "../kernel/memory-budget.js";

export type StreamName = "stdout" | "stderr";

/** Why a command's output made it stop. */
export type OutputStop =
  | { kind: "limit"; stream: StreamName; limit: "maxOutputBytes" | "maxVmMemoryBytes"; bytes: number }
  | { kind: "listener"; stream: StreamName; error: unknown };

export interface OutputOptions {
  /** Keep the output for a result (exec); a spawned process's output is only streamed. */
  keep: boolean;
  /** Kept bytes per stream; past it the command is stopped. */
  maxBytes: number;
  /** Kept bytes are counted here (kind "output") until `release`. */
  memory: MemoryBudget;
  /** Called once, on the first reason to stop the command. */
  onStop: (why: OutputStop) => void;
}

/**
 * One output stream of a command started through the API: passes each chunk to its listeners as it is
 * written and, for exec, keeps it for the result — at most `maxBytes`, counted against the VM's memory.
 * A chunk past the cap is refused (the writer gets EPIPE, and the command is stopped by `onStop`), as is
 * every chunk after a listener threw.
 */
export class OutputCollector {
  /** Kept output, decoded as it arrives so that building a large result does not stall the host at the end. */
  private readonly parts: string[] = [];
  private readonly decoder = new TextDecoder();
  private listeners: Array<(chunk: Uint8Array) => void> = [];
  private kept = 0;
  private closed = false;
  /** Output was refused: the result holds only what came before. */
  truncated = false;

  constructor(
    readonly name: StreamName,
    private readonly opts: OutputOptions,
    listener?: (chunk: Uint8Array) => void,
  ) {
    if (listener) this.listeners.push(listener);
  }

  /** Adds a listener; returns a function that removes it. */
  listen(listener: (chunk: Uint8Array) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Takes a chunk the command wrote; false when it is refused (the command is being stopped). */
  push = (chunk: Uint8Array): boolean => {
    if (this.closed) return false;
    if (this.opts.keep) {
      const over = this.kept + chunk.length > this.opts.maxBytes;
      if (over || !this.opts.memory.tryTake("output", chunk.length)) {
        const limit = over ? "maxOutputBytes" : "maxVmMemoryBytes";
        const bytes = over ? this.opts.maxBytes : this.opts.memory.max;
        return this.stop({ kind: "limit", stream: this.name, limit, bytes });
      }
      this.kept += chunk.length;
      this.parts.push(this.decoder.decode(chunk, { stream: true }));
    }
    for (const l of this.listeners) {
      try {
        l(chunk);
      } catch (error) {
        return this.stop({ kind: "listener", stream: this.name, error });
      }
    }
    return true;
  };

  private stop(why: OutputStop): false {
    this.closed = true;
    this.truncated = why.kind === "limit";
    this.opts.onStop(why);
    return false;
  }

  /** The kept output as text (UTF-8; invalid sequences become U+FFFD). */
  text(): string {
    this.parts.push(this.decoder.decode());
    return this.parts.join("");
  }

  /** Gives the kept bytes back to the VM's account (once the result is built). Idempotent. */
  release(): void {
    this.opts.memory.give("output", this.kept);
    this.kept = 0;
    this.parts.length = 0;
  }
}
