import * as nodeFs from "node:fs";
import { posix } from "node:path";
import { kerr } from "./kernel-error.js";
import { fsError, HostFile, type Mount } from "./host-mount.js";
import { dirname, normalize } from "./path.js";
import { DIR_MODE, FILE_MODE } from "./umask.js";

/**
 * The changes a read-write host mount makes to its host directory, confined to it as reads are
 * (host-mount.ts), and without a window in which a link swapped in on the host could lead a change out.
 *
 * Every change is made to one entry, named in its parent directory. The parent is found with realpath and
 * must lie inside the mounted directory; it is then opened (O_DIRECTORY | O_NOFOLLOW) and what the open
 * descriptor names is checked again (/proc/self/fd), and the change is made through
 * `/proc/self/fd/N/name`: the host kernel resolves that relative to the open directory, as the *at system
 * calls do, so a directory on the way replaced by a symlink after the check changes nothing. The entry
 * itself is never followed by the change (open uses O_NOFOLLOW after links at the end were resolved, and
 * checked, here). Where /proc/self/fd does not exist (not Linux), the checked real path is used: a host
 * process racing the VM could then redirect a change.
 *
 * Hard links: a VM can only link two names inside its mount, but the host directory may hold a file with
 * another name outside it; writing, truncating, chmod or utimes on a regular file with more than one link
 * is refused with EACCES (its other names may be outside). Special files (FIFOs, sockets, devices) are
 * refused with EACCES, as reads refuse them.
 */

const PROC_FD = nodeFs.existsSync("/proc/self/fd") ? "/proc/self/fd" : undefined;
const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = nodeFs.constants;

/** An entry of a mounted host directory: its parent's real path (inside the mount) and its name there. */
interface Entry {
  parent: string;
  name: string;
}

const inside = (mount: Mount, real: string): boolean => real === mount.hostDir || real.startsWith(`${mount.hostDir}/`);

function confine(mount: Mount, real: string, syscall: string, path: string): void {
  if (!inside(mount, real)) throw kerr("EACCES", { syscall, path, message: "resolves outside its mount" });
}

/**
 * The entry VM path `vmPath` names in `mount`. With `follow`, a symlink at the end is replaced by its target
 * (up to `maxHops` times, then ELOOP), which must lie inside the mount too: that is what open(O_CREAT),
 * chmod and utimes change. A missing parent is ENOENT, a file on the way ENOTDIR, as the host answers.
 */
function entryOf(mount: Mount, vmPath: string, syscall: string, follow: boolean, path: string, maxHops: number): Entry {
  if (vmPath === mount.path) return { parent: dirname(mount.hostDir), name: mount.hostDir.slice(mount.hostDir.lastIndexOf("/") + 1) };
  let host = mount.hostDir + vmPath.slice(mount.path.length);
  for (let hops = 0; ; ) {
    const slash = host.lastIndexOf("/");
    const name = host.slice(slash + 1);
    let parent: string;
    try {
      parent = nodeFs.realpathSync.native(host.slice(0, slash) || "/");
    } catch (e) {
      throw fsError(e, syscall, path);
    }
    confine(mount, parent, syscall, path);
    if (name === "" || name === "." || name === "..") {
      // A link's target ending so names a directory: its own real path.
      host = wrap(syscall, path, () => nodeFs.realpathSync.native(`${parent}/${name}`));
      confine(mount, host, syscall, path);
      if (host === mount.hostDir) return { parent: dirname(host), name: host.slice(host.lastIndexOf("/") + 1) };
      continue;
    }
    if (!follow) return { parent, name };
    let target: string;
    try {
      if (!nodeFs.lstatSync(`${parent}/${name}`).isSymbolicLink()) return { parent, name };
      target = nodeFs.readlinkSync(`${parent}/${name}`);
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") return { parent, name };
      throw fsError(e, syscall, path);
    }
    if (++hops > maxHops) throw kerr("ELOOP", { syscall, path, message: `too many levels of symbolic links (maxSymlinkDepth ${maxHops})` });
    host = target.startsWith("/") ? target : `${parent}/${target}`;
  }
}

/**
 * Runs `change` on the entry's path as seen through its open parent directory (see above); host errors
 * become KernelErrors naming `path`.
 */
