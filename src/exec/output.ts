/** Collects a process's output as it is written, and passes each chunk to an optional listener. */
export class OutputCollector {
  private readonly chunks: Uint8Array[] = [];
  private listeners: Array<(chunk: Uint8Array) => void> = [];

  constructor(listener?: (chunk: Uint8Array) => void) {
    if (listener) this.listeners.push(listener);
  }

  /** Adds a listener; returns a function that removes it. */
  listen(listener: (chunk: Uint8Array) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  push = (chunk: Uint8Array): void => {
    this.chunks.push(chunk);
    for (const l of this.listeners) l(chunk);
  };

  bytes(): Uint8Array {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
  }

  text(): string {
    return new TextDecoder().decode(this.bytes());
  }
}
