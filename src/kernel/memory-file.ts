import type { Volume } from "memfs";
import { FileType } from "../abi/wasi.js";
import type { FileStat } from "../abi/filestat.js";
import { MEMORY_DEV, toFileStat, type NodeStats } from "./file-stat.js";
import { kerr } from "./kernel-error.js";
import { nodeSize, type MemNode } from "./memfs-core.js";
import type { FsQuota } from "./fs-quota.js";
import { OpenFile } from "./open-file.js";
import { withExactTimes } from "./exact-times.js";

/**
 * A regular file of the memory file system, open. The description keeps its own offset so that dup'ed
 * fds share it. Every write or truncation that grows the file is counted by the quota first; the node
 * stays counted while it is open, even after its last link is removed.
 */
export class MemoryFile extends OpenFile {
  readonly filetype = FileType.REGULAR_FILE;
  override readonly readable: boolean;
  override readonly writable: boolean;
  private position = 0;

  constructor(
    private readonly volume: Volume,
    private readonly quota: FsQuota,
    private readonly fd: number,
    private readonly node: MemNode,
    override readonly path: string,
    how: { read: boolean; write: boolean; append?: boolean },
  ) {
    super();
    this.readable = how.read || !how.write;
    this.writable = how.write;
    this.append = how.append ?? false;
    quota.opened(node);
  }

  read(target: Uint8Array): number {
    const n = this.pread(target, this.position);
    this.position += n;
    return n;
  }

  override pread(target: Uint8Array, offset: number): number {
    if (!this.readable) throw kerr("EBADF", { syscall: "read", path: this.path });
    return this.volume.readSync(this.fd, target, 0, target.length, offset);
  }

  /**
   * Writes at the offset (at the end with O_APPEND). When the file system is full it writes what fits and
   * returns that count, and a write that fits nothing fails with ENOSPC — POSIX's short write, so a writer
   * retrying the rest gets the error and the file holds exactly what fitted. Bytes skipped by writing past
   * the end count too: files are not sparse.
   */
  write(data: Uint8Array): number {
    const [pos, written] = this.writeAt(data, this.position);
    this.position = pos + written;
    return written;
  }

  override pwrite(data: Uint8Array, offset: number): number {
    return this.writeAt(data, offset)[1];
  }

  /** Writes at `offset`, or at the end with O_APPEND: where it wrote and how much. */
  private writeAt(data: Uint8Array, offset: number): [number, number] {
    if (!this.writable) throw kerr("EBADF", { syscall: "write", path: this.path });
    const size = nodeSize(this.node);
    const pos = this.append ? size : offset;
    if (data.length === 0) return [pos, 0];
    let n = data.length;
    if (pos + n > size) {
      n = Math.min(n, this.quota.limit(this.node) - pos);
      if (n <= 0)
        throw kerr("ENOSPC", { syscall: "write", path: this.path, message: `no space left on device (${this.quota.limitReached(pos + 1 - size)})` });
      this.quota.grow(this.node, pos + n, "write", this.path);
    }
    return [pos, this.volume.writeSync(this.fd, data, 0, n, pos)];
  }

  override allocate(offset: number, length: number): void {
    if (!this.writable) throw kerr("EBADF", { syscall: "fallocate", path: this.path, message: "not open for writing" });
    if (offset + length > nodeSize(this.node)) this.truncate(offset + length);
  }

  override seek(offset: number, whence: number): number {
    const base = whence === 0 ? 0 : whence === 1 ? this.position : nodeSize(this.node);
    const next = base + offset;
    if (next < 0) throw kerr("EINVAL", { syscall: "seek", path: this.path });
    this.position = next;
    return next;
  }

  override stat(): FileStat {
    return withExactTimes(this.node, toFileStat(this.volume.fstatSync(this.fd) as NodeStats, MEMORY_DEV));
  }

  /**
   * Sets the size. Files are not sparse: extending one takes the whole new size from the quota before
   * anything is allocated (`truncate -s 100G f` is ENOSPC at once); shrinking one gives the bytes back.
   */
  override truncate(size: number): void {
    if (!this.writable) throw kerr("EINVAL", { syscall: "ftruncate", path: this.path, message: "not open for writing" });
    const before = nodeSize(this.node);
    if (size > before) this.quota.grow(this.node, size, "ftruncate", this.path);
    this.volume.ftruncateSync(this.fd, size);
    if (size < before) this.quota.shrunk(this.node);
  }

  override mode(): number {
    return this.volume.fstatSync(this.fd).mode;
  }

  protected override close(): void {
    this.volume.closeSync(this.fd);
    this.quota.closed(this.node);
  }
}
