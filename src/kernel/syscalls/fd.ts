import { EventType, FdFlags, FileType, Signal, Whence } from "../../abi/wasi.js";
import { FILESTAT_SIZE, writeFileStat, type FileStat } from "../../abi/filestat.js";
import { Sys } from "../../abi/syscalls.js";
import { Errno } from "../../abi/errno.js";
import { WakeEvent } from "../../abi/wake-ring.js";
import { kerr, KernelError } from "../kernel-error.js";
import { Pipe } from "../pipe.js";
import { pollFiles, type PollSubscription } from "../poll.js";
import { DirectoryFile, type DirEntry } from "../vfs.js";
import { openFileAt } from "../fd-path.js";
import { shownType } from "../guest-type.js";
import { DeviceFile } from "../open-file.js";
import type { Process } from "../process.js";
import type { SyscallHandler } from "./context.js";
import type { Kernel } from "../kernel.js";
import { join } from "../path.js";
import { guestStat } from "./path.js";

const encoder = new TextEncoder();

/**
 * What STAT (not followed) answers for `entry` of directory `dir` now, or undefined where it fails: the lstat
 * listing it took, if it did (a host mount's), unless the path names an open file (fd-path.ts).
 */
function entryStat(k: Kernel, p: Process, dir: string, entry: DirEntry): { stat: FileStat; mode: number } | undefined {
  const path = join(dir, entry.name);
  try {
    if (entry.stat && !openFileAt(k, p, path, "stat")) return { stat: entry.stat, mode: entry.stat.mode ?? 0 };
    return guestStat(k, p, path, false);
  } catch (e) {
    if (e instanceof KernelError) return undefined;
    throw e;
  }
}
/** WASI's advice values run from NORMAL (0) to NOREUSE (5). */
const MAX_ADVICE = 5;

/**
 * Writing to a pipe nobody reads raises SIGPIPE, whose default action ends the process (the guests cannot
 * catch signals): `yes | head -1` ends quietly with status 141, as with a native shell. A Go program gets
 * EPIPE instead on fds above 2, as its runtime arranges on Linux (the shell ends only the pipeline stage
 * that wrote). A pipe that would pass the VM's memory limit ends its writer the same way, with a line
 * saying why.
 */
function writeFailed(p: Process, fd: number, e: unknown): never {
  if (e instanceof KernelError && e.code === "ENOMEM") {
    p.tellStderr(`${p.command}: write error: pipe buffers reached the VM memory limit (maxVmMemoryBytes)\n`);
    e = kerr("EPIPE", { syscall: "write" });
  }
  if (e instanceof KernelError && e.code === "EPIPE" && (fd <= 2 || !p.sigpipeOnStdioOnly)) p.kill(Signal.SIGPIPE);
  throw e;
}

