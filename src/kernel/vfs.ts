import * as nodeFs from "node:fs";
import { Volume } from "memfs";
import type { FileStat } from "../abi/filestat.js";
import { FileType } from "../abi/wasi.js";
import { fileTypeOf, HOST_DEV, MEMORY_DEV, S_IFDIR, S_IFLNK, S_IFMT, S_IFREG, S_IFSOCK, toFileStat } from "./file-stat.js";
import type { Limits } from "../limits.js";
import { FsQuota } from "./fs-quota.js";
import { HostWrites } from "./host-writes.js";
import { Overlays, type LowerFile, type OverlayDiff } from "./overlay.js";
import { ImageFile } from "./image-file.js";
import type { Image } from "./image.js";
import { fsError, HostFile, hostDirectory, hostPath, openHostFile, readHostFile, type Mount } from "./host-mount.js";
import { setExactTimes, withExactTimes } from "./exact-times.js";
import { kerr } from "./kernel-error.js";
import { childrenOf, linkAt, nodeData, nodeStats, pathOf, statLink, type Link, type MemNode, type Superblock } from "./memfs-core.js";
import type { MemoryBudget } from "./memory-budget.js";
import { MemoryFile } from "./memory-file.js";
import { DirectoryFile } from "./directory-file.js";
import { DeviceFile, type OpenFile } from "./open-file.js";
import { checkPathLength, lookup } from "./path-lookup.js";
import { basename, dirname } from "./path.js";
import { DIR_MODE, FILE_MODE } from "./umask.js";
import { checkChmod, checkCreate, checkRemove, DEV, isDevPath } from "./protected-paths.js";

export { DirectoryFile };

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
  /** What lstat says of it, where listing it took one anyway (a host mount's entries). */
  stat?: FileStat;
}

export const DEVICE_GUEST_MODE = 0o100666;
/** A socket file's permissions, as Linux gives them under the usual umask. */
const SOCKET_MODE = 0o755;

/** The synchronous file API that memfs and node:fs share, as far as the VFS uses it. */
type FileSystem = Pick<typeof nodeFs, "statSync" | "lstatSync" | "readdirSync" | "readlinkSync" | "existsSync" | "utimesSync" | "lutimesSync">;

/** Where a VM path lives: the file system that holds it and the path there. */
interface Place {
  fs: FileSystem;
  path: string;
  dev: number;
}

const DEVICES: Record<string, "null" | "zero" | "urandom"> = {
  "/dev/null": "null",
  "/dev/zero": "zero",
  "/dev/urandom": "urandom",
  "/dev/random": "urandom",
};

/** memfs's components of an entry at `path` (its link's `steps`: the root's own "" first). */
const depthOf = (path: string): number => (path === "/" ? 1 : path.split("/").length);

const OPEN_RDWR = 2;
const OPEN_CREAT = 64;
const OPEN_TRUNC = 512;

/**
 * The VM's file system: memfs holds the files and directories; the kernel owns path lookup (symlinks, see
 * path-lookup.ts), fds, devices, host mounts (host-mount.ts), what is protected (protected-paths.ts) and
 * what the files may take (fs-quota.ts). Paths given here are absolute and normalised; a path over
 * limits.maxPathBytes or with a component over limits.maxNameBytes is ENAMETOOLONG. Failures throw
 * KernelError with the path as given.
 */
export class Vfs {
  private readonly volume = new Volume();
  private readonly core: Superblock = this.volume._core;
  private readonly quota: FsQuota;
  private readonly overlays: Overlays;
  private readonly mounts: Mount[] = [];
  /** The directories mounts are made on: lookup leaves what is below them to the host. */
  private readonly mountLinks = new Set<Link>();
  private readonly writes = new Map<Mount, HostWrites>();

  /** Creates the device nodes' directory entries so that `ls /dev` shows them. */
  constructor(
    private readonly limits: Limits,
    memory: MemoryBudget,
  ) {
    // memfs makes its root rwxrwxrwx.
    this.volume.chmodSync("/", DIR_MODE);
    this.volume.mkdirSync(DEV, DIR_MODE);
    for (const p of Object.keys(DEVICES)) this.volume.writeFileSync(p, "");
    this.quota = new FsQuota(this.core, limits, memory);
    this.quota.adopt();
    this.overlays = new Overlays(this.core, this.quota);
  }

