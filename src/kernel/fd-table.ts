import { kerr } from "./kernel-error.js";
import type { OpenFile } from "./open-file.js";

/**
 * A process's file descriptors. Each fd holds one reference on its open file description. A *reserved*
 * fd holds no reference but keeps its number taken until the process closes it (see `reserve`).
 */
export class FdTable {
  private readonly fds = new Map<number, OpenFile | null>();

  get(fd: number): OpenFile {
    const f = this.fds.get(fd);
    if (!f) throw kerr("EBADF", { syscall: "fd", message: `bad file descriptor ${fd}` });
    return f;
  }

  has(fd: number): boolean {
    return this.fds.has(fd);
  }

  /** Installs `file` at the lowest free fd ≥ `min` (taking a reference) and returns it. */
  allocate(file: OpenFile, min = 0): number {
    let fd = min;
    while (this.fds.has(fd)) fd++;
    this.fds.set(fd, file.retain());
    return fd;
  }

  /** Installs `file` at `fd`, closing what was there. */
  set(fd: number, file: OpenFile): void {
    file.retain();
    this.fds.get(fd)?.release();
    this.fds.set(fd, file);
  }

  close(fd: number): void {
    if (!this.fds.has(fd)) throw kerr("EBADF", { syscall: "close", message: `bad file descriptor ${fd}` });
    this.fds.get(fd)?.release();
    this.fds.delete(fd);
  }

  /**
   * Drops the reference `fd` holds but keeps the number taken. After a spawn the parent must not keep the
   * pipe ends it handed to the child (or readers never see end of file), yet the shell closes those fd
   * numbers itself later and must not find them reused in between.
   */
  reserve(fd: number): void {
    const f = this.fds.get(fd);
    if (f) {
      f.release();
      this.fds.set(fd, null);
    }
  }

  closeAll(): void {
    for (const f of this.fds.values()) f?.release();
    this.fds.clear();
  }

  get size(): number {
    return this.fds.size;
  }
}
