import { posix } from "node:path";
import { createHash, createHmac, randomFillSync } from "node:crypto";
import * as zlib from "node:zlib";
import { Errno, errnoName } from "../../src/abi/errno.js";
import { Sys } from "../../src/abi/syscalls.js";
import { AF, SOCK } from "../../src/abi/net.js";
import { EventType, FdFlags, ROOT_PREOPEN_FD, Whence, WNOHANG } from "../../src/abi/wasi.js";
import { GuestExit } from "../kernel-client.js";
import { cryptoOps } from "./crypto-ops.js";
import { boundedOutput, zlibOps } from "./zlib-ops.js";
import { socketOps } from "./socket-ops.js";
import { admit } from "./memory-budget.js";
import { SysError, type System } from "../system.js";

/**
 * The host operations a guest `node` reaches, through the one function the bootstrap captures
 * (workers/node-guest/bootstrap.js). The membrane's rules (shared/docs/guest-js.md §2.4) hold here:
 * arguments are checked with `typeof` and never coerced; results are primitives, or bytes written into the
 * guest's scratch buffer; nothing throws: a failure is the string "\0E" + errno name (which no result
 * string can start with), and the guest's stub makes the Error in its own realm.
 */
export type HostOp = (...args: unknown[]) => unknown;

const fail = (code: string): string => `\0E${code}`;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Linux open(2) flags (fs.constants), as the guest passes them. */
const O = { ACCMODE: 3, WRONLY: 1, RDWR: 2, CREAT: 0o100, EXCL: 0o200, TRUNC: 0o1000, APPEND: 0o2000, DIRECTORY: 0o200000, NOFOLLOW: 0o400000 };

const str = (v: unknown): string => {
  if (typeof v !== "string") throw new SysError("EINVAL");
  return v;
};
const int = (v: unknown): number => {
  if (typeof v !== "number" || !Number.isInteger(v)) throw new SysError("EINVAL");
  return v;
};
const num = (v: unknown): number => {
  if (typeof v !== "number") throw new SysError("EINVAL");
  return v;
};

export interface HostState {
  sys: System;
  /**
   * A view of the guest's scratch buffer (an ArrayBuffer of its realm, made by its bootstrap). Only this
   * view's own methods touch it: the ArrayBuffer's prototype is the guest's.
   */
  scratch: Buffer;
  scratchF64: Float64Array;
}