  /**
   * Shows host directory `hostDir` at VM path `path`: read-only, read-write (host-writes.ts) or as an overlay's
   * lower layer (overlay.ts). Whatever a path inside resolves to on the host (through `..` or symlinks) must
   * stay inside `hostDir`; anything else is EACCES.
   */
  mount(path: string, hostDir: string, kind: "read-only" | "read-write" | "overlay"): void {
    const real = hostDirectory(hostDir);
    this.mkdir(path, true);
    const link = linkAt(this.core, this.resolve(path, "mount", true))!;
    if (kind === "overlay") {
      if (link.length > 0) throw kerr("ENOTEMPTY", { syscall: "mount", path, message: "an overlay mount needs an empty directory" });
      return this.overlays.add(link, pathOf(link), real);
    }
    const readOnly = kind === "read-only";
    const mount: Mount = { path: pathOf(link), hostDir: real, readOnly };
    if (!readOnly) this.writes.set(mount, new HostWrites(mount, this.limits.maxSymlinkDepth));
    this.mounts.push(mount);
    this.mountLinks.add(link);
  }

  /** Shows read-only images below the root, the first the lowest (image.ts); before anything else is made. */
  addLayers(images: readonly Image[]): void {
    this.overlays.addImages(this.core.root, images);
  }

  /** The changes of the read-write mount that holds real path `real`, if it is in one (host-writes.ts). */
  private hostWrites(real: string): HostWrites | undefined {
    const mount = this.mountOf(real);
    return mount && this.writes.get(mount);
  }

  private mountOf(path: string): Mount | undefined {
    return this.mounts.find((m) => path === m.path || path.startsWith(`${m.path}/`));
  }

  private mountPaths(): string[] {
    return [...this.mounts.map((m) => m.path), ...this.overlays.mounts.keys()];
  }

  /** What the VM changed in overlay mount `path` against its host directory (overlay.ts). */
  diff(path: string): OverlayDiff {
    const real = this.resolve(path, "diff", true);
    if (!this.overlays.mounts.has(real)) throw kerr("EINVAL", { syscall: "diff", path, message: "not an overlay mount" });
    return this.overlays.diff(linkAt(this.core, real)!, real);
  }

  /** Brings an overlay directory's lower entries in before its entries are used (overlay.ts). */
  private enter(link: Link, path: string, syscall: string): void {
    if (this.overlays.active && link.getNode().isDirectory()) this.overlays.enter(link, path, syscall);
  }

  /** What `path` really names (path-lookup.ts); `follow` says whether a symlink at its end is followed. */
  private resolve(path: string, syscall: string, follow: boolean): string {
    checkPathLength(path, this.limits, syscall);
    const enter = this.overlays.active ? (dir: Link) => this.overlays.enter(dir, path, syscall) : undefined;
    return lookup(this.core, path, { follow, maxSymlinkDepth: this.limits.maxSymlinkDepth, mountPoints: this.mountLinks, syscall, enter });
  }

  /** The file system and path that hold the real path `real` (`path` as the caller gave it, for errors). */
  private place(real: string, path: string, syscall: string, follow: boolean): Place {
    const mount = this.mountOf(real);
    if (!mount) return { fs: this.volume as unknown as FileSystem, path: real, dev: MEMORY_DEV };
    return { fs: nodeFs, path: hostPath(mount, real, syscall, follow, path), dev: HOST_DEV };
  }

  /** Throws EROFS for a change inside a read-only mount. */
  private writable(real: string, syscall: string, path: string): void {
    if (this.mountOf(real)?.readOnly) throw kerr("EROFS", { syscall, path });
  }

  /**
   * Before an entry is created at the real path `real`: not in /dev, its real path within the limits (every
   * entry can be named, and trees stay shallow enough for memfs's recursive walks), and a free inode.
   */
  private checkNew(real: string, syscall: string, path: string, data = 0): void {
    checkCreate(real, syscall);
    checkPathLength(real, this.limits, syscall);
    this.quota.checkCreate(depthOf(real), syscall, path, data);
  }

