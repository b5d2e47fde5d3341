import * as nodeFs from "node:fs";
import { FileType } from "../abi/wasi.js";
import type { FileStat } from "../abi/filestat.js";
import { Errno, type ErrnoName } from "../abi/errno.js";
import { HOST_DEV, toFileStat } from "./file-stat.js";
import { fromNodeError, kerr, KernelError } from "./kernel-error.js";
import { OpenFile } from "./open-file.js";

/** A host directory shown inside the VM. */
export interface Mount {
  /** Absolute VM path. */
  path: string;
  /** The host directory (resolved: its real path). */
  hostDir: string;
  readOnly: boolean;
}

/**
 * A file system error (the host's or memfs's) as a KernelError naming the VM path, never the host's own
 * error, which would carry the host path. ENXIO (opening a socket) is EACCES, as openHostFile answers
 * for every special file; a code the guests' errno table lacks is EIO. Anything without a code (a bug)
 * is rethrown as it is, to be recorded as a kernel fault.
 */
export function fsError(e: unknown, syscall: string, path: string): KernelError {
  if (e instanceof KernelError) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== "string") throw e;
  if (code === "ENXIO") return kerr("EACCES", { syscall, path, message: "not a regular file or directory on the host" });
  if (code in Errno) return kerr(code as ErrnoName, { syscall, path });
  if (code === "EOPNOTSUPP") return kerr("ENOTSUP", { syscall, path });
  return kerr("EIO", { syscall, path, message: `i/o error (${code})` });
}

/** The real path of a host directory to mount; ENOTDIR/ENOENT/EACCES as the host answers. */
export function hostDirectory(hostDir: string): string {
  try {
    const real = nodeFs.realpathSync.native(hostDir);
    if (!nodeFs.statSync(real).isDirectory()) throw kerr("ENOTDIR", { syscall: "mount", path: hostDir });
    return real;
  } catch (e) {
    throw fromNodeError(e, "mount", hostDir);
  }
}

/**
 * The host path of VM path `vmPath` inside `mount`, confined: whatever it resolves to on the host (through
 * symlinks) must stay inside the mounted directory, or it is EACCES. `follow` says whether the last
 * component is followed (stat, open) or not (lstat, readlink); errors name `path`, as the caller gave it.
 */
export function hostPath(mount: Mount, vmPath: string, syscall: string, follow: boolean, path: string): string {
  const host = mount.hostDir + vmPath.slice(mount.path.length);
  const slash = host.lastIndexOf("/");
  const checked = follow || host === mount.hostDir ? host : host.slice(0, slash);
  let real: string;
  try {
    real = nodeFs.realpathSync.native(checked);
  } catch (e) {
    throw fsError(e, syscall, path);
  }
  if (real !== mount.hostDir && !real.startsWith(`${mount.hostDir}/`))
    throw kerr("EACCES", { syscall, path, message: "resolves outside its mount" });
  return follow || host === mount.hostDir ? real : real + host.slice(slash);
}

/**
 * Opens a host file for reading without ever blocking the kernel's thread: with O_NONBLOCK, so that a FIFO
 * without a writer does not wait for one, then fstat on the open descriptor (no race with the file being
 * replaced between a check and the open); without `follow`, a symlink at the end is ELOOP. Only regular files and directories are served; a FIFO, socket or
 * device is closed again and refused with EACCES — reading one would block the kernel, or never end. (Linux
 * would say ENXIO for some of them; the guests' errno table has no ENXIO, and EACCES reads as "permission
 * denied", which is what it is.)
 */
