import { kerr } from "./kernel-error.js";
import type { OpenFile } from "./open-file.js";

/**
 * A process's file descriptors. Each fd holds one reference on its open file description.
 *
 * NONBLOCK is a flag of the fd, not of the open file description as on Linux: a guest that makes its
 * stdin non-blocking (Go's syscall package does so for fds 0-2 at start, to poll them) does not make the
 * same pipe non-blocking for the shell or the other commands that share it, none of which expect EAGAIN.
 * A new fd starts blocking, whether it comes from open, dup or a spawn (a child's fds).
 */
export class FdTable {
  private readonly fds = new Map<number, OpenFile>();
  private readonly nonblockingFds = new Set<number>();

  constructor(
    /** At most this many fds (EMFILE). */
    private readonly maxFds: number,
  ) {}

  private take(file: OpenFile): OpenFile {
    return file.retain();
  }

  private drop(file: OpenFile | undefined): void {
    file?.release();
  }

  get(fd: number): OpenFile {
    const f = this.fds.get(fd);
    if (!f) throw kerr("EBADF", { syscall: "fd", message: `bad file descriptor ${fd}` });
    return f;
  }

  /** The open file of `fd`, or undefined for a closed fd. */
  find(fd: number): OpenFile | undefined {
    return this.fds.get(fd);
  }

  has(fd: number): boolean {
    return this.fds.has(fd);
  }

  isNonblocking(fd: number): boolean {
    return this.nonblockingFds.size > 0 && this.nonblockingFds.has(fd);
  }

  setNonblocking(fd: number, on: boolean): void {
    this.get(fd);
    if (on) this.nonblockingFds.add(fd);
    else this.nonblockingFds.delete(fd);
  }

  /** Installs `file` at the lowest free fd ≥ `min` (taking a reference) and returns it. */
  allocate(file: OpenFile, min = 0): number {
    if (this.fds.size >= this.maxFds) throw kerr("EMFILE", { syscall: "open", message: `too many open files (${this.maxFds})` });
    let fd = min;
    while (this.fds.has(fd)) fd++;
    this.fds.set(fd, this.take(file));
    return fd;
  }

  /** Installs `file` at `fd`, closing what was there. */
  set(fd: number, file: OpenFile): void {
    this.take(file);
    this.drop(this.fds.get(fd));
    this.fds.set(fd, file);
    this.nonblockingFds.delete(fd);
  }

  /** Moves `from` to `to`, closing what `to` held; both must be open (EBADF), as WASI's fd_renumber. */
  renumber(from: number, to: number): void {
    const file = this.get(from);
    this.get(to);
    if (from === to) return;
    const nonblocking = this.isNonblocking(from);
    this.set(to, file);
    this.close(from);
    if (nonblocking) this.nonblockingFds.add(to);
  }

  close(fd: number): void {
    if (!this.fds.has(fd)) throw kerr("EBADF", { syscall: "close", message: `bad file descriptor ${fd}` });
    this.drop(this.fds.get(fd));
    this.fds.delete(fd);
    this.nonblockingFds.delete(fd);
  }

  closeAll(): void {
    for (const f of this.fds.values()) this.drop(f);
    this.fds.clear();
    this.nonblockingFds.clear();
  }

  /** The open fds and their files, by fd number. */
  entries(): Array<[number, OpenFile]> {
    return [...this.fds.entries()].sort((a, b) => a[0] - b[0]);
  }

  get size(): number {
    return this.fds.size;
  }
}