  private wrap<T>(syscall: string, path: string, fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw fsError(e, syscall, path);
    }
  }

  /** Throws what memfs's lstat would for a path that lookup found missing (ENOENT, ENOTDIR below a file, EACCES). */
  private missing(syscall: string, path: string, real: string): never {
    const found = statLink(this.core, real);
    throw kerr(typeof found === "string" ? found : "ENOENT", { syscall, path });
  }

  /** The node of the memory file system at real path `real`, or what memfs's stat would fail with. */
  private memoryNode(real: string, path: string, syscall: string): MemNode {
    const found = statLink(this.core, real);
    if (typeof found === "string") throw kerr(found, { syscall, path });
    return found.getNode();
  }

  stat(path: string, follow = true): FileStat {
    const syscall = follow ? "stat" : "lstat";
    const real = this.resolve(path, syscall, follow);
    // Devices look like regular files to the guest (see guestMode).
    if (DEVICES[real]) return toFileStat(this.volume.statSync(real), MEMORY_DEV);
    const at = this.place(real, path, syscall, follow);
    if (at.dev === MEMORY_DEV) {
      const node = this.memoryNode(real, path, syscall);
      return this.nodeStat(node);
    }
    return this.wrap(syscall, path, () => toFileStat(follow ? at.fs.statSync(at.path) : at.fs.lstatSync(at.path), at.dev));
  }

  /** What stat says of a node of the memory file system. */
  private nodeStat(node: MemNode): FileStat {
    const st = withExactTimes(node, toFileStat(nodeStats(node), MEMORY_DEV));
    // memfs gives a symlink size 0; Linux gives the length of its target.
    if (node.isSymlink()) st.size = Buffer.byteLength(node.symlink);
    // An overlay's file whose bytes are still on the host.
    const lower = this.overlays.lowerFile(node);
    if (lower) st.size = lower.size;
    return st;
  }

  /** Full st_mode including type bits. */
  mode(path: string, follow = true): number {
    return this.modeOf(this.resolve(path, "stat", follow), path, follow);
  }

  /**
   * st_mode as the guest sees it: the same, except that devices look like regular files — the tools'
   * std for WASI knows no character devices, and `cat /dev/null` would fail with "unknown filetype".
   */
  guestMode(path: string, follow = true): number {
    const real = this.resolve(path, "stat", follow);
    return DEVICES[real] ? DEVICE_GUEST_MODE : this.modeOf(real, path, follow);
  }

  private modeOf(real: string, path: string, follow: boolean): number {
    if (DEVICES[real]) return 0o20666;
    const at = this.place(real, path, "stat", follow);
    const mode = at.dev === MEMORY_DEV ? this.memoryNode(real, path, "stat").mode : this.wrap("stat", path, () => (follow ? at.fs.statSync(at.path) : at.fs.lstatSync(at.path))).mode;
    return (mode & S_IFMT) === S_IFLNK ? S_IFLNK | 0o777 : mode;
  }

  /** The type of what `path` names (links followed), or undefined when it cannot be looked up. */
  typeOf(path: string): number | undefined {
    try {
      const real = this.resolve(path, "stat", true);
      // Read off the node: a miss costs no error (exec's PATH search misses often).
      if (!DEVICES[real] && !this.mountOf(real)) {
        const node = linkAt(this.core, real)?.getNode();
        return node && fileTypeOf(node.mode);
      }
      return this.stat(path).filetype;
    } catch {
      return undefined;
    }
  }

  exists(path: string): boolean {
    try {
      const real = this.resolve(path, "access", true);
      const at = this.place(real, path, "access", true);
      return at.fs.existsSync(at.path);
    } catch {
      return false;
    }
  }

  open(path: string, how: OpenMode): OpenFile {
    // O_CREAT|O_EXCL does not follow a symlink at the end: the link itself exists (EEXIST).
    return this.openReal(this.resolve(path, "open", !(how.create && how.exclusive)), path, how);
  }

  private openReal(real: string, path: string, how: OpenMode): OpenFile {
    const device = DEVICES[real];
    if (device) return new DeviceFile(device, path, this.stat(real));
    if (how.write || how.create || how.truncate) this.writable(real, "open", path);
    const mount = this.mountOf(real);
    if (mount && (how.write || how.create || how.truncate)) return this.writes.get(mount)!.open(real, path, how);
    if (mount) return this.openHost(mount, real, path, how);
    const link = linkAt(this.core, real);
    const node = link?.getNode();
    if (node?.isDirectory()) {
      if (how.write || how.truncate) throw kerr("EISDIR", { syscall: "open", path });
      if (how.create && how.exclusive) throw kerr("EEXIST", { syscall: "open", path });
      return new DirectoryFile(this, path);
    }
    if (!link && !how.create) this.missing("open", path, real);
    if (how.directory) throw kerr(link ? "ENOTDIR" : "ENOENT", { syscall: "open", path });
    if (link && how.create && how.exclusive) throw kerr("EEXIST", { syscall: "open", path });
    const lower = node && this.overlays.lowerFile(node);
    if (lower) {
      if (!how.write && !how.truncate) {
        const standsFor = { stat: () => this.nodeStat(node), mode: () => node.mode };
        if ("bytes" in lower) return new ImageFile(lower.bytes, path, standsFor);
        return new HostFile(this.overlays.openLower(lower, path).fd, path, undefined, standsFor);
      }
      if (how.truncate) this.overlays.ownContent(node);
      else this.copyUp(real, node, lower, path);
    }
    if (!link) this.checkNew(real, "open", path);
    let flags = how.write ? OPEN_RDWR : 0;
    if (how.create) flags |= OPEN_CREAT;
    if (how.truncate) flags |= OPEN_TRUNC;
    const fd = this.wrap("open", path, () => this.volume.openSync(real, flags, FILE_MODE));
    const opened = link ?? linkAt(this.core, real)!;
    if (!link) this.quota.created(opened);
    // O_TRUNC emptied it: the bytes go back.
    else if (how.truncate) this.quota.shrunk(opened.getNode());
    return new MemoryFile(this.volume, this.quota, fd, opened.getNode(), path, how);
  }

  /**
   * Copies an overlay file's bytes up from the host into the VM, which then owns them (counted by the quota;
   * ENOSPC changes nothing). The file keeps its times: its content is the same.
   */
  private copyUp(real: string, node: MemNode, lower: LowerFile, path: string): void {
    const bytes = this.overlays.read(lower, path);
    const [atime, mtime, ctime] = [node.atime, node.mtime, node.ctime];
    this.quota.grow(node, bytes.length, "open", path);
    const fd = this.wrap("open", path, () => this.volume.openSync(real, OPEN_RDWR));
    try {
      this.volume.writeSync(fd, bytes, 0, bytes.length, 0);
    } finally {
      this.volume.closeSync(fd);
    }
    node.atime = atime;
    node.mtime = mtime;
    node.ctime = ctime;
    this.overlays.ownContent(node);
  }

  private openHost(mount: Mount, real: string, path: string, how: OpenMode): OpenFile {
    const { fd, stats } = openHostFile(hostPath(mount, real, "open", true, path), path);
    const refuse = (code: "EISDIR" | "EEXIST" | "ENOTDIR"): never => {
      nodeFs.closeSync(fd);
      throw kerr(code, { syscall: "open", path });
    };
    if (stats.isDirectory()) {
      if (how.write || how.truncate) refuse("EISDIR");
      if (how.create && how.exclusive) refuse("EEXIST");
      nodeFs.closeSync(fd);
      return new DirectoryFile(this, path);
    }
    if (how.directory) refuse("ENOTDIR");
    if (how.create && how.exclusive) refuse("EEXIST");
    return new HostFile(fd, path);
  }

  readdir(path: string): DirEntry[] {
    const real = this.resolve(path, "readdir", true);
    const mount = this.mountOf(real);
    if (mount) {
      const host = hostPath(mount, real, "readdir", true, path);
      return this.wrap("readdir", path, () =>
        nodeFs.readdirSync(host).map((name) => {
          // The entry's lstat as stat(path, false) would take it: its parent's real path is checked above.
          const stat = toFileStat(nodeFs.lstatSync(`${host}/${name}`), HOST_DEV);
          return { name, filetype: stat.filetype, ino: stat.ino, stat };
        }),
      );
    }
    const link = linkAt(this.core, real);
    if (!link) this.missing("readdir", path, real);
    if (!link.getNode().isDirectory()) throw kerr("ENOTDIR", { syscall: "readdir", path });
    this.enter(link, path, "readdir");
    const entries: DirEntry[] = [];
    for (const [name, child] of childrenOf(link)) {
      const node = child.getNode();
      entries.push({ name, filetype: fileTypeOf(node.mode), ino: node.ino });
    }
    // In name order, as memfs lists them.
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  mkdir(path: string, recursive = false): void {
    if (recursive) return this.mkdirs(path);
    const real = this.resolve(path, "mkdir", false);
    this.writable(real, "mkdir", path);
    const host = this.hostWrites(real);
    if (host) return host.mkdir(real, path);
    if (linkAt(this.core, real)) throw kerr("EEXIST", { syscall: "mkdir", path });
    this.checkNew(real, "mkdir", path);
    this.wrap("mkdir", path, () => this.volume.mkdirSync(real, DIR_MODE));
    this.quota.created(linkAt(this.core, real)!);
  }

  /**
   * mkdir -p: each missing directory is created and counted on its own, as a child of the link found or
   * made just before (memfs's mkdir would walk from the root again for each, quadratic in a deep tree).
   */
  private mkdirs(path: string): void {
    const real = this.resolve(path, "mkdir", true);
    this.writable(real, "mkdir", path);
    const host = this.hostWrites(real);
    if (host) return host.mkdirs(real, path);
    let link = this.core.root;
    let at = "";
    for (const name of real.split("/")) {
      if (name === "") continue;
      at += `/${name}`;
      const dir = link.getNode();
      if (!dir.isDirectory()) throw kerr("ENOTDIR", { syscall: "mkdir", path });
      this.enter(link, path, "mkdir");
      const child = link.children.get(name);
      if (child) {
        link = child;
        continue;
      }
      if (!dir.canWrite() || !dir.canExecute()) throw kerr("EACCES", { syscall: "mkdir", path });
      this.checkNew(at, "mkdir", path);
      link = link.createChild(name, this.core.createNode(S_IFDIR | DIR_MODE));
      this.quota.created(link);
    }
    if (!link.getNode().isDirectory()) throw kerr("EEXIST", { syscall: "mkdir", path });
  }

  /**
   * Creates new files in directory `dir` of the memory file system, each counted as writeFile counts it, without
   * an open file each: the userland's stubs, some hundred in every new VM. A name that exists is left as it is.
   */
  addFiles(dir: string, files: Iterable<{ name: string; data: Uint8Array; mode: number }>): void {
    const real = this.resolve(dir, "open", true);
    const parent = this.mountOf(real) ? undefined : linkAt(this.core, real);
    if (!parent?.getNode().isDirectory()) throw kerr("ENOTDIR", { syscall: "open", path: dir });
    this.enter(parent, dir, "open");
    for (const { name, data, mode } of files) {
      if (parent.children.get(name)) continue;
      const path = `${real}/${name}`;
      this.checkNew(path, "open", path, data.length);
      const link = parent.createChild(name, this.core.createNode(S_IFREG | (mode & 0o7777)));
      this.quota.created(link);
      const node = link.getNode();
      this.quota.grow(node, data.length, "write", path);
      node.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
  }

  rmdir(path: string): void {
    const real = this.resolve(path, "rmdir", false);
    this.writable(real, "rmdir", path);
    checkRemove(real, "rmdir", this.mountPaths());
    const host = this.hostWrites(real);
    if (host) return host.rmdir(real, path);
    const link = linkAt(this.core, real);
    if (!link) this.missing("rmdir", path, real);
    if (!link.getNode().isDirectory()) throw kerr("ENOTDIR", { syscall: "rmdir", path });
    this.enter(link, path, "rmdir");
    this.removeEntry(link, real, path, "rmdir");
  }

  unlink(path: string): void {
    const real = this.resolve(path, "unlink", false);
    this.writable(real, "unlink", path);
    checkRemove(real, "unlink", this.mountPaths());
    const host = this.hostWrites(real);
    if (host) return host.unlink(real, path);
    const link = linkAt(this.core, real);
    if (!link) this.missing("unlink", path, real);
    if (link.getNode().isDirectory()) throw kerr("EISDIR", { syscall: "unlink", path });
    this.removeEntry(link, real, path, "unlink");
  }

  /**
   * Creates the socket file a Unix socket's bind makes (S_IFSOCK, stat shows a socket); EEXIST when the
   * path exists, whatever it is. Returns its node: what the socket table knows the binding by.
   */
  mksock(path: string): object {
    const real = this.resolve(path, "bind", false);
    this.writable(real, "bind", path);
    if (this.mountOf(real)) throw kerr("ENOTSUP", { syscall: "bind", path, message: "sockets cannot be bound inside a host mount" });
    if (linkAt(this.core, real)) throw kerr("EEXIST", { syscall: "bind", path });
    const parent = linkAt(this.core, dirname(real));
    if (!parent) this.missing("bind", path, dirname(real));
    const dir = parent.getNode();
    if (!dir.isDirectory()) throw kerr("ENOTDIR", { syscall: "bind", path });
    if (!dir.canWrite() || !dir.canExecute()) throw kerr("EACCES", { syscall: "bind", path });
    this.checkNew(real, "bind", path);
    const link = parent.createChild(basename(real), this.core.createNode(S_IFSOCK | SOCKET_MODE));
    this.quota.created(link);
    return link.getNode();
  }

  /** The node of the socket file at `path` (links followed): ENOENT when missing, ECONNREFUSED when not a socket. */
  socketNode(path: string): object {
    const real = this.resolve(path, "connect", true);
    const link = this.mountOf(real) ? undefined : linkAt(this.core, real);
    if (!link) {
      if (this.mountOf(real) && this.exists(path)) throw kerr("ECONNREFUSED", { syscall: "connect", path });
      throw kerr("ENOENT", { syscall: "connect", path });
    }
    const node = link.getNode();
    if ((node.mode & S_IFMT) !== S_IFSOCK) throw kerr("ECONNREFUSED", { syscall: "connect", path });
    return node;
  }

  /** Removes one entry (a directory must be empty); its inode goes when nothing names it or has it open. */
  private removeEntry(link: Link, real: string, path: string, syscall: string): void {
    const node = link.getNode();
    if (node.isDirectory()) {
      this.wrap(syscall, path, () => this.volume.rmdirSync(real));
      // memfs leaves a removed directory's node in its inode table.
      this.core.deleteNode(node);
    } else this.wrap(syscall, path, () => this.volume.unlinkSync(real));
    this.quota.unlinked(link, node);
  }

  /** The API's delete: one entry, or (recursive) a whole tree. */
  remove(path: string, recursive: boolean): void {
    const real = this.resolve(path, "rm", false);
    const mounts = this.mountPaths();
    this.writable(real, "rm", path);
    checkRemove(real, "rm", mounts);
    const host = this.hostWrites(real);
    if (host) return host.remove(real, path, recursive);
    const top = linkAt(this.core, real);
    if (!top) this.missing("rm", path, real);
    this.enter(top, path, "rm");
    if (!recursive || !top.getNode().isDirectory()) return this.removeEntry(top, real, path, "rm");
    // Depth first, one entry at a time and without recursion: a tree can be deeper than the host's stack.
    const stack: Link[] = [top];
    while (stack.length > 0) {
      const dir = stack[stack.length - 1]!;
      const next = childrenOf(dir).next();
      const entry = next.done ? stack.pop()! : next.value[1];
      const at = pathOf(entry);
      if (!next.done && entry.getNode().isDirectory()) this.enter(entry, at, "rm");
      if (!next.done && entry.getNode().isDirectory() && entry.length > 0) {
        stack.push(entry);
        continue;
      }
      checkRemove(at, "rm", mounts);
      this.removeEntry(entry, at, at, "rm");
    }
  }

  rename(from: string, to: string): void {
    const src = this.resolve(from, "rename", false);
    const dst = this.resolve(to, "rename", false);
    const mounts = this.mountPaths();
    this.writable(src, "rename", from);
    this.writable(dst, "rename", to);
    checkRemove(src, "rename", mounts);
    checkRemove(dst, "rename", mounts);
    if (this.mountOf(src) !== this.mountOf(dst)) throw kerr("EXDEV", { syscall: "rename", path: to });
    const host = this.hostWrites(src);
    if (host) return host.rename(src, dst, from, to);
    const link = linkAt(this.core, src);
    if (!link) this.missing("rename", from, src);
    const parent = linkAt(this.core, dirname(dst));
    if (!parent) this.missing("rename", to, dirname(dst));
    if (!parent.getNode().isDirectory()) throw kerr("ENOTDIR", { syscall: "rename", path: to });
    if (dst === src) return;
    const isDir = link.getNode().isDirectory();
    if (dst.startsWith(`${src}/`)) throw kerr("EINVAL", { syscall: "rename", path: to });
    const name = basename(dst);
    const replaced = parent.children.get(name);
    if (replaced) {
      // Two names of one file: POSIX says rename does nothing.
      if (replaced.getNode() === link.getNode()) return;
      if (replaced.getNode().isDirectory() && !isDir) throw kerr("EISDIR", { syscall: "rename", path: to });
      if (!replaced.getNode().isDirectory() && isDir) throw kerr("ENOTDIR", { syscall: "rename", path: to });
      this.enter(replaced, to, "rename");
      if (replaced.length > 0) throw kerr("ENOTEMPTY", { syscall: "rename", path: to });
    }
    if (!link.parent!.getNode().canWrite() || !parent.getNode().canWrite()) throw kerr("EACCES", { syscall: "rename", path: to });
    // Every path under the new name must stay within maxPathBytes (see checkNew).
    const shape = isDir ? subtreeShape(link) : { entries: 1, deepest: 0 };
    if (Buffer.byteLength(dst) + shape.deepest > this.limits.maxPathBytes)
      throw kerr("ENAMETOOLONG", { syscall: "rename", path: to, message: `a path below it would pass maxPathBytes (${this.limits.maxPathBytes})` });
    this.quota.moving(shape.entries, depthOf(dst) - link.steps.length, "rename", to);
    // memfs's rename replaces an existing entry without counting it gone (its inode stays in the table and
    // the directory can never be removed again) and moves a symlink's target instead of the link: the
    // entry is replaced and moved here.
    if (replaced) this.removeEntry(replaced, dst, to, "rename");
    link.parent!.deleteChild(link);
    link.name = name;
    setSteps(link, [...parent.steps, name]);
    parent.setChild(name, link);
  }

  symlink(target: string, path: string): void {
    if (Buffer.byteLength(target) > this.limits.maxPathBytes)
      throw kerr("ENAMETOOLONG", { syscall: "symlink", path, message: `symlink target longer than maxPathBytes (${this.limits.maxPathBytes})` });
    const real = this.resolve(path, "symlink", false);
    this.writable(real, "symlink", path);
    const host = this.hostWrites(real);
    if (host) return host.symlink(target, real, path);
    if (linkAt(this.core, real)) throw kerr("EEXIST", { syscall: "symlink", path });
    // The target is the link's data: it counts like a file's bytes.
    const bytes = Buffer.byteLength(target);
    this.checkNew(real, "symlink", path, bytes);
    this.wrap("symlink", path, () => this.volume.symlinkSync(target, real));
    const link = linkAt(this.core, real)!;
    this.quota.created(link);
    this.quota.target(link.getNode(), bytes);
  }

  link(from: string, to: string): void {
    const src = this.resolve(from, "link", false);
    const dst = this.resolve(to, "link", false);
    // The devices live on a file system of their own, as /dev does on Linux.
    if (isDevPath(src)) throw kerr("EXDEV", { syscall: "link", path: to });
    this.writable(dst, "link", to);
    if (this.mountOf(src) !== this.mountOf(dst)) throw kerr("EXDEV", { syscall: "link", path: to });
    const host = this.hostWrites(src);
    if (host) return host.link(src, dst, from, to);
    const link = linkAt(this.core, src);
    if (!link) this.missing("link", from, src);
    // A directory with two parents would make the tree a graph (and every walk of it endless).
    if (link.getNode().isDirectory()) throw kerr("EPERM", { syscall: "link", path: from, message: "hard link to a directory" });
    if (linkAt(this.core, dst)) throw kerr("EEXIST", { syscall: "link", path: to });
    // memfs would add the entry below whatever the parent is, a file included.
    const parent = linkAt(this.core, dirname(dst));
    if (!parent) this.missing("link", to, dirname(dst));
    if (!parent.getNode().isDirectory()) throw kerr("ENOTDIR", { syscall: "link", path: to });
    checkCreate(dst, "link");
    checkPathLength(dst, this.limits, "link");
    this.quota.checkEntry(depthOf(dst), "link", to);
    this.wrap("link", to, () => this.volume.linkSync(src, dst));
    this.quota.linked(linkAt(this.core, dst)!);
  }

  readlink(path: string): string {
    const real = this.resolve(path, "readlink", false);
    const at = this.place(real, path, "readlink", false);
    return this.wrap("readlink", path, () => String(at.fs.readlinkSync(at.path)));
  }

  chmod(path: string, mode: number): void {
    const real = this.resolve(path, "chmod", true);
    checkChmod(real, "chmod");
    this.writable(real, "chmod", path);
    const host = this.hostWrites(real);
    if (host) return host.chmod(real, path, mode & 0o7777);
    // A mode change is a change of the inode (ctime), not of the content: memfs's chmod also sets the mtime,
    // which is put back (the node's mtime setter sets the ctime to now, as chmod(2) does).
    const node = this.memoryNode(real, path, "chmod");
    const mtime = node.mtime;
    this.wrap("chmod", path, () => this.volume.chmodSync(real, mode & 0o7777));
    node.mtime = mtime;
  }

  /**
   * Sets the access and modification times (ms since the epoch; undefined leaves one as it is), as utimensat.
   * `exactNs` gives them to the nanosecond, which the memory file system keeps (host files: the millisecond).
   */
  utimes(path: string, atimeMs: number | undefined, mtimeMs: number | undefined, follow = true, exactNs?: { atime?: bigint; mtime?: bigint }): void {
    const real = this.resolve(path, "utimensat", follow);
    if (DEVICES[real]) return;
    this.writable(real, "utimensat", path);
    const host = this.hostWrites(real);
    if (host) return host.utimes(real, path, atimeMs, mtimeMs, follow);
    const at = this.place(real, path, "utimensat", follow);
    this.wrap("utimensat", path, () => {
      const st = follow ? at.fs.statSync(at.path) : at.fs.lstatSync(at.path);
      const times: [number, number] = [(atimeMs ?? st.atimeMs) / 1000, (mtimeMs ?? st.mtimeMs) / 1000];
      if (follow) at.fs.utimesSync(at.path, ...times);
      else at.fs.lutimesSync(at.path, ...times);
    });
    if (exactNs && at.dev === MEMORY_DEV) setExactTimes(this.memoryNode(real, path, "utimensat"), exactNs.atime, exactNs.mtime);
  }

  /** A file's whole content, a copy of its own. Devices read as empty here; a host FIFO or device is EACCES. */
  /** The memory file system's use and limits, as its quota counts them (STATFS, df). */
  statfs(): ReturnType<FsQuota["usage"]> {
    return this.quota.usage();
  }

  /**
   * The canonical path of an existing file, links resolved; ERANGE when it lies in a host mount, whose links
   * are the host's (the caller then resolves it link by link).
   */
  realpath(path: string): string {
    const real = this.resolve(path, "realpath", true);
    if (this.mountOf(real)) throw kerr("ERANGE", { syscall: "realpath", path });
    if (!linkAt(this.core, real) && !DEVICES[real]) this.missing("realpath", path, real);
    return real;
  }

  readFile(path: string): Uint8Array {
    const real = this.resolve(path, "open", true);
    if (DEVICES[real]) return new Uint8Array(0);
    const mount = this.mountOf(real);
    if (mount) return readHostFile(hostPath(mount, real, "open", true, path), path);
    const link = linkAt(this.core, real);
    if (!link) this.missing("open", path, real);
    if (link.getNode().isDirectory()) throw kerr("EISDIR", { syscall: "read", path });
    const lower = this.overlays.lowerFile(link.getNode());
    if (lower) return this.overlays.read(lower, path);
    return new Uint8Array(nodeData(link.getNode()));
  }

  /** Up to `n` bytes from the start of a regular file (links followed), without copying the rest. */
  readHead(path: string, n: number): Buffer {
    const real = this.resolve(path, "open", true);
    const node = DEVICES[real] || this.mountOf(real) ? undefined : linkAt(this.core, real)?.getNode();
    const lower = node && this.overlays.lowerFile(node);
    if (lower) return Buffer.from(this.overlays.read(lower, path, n));
    if (node?.isFile()) return Buffer.from(nodeData(node).subarray(0, n));
    const file = this.open(path, { read: true, write: false }).retain();
    try {
      const head = Buffer.alloc(n);
      return head.subarray(0, file.read(head, AbortSignal.abort()) as number);
    } finally {
      file.release();
    }
  }

  /**
   * Creates or replaces a file (the parent directory must exist). All of `data` must fit before the old
   * content is dropped: ENOSPC leaves the file as it was. Writing to a device discards the data.
   */
  writeFile(path: string, data: Uint8Array | string): void {
    const real = this.resolve(path, "open", true);
    if (DEVICES[real]) return;
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    if (!this.mountOf(real)) {
      const link = linkAt(this.core, real);
      if (!link) this.checkNew(real, "open", path, bytes.length);
      else if (link.getNode().isFile() && bytes.length > this.quota.replaceLimit(link.getNode()))
        throw kerr("ENOSPC", { syscall: "open", path, message: `no space left on device (${this.quota.limitReached(bytes.length)})` });
    }
    const file = this.openReal(real, path, { read: false, write: true, create: true, truncate: true }).retain();
    try {
      for (let off = 0; off < bytes.length; ) off += file.write(bytes.subarray(off)) as number;
    } finally {
      file.release();
    }
  }
}

/** How many entries a directory holds (itself included) and its deepest path below it, in bytes. */
/**
 * Gives `top` and every link below it their new path, one link at a time: memfs's `steps` setter updates the
 * links below by recursion, two frames a level, which a tree 2,000 levels deep takes near the stack's limit.
 * Each link's children are set aside while its own steps are set.
 */
function setSteps(top: Link, steps: string[]): void {
  const pending: Array<[Link, string[]]> = [[top, steps]];
  while (pending.length > 0) {
    const [link, path] = pending.pop()!;
    const children = link.children;
    link.children = new Map();
    link.steps = path;
    link.children = children;
    for (const [name, child] of children) if (name !== "." && name !== ".." && child) pending.push([child, [...path, name]]);
  }
}

function subtreeShape(dir: Link): { entries: number; deepest: number } {
  let entries = 1;
  let deepest = 0;
  const stack: Array<[Link, number]> = [[dir, 0]];
  while (stack.length > 0) {
    const [link, bytes] = stack.pop()!;
    for (const [name, child] of childrenOf(link)) {
      const below = bytes + 1 + Buffer.byteLength(name);
      entries++;
      deepest = Math.max(deepest, below);
      if (child.getNode().isDirectory()) stack.push([child, below]);
    }
  }
  return { entries, deepest };
}
