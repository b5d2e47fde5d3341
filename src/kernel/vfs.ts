import { Volume } from "memfs";
import { FileType } from "../abi/wasi.js";
import type { FileStat } from "../abi/filestat.js";
import { fromNodeError, kerr } from "./kernel-error.js";
import { DeviceFile, OpenFile } from "./open-file.js";
import { dirname } from "./path.js";

/** How a file is opened (decoded from WASI oflags, fdflags and rights). */
export interface OpenMode {
  read: boolean;
  write: boolean;
  create?: boolean;
  exclusive?: boolean;
  truncate?: boolean;
  directory?: boolean;
  append?: boolean;
}

export interface DirEntry {
  name: string;
  filetype: number;
  ino: number;
}

const S_IFMT = 0o170000;
const typeOfMode: Record<number, number> = {
  0o040000: FileType.DIRECTORY,
  0o100000: FileType.REGULAR_FILE,
  0o120000: FileType.SYMBOLIC_LINK,
  0o020000: FileType.CHARACTER_DEVICE,
  0o060000: FileType.BLOCK_DEVICE,
  0o140000: FileType.SOCKET_STREAM,
};

export const DEVICE_GUEST_MODE = 0o100666;

const DEVICES: Record<string, "null" | "zero" | "urandom"> = {
  "/dev/null": "null",
  "/dev/zero": "zero",
  "/dev/urandom": "urandom",
  "/dev/random": "urandom",
};

interface NodeStats {
  mode: number;
  isDirectory(): boolean;
  ino: number | bigint;
  nlink: number | bigint;
  size: number | bigint;
  atimeMs: number | bigint;
  mtimeMs: number | bigint;
  ctimeMs: number | bigint;
}

function toFileStat(st: NodeStats): FileStat {
  return {
    dev: 1,
    ino: Number(st.ino),
    filetype: typeOfMode[st.mode & S_IFMT] ?? FileType.UNKNOWN,
    nlink: Number(st.nlink),
    size: Number(st.size),
    atimeMs: Number(st.atimeMs),
    mtimeMs: Number(st.mtimeMs),
    ctimeMs: Number(st.ctimeMs),
  };
}

/**
 * The VM's file system: memfs holds the files and directories; the kernel owns path resolution, fds and
 * devices. Every path here is absolute and normalised. Failures throw KernelError.
 */
export class Vfs {
  readonly volume = new Volume();

  /** Creates the device nodes' directory entries so that `ls /dev` shows them. */
  constructor() {
    this.volume.mkdirSync("/dev", { recursive: true });
    for (const p of Object.keys(DEVICES)) this.volume.writeFileSync(p, "");
  }