export const fdSyscalls: Record<number, SyscallHandler> = {
  [Sys.READ]: (_k, p, ch) => {
    const fd = ch.arg(0);
    const file = p.fds.get(fd);
    if (p.fds.isNonblocking(fd) && !file.readiness("read").ready) {
      // The arming rule (guest-js §4.3): an EAGAIN arms that direction, checked against the level.
      p.wakeRing?.arm(fd, file, WakeEvent.READ);
      throw kerr("EAGAIN", { syscall: "read" });
    }
    return file.read(ch.data.subarray(0, Math.min(ch.uarg(1), ch.data.length)), p.killSignal);
  },

  [Sys.WRITE]: (_k, p, ch) => {
    const fd = ch.arg(0);
    const data = ch.data.subarray(0, ch.requestLength);
    const written = (n: number): number => (ch.setOut(0, n), 0);
    try {
      const file = p.fds.get(fd);
      // Writing nothing checks the fd and does nothing else (no EPIPE), as Linux's pipes do.
      if (data.length === 0) {
        if (!file.writable) throw kerr("EBADF", { syscall: "write", message: `fd ${fd} is not open for writing` });
        return written(0);
      }
      const n = p.fds.isNonblocking(fd) ? file.writeNonblocking(data) : file.write(data, p.killSignal);
      return typeof n === "number" ? written(n) : n.then(written, (e: unknown) => writeFailed(p, fd, e));
    } catch (e) {
      if (e instanceof KernelError && e.code === "EAGAIN") p.wakeRing?.arm(fd, p.fds.get(fd), WakeEvent.WRITE);
      return writeFailed(p, fd, e);
    }
  },

  [Sys.SEEK]: (_k, p, ch) => {
    const offset = ch.uarg(1) + ch.arg(2) * 2 ** 32;
    const file = p.fds.get(ch.arg(0));
    if (ch.uarg(3) > Whence.END) throw kerr("EINVAL", { syscall: "seek", message: `unknown whence ${ch.uarg(3)}` });
    const pos = file.seek(offset, ch.arg(3));
    ch.setOut(0, pos % 2 ** 32 | 0);
    ch.setOut(1, Math.floor(pos / 2 ** 32));
    return 0;
  },

  [Sys.CLOSE]: (_k, p, ch) => {
    p.fds.close(ch.arg(0));
    p.wakeRing?.disarm(ch.arg(0));
    return 0;
  },

  [Sys.ARM]: (_k, p, ch) => {
    if (!p.wakeRing) throw kerr("ENOSYS", { syscall: "arm" });
    const fd = ch.arg(0);
    p.wakeRing.arm(fd, p.fds.get(fd), ch.arg(1));
    return 0;
  },

  [Sys.FDSTAT]: (_k, p, ch) => {
    const fd = ch.arg(0);
    const file = p.fds.get(fd);
    // The guest's convention: stdio reports a character device whatever it is connected to.
    ch.setOut(0, fd <= 2 ? FileType.CHARACTER_DEVICE : file.filetype);
    ch.setOut(1, (file.append ? FdFlags.APPEND : 0) | (p.fds.isNonblocking(fd) ? FdFlags.NONBLOCK : 0) | file.syncFlags);
    ch.setOut(2, (file.readable ? 1 : 0) | (file.writable ? 2 : 0));
    return 0;
  },

  [Sys.PREAD]: (_k, p, ch) => {
    const target = ch.data.subarray(0, Math.min(ch.uarg(1), ch.data.length));
    return p.fds.get(ch.arg(0)).pread(target, ch.uarg(2) + ch.uarg(3) * 2 ** 32);
  },

  [Sys.PWRITE]: (_k, p, ch) => {
    const fd = ch.arg(0);
    try {
      ch.setOut(0, p.fds.get(fd).pwrite(ch.data.subarray(0, ch.requestLength), ch.uarg(1) + ch.uarg(2) * 2 ** 32));
    } catch (e) {
      return writeFailed(p, fd, e);
    }
    return 0;
  },

  [Sys.RENUMBER]: (_k, p, ch) => {
    const [from, to] = [ch.arg(0), ch.arg(1)];
    p.fds.renumber(from, to);
    if (from !== to) {
      p.wakeRing?.disarm(from);
      p.wakeRing?.disarm(to);
    }
    return 0;
  },

  [Sys.ALLOCATE]: (_k, p, ch) => {
    const file = p.fds.get(ch.arg(0));
    const [offset, length] = [ch.uarg(1) + ch.uarg(2) * 2 ** 32, ch.uarg(3) + ch.uarg(4) * 2 ** 32];
    if (length === 0) throw kerr("EINVAL", { syscall: "fallocate", message: "length 0" });
    file.allocate(offset, length);
    return 0;
  },

  [Sys.ADVISE]: (_k, p, ch) => {
    const file = p.fds.get(ch.arg(0));
    if (ch.uarg(5) > MAX_ADVICE) throw kerr("EINVAL", { syscall: "fadvise", message: `unknown advice ${ch.uarg(5)}` });
    // posix_fadvise: a pipe or a socket has no pages to advise on.
    if (file.filetype === FileType.UNKNOWN || file.filetype === FileType.SOCKET_STREAM || file.filetype === FileType.SOCKET_DGRAM)
      throw kerr("ESPIPE", { syscall: "fadvise" });
    return 0;
  },

  [Sys.FSYNC]: (_k, p, ch) => {
    const file = p.fds.get(ch.arg(0));
    // Linux syncs files, directories and sockets (a no-op there); pipes, devices and the special fds have no
    // fsync operation.
    const syncs = file.filetype === FileType.REGULAR_FILE || file.filetype === FileType.DIRECTORY || file.filetype === FileType.SOCKET_STREAM || file.filetype === FileType.SOCKET_DGRAM;
    if (!syncs || file instanceof DeviceFile) throw kerr("EINVAL", { syscall: "fsync" });
    return 0;
  },

  [Sys.SETFL]: (_k, p, ch) => {
    const fd = ch.arg(0);
    const flags = ch.arg(1);
    const file = p.fds.get(fd);
    p.fds.setNonblocking(fd, (flags & FdFlags.NONBLOCK) !== 0);
    // As F_SETFL: APPEND changes the open file description; the sync flags mean nothing in memory.
    file.append = (flags & FdFlags.APPEND) !== 0;
    return 0;
  },

  [Sys.POLL]: (k, p, ch) => {
    const count = ch.uarg(0);
    if (count * 8 > ch.requestLength) throw kerr("EINVAL", { syscall: "poll" });
    const subs: PollSubscription[] = [];
    for (let i = 0; i < count; i++) {
      const fd = ch.view.getUint32(i * 8, true);
      const op = ch.view.getUint32(i * 8 + 4, true) === EventType.FD_WRITE ? "write" : "read";
      subs.push({ file: p.fds.find(fd), op });
    }
    const timeoutMs = ch.arg(1) === 0 ? undefined : Math.ceil((ch.uarg(2) + ch.uarg(3) * 2 ** 32) / 1e6);
    return pollFiles(k, p, subs, timeoutMs, (states, timedOut) => {
      let ready = 0;
      states.forEach((r, i) => {
        ch.view.setUint16(i * 8, subs[i]!.file ? 0 : Errno.EBADF, true);
        ch.view.setUint16(i * 8 + 2, (r.ready ? 1 : 0) | (r.hangup ? 2 : 0), true);
        ch.view.setUint32(i * 8 + 4, r.nbytes, true);
        if (r.ready) ready++;
      });
      ch.setOut(0, ready);
      ch.setOut(1, timedOut ? 1 : 0);
      return count * 8;
    });
  },

  [Sys.FSTAT]: (_k, p, ch) => {
    const fd = ch.arg(0);
    const file = p.fds.get(fd);
    // An fd the process opened (`cp /dev/stdin f` checks the one it opened) shows what guest-type.ts
    // says; fds 0-2, which the published tools never examine, show what Linux's fstat shows: a pipe as
    // the stream it is (so that nothing would take a pipe's size 0 for the size of its data) and a
    // device (/dev/null, the stdin of an exec without input) as a character device. ripgrep looks at
    // its fd 0 to choose between searching stdin (a file, pipe or socket) and the working directory.
    const shown = fd > 2 ? shownType(file, p.seesDevices) : undefined;
    const stat =
      shown ? shown.stat
      : file instanceof DeviceFile ? { ...file.stat(), filetype: FileType.CHARACTER_DEVICE }
      : file.stat();
    writeFileStat(ch.view, 0, stat);
    ch.setOut(0, shown ? shown.mode : 0); // as FDMODE
    return 64;
  },

  [Sys.FTRUNCATE]: (_k, p, ch) => {
    p.fds.get(ch.arg(0)).truncate(ch.uarg(1) + ch.arg(2) * 2 ** 32);
    return 0;
  },

  [Sys.FCHMOD]: (k, p, ch) => {
    const file = p.fds.get(ch.arg(0));
    if (file.path !== undefined) k.vfs.chmod(file.path, ch.arg(1));
    return 0;
  },

  [Sys.READDIR]: (k, p, ch) => {
    const dir = p.fds.get(ch.arg(0));
    if (!(dir instanceof DirectoryFile)) throw kerr("ENOTDIR", { syscall: "readdir" });
    const entries = dir.entriesFrom(ch.uarg(1));
    // The devices are regular files to the tools (guest-type.ts); those shown devices see them listed as such.
    const devices = p.seesDevices && dir.path === "/dev";
    const S_IFCHR = 0o020000;
    const statsFor = ch.arg(2);
    let off = 0;
    if (statsFor > 0) {
      const path = encoder.encode(dir.path);
      ch.view.setUint16(0, path.length, true);
      ch.data.set(path, 2);
      off = 2 + path.length;
    }
    const statBytes = statsFor > 0 ? 1 + FILESTAT_SIZE + 4 : 0;
    let direntBytes = 0;
    let count = 0;
    for (const e of entries) {
      const name = encoder.encode(e.name);
      if (off + 11 + name.length + statBytes > ch.data.length || (statsFor > 0 && direntBytes >= statsFor)) break;
      ch.view.setBigUint64(off, BigInt(e.ino), true);
      const device = devices && e.filetype === FileType.REGULAR_FILE && (k.vfs.mode(`/dev/${e.name}`, false) & 0o170000) === S_IFCHR;
      ch.view.setUint8(off + 8, device ? FileType.CHARACTER_DEVICE : e.filetype);
      ch.view.setUint16(off + 9, name.length, true);
      ch.data.set(name, off + 11);
      off += 11 + name.length;
      if (statsFor > 0) {
        const stat = e.name === ".." ? undefined : entryStat(k, p, dir.path, e);
        ch.view.setUint8(off, stat ? 1 : 0);
        if (stat) {
          writeFileStat(ch.view, off + 1, stat.stat);
          ch.view.setUint32(off + 1 + FILESTAT_SIZE, stat.mode, true);
        }
        off += statBytes;
        direntBytes += 24 + name.length;
      }
      count++;
    }
    ch.setOut(0, count);
    ch.setOut(1, count === entries.length ? 1 : 0);
    return off;
  },

  [Sys.FDMODE]: (_k, p, ch) => {
    const fd = ch.arg(0);
    ch.setOut(0, fd <= 2 ? 0 : shownType(p.fds.get(fd), p.seesDevices).mode); // as FSTAT
    return 0;
  },

  [Sys.ISATTY]: (_k, p, ch) => {
    p.fds.get(ch.arg(0));
    ch.setOut(0, 0); // no terminals yet: only an interactive shell's PTY would be one
    return 0;
  },

  [Sys.DUP]: (_k, p, ch) => {
    ch.setOut(0, p.fds.allocate(p.fds.get(ch.arg(0))));
    return 0;
  },

  [Sys.PIPE]: (k, p, ch) => {
    const pipe = new Pipe(k.memory, k.limits.pipeBufferBytes);
    ch.setOut(0, p.fds.allocate(pipe.readEnd));
    ch.setOut(1, p.fds.allocate(pipe.writeEnd));
    return 0;
  },
};
