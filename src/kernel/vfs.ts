import * as nodeFs from "node:fs";
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

/** Device numbers: the memory file system, and host-directory mounts (so that inode numbers never mix). */
const MEMORY_DEV = 1;
const HOST_DEV = 2;

/** The synchronous file API that memfs and node:fs share, as far as the VFS uses it. */
type FileSystem = Pick<
  typeof nodeFs,
  | "statSync"
  | "lstatSync"
  | "openSync"
  | "readSync"
  | "writeSync"
  | "fstatSync"
  | "ftruncateSync"
  | "closeSync"
  | "readdirSync"
  | "readlinkSync"
  | "readFileSync"
  | "existsSync"
>;

/** A host directory shown inside the VM. */
export interface Mount {
  /** Absolute VM path. */
  path: string;
  /** The host directory (resolved: its real path). */
  hostDir: string;
  readOnly: boolean;
}

/** Where a VM path lives: the file system that holds it and the path there. */
interface Place {
  fs: FileSystem;
  path: string;
  dev: number;
  mount: Mount | undefined;
}

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

function toFileStat(st: NodeStats, dev = MEMORY_DEV): FileStat {
  return {
    dev,
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
  private readonly mounts: Mount[] = [];

  /** Creates the device nodes' directory entries so that `ls /dev` shows them. */
  constructor() {
    this.volume.mkdirSync("/dev", { recursive: true });
    for (const p of Object.keys(DEVICES)) this.volume.writeFileSync(p, "");
  }

  /**
   * Shows host directory `hostDir` at VM path `path`. Whatever a path inside resolves to on the host
   * (through `..` or symlinks) must stay inside `hostDir`; anything else is EACCES.
   */
  mount(path: string, hostDir: string, readOnly: boolean): void {
    let real: string;
    try {
      real = nodeFs.realpathSync.native(hostDir);
      if (!nodeFs.statSync(real).isDirectory()) throw kerr("ENOTDIR", { syscall: "mount", path: hostDir });
    } catch (e) {
      throw fromNodeError(e, "mount", hostDir);
    }
    this.volume.mkdirSync(path, { recursive: true });
    this.mounts.push({ path, hostDir: real, readOnly });
  }

  private mountOf(path: string): Mount | undefined {
    return this.mounts.find((m) => path === m.path || path.startsWith(`${m.path}/`));
  }

  /**
   * The file system and path that hold `path`. In a mount the host path is confined: `follow` says
   * whether the last component is followed (stat, open) or not (lstat, readlink).
   */
  private place(path: string, syscall: string, follow = true): Place {
    const mount = this.mountOf(path);
    if (!mount) return { fs: this.volume as unknown as FileSystem, path, dev: MEMORY_DEV, mount };
    const host = mount.hostDir + path.slice(mount.path.length);
    const slash = host.lastIndexOf("/");
    const checked = follow || host === mount.hostDir ? host : host.slice(0, slash);
    let real: string;
    try {
      real = nodeFs.realpathSync.native(checked);
    } catch (e) {
      throw fromNodeError(e, syscall, path);
    }
    if (real !== mount.hostDir && !real.startsWith(`${mount.hostDir}/`))
      throw kerr("EACCES", { syscall, path, message: "resolves outside its mount" });
    const target = follow || host === mount.hostDir ? real : real + host.slice(slash);
    return { fs: nodeFs, path: target, dev: HOST_DEV, mount };
  }

  /** Throws EROFS for a change inside a read-only mount. */
  private writable(path: string, syscall: string): void {
    if (this.mountOf(path)?.readOnly) throw kerr("EROFS", { syscall, path });
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
    const syscall = follow ? "stat" : "lstat";
    const at = this.place(path, syscall, follow);
    return this.wrap(syscall, path, () => toFileStat(follow ? at.fs.statSync(at.path) : at.fs.lstatSync(at.path), at.dev));
  }

  /** Full st_mode including type bits. */
  mode(path: string, follow = true): number {
    if (DEVICES[path]) return 0o20666;
    const at = this.place(path, "stat", follow);
    const st = this.wrap("stat", path, () => (follow ? at.fs.statSync(at.path) : at.fs.lstatSync(at.path)));
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
    try {
      const at = this.place(path, "access");
      return at.fs.existsSync(at.path);
    } catch {
      return false;
    }
  }

  open(path: string, how: OpenMode): OpenFile {
    const device = DEVICES[path];
    if (device) return new DeviceFile(device, path);
    if (how.write || how.create || how.truncate) this.writable(path, "open");
    let st: NodeStats | undefined;
    let at: Place | undefined;
    try {
      at = this.place(path, "open");
      st = at.fs.statSync(at.path);
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
    const place = at ?? this.place(path, "open");
    const fd = this.wrap("open", path, () => place.fs.openSync(place.path, flags, 0o644));
    return new RegularFile(place.fs, fd, path, how, place.dev);
  }

  readdir(path: string): DirEntry[] {
    const at = this.place(path, "readdir");
    return this.wrap("readdir", path, () => {
      const names = at.fs.readdirSync(at.path) as string[];
      return names.map((name) => {
        const st = at.fs.lstatSync(`${at.path === "/" ? "" : at.path}/${name}`);
        return { name, filetype: typeOfMode[st.mode & S_IFMT] ?? FileType.UNKNOWN, ino: Number(st.ino) };
      });
    });
  }

  mkdir(path: string, recursive = false): void {
    this.writable(path, "mkdir");
    this.wrap("mkdir", path, () => this.volume.mkdirSync(path, { recursive }));
  }
  rmdir(path: string): void {
    if (path === "/") throw kerr("EPERM", { syscall: "rmdir", path });
    this.writable(path, "rmdir");
    this.wrap("rmdir", path, () => this.volume.rmdirSync(path));
  }
  unlink(path: string): void {
    this.writable(path, "unlink");
    this.wrap("unlink", path, () => {
      if (this.volume.lstatSync(path).isDirectory()) throw kerr("EISDIR", { syscall: "unlink", path });
      this.volume.unlinkSync(path);
    });
  }
  /** Recursive removal (the API's delete). */
  remove(path: string, recursive: boolean): void {
    this.writable(path, "rm");
    this.wrap("rm", path, () => {
      const st = this.volume.lstatSync(path);
      if (st.isDirectory()) {
        if (recursive) this.volume.rmSync(path, { recursive: true });
        else this.volume.rmdirSync(path);
      } else this.volume.unlinkSync(path);
    });
  }
  rename(from: string, to: string): void {
    this.writable(from, "rename");
    this.writable(to, "rename");
    if (this.mountOf(from) !== this.mountOf(to)) throw kerr("EXDEV", { syscall: "rename", path: to });
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
    this.writable(path, "symlink");
    this.wrap("symlink", path, () => this.volume.symlinkSync(target, path));
  }
  link(from: string, to: string): void {
    this.writable(to, "link");
    if (this.mountOf(from) !== this.mountOf(to)) throw kerr("EXDEV", { syscall: "link", path: to });
    this.wrap("link", to, () => this.volume.linkSync(from, to));
  }
  readlink(path: string): string {
    const at = this.place(path, "readlink", false);
    return this.wrap("readlink", path, () => String(at.fs.readlinkSync(at.path)));
  }
  chmod(path: string, mode: number): void {
    this.writable(path, "chmod");
    this.wrap("chmod", path, () => this.volume.chmodSync(path, mode & 0o7777));
  }
  readFile(path: string): Uint8Array {
    if (DEVICES[path] === "null") return new Uint8Array(0);
    const at = this.place(path, "open");
    return this.wrap("open", path, () => {
      const b = at.fs.readFileSync(at.path) as Buffer;
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    });
  }
  writeFile(path: string, data: Uint8Array | string): void {
    if (DEVICES[path]) return;
    this.writable(path, "open");
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
    private readonly fs: FileSystem,
    private readonly fd: number,
    override readonly path: string,
    how: OpenMode,
    private readonly dev: number,
  ) {
    super();
    this.readable = how.read || !how.write;
    this.writable = how.write;
    this.append = how.append ?? false;
  }

  read(target: Uint8Array): number {
    if (!this.readable) throw kerr("EBADF", { syscall: "read", path: this.path });
    const n = this.fs.readSync(this.fd, target, 0, target.length, this.position);
    this.position += n;
    return n;
  }
  write(data: Uint8Array): number {
    if (!this.writable) throw kerr("EBADF", { syscall: "write", path: this.path });
    if (this.append) this.position = this.size();
    const n = this.fs.writeSync(this.fd, data, 0, data.length, this.position);
    this.position += n;
    return n;
  }
  private size(): number {
    return Number(this.fs.fstatSync(this.fd).size);
  }
  override seek(offset: number, whence: number): number {
    const base = whence === 0 ? 0 : whence === 1 ? this.position : this.size();
    const next = base + offset;
    if (next < 0) throw kerr("EINVAL", { syscall: "seek", path: this.path });
    this.position = next;
    return next;
  }
  override stat(): FileStat {
    return toFileStat(this.fs.fstatSync(this.fd), this.dev);
  }
  override truncate(size: number): void {
    this.fs.ftruncateSync(this.fd, size);
  }
  override mode(): number {
    return this.fs.fstatSync(this.fd).mode;
  }
  protected override close(): void {
    this.fs.closeSync(this.fd);
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
