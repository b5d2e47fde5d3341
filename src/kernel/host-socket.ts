import { SHUT } from "../abi/net.js";
import { kerr } from "./kernel-error.js";
import { untilDone, whenReady, type StreamSocket } from "./socket.js";

/** What one read takes at most when the caller does not say. */
const HOST_READ_BYTES = 64 * 1024;
/** Where every host end's read lands before its bytes are copied out (in the same step), not a new 64 KiB each time. */
const landing = new Uint8Array(HOST_READ_BYTES);

/**
 * A connection's end held by the host (vm.fetch, vm.connect) rather than by a process's fd. Reads and
 * writes are promises woken by the socket's readiness, never polled; closing the end (or disposing the
 * VM, which closes every host end) ends any read or write still waiting.
 */
export class HostSocket {
  private readonly closer = new AbortController();

  constructor(
    private readonly socket: StreamSocket,
    private readonly onClose: () => void,
  ) {}

  /** The guest's address of this connection: the listener's side. */
  get remote(): { address: string; port: number } {
    return { address: this.socket.peerAddr?.address ?? "", port: this.socket.peerAddr?.port ?? 0 };
  }

  get closed(): boolean {
    return this.closer.signal.aborted;
  }

  /** The next bytes the guest sent (up to `maxBytes`), or null at end of file. Rejects with ECONNRESET on a reset. */
  async read(maxBytes = HOST_READ_BYTES): Promise<Uint8Array | null> {
    const into = maxBytes <= landing.length ? landing.subarray(0, maxBytes) : new Uint8Array(maxBytes);
    const attempt = (): Uint8Array => into.slice(0, this.socket.recv(into));
    // A read that will wait (vm.fetch keeps one posted on every idle connection) waits before its attempt.
    const signal = this.signal();
    const bytes = await (this.socket.readiness("read").ready ? untilDone(this.socket, "read", signal, attempt) : whenReady(this.socket, "read", signal, attempt));
    return bytes.length === 0 ? null : bytes;
  }

  /** Resolves once all of `data` is in the guest's receive buffer (it waits while that buffer is full). */
  async write(data: Uint8Array): Promise<void> {
    let off = 0;
    await untilDone(this.socket, "write", this.signal(), () => {
      while (off < data.length) off += this.socket.send(data.subarray(off));
      return off;
    });
  }

  /** Shuts down the host's writing side: the guest reads end of file after what was sent. */
  end(): void {
    if (!this.closed && this.socket.state === "connected") this.socket.shutdown(SHUT.WR);
  }

  /** Closes the end; a read or write still waiting rejects with EBADF. */
  close(): void {
    if (this.closed) return;
    this.closer.abort(kerr("EBADF", { syscall: "close", message: "host socket closed" }));
    this.socket.release();
    this.onClose();
  }

  private signal(): AbortSignal {
    if (this.closed) throw kerr("EBADF", { syscall: "host socket", message: "host socket closed" });
    return this.closer.signal;
  }
}