  private wrap<T>(syscall: string, path: string, fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw fromNodeError(e, syscall, path);
    }
  }

  stat(path: string, follow = true): FileStat {
    // Devices look like regular files to the guest (see guestMode).
    if (DEVICES[path]) return toFileStat(this.volume.statSync(path));
    return this.wrap(follow ? "stat" : "lstat", path, () =>
      toFileStat(follow ? this.volume.statSync(path) : this.volume.lstatSync(path)),
    );
  }

  /** Full st_mode including type bits. */
  mode(path: string, follow = true): number {
    if (DEVICES[path]) return 0o20666;
    const st = this.wrap("stat", path, () => (follow ? this.volume.statSync(path) : this.volume.lstatSync(path)));
    return (st.mode & S_IFMT) === 0o120000 ? 0o120777 : st.mode;
  }

  /**
   * st_mode as the guest sees it: the same, except that devices look like regular files — the tools'
   * std for WASI knows no character devices, and `cat /dev/null` would fail with "unknown filetype".
   */
  guestMode(path: string, follow = true): number {
    return DEVICES[path] ? DEVICE_GUEST_MODE : this.mode(path, follow);
  }

  exists(path: string): boolean {
    return this.volume.existsSync(path);
  }

  open(path: string, how: OpenMode): OpenFile {
    const device = DEVICES[path];
    if (device) return new DeviceFile(device, path);
    let st: NodeStats | undefined;
    try {
      st = this.volume.statSync(path);
    } catch (e) {
      const err = fromNodeError(e, "open", path);
      if (err.code !== "ENOENT" || !how.create) throw err;
    }
    if (st?.isDirectory()) {
      if (how.write || how.truncate) throw kerr("EISDIR", { syscall: "open", path });
      if (how.create && how.exclusive) throw kerr("EEXIST", { syscall: "open", path });
      return new DirectoryFile(this, path);
    }
    if (how.directory) throw kerr(st ? "ENOTDIR" : "ENOENT", { syscall: "open", path });
    if (st && how.create && how.exclusive) throw kerr("EEXIST", { syscall: "open", path });
    let flags = how.write ? 2 /* O_RDWR */ : 0;
    if (how.create) flags |= 64; // O_CREAT
    if (how.truncate) flags |= 512; // O_TRUNC
    const fd = this.wrap("open", path, () => this.volume.openSync(path, flags, 0o644));
    return new RegularFile(this.volume, fd, path, how);
  }

  readdir(path: string): DirEntry[] {
    return this.wrap("readdir", path, () => {
      const names = this.volume.readdirSync(path) as string[];
      const base = path === "/" ? "" : path;
      return names.map((name) => {
        const st = this.volume.lstatSync(`${base}/${name}`);
        return { name, filetype: typeOfMode[st.mode & S_IFMT] ?? FileType.UNKNOWN, ino: Number(st.ino) };
      });
    });
  }

  mkdir(path: string, recursive = false): void {
    this.wrap("mkdir", path, () => this.volume.mkdirSync(path, { recursive }));
  }
  rmdir(path: string): void {
    if (path === "/") throw kerr("EPERM", { syscall: "rmdir", path });
    this.wrap("rmdir", path, () => this.volume.rmdirSync(path));
  }
  unlink(path: string): void {
    this.wrap("unlink", path, () => {
      if (this.volume.lstatSync(path).isDirectory()) throw kerr("EISDIR", { syscall: "unlink", path });
      this.volume.unlinkSync(path);
    });
  }
  /** Recursive removal (the API's delete). */
  remove(path: string, recursive: boolean): void {
    this.wrap("rm", path, () => {
      const st = this.volume.lstatSync(path);
      if (st.isDirectory()) {
        if (recursive) this.volume.rmSync(path, { recursive: true });
        else this.volume.rmdirSync(path);
      } else this.volume.unlinkSync(path);
    });
  }
  rename(from: string, to: string): void {
    this.wrap("rename", from, () => {
      const src = this.volume.lstatSync(from);
      if (this.volume.existsSync(to)) {
        const dst = this.volume.lstatSync(to);
        if (dst.isDirectory() && !src.isDirectory()) throw kerr("EISDIR", { syscall: "rename", path: to });
        if (!dst.isDirectory() && src.isDirectory()) throw kerr("ENOTDIR", { syscall: "rename", path: to });
        if (dst.isDirectory() && (this.volume.readdirSync(to) as string[]).length > 0)
          throw kerr("ENOTEMPTY", { syscall: "rename", path: to });
      }
      if (to === from || to.startsWith(from + "/")) {
        if (to !== from) throw kerr("EINVAL", { syscall: "rename", path: to });
        return;
      }
      this.volume.renameSync(from, to);
    });
  }
  symlink(target: string, path: string): void {
    this.wrap("symlink", path, () => this.volume.symlinkSync(target, path));
  }
  link(from: string, to: string): void {
    this.wrap("link", to, () => this.volume.linkSync(from, to));
  }
  readlink(path: string): string {
    return this.wrap("readlink", path, () => String(this.volume.readlinkSync(path)));
  }
  chmod(path: string, mode: number): void {
    this.wrap("chmod", path, () => this.volume.chmodSync(path, mode & 0o7777));
  }
  readFile(path: string): Uint8Array {
    if (DEVICES[path] === "null") return new Uint8Array(0);
    return this.wrap("open", path, () => {
      const b = this.volume.readFileSync(path) as Buffer;
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    });
  }
  writeFile(path: string, data: Uint8Array | string): void {
    if (DEVICES[path]) return;
    this.wrap("open", path, () => {
      if (!this.volume.existsSync(dirname(path))) throw kerr("ENOENT", { syscall: "open", path });
      this.volume.writeFileSync(path, data);
    });
  }
}

