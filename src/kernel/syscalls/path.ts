import { unpackFields } from "../../abi/channel.js";
import { writeFileStat, type FileStat } from "../../abi/filestat.js";
import { FdFlags, FileType, OFlags, ROOT_PREOPEN_FD, UTIMES_EXACT } from "../../abi/wasi.js";
import { Sys } from "../../abi/syscalls.js";
import { resolvePath } from "../path-resolution.js";
import { checkPathLength } from "../path-lookup.js";
import { openFileAt } from "../fd-path.js";
import { shownType } from "../guest-type.js";
import { kerr } from "../kernel-error.js";
import type { Kernel } from "../kernel.js";
import type { Process } from "../process.js";
import { payloadString, type SyscallHandler } from "./context.js";

const decoder = new TextDecoder();
const SYNC_FLAGS = FdFlags.DSYNC | FdFlags.RSYNC | FdFlags.SYNC;

/** A path that ends in `/` or `/.` names a directory. */
const NAMES_DIRECTORY = /\/\.?$/;

/**
 * A path the guest wrote, relative to `dirfd`, resolved by the rule of path-resolution.ts. ENAMETOOLONG
 * is decided on the string as written, as Linux does, before any work is done on it (the VFS checks the
 * resolved absolute path again). `file/` is ENOTDIR, as on Linux, when what it names exists (links
 * followed) and is not a directory; a missing one is left to the operation (`mkdir new/` works).
 */
function resolveGuestPath(k: Kernel, p: Process, dirfd: number, written: string): string {
  checkPathLength(written, k.limits, "lookup");
  const path = resolvePath(p, dirfd, written);
  if (NAMES_DIRECTORY.test(written) && path !== "/") {
    const type = k.vfs.typeOf(path);
    if (type !== undefined && type !== FileType.DIRECTORY) throw kerr("ENOTDIR", { syscall: "lookup", path });
  }
  return path;
}

/**
 * A new name written with a trailing slash (`link/`) can only be a directory's, which link and symlink do
 * not make: EEXIST when something is there, ENOENT when not, as on Linux. `written` is the name as given,
 * `path` what it resolved to.
 */
function newName(k: Kernel, syscall: string, path: string, written: string): void {
  if (!written.endsWith("/")) return;
  throw kerr(k.vfs.typeOf(path) === undefined && !isSymlink(k, path) ? "ENOENT" : "EEXIST", { syscall, path });
}

/** Whether `path` itself (not followed) is a symbolic link. */
function isSymlink(k: Kernel, path: string): boolean {
  try {
    return (k.vfs.mode(path, false) & 0o170000) === 0o120000;
  } catch {
    return false;
  }
}

/** The request's path payload resolved against the dirfd in ARG0. */
function atPath(...[k, p, ch]: Parameters<SyscallHandler>): string {
  return resolveGuestPath(k, p, ch.arg(0), payloadString(ch));
}

/**
 * host_fs paths come as the tool wrote them, not through libc's preopen mapping; a tool that believes its
 * cwd is "/" turns `dir` into `/dir`. They are resolved exactly like the paths path_open sees: leading
 * slashes dropped (libc makes `/` into `.`), then the rule of path-resolution.ts.
 */
function hostFsPath(...[k, p, ch]: Parameters<SyscallHandler>): string {
  return resolveGuestPath(k, p, p.rootFd, payloadString(ch).replace(/^\/+/, "") || ".");
}

/** For calls with two path fields: [first, second] resolved against dirfd args 0 and 1. */
function twoPaths(...[k, p, ch]: Parameters<SyscallHandler>): [string, string] {
  const [a, b] = unpackFields(ch.data, ch.requestLength).map((f) => decoder.decode(f));
  return [resolveGuestPath(k, p, ch.arg(0), a!), resolveGuestPath(k, p, ch.arg(1), b!)];
}

