import { FileType } from "../abi/wasi.js";
import type { FileStat } from "../abi/filestat.js";
import { kerr } from "./kernel-error.js";

/** Whether a read or a write of an open file would complete without parking now (poll.ts). */
export interface Readiness {
  /** The call would not park: it has data or room, or it would fail or read end of file at once. */
  ready: boolean;
  /** Bytes a read would get at once, or room a write has (pipes); 0 when not known. */
  nbytes: number;
  /** The other end is gone: end of file for a reader, EPIPE for a writer. */
  hangup: boolean;
}

const ALWAYS_READY: Readiness = Object.freeze({ ready: true, nbytes: 0, hangup: false });

/**
 * An open file description: what fds point at. Several fds (in one or several processes) can share one;
 * they then share its offset. `refs` counts those fds; the description is released when it drops to 0.
 */
export abstract class OpenFile {
  refs = 0;
  abstract readonly filetype: number;
  /** The VFS path it was opened from, when it has one. */
  readonly path: string | undefined = undefined;
  readonly readable: boolean = true;
  readonly writable: boolean = true;
  append = false;
  /** The sync fdflags it was opened with (DSYNC, RSYNC, SYNC): kept for fd_fdstat_get, meaningless in memory. */
  syncFlags = 0;

  /** Reads into `target`; 0 means end of file. May park (returns a promise) when no data is ready yet. */
  abstract read(target: Uint8Array, signal: AbortSignal): number | Promise<number>;
  /**
   * Writes all of `data` or throws. With `signal` the caller can wait: a file that has no room yet may
   * park it (return a promise) until it has; without, the write completes at once.
   */
  abstract write(data: Uint8Array, signal?: AbortSignal): number | Promise<number>;

  /**
   * A write for an fd with NONBLOCK: takes what fits now and returns how much (a short write), or throws
   * EAGAIN when nothing fits. Files that never park take it all.
   */
  writeNonblocking(data: Uint8Array): number | Promise<number> {
    return this.write(data);
  }

  /**
   * Would a read (or write) park now? Regular files, devices and sinks never do; files that can park
   * (pipes, pidfds) override this and `watchReadiness`.
   */
  readiness(_op: "read" | "write"): Readiness {
    return ALWAYS_READY;
  }

  /** Calls `wake` whenever readiness may have changed, until the returned function removes it. */
  watchReadiness(_wake: () => void): () => void {
    return () => {};
  }

  seek(_offset: number, _whence: number): number {
    throw kerr("ESPIPE", { syscall: "seek" });
  }
  /** Reads at `offset`, leaving the description's offset where it is (pread). Only files with offsets: ESPIPE. */
  pread(_target: Uint8Array, _offset: number): number {
    throw kerr("ESPIPE", { syscall: "pread" });
  }
  /** Writes at `offset` (at the end with O_APPEND, as Linux does), leaving the offset where it is (pwrite). */
  pwrite(_data: Uint8Array, _offset: number): number {
    throw kerr("ESPIPE", { syscall: "pwrite" });
  }
  /**
   * posix_fallocate: makes the file at least `offset + length` bytes long (files are not sparse, so the
   * bytes are held at once). Only regular files: ESPIPE for a stream.
   */
  allocate(_offset: number, _length: number): void {
    throw kerr("ESPIPE", { syscall: "fallocate" });
  }
  stat(): FileStat {
    return { dev: 1, ino: 0, filetype: this.filetype, nlink: 1, size: 0, atimeMs: 0, mtimeMs: 0, ctimeMs: 0 };
  }
  truncate(_size: number): void {
    throw kerr("EINVAL", { syscall: "ftruncate" });
  }
  /** st_mode of the file it was opened from; 0 when unknown (stdio, pipes). */
  mode(): number {
    return 0;
  }
  retain(): this {
    this.refs++;
    return this;
  }
  release(): void {
    if (this.refs <= 0) throw new Error(`OpenFile refcount below zero (${this.constructor.name})`);
    if (--this.refs === 0) this.close();
  }
  /** Called once, when the last reference goes. */
  protected close(): void {}
}

/** /dev/null, /dev/zero, /dev/urandom. */
export class DeviceFile extends OpenFile {
  readonly filetype = FileType.REGULAR_FILE; // the guest's view, see Vfs.guestMode

  constructor(
    readonly device: "null" | "zero" | "urandom",
    override readonly path: string,
    /** The device's node: fstat of an fd names the file stat of its path names (same dev and inode). */
    private readonly node: { dev: number; ino: number },
  ) {
    super();
  }
  override stat(): FileStat {
    return { ...super.stat(), dev: this.node.dev, ino: this.node.ino };
  }
  read(target: Uint8Array): number {
    if (this.device === "null") return 0;
    if (this.device === "zero") target.fill(0);
    else for (let i = 0; i < target.length; i += 65536) crypto.getRandomValues(target.subarray(i, i + 65536));
    return target.length;
  }
  write(data: Uint8Array): number {
    return data.length;
  }
  override seek(): number {
    return 0;
  }
  override pread(target: Uint8Array): number {
    return this.read(target);
  }
  override pwrite(data: Uint8Array): number {
    return data.length;
  }
  override mode(): number {
    return 0o100666; // the guest's view, see Vfs.guestMode
  }
}

/**
 * An output the host consumes directly (exec/spawn stdout and stderr): writes are delivered as they
 * happen. `deliver` answers false when the host takes no more; the writer then gets EPIPE.
 */
export class SinkFile extends OpenFile {
  readonly filetype = FileType.CHARACTER_DEVICE;
  override readonly readable = false;
  constructor(private readonly deliver: (data: Uint8Array) => boolean) {
    super();
  }
  read(): number {
    throw kerr("EBADF", { syscall: "read" });
  }
  write(data: Uint8Array): number {
    if (!this.deliver(data.slice())) throw kerr("EPIPE", { syscall: "write" });
    return data.length;
  }
}