function at<T>(mount: Mount, entry: Entry, syscall: string, path: string, change: (at: string) => T): T {
  if (!PROC_FD) return wrap(syscall, path, () => change(`${entry.parent}/${entry.name}`));
  let dir: number;
  try {
    dir = nodeFs.openSync(entry.parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (e) {
    throw fsError(e, syscall, path);
  }
  try {
    const opened = wrap(syscall, path, () => nodeFs.readlinkSync(`${PROC_FD}/${dir}`));
    // The mount point's own entry is changed in its parent, which is outside; any other parent must be inside.
    if (opened !== entry.parent || (entry.parent !== dirname(mount.hostDir) && !inside(mount, opened)))
      throw kerr("EACCES", { syscall, path, message: "the host directory changed during the operation" });
    return wrap(syscall, path, () => change(`${PROC_FD}/${dir}/${entry.name}`));
  } finally {
    nodeFs.closeSync(dir);
  }
}

function wrap<T>(syscall: string, path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw fsError(e, syscall, path);
  }
}

/** The operations of one read-write mount. `path` in each is the VM path as the caller gave it, for errors. */
export class HostWrites {
  constructor(
    private readonly mount: Mount,
    private readonly maxSymlinkDepth: number,
  ) {}

  private entry(vmPath: string, syscall: string, follow: boolean, path: string): Entry {
    return entryOf(this.mount, vmPath, syscall, follow, path, this.maxSymlinkDepth);
  }

  private at<T>(vmPath: string, syscall: string, follow: boolean, path: string, change: (at: string) => T): T {
    return at(this.mount, this.entry(vmPath, syscall, follow, path), syscall, path, change);
  }

  /**
   * Opens (and with `create` makes) a file for writing. O_TRUNC is applied only once the file is known to be a
   * regular file with one link (see above), so a refused open changes nothing.
   */
  open(vmPath: string, path: string, how: { read: boolean; create?: boolean; exclusive?: boolean; truncate?: boolean; append?: boolean; directory?: boolean }): HostFile {
    return this.at(vmPath, "open", !(how.create && how.exclusive), path, (p) => {
      let flags = (how.read ? O_RDWR : O_WRONLY) | O_NOFOLLOW | O_NONBLOCK;
      if (how.create) flags |= O_CREAT;
      if (how.exclusive) flags |= O_EXCL;
      if (how.directory) flags |= O_DIRECTORY;
      const fd = nodeFs.openSync(p, flags, FILE_MODE);
      try {
        this.changeable(nodeFs.fstatSync(fd), "open", path);
        if (how.truncate) nodeFs.ftruncateSync(fd, 0);
        return new HostFile(fd, path, { read: how.read, append: how.append ?? false });
      } catch (e) {
        nodeFs.closeSync(fd);
        throw e;
      }
    });
  }

  /** EACCES unless the open file is a regular file with one link, or a directory. */
  private changeable(st: nodeFs.Stats, syscall: string, path: string): void {
    if (!st.isFile() && !st.isDirectory()) throw kerr("EACCES", { syscall, path, message: "not a regular file or directory on the host" });
    if (st.isFile() && st.nlink > 1)
      throw kerr("EACCES", { syscall, path, message: "the host file has other hard links, which may lie outside the mount" });
  }

  mkdir(vmPath: string, path: string): void {
    this.at(vmPath, "mkdir", false, path, (p) => nodeFs.mkdirSync(p, DIR_MODE));
  }

  /** mkdir -p below the mount point: each missing directory in turn; EEXIST when the last is not a directory. */
  mkdirs(vmPath: string, path: string): void {
    let at = this.mount.path;
    for (const name of vmPath.slice(this.mount.path.length).split("/")) {
      if (name === "") continue;
      at += `/${name}`;
      const done = this.at(at, "mkdir", true, path, (p) => {
        try {
          nodeFs.mkdirSync(p, DIR_MODE);
          return false;
        } catch (e) {
          if ((e as { code?: string }).code !== "EEXIST") throw e;
          return !nodeFs.statSync(p).isDirectory();
        }
      });
      if (done && at === vmPath) throw kerr("EEXIST", { syscall: "mkdir", path });
      if (done) throw kerr("ENOTDIR", { syscall: "mkdir", path });
    }
  }

  rmdir(vmPath: string, path: string): void {
    this.at(vmPath, "rmdir", false, path, (p) => nodeFs.rmdirSync(p));
  }

  unlink(vmPath: string, path: string): void {
    this.at(vmPath, "unlink", false, path, (p) => {
      if (nodeFs.lstatSync(p).isDirectory()) throw kerr("EISDIR", { syscall: "unlink", path });
      nodeFs.unlinkSync(p);
    });
  }

  /** The API's delete: one entry or a whole tree; links inside it are removed, never followed. */
  remove(vmPath: string, path: string, recursive: boolean): void {
    this.at(vmPath, "rm", false, path, (p) => {
      if (!recursive && nodeFs.lstatSync(p).isDirectory()) nodeFs.rmdirSync(p);
      else nodeFs.rmSync(p, { recursive });
    });
  }

  /** Both paths inside this mount (the caller answered EXDEV otherwise). */
  rename(fromVm: string, toVm: string, from: string, to: string): void {
    const source = this.entry(fromVm, "rename", false, from);
    this.at(toVm, "rename", false, to, (dst) => at(this.mount, source, "rename", from, (src) => nodeFs.renameSync(src, dst)));
  }

  /**
   * A symlink whose target stays inside the mount, as the host resolves it from the link's real directory.
   * An absolute target (a VM path inside the mount) is stored relative to the link, so that it means the same
   * on the host. `..` may only lead a target (`../../a/b`, not `a/../b`): after a name, the host would resolve
   * it from wherever that name leads.
   */
  symlink(target: string, vmPath: string, path: string): void {
    const refuse = (why: string): never => {
      throw kerr("EACCES", { syscall: "symlink", path, message: `a symlink in a read-write mount must point inside it (${why})` });
    };
    const entry = this.entry(vmPath, "symlink", false, path);
    let stored = target;
    if (target.startsWith("/")) {
      const vm = normalize(target);
      if (vm !== this.mount.path && !vm.startsWith(`${this.mount.path}/`)) refuse("an absolute target outside the mount");
      stored = posix.relative(entry.parent, this.mount.hostDir + vm.slice(this.mount.path.length)) || ".";
    }
    const parts = stored.split("/").filter((p) => p !== "" && p !== ".");
    const down = parts.findIndex((p) => p !== "..");
    if (down >= 0 && parts.indexOf("..", down) !== -1) refuse("'..' after a name");
    if (!inside(this.mount, posix.resolve(entry.parent, stored))) refuse("it climbs out");
    at(this.mount, entry, "symlink", path, (p) => nodeFs.symlinkSync(stored, p));
  }

  /** A hard link between two names of this mount (the caller answered EXDEV otherwise). */
  link(fromVm: string, toVm: string, from: string, to: string): void {
    const source = this.entry(fromVm, "link", false, from);
    this.at(toVm, "link", false, to, (dst) => at(this.mount, source, "link", from, (src) => nodeFs.linkSync(src, dst)));
  }

  chmod(vmPath: string, path: string, mode: number): void {
    this.onFile(vmPath, "chmod", path, (fd) => nodeFs.fchmodSync(fd, mode), (p) => nodeFs.chmodSync(p, mode));
  }

  /** Times in ms since the epoch; undefined leaves one as it is. Without `follow`, a symlink's own times. */
  utimes(vmPath: string, path: string, atimeMs: number | undefined, mtimeMs: number | undefined, follow: boolean): void {
    const times = (st: nodeFs.Stats): [number, number] => [(atimeMs ?? st.atimeMs) / 1000, (mtimeMs ?? st.mtimeMs) / 1000];
    if (!follow && this.at(vmPath, "utimensat", false, path, (p) => nodeFs.lstatSync(p).isSymbolicLink()))
      return this.at(vmPath, "utimensat", false, path, (p) => nodeFs.lutimesSync(p, ...times(nodeFs.lstatSync(p))));
    this.onFile(
      vmPath,
      "utimensat",
      path,
      (fd) => nodeFs.futimesSync(fd, ...times(nodeFs.fstatSync(fd))),
      (p) => nodeFs.utimesSync(p, ...times(nodeFs.lstatSync(p))),
    );
  }

  /**
   * Changes a file through a descriptor opened without following a link, so the change cannot be led out.
   * A file the host does not let us open (no read permission: chmod 000 is allowed on Linux) is changed by
   * path, after lstat says it is no link.
   */
  private onFile(vmPath: string, syscall: string, path: string, byFd: (fd: number) => void, byPath: (p: string) => void): void {
    this.at(vmPath, syscall, true, path, (p) => {
      let fd: number;
      try {
        fd = nodeFs.openSync(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      } catch (e) {
        if ((e as { code?: string }).code !== "EACCES") throw e;
        const st = nodeFs.lstatSync(p);
        this.changeable(st, syscall, path);
        return byPath(p);
      }
      try {
        this.changeable(nodeFs.fstatSync(fd), syscall, path);
        byFd(fd);
      } finally {
        nodeFs.closeSync(fd);
      }
    });
  }
}