/** The table of operations over one process's system; `extra` adds the runtime's own (timers, modules). */
export function hostOps(state: HostState): Record<string, HostOp> {
  const { sys } = state;
  const k = sys.k;
  const check = (err: number, path?: string): void => {
    if (err !== Errno.SUCCESS) throw new SysError(errnoName(err), path);
  };
  const seek = (fd: number, offset: number, whence: number): number => {
    check(k.call(Sys.SEEK, [fd, offset % 2 ** 32 | 0, Math.floor(offset / 2 ** 32), whence]));
    return (k.out(0) >>> 0) + k.out(1) * 2 ** 32;
  };
  /** pread/pwrite: at `pos` without moving the file's offset (-1: at the offset, moving it). */
  const at = <T>(fd: number, pos: number, op: () => T): T => {
    if (pos < 0) return op();
    const saved = seek(fd, 0, Whence.CUR);
    seek(fd, pos, Whence.SET);
    try {
      return op();
    } finally {
      seek(fd, saved, Whence.SET);
    }
  };
  const putStat = (st: ReturnType<System["stat"]>): number => {
    const f = state.scratchF64;
    // [dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atimeMs, mtimeMs, ctimeMs, birthtimeMs]
    f.set([st.dev, st.mode, st.nlink, 0, 0, 0, 4096, st.ino, st.size, st.blocks, st.atimeMs, st.mtimeMs, st.ctimeMs, st.ctimeMs]);
    return 0;
  };
  const realpath = (path: string): string => {
    const err = k.callWith(Sys.REALPATH, [ROOT_PREOPEN_FD], encoder.encode(sys.resolve(path)));
    if (err === Errno.SUCCESS) return decoder.decode(k.data.subarray(0, k.channel.replyLength));
    if (err !== Errno.ERANGE) throw new SysError(errnoName(err), path);
    // In a host mount: link by link.
    const parts = sys.resolve(path).split("/").filter((s) => s !== "" && s !== ".");
    let out = "";
    for (let i = 0, links = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part === "..") {
        out = posix.dirname(out || "/");
        if (out === "/") out = "";
        continue;
      }
      const next = `${out}/${part}`;
      const mode = sys.mode(next, false);
      if (mode === 0) throw new SysError("ENOENT", path);
      if ((mode & 0o170000) === 0o120000) {
        if (++links > 40) throw new SysError("ELOOP", path);
        const target = sys.readlink(next);
        parts.splice(0, i + 1, ...target.split("/").filter((s) => s !== "" && s !== "."));
        i = -1;
        if (target.startsWith("/")) out = "";
        continue;
      }
      out = next;
    }
    return out || "/";
  };

  /** Bulk input given with `put` and the last bulk output, read with `take`. */
  const pending: Buffer[] = [];
  let output: Buffer = Buffer.alloc(0);
  const ops: Record<string, HostOp> = {
    open: (path, flags, mode) => {
      const p = str(path);
      const f = int(flags);
      const acc = f & O.ACCMODE;
      const creating = (f & O.CREAT) !== 0 && int(mode) !== 0o666 && sys.mode(p) === 0;
      const fd = sys.open(p, {
        write: acc !== 0,
        read: acc === O.RDWR,
        create: (f & O.CREAT) !== 0,
        exclusive: (f & O.EXCL) !== 0,
        truncate: (f & O.TRUNC) !== 0,
        append: (f & O.APPEND) !== 0,
        directory: (f & O.DIRECTORY) !== 0,
        follow: (f & O.NOFOLLOW) === 0,
      });
      if (creating) sys.chmod(p, int(mode) & 0o7777 & ~0o022);
      return fd;
    },
    close: (fd) => sys.close(int(fd)),
    read: (fd, length, pos) => {
      const n = Math.min(int(length), state.scratch.length);
      return at(int(fd), int(pos), () => {
        check(k.call(Sys.READ, [int(fd), n]));
        const got = k.channel.replyLength;
        state.scratch.set(k.data.subarray(0, got));
        return got;
      });
    },
    write: (fd, length, pos) => {
      const n = Math.min(int(length), state.scratch.length, k.data.length);
      return at(int(fd), int(pos), () => {
        k.data.set(state.scratch.subarray(0, n));
        check(k.call(Sys.WRITE, [int(fd)], n));
        return k.out(0);
      });
    },
    stat: (path, follow) => putStat(sys.stat(str(path), follow === true)),
    fstat: (fd) => putStat(sys.fstat(int(fd))),
    readdir: (path) => sys.readdir(str(path)).map((e) => `${e.name}\0${e.kind === "unknown" ? "file" : e.kind}`).join("\0"),
    mkdir: (path, mode) => {
      sys.mkdir(str(path));
      if (int(mode) !== 0o777) sys.chmod(str(path), int(mode) & 0o7777 & ~0o022);
    },
    rmdir: (path) => sys.rmdir(str(path)),
    unlink: (path) => sys.unlink(str(path)),
    rename: (from, to) => sys.rename(str(from), str(to)),
    symlink: (target, path) => sys.symlink(str(target), str(path)),
    link: (existing, path) => sys.link(str(existing), str(path)),
    readlink: (path) => sys.readlink(str(path)),
    chmod: (path, mode) => sys.chmod(str(path), int(mode)),
    fchmod: (fd, mode) => check(k.call(Sys.FCHMOD, [int(fd), int(mode) & 0o7777])),
    /** The file system `path` is on (it must exist): [bytes held, maxFsBytes, inodes held, maxFsInodes]. */
    statfs: (path) => {
      sys.stat(str(path), true);
      const { bytes, maxBytes, inodes, maxInodes } = sys.statfs();
      state.scratchF64.set([bytes, maxBytes, inodes, maxInodes]);
      return 0;
    },
    ftruncate: (fd, length) => check(k.call(Sys.FTRUNCATE, [int(fd), int(length) % 2 ** 32 | 0, Math.floor(int(length) / 2 ** 32)])),
    utimes: (path, atime, mtime, follow) => sys.utimes(str(path), num(atime), num(mtime), follow !== false),
    futimes: (fd, atime, mtime) => {
      const view = new DataView(k.data.buffer, k.data.byteOffset, 16);
      view.setFloat64(0, num(atime), true);
      view.setFloat64(8, num(mtime), true);
      check(k.call(Sys.UTIMES, [int(fd), 1, 1 | 4, 1], 16));
    },
    fsync: (fd) => sys.fsync(int(fd)),
    realpath: (path) => realpath(str(path)),
    /** 0 missing, 1 a file (anything not a directory), 2 a directory; links followed. One call: module resolution asks it often. */
    fileType: (path) => {
      const mode = sys.mode(str(path), true);
      return mode === 0 ? 0 : (mode & 0o170000) === 0o040000 ? 2 : 1;
    },
    /** A whole file as UTF-8 text (module sources: one crossing instead of many). */
    readText: (path) => decoder.decode(sys.readFile(str(path))),
    access: (path, mode) => {
      const st = sys.stat(str(path), true);
      const want = int(mode) & 7;
      // One user, who owns everything: the owner's bits decide.
      if (((st.mode >> 6) & want) !== want) throw new SysError("EACCES", str(path));
    },
    cwd: () => sys.cwd,
    chdir: (path) => {
      const abs = realpath(str(path));
      if (sys.stat(abs, true).kind !== "dir") throw new SysError("ENOTDIR", str(path));
      sys.cwd = abs;
    },
    setNonblocking: (fd, on) => {
      check(k.call(Sys.FDSTAT, [int(fd)]));
      const flags = k.out(1);
      check(k.call(Sys.SETFL, [int(fd), on === true ? flags | FdFlags.NONBLOCK : flags & ~FdFlags.NONBLOCK]));
    },
    arm: (fd, events) => check(k.call(Sys.ARM, [int(fd), int(events)])),
    isatty: (fd) => sys.isatty(int(fd)),
    fdType: (fd) => sys.fstat(int(fd)).kind,
    pipe: () => {
      check(k.call(Sys.PIPE));
      return k.out(0) * 65536 + k.out(1);
    },
    dup: (fd) => {
      check(k.call(Sys.DUP, [int(fd)]));
      return k.out(0);
    },
    /**
     * argv and env NUL-separated; `fds` comma-separated: the child's fds 0-2 (-1 for /dev/null), then
     * (child's fd, caller's fd) pairs for its fds above 2 (Node's stdio entries past the third).
     */
    spawn: (argv, env, cwd, fds) => {
      const list = str(fds).split(",").map(Number);
      if (list.length < 3 || list.length % 2 !== 1 || list.some((fd) => !Number.isInteger(fd) || fd < -1)) throw new SysError("EINVAL");
      const stdio = list.slice(0, 3).map((fd) => (fd < 0 ? undefined : fd)) as [number?, number?, number?];
      const above = Array.from({ length: (list.length - 3) / 2 }, (_, i) => [list[3 + 2 * i]!, list[4 + 2 * i]!] as const);
      const entries = Object.fromEntries(str(env).split("\0").filter(Boolean).map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
      try {
        return sys.spawn(str(argv).split("\0"), stdio, entries, str(cwd), above);
      } catch (e) {
        if (e instanceof SysError && e.code === "ENOENT" && sys.mode(str(cwd)) === 0) throw new SysError("ENOENT", str(cwd));
        throw e;
      }
    },
    /** A connected pair of Unix sockets, for a child's stdio entry above 2 (Node's pipes there are duplex). */
    spawnPair: () => {
      check(k.call(Sys.SOCKETPAIR, [AF.UNIX, SOCK.STREAM]));
      return k.out(0) * 65536 + k.out(1);
    },
    /** The child's wait status, or -1 while it runs. */
    waitpid: (pid, block) => {
      const err = k.call(Sys.WAITPID, [int(pid), block === true ? 0 : WNOHANG]);
      if (err === Errno.ECHILD && block !== true) return -1;
      check(err);
      return k.out(0);
    },
    threadOf: (pid) => check(k.call(Sys.THREADOF, [int(pid)])),
    pidfd: (pid) => {
      check(k.call(Sys.PIDFD, [int(pid)]));
      return k.out(0);
    },
    kill: (pid, signal) => sys.kill(int(pid), int(signal)),
    sigcatch: (mask) => {
      check(k.call(Sys.SIGCATCH, [int(mask)]));
      return k.out(0);
    },
    /** Blocks until one of the fds (comma-separated) is readable or hung up. */
    pollRead: (fds) => {
      const list = str(fds).split(",").map(Number);
      const view = k.channel.view;
      list.forEach((fd, i) => {
        view.setUint32(i * 8, fd, true);
        view.setUint32(i * 8 + 4, EventType.FD_READ, true);
      });
      check(k.call(Sys.POLL, [list.length, 0, 0, 0], list.length * 8));
    },
    getpid: () => {
      check(k.call(Sys.GETPID));
      return k.out(0);
    },
    now: () => performance.timeOrigin + performance.now(),
    hrtime: () => performance.now(),
    random: (length) => {
      const n = Math.min(int(length), state.scratch.length);
      randomFillSync(state.scratch, 0, n);
      return n;
    },
    /** Appends the scratch's first `length` bytes to the pending input of `hash` / `zlib` (bulk data in pieces). */
    put: (length) => {
      const n = Math.min(Math.max(0, int(length)), state.scratch.length);
      // Held for the guest until an operation takes it (which may copy it once more): within its budget.
      if (admit(2 * n) < 0) throw new SysError("ENOMEM");
      pending.push(Buffer.from(state.scratch.subarray(0, n)));
    },
    /** Hash (or HMAC with the first `keyLength` pending bytes as key) of the pending input; answers the output's length. */
    hash: (algorithm, keyLength) => {
      const input = Buffer.concat(pending.splice(0));
      const h = typeof keyLength === "number" ? createHmac(str(algorithm), input.subarray(0, keyLength)) : createHash(str(algorithm));
      output = h.update(typeof keyLength === "number" ? input.subarray(keyLength) : input).digest();
      return output.length;
    },
    /** A zlib sync transform of the pending input; answers the output's length. */
    zlib: (method, level) => {
      const name = str(method);
      if (!/^(deflate|inflate|gzip|gunzip|deflateRaw|inflateRaw|unzip|brotliCompress|brotliDecompress)$/.test(name)) throw new SysError("EINVAL");
      const fn = (zlib as unknown as Record<string, (b: Buffer, o?: zlib.ZlibOptions) => Buffer>)[`${name}Sync`]!;
      const input = Buffer.concat(pending.splice(0));
      try {
        output = fn(input, boundedOutput(typeof level === "number" && !name.startsWith("brotli") ? { level } : undefined));
      } catch (e) {
        const code = (e as { code?: string }).code;
        throw new SysError(code === "Z_BUF_ERROR" ? "EPIPE" : code === "ERR_BUFFER_TOO_LARGE" ? "ENOMEM" : "EILSEQ");
      }
      return output.length;
    },
    /** Copies the last output from `offset` into the scratch; answers the count. */
    take: (offset) => {
      const n = Math.max(0, Math.min(output.length - int(offset), state.scratch.length));
      state.scratch.set(output.subarray(int(offset), int(offset) + n));
      return n;
    },
    /** UTF-8 text of the scratch's first `length` bytes (TextDecoder's work, host-assisted). */
    decodeUtf8: (length) => decoder.decode(state.scratch.subarray(0, int(length))),
    /** Encodes `text` as UTF-8 into the scratch; answers the byte count, or -needed when it does not fit. */
    encodeUtf8: (text) => {
      const r = encoder.encodeInto(str(text), state.scratch);
      return r.read === str(text).length ? r.written : -1;
    },
    /** URL parsing (WHATWG): its parts joined by NUL, or "" when invalid. */
    parseUrl: (input, base) => {
      try {
        const u = base === undefined ? new URL(str(input)) : new URL(str(input), str(base));
        return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash].join("\0");
      } catch {
        return "";
      }
    },
  };
  const bulk = { input: () => Buffer.concat(pending.splice(0)), output: (b: Buffer) => void (output = b) };
  return Object.assign(ops, cryptoOps(state, bulk), zlibOps(state, bulk), socketOps(state));
}

/** Set when the kernel killed the process: its worker stops, and the guest's `exit` listeners do not run. */
export let killed = false;

/**
 * Runs an op the membrane's way: never throws; failures become "\0E" + code. A process the kernel killed
 * ends here: its worker stops (nothing of the host may be thrown into the guest, which could catch it).
 */
export function callOp(op: HostOp | undefined, args: unknown[]): unknown {
  if (!op) return fail("ENOSYS");
  try {
    return op(...args);
  } catch (e) {
    if (e instanceof GuestExit) {
      killed = true;
      process.exit(0);
    }
    if (e instanceof SysError) return fail(e.code);
    return fail("EIO");
  }
}