/** A regular file open in memfs. The description keeps its own offset so that dup'ed fds share it. */
export class RegularFile extends OpenFile {
  readonly filetype = FileType.REGULAR_FILE;
  override readonly readable: boolean;
  override readonly writable: boolean;
  private position = 0;

  constructor(
    private readonly volume: Volume,
    private readonly fd: number,
    override readonly path: string,
    how: OpenMode,
  ) {
    super();
    this.readable = how.read || !how.write;
    this.writable = how.write;
    this.append = how.append ?? false;
  }

  read(target: Uint8Array): number {
    if (!this.readable) throw kerr("EBADF", { syscall: "read", path: this.path });
    const n = this.volume.readSync(this.fd, target, 0, target.length, this.position);
    this.position += n;
    return n;
  }
  write(data: Uint8Array): number {
    if (!this.writable) throw kerr("EBADF", { syscall: "write", path: this.path });
    if (this.append) this.position = this.size();
    const n = this.volume.writeSync(this.fd, data, 0, data.length, this.position);
    this.position += n;
    return n;
  }
  private size(): number {
    return Number(this.volume.fstatSync(this.fd).size);
  }
  override seek(offset: number, whence: number): number {
    const base = whence === 0 ? 0 : whence === 1 ? this.position : this.size();
    const next = base + offset;
    if (next < 0) throw kerr("EINVAL", { syscall: "seek", path: this.path });
    this.position = next;
    return next;
  }
  override stat(): FileStat {
    return toFileStat(this.volume.fstatSync(this.fd));
  }
  override truncate(size: number): void {
    this.volume.ftruncateSync(this.fd, size);
  }
  override mode(): number {
    return this.volume.fstatSync(this.fd).mode;
  }
  protected override close(): void {
    this.volume.closeSync(this.fd);
  }
}

/** An open directory: reads fail with EISDIR; entries are listed through readdir. */
export class DirectoryFile extends OpenFile {
  readonly filetype = FileType.DIRECTORY;
  override readonly writable = false;
  constructor(
    private readonly vfs: Vfs,
    override readonly path: string,
  ) {
    super();
  }
  read(): number {
    throw kerr("EISDIR", { syscall: "read", path: this.path });
  }
  write(): number {
    throw kerr("EISDIR", { syscall: "write", path: this.path });
  }
  override stat(): FileStat {
    return this.vfs.stat(this.path);
  }
  override mode(): number {
    return this.vfs.mode(this.path);
  }
  override seek(): number {
    return 0;
  }

  private listing: DirEntry[] | undefined;

  /**
   * The entries from `cookie` on, "." and ".." first as WASI hosts list them. The listing is taken when a
   * reader starts at cookie 0 and kept for the rest of that pass, so that a guest reading a large
   * directory in many small calls does not make the kernel list it again for each one.
   */
  entriesFrom(cookie: number): DirEntry[] {
    if (cookie === 0 || !this.listing) {
      this.listing = [
        { name: ".", filetype: FileType.DIRECTORY, ino: this.vfs.stat(this.path).ino },
        { name: "..", filetype: FileType.DIRECTORY, ino: 0 },
        ...this.vfs.readdir(this.path),
      ];
    }
    return this.listing.slice(cookie);
  }
}