export function openHostFile(host: string, path: string, follow = true): { fd: number; stats: nodeFs.Stats } {
  let fd: number;
  try {
    const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = nodeFs.constants;
    fd = nodeFs.openSync(host, O_RDONLY | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
  } catch (e) {
    throw fsError(e, "open", path);
  }
  try {
    const stats = nodeFs.fstatSync(fd);
    if (!stats.isFile() && !stats.isDirectory())
      throw kerr("EACCES", { syscall: "open", path, message: "not a regular file or directory on the host" });
    return { fd, stats };
  } catch (e) {
    nodeFs.closeSync(fd);
    throw fsError(e, "open", path);
  }
}

/** A host file's whole content (the API's readFile), read through openHostFile. */
export function readHostFile(host: string, path: string): Uint8Array {
  const { fd, stats } = openHostFile(host, path);
  try {
    if (stats.isDirectory()) throw kerr("EISDIR", { syscall: "read", path });
    // The size is the one fstat saw: a file growing meanwhile is read up to it.
    return readUpTo(fd, stats.size);
  } catch (e) {
    throw fsError(e, "read", path);
  } finally {
    nodeFs.closeSync(fd);
  }
}

/**
 * A regular file of a host mount, open: for reading, or (a read-write mount, see host-writes.ts) for
 * writing too. `standsFor` gives what fstat shows when the file stands for another one (an overlay's
 * lower file shows the VM's inode and mode).
 */
export class HostFile extends OpenFile {
  readonly filetype = FileType.REGULAR_FILE;
  override readonly readable: boolean;
  override readonly writable: boolean;
  private position = 0;

  constructor(
    private readonly fd: number,
    override readonly path: string,
    writing?: { read: boolean; append: boolean },
    private readonly standsFor?: { stat(): FileStat; mode(): number },
  ) {
    super();
    this.readable = writing?.read ?? true;
    this.writable = writing !== undefined;
    this.append = writing?.append ?? false;
  }

  read(target: Uint8Array): number {
    const n = this.pread(target, this.position);
    this.position += n;
    return n;
  }
  override pread(target: Uint8Array, offset: number): number {
    if (!this.readable) throw kerr("EBADF", { syscall: "read", path: this.path });
    return this.host("read", () => nodeFs.readSync(this.fd, target, 0, target.length, offset));
  }
  write(data: Uint8Array): number {
    const [pos, n] = this.writeAt(data, this.position);
    this.position = pos + n;
    return n;
  }
  override pwrite(data: Uint8Array, offset: number): number {
    return this.writeAt(data, offset)[1];
  }
  /** Writes at `offset`, or at the end with O_APPEND: where it wrote and how much. */
  private writeAt(data: Uint8Array, offset: number): [number, number] {
    if (!this.writable) throw kerr("EBADF", { syscall: "write", path: this.path });
    return this.host("write", () => {
      const pos = this.append ? nodeFs.fstatSync(this.fd).size : offset;
      return [pos, nodeFs.writeSync(this.fd, data, 0, data.length, pos)];
    });
  }
  override allocate(offset: number, length: number): void {
    if (!this.writable) throw kerr("EBADF", { syscall: "fallocate", path: this.path, message: "not open for writing" });
    if (offset + length > this.host("fstat", () => nodeFs.fstatSync(this.fd).size)) this.truncate(offset + length);
  }
  override truncate(size: number): void {
    if (!this.writable) throw kerr("EINVAL", { syscall: "ftruncate", path: this.path, message: "not open for writing" });
    this.host("ftruncate", () => nodeFs.ftruncateSync(this.fd, size));
  }
  override seek(offset: number, whence: number): number {
    const base = whence === 0 ? 0 : whence === 1 ? this.position : this.host("seek", () => nodeFs.fstatSync(this.fd).size);
    const next = base + offset;
    if (next < 0) throw kerr("EINVAL", { syscall: "seek", path: this.path });
    this.position = next;
    return next;
  }
  override stat(): FileStat {
    return this.standsFor?.stat() ?? toFileStat(this.host("fstat", () => nodeFs.fstatSync(this.fd)), HOST_DEV);
  }
  override mode(): number {
    return this.standsFor?.mode() ?? this.host("fstat", () => nodeFs.fstatSync(this.fd)).mode;
  }
  /** The host's errors (a full disk, an I/O error) as KernelErrors naming the VM path. */
  private host<T>(syscall: string, fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw fsError(e, syscall, this.path ?? "");
    }
  }
  protected override close(): void {
    nodeFs.closeSync(this.fd);
  }
}

/** The first `size` bytes of host file `fd` (fewer if it ends sooner), read from offset 0. */
export function readUpTo(fd: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let n = 0;
  while (n < out.length) {
    const got = nodeFs.readSync(fd, out, n, out.length - n, n);
    if (got === 0) break;
    n += got;
  }
  return n === out.length ? out : out.slice(0, n);
}