/** What Sys.STAT answers for the absolute path `path`: its filestat and st_mode, as the process is shown them. */
export function guestStat(k: Kernel, p: Process, path: string, follow: boolean): { stat: FileStat; mode: number } {
  const open = openFileAt(k, p, path, "stat");
  if (open) return shownType(open, p.seesDevices);
  const stat = k.vfs.stat(path, follow);
  return { stat, mode: stat.mode ?? 0 };
}

export const pathSyscalls: Record<number, SyscallHandler> = {
  [Sys.OPEN]: (k, p, ch) => {
    const path = atPath(k, p, ch);
    const oflags = ch.arg(1);
    // A control path of the router's shells, or an open file's path (/dev/stdout, /proc/PID/fd/N): a new
    // reference to that open file.
    const control = openFileAt(k, p, path, "open") ?? p.openControl?.(path);
    if (control) {
      ch.setOut(0, p.fds.allocate(control, ROOT_PREOPEN_FD + 1));
      return 0;
    }
    // Without SYMLINK_FOLLOW (O_NOFOLLOW) a symlink at the end is not opened: ELOOP. O_CREAT|O_EXCL fails
    // on it with EEXIST anyway.
    const createExclusive = (oflags & OFlags.CREAT) !== 0 && (oflags & OFlags.EXCL) !== 0;
    if (ch.arg(5) === 0 && !createExclusive && isSymlink(k, path)) throw kerr("ELOOP", { syscall: "open", path, message: "is a symbolic link (not followed)" });
    const file = k.vfs.open(path, {
      read: ch.arg(3) === 1,
      write: ch.arg(4) === 1,
      create: (oflags & OFlags.CREAT) !== 0,
      exclusive: (oflags & OFlags.EXCL) !== 0,
      truncate: (oflags & OFlags.TRUNC) !== 0,
      directory: (oflags & OFlags.DIRECTORY) !== 0,
      append: (ch.arg(2) & FdFlags.APPEND) !== 0,
    });
    file.syncFlags = ch.arg(2) & SYNC_FLAGS;
    // Held while the fd is allocated, so that an EMFILE closes the file again: an open memfs file left
    // behind would count against the VM's files for good, and an unlinked one would never be freed.
    file.retain();
    try {
      ch.setOut(0, p.fds.allocate(file, ROOT_PREOPEN_FD + 1));
    } finally {
      file.release();
    }
    return 0;
  },

  [Sys.STAT]: (k, p, ch) => {
    const { stat, mode } = guestStat(k, p, atPath(k, p, ch), ch.arg(1) === 1);
    writeFileStat(ch.view, 0, stat);
    ch.setOut(0, mode);
    return 64;
  },

  [Sys.MKDIR]: (k, p, ch) => (k.vfs.mkdir(atPath(k, p, ch)), 0),
  [Sys.RMDIR]: (k, p, ch) => (k.vfs.rmdir(atPath(k, p, ch)), 0),
  [Sys.UNLINK]: (k, p, ch) => (k.vfs.unlink(atPath(k, p, ch)), 0),
  [Sys.RENAME]: (k, p, ch) => (k.vfs.rename(...twoPaths(k, p, ch)), 0),
  [Sys.LINK]: (k, p, ch) => {
    const [from, to] = twoPaths(k, p, ch);
    newName(k, "link", to, decoder.decode(unpackFields(ch.data, ch.requestLength)[1]));
    // linkat's AT_SYMLINK_FOLLOW: the link is made to what a symlink names (ENOENT for a dangling one).
    k.vfs.link(ch.arg(2) === 1 ? k.vfs.realpath(from) : from, to);
    return 0;
  },

  [Sys.SYMLINK]: (k, p, ch) => {
    // The target is stored as written; only the link's own path is resolved.
    const [target, link] = unpackFields(ch.data, ch.requestLength).map((f) => decoder.decode(f));
    const path = resolveGuestPath(k, p, ch.arg(0), link!);
    newName(k, "symlink", path, link!);
    k.vfs.symlink(target!, path);
    return 0;
  },

  [Sys.READFILE]: (k, p, ch) => {
    const path = atPath(k, p, ch);
    // Only files and directories (EISDIR): a device or an fd's path is read as a stream, with READ.
    if (openFileAt(k, p, path, "open")) throw kerr("ERANGE", { syscall: "readfile", path });
    const type = k.vfs.mode(path) & 0o170000;
    if (type !== 0o100000 && type !== 0o040000) throw kerr("ERANGE", { syscall: "readfile", path });
    const data = k.vfs.readFile(path);
    if (data.length > ch.data.length) throw kerr("ERANGE", { syscall: "readfile", path });
    ch.data.set(data);
    return data.length;
  },

  [Sys.STATFS]: (k, _p, ch) => {
    const { bytes, maxBytes, inodes, maxInodes } = k.vfs.statfs();
    [bytes, maxBytes, inodes, maxInodes].forEach((n, i) => ch.view.setFloat64(i * 8, n, true));
    return 32;
  },

  [Sys.REALPATH]: (k, p, ch) => {
    const real = new TextEncoder().encode(k.vfs.realpath(atPath(k, p, ch)));
    if (real.length > ch.data.length) throw kerr("ENAMETOOLONG", { syscall: "realpath" });
    ch.data.set(real);
    return real.length;
  },

  [Sys.READLINK]: (k, p, ch) => {
    const target = new TextEncoder().encode(k.vfs.readlink(atPath(k, p, ch)));
    const n = Math.min(target.length, ch.data.length);
    ch.data.set(target.subarray(0, n));
    return n;
  },

  [Sys.PATHMODE]: (k, p, ch) => {
    const path = hostFsPath(k, p, ch);
    const follow = ch.arg(0) === 1;
    const open = openFileAt(k, p, path, "path_mode");
    // The shell is shown what devices are; the tools' std would refuse to read them (guest-type.ts).
    const mode = open
      ? shownType(open, p.seesDevices).mode
      : p.seesDevices
          ? k.vfs.mode(path, follow)
          : k.vfs.guestMode(path, follow);
    ch.setOut(0, mode);
    return 0;
  },

  [Sys.UTIMES]: (k, p, ch) => {
    const [fd, follow, flags, onFd] = [ch.arg(0), ch.arg(1) === 1, ch.arg(2), ch.arg(3) === 1];
    const now = Date.now();
    // UTIMES_EXACT: the payload's times are u64 nanoseconds, kept as such where the file system can.
    const exact = (flags & UTIMES_EXACT) !== 0;
    const given = (at: number): number => (exact ? Number(ch.view.getBigUint64(at, true)) / 1e6 : ch.view.getFloat64(at, true));
    const time = (at: number, set: number, setNow: number): number | undefined => (flags & setNow ? now : flags & set ? given(at) : undefined);
    const [atime, mtime] = [time(0, 1, 2), time(8, 4, 8)];
    const exactNs = exact
      ? { ...(flags & 1 ? { atime: ch.view.getBigUint64(0, true) } : {}), ...(flags & 4 ? { mtime: ch.view.getBigUint64(8, true) } : {}) }
      : undefined;
    if (onFd) {
      // A pipe or a device has no times to set; Linux accepts it all the same.
      const file = p.fds.get(fd);
      if (file.path !== undefined) k.vfs.utimes(file.path, atime, mtime, true, exactNs);
      return 0;
    }
    const path = resolveGuestPath(k, p, fd, decoder.decode(ch.data.subarray(16, ch.requestLength)));
    k.vfs.utimes(path, atime, mtime, follow, exactNs);
    return 0;
  },


  [Sys.CHMODAT]: (k, p, ch) => {
    k.vfs.chmod(atPath(k, p, ch), ch.arg(1));
    return 0;
  },

  [Sys.CHMOD]: (k, p, ch) => {
    k.vfs.chmod(hostFsPath(k, p, ch), ch.arg(0));
    return 0;
  },
};
