import { posix } from "node:path";
import { Errno, errnoName } from "../src/abi/errno.js";
import { EventType, FdFlags, FileType, OFlags, ROOT_PREOPEN_FD, STDIO_DEVNULL } from "../src/abi/wasi.js";
import { Sys } from "../src/abi/syscalls.js";
import { strerrorOf } from "../src/gnu/strerror.js";
import { GuestMemory } from "./guest-memory.js";
import { KernelClient } from "./kernel-client.js";

/** One process of the VM as the kernel lists it (Sys.PROCLIST). */
export interface ListedProcess {
  pid: number;
  ppid: number;
  pgid: number;
  /** R computing, S waiting in a system call, Z exited and not yet collected. */
  state: "R" | "S" | "Z";
  startMs: number;
  /** The WebAssembly memory charged to the VM for it (0 for the runtime's TypeScript commands). */
  memoryKiB: number;
  argv: string[];
}

export interface ProcessList {
  /** The kernel's clock when it listed them (Date.now()). */
  now: number;
  processes: ListedProcess[];
}

/** A failed system call: `code` is the errno name (ENOENT, …), `path` what it was about. */
export class SysError extends Error {
  constructor(
    readonly code: string,
    readonly path?: string,
  ) {
    super(path === undefined ? strerrorOf(code) : `${path}: ${strerrorOf(code)}`);
  }
}

export type FileKind = "file" | "dir" | "symlink" | "char" | "block" | "fifo" | "socket" | "unknown";

export interface Stat {
  kind: FileKind;
  /** Permission bits and type, as st_mode. */
  mode: number;
  size: number;
  /**
   * 512-byte blocks it takes, as st_blocks: the VM's file system allocates a file's data in blocks of 4 KiB;
   * a directory, a link or a device holds none (`stat %b`, `du`, `find %b/%k` and `ls -s` agree).
   */
  blocks: number;
  ino: number;
  dev: number;
  nlink: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface OpenOptions {
  write?: boolean;
  /** Also read when writing. */
  read?: boolean;
  create?: boolean;
  exclusive?: boolean;
  truncate?: boolean;
  append?: boolean;
  directory?: boolean;
  /** Follow a symbolic link in the last component (default true). */
  follow?: boolean;
}

const KINDS: Record<number, FileKind> = {
  [FileType.REGULAR_FILE]: "file",
  [FileType.DIRECTORY]: "dir",
  [FileType.SYMBOLIC_LINK]: "symlink",
  [FileType.CHARACTER_DEVICE]: "char",
  [FileType.BLOCK_DEVICE]: "block",
  [FileType.SOCKET_STREAM]: "socket",
  [FileType.SOCKET_DGRAM]: "socket",
};

/** The type bits of st_mode (the filestat has no FIFO type, and shows devices as regular files). */
const KIND_OF_MODE: Record<number, FileKind> = {
  0o100000: "file",
  0o040000: "dir",
  0o120000: "symlink",
  0o020000: "char",
  0o060000: "block",
  0o010000: "fifo",
  0o140000: "socket",
};
const kindOfMode = (mode: number): FileKind | undefined => (mode === 0 ? undefined : KIND_OF_MODE[mode & 0o170000]);

const encoder = new TextEncoder();
const nsToMs = (ns: bigint): number => Number(ns / 1000n) / 1000;

/**
 * The system as one of the runtime's own commands (workers/commands/) sees it, in the worker that runs
 * it: synchronous calls over the process's channel, like a C program's. Paths are resolved against the
 * process's working directory here (the kernel takes them as they are); being absolute, they make the
 * kernel ignore the dirfd they go with (ROOT_PREOPEN_FD), as openat does, so a command's fd 3 may be one it
 * inherited (`timeout 5 sh -c 'echo >&3' 3>log`), which the kernel passes on to the commands it starts.
 * Failures throw a SysError; a kill unwinds the command (GuestExit).
 */
export class System {
  readonly k: KernelClient;
  readonly env: Record<string, string>;

  constructor(
    channel: SharedArrayBuffer,
    readonly argv: readonly string[],
    env: readonly string[],
    public cwd: string,
    /** What the command may hold in memory (Limits.maxProcessMemoryBytes). */
    readonly maxMemoryBytes: number,
    /** What the guest holds, reported to the kernel; a script holds nothing the kernel counts. */
    memory: { readonly pages: number } = new GuestMemory(),
  ) {
    this.k = new KernelClient(channel, memory);
    this.env = {};
    for (const e of env) {
      const i = e.indexOf("=");
      if (i > 0) this.env[e.slice(0, i)] = e.slice(i + 1);
    }
  }

  /** `path` made absolute against the working directory (not normalised: `..` stays for the kernel). */
  resolve(path: string): string {
    return path.startsWith("/") ? path : posix.join(this.cwd, path);
  }

  private check(err: number, path?: string): void {
    if (err !== Errno.SUCCESS) throw new SysError(errnoName(err), path);
  }

  private pathCall(op: (typeof Sys)[keyof typeof Sys], args: number[], path: string): void {
    this.check(this.k.callWith(op, args, encoder.encode(this.resolve(path))), path);
  }

  /** Up to `max` bytes (a copy); an empty array at end of file. */
  read(fd: number, max = this.k.data.length): Uint8Array {
    this.check(this.k.call(Sys.READ, [fd, Math.min(max, this.k.data.length)]));
    return this.k.data.slice(0, this.k.channel.replyLength);
  }

  /** Writes all of `data`. */
  write(fd: number, data: Uint8Array | string): void {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const room = this.k.data.length;
    for (let off = 0; off < bytes.length; ) {
      const n = Math.min(bytes.length - off, room);
      this.k.data.set(bytes.subarray(off, off + n));
      this.check(this.k.call(Sys.WRITE, [fd], n));
      off += this.k.out(0);
    }
  }

  open(path: string, o: OpenOptions = {}): number {
    const oflags = (o.create ? OFlags.CREAT : 0) | (o.exclusive ? OFlags.EXCL : 0) | (o.truncate ? OFlags.TRUNC : 0) | (o.directory ? OFlags.DIRECTORY : 0);
    const fdflags = o.append ? FdFlags.APPEND : 0;
    const wantRead = !o.write || o.read ? 1 : 0;
    this.pathCall(Sys.OPEN, [ROOT_PREOPEN_FD, oflags, fdflags, wantRead, o.write ? 1 : 0, o.follow === false ? 0 : 1], path);
    return this.k.out(0);
  }

  close(fd: number): void {
    this.check(this.k.call(Sys.CLOSE, [fd]));
  }

  /**
   * All of `fd`, to end of file. What a command holds is bounded by maxMemoryBytes: past it, ENOMEM ("Cannot
   * allocate memory").
   */
  readAll(fd: number): Uint8Array {
    const chunks: Uint8Array[] = [];
    let held = 0;
    for (let c = this.read(fd); c.length > 0; c = this.read(fd)) {
      held += c.length;
      if (held > this.maxMemoryBytes) throw new SysError("ENOMEM");
      chunks.push(c);
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  }

  /** The whole file (readAll's bound): in one call when it fits the channel. */
  readFile(path: string): Uint8Array {
    const err = this.k.callWith(Sys.READFILE, [ROOT_PREOPEN_FD], encoder.encode(this.resolve(path)));
    if (err === Errno.SUCCESS) return this.k.data.slice(0, this.k.channel.replyLength);
    if (err !== Errno.ERANGE) this.check(err, path);
    const fd = this.open(path);
    try {
      return this.readAll(fd);
    } finally {
      this.close(fd);
    }
  }

  /** The filestat the kernel just answered (without its mode, which is a call of its own). */
  private replyStat(): Stat {
    const v = this.k.channel.view;
    const filetype = v.getUint8(16);
    return {
      kind: KINDS[filetype] ?? "unknown",
      mode: 0,
      dev: Number(v.getBigUint64(0, true)),
      ino: Number(v.getBigUint64(8, true)),
      nlink: Number(v.getBigUint64(24, true)),
      size: Number(v.getBigUint64(32, true)),
      blocks: filetype === FileType.REGULAR_FILE ? Math.ceil(Number(v.getBigUint64(32, true)) / 4096) * 8 : 0,
      atimeMs: nsToMs(v.getBigUint64(40, true)),
      mtimeMs: nsToMs(v.getBigUint64(48, true)),
      ctimeMs: nsToMs(v.getBigUint64(56, true)),
    };
  }

  /** The VM's file system: what it holds and may hold (Sys.STATFS). */
  statfs(): { bytes: number; maxBytes: number; inodes: number; maxInodes: number } {
    this.check(this.k.call(Sys.STATFS));
    const v = this.k.channel.view;
    const [bytes, maxBytes, inodes, maxInodes] = [0, 1, 2, 3].map((i) => v.getFloat64(i * 8, true)) as [number, number, number, number];
    return { bytes, maxBytes, inodes, maxInodes };
  }

  /** What `path` names; a symbolic link itself when `follow` is false (lstat). */
  stat(path: string, follow = true): Stat {
    this.pathCall(Sys.STAT, [ROOT_PREOPEN_FD, follow ? 1 : 0], path);
    const st = this.replyStat();
    st.mode = this.mode(path, follow);
    st.kind = kindOfMode(st.mode) ?? st.kind;
    return st;
  }

  fstat(fd: number): Stat {
    this.check(this.k.call(Sys.FSTAT, [fd]));
    const st = this.replyStat();
    st.mode = this.k.call(Sys.FDMODE, [fd]) === Errno.SUCCESS ? this.k.out(0) : 0;
    st.kind = kindOfMode(st.mode) ?? st.kind;
    return st;
  }

  /** fsync/fdatasync (Sys.FSYNC). */
  fsync(fd: number): void {
    this.check(this.k.call(Sys.FSYNC, [fd]));
  }

  /** st_mode of `path` (0 when unknown). */
  mode(path: string, follow = true): number {
    return this.k.callWith(Sys.PATHMODE, [follow ? 1 : 0], encoder.encode(this.resolve(path))) === Errno.SUCCESS ? this.k.out(0) : 0;
  }

  /** Whether `fd` is a terminal. */
  isatty(fd: number): boolean {
    return this.k.call(Sys.ISATTY, [fd]) === Errno.SUCCESS && this.k.out(0) === 1;
  }

  /** The entries of a directory (without `.` and `..`), in the kernel's order (by name). */
  readdir(path: string): Array<{ name: string; kind: FileKind }> {
    const fd = this.open(path, { directory: true });
    const out: Array<{ name: string; kind: FileKind }> = [];
    const decoder = new TextDecoder();
    try {
      for (let index = 0; ; ) {
        this.check(this.k.call(Sys.READDIR, [fd, index, 0]), path);
        const count = this.k.out(0);
        const end = this.k.out(1) === 1;
        const v = this.k.channel.view;
        for (let i = 0, off = 0; i < count; i++) {
          const type = v.getUint8(off + 8);
          const len = v.getUint16(off + 9, true);
          const name = decoder.decode(this.k.data.subarray(off + 11, off + 11 + len));
          off += 11 + len;
          index++;
          if (name !== "." && name !== "..") out.push({ name, kind: KINDS[type] ?? "unknown" });
        }
        if (end || count === 0) return out;
      }
    } finally {
      this.close(fd);
    }
  }

  readlink(path: string): string {
    this.pathCall(Sys.READLINK, [ROOT_PREOPEN_FD], path);
    return new TextDecoder().decode(this.k.data.subarray(0, this.k.channel.replyLength));
  }

  unlink(path: string): void {
    this.pathCall(Sys.UNLINK, [ROOT_PREOPEN_FD], path);
  }

  rmdir(path: string): void {
    this.pathCall(Sys.RMDIR, [ROOT_PREOPEN_FD], path);
  }

  mkdir(path: string): void {
    this.pathCall(Sys.MKDIR, [ROOT_PREOPEN_FD], path);
  }

  /** Creates `linkPath`, a symbolic link holding `target` (as written). */
  symlink(target: string, linkPath: string): void {
    this.check(this.k.callWithFields(Sys.SYMLINK, [ROOT_PREOPEN_FD], [encoder.encode(target), encoder.encode(this.resolve(linkPath))]), linkPath);
  }

  /** Creates `newPath`, a hard link to `oldPath`. */
  link(oldPath: string, newPath: string): void {
    this.check(
      this.k.callWithFields(Sys.LINK, [ROOT_PREOPEN_FD, ROOT_PREOPEN_FD, 0], [encoder.encode(this.resolve(oldPath)), encoder.encode(this.resolve(newPath))]),
      newPath,
    );
  }

  rename(oldPath: string, newPath: string): void {
    this.check(
      this.k.callWithFields(Sys.RENAME, [ROOT_PREOPEN_FD, ROOT_PREOPEN_FD], [encoder.encode(this.resolve(oldPath)), encoder.encode(this.resolve(newPath))]),
      newPath,
    );
  }

  /** Sets the permission bits of `path` (following symbolic links). */
  chmod(path: string, mode: number): void {
    this.pathCall(Sys.CHMOD, [mode & 0o7777], path);
  }

  /** Sets the access and modification times (ms) of `path`; a symbolic link itself when `follow` is false. */
  utimes(path: string, atimeMs: number, mtimeMs: number, follow = true): void {
    const target = encoder.encode(this.resolve(path));
    if (16 + target.length > this.k.data.length) throw new SysError("ENAMETOOLONG", path);
    const view = new DataView(this.k.data.buffer, this.k.data.byteOffset, 16);
    view.setFloat64(0, atimeMs, true);
    view.setFloat64(8, mtimeMs, true);
    this.k.data.set(target, 16);
    this.check(this.k.call(Sys.UTIMES, [ROOT_PREOPEN_FD, follow ? 1 : 0, 1 | 4, 0], 16 + target.length), path);
  }

  /**
   * Starts `argv` (looked up in PATH as execvp does) with fds 0–2 from `stdio` (undefined: /dev/null) in
   * `cwd`; above 2, the (child's fd, this process's fd) pairs of `above`, or without it the fds this command
   * inherited (Process.passesOnFds). Answers its pid. Wait for it with `wait`.
   */
  spawn(argv: readonly string[], stdio: readonly [number?, number?, number?] = [0, 1, 2], env = this.env, cwd = this.cwd, above?: readonly (readonly [number, number])[]): number {
    const nul = (parts: readonly string[]): Uint8Array => encoder.encode(parts.map((p) => `${p}\0`).join(""));
    const entries = Object.entries(env).map(([key, value]) => `${key}=${value}`);
    const fds = [0, 1, 2].map((i) => stdio[i] ?? STDIO_DEVNULL);
    const fields = [nul(argv), nul(entries), encoder.encode(cwd)];
    if (above) {
      const pairs = new DataView(new ArrayBuffer(above.length * 8));
      above.forEach(([child, own], i) => (pairs.setUint32(i * 8, child, true), pairs.setUint32(i * 8 + 4, own, true)));
      fields.push(new Uint8Array(pairs.buffer));
    }
    this.check(this.k.callWithFields(Sys.SPAWN, fds, fields), argv[0]);
    return this.k.out(0);
  }

  /**
   * The VM's processes (Sys.PROCLIST), for ps: whole command lines when the list fits in the channel's
   * payload, else each cut to 4 KiB, then to 256 bytes.
   */
  processes(): ProcessList {
    for (const max of [0, 4096, 256]) {
      const err = this.k.call(Sys.PROCLIST, [max]);
      if (err === Errno.ERANGE && max !== 256) continue;
      this.check(err);
      return JSON.parse(new TextDecoder().decode(this.k.data.subarray(0, this.k.channel.replyLength))) as ProcessList;
    }
    throw new SysError("ERANGE");
  }

  /** A new pipe: [read end, write end]. */
  pipe(): [number, number] {
    this.check(this.k.call(Sys.PIPE));
    return [this.k.out(0), this.k.out(1)];
  }

  /** Parks for `ms` milliseconds on a kernel timer. */
  sleep(ms: number): void {
    this.check(this.k.call(Sys.SLEEP, [Math.max(0, Math.min(Math.round(ms), 0x7fffffff))]));
  }

  /** The open files of the VM's processes (of `pid` alone, unless 0), for lsof (Sys.OPENFILES). */
  openFiles(pid = 0): Array<{ pid: number; command: string; files: Array<Record<string, unknown>> }> {
    type Listed = Array<{ pid: number; command: string; files: Array<Record<string, unknown>> }>;
    const err = this.k.call(Sys.OPENFILES, [pid]);
    // Too many for one reply: process by process.
    if (err === Errno.ERANGE && pid === 0) return this.processes().processes.flatMap((q) => (q.state === "Z" ? [] : this.openFiles(q.pid)));
    this.check(err);
    return JSON.parse(new TextDecoder().decode(this.k.data.subarray(0, this.k.channel.replyLength))) as Listed;
  }

  /** Sends `signal` to process `pid`. */
  kill(pid: number, signal: number): void {
    this.check(this.k.call(Sys.KILL, [pid, signal]));
  }

  /**
   * Waits until child `pid` has exited or `timeoutMs` has passed (a pidfd polled with a deadline); true
   * when it has exited, and `wait` then answers at once.
   */
  waitFor(pid: number, timeoutMs: number): boolean {
    this.check(this.k.call(Sys.PIDFD, [pid]));
    const fd = this.k.out(0);
    try {
      const view = this.k.channel.view;
      view.setUint32(0, fd, true);
      view.setUint32(4, EventType.FD_READ, true);
      const ns = BigInt(Math.max(0, Math.round(timeoutMs * 1e6)));
      this.check(this.k.call(Sys.POLL, [1, 1, Number(ns & 0xffffffffn) | 0, Number(ns >> 32n)], 8));
      return this.k.out(1) !== 1;
    } finally {
      this.close(fd);
    }
  }

  /** The wait status of child `pid`, once it has exited. */
  wait(pid: number): number {
    this.check(this.k.call(Sys.WAITPID, [pid, 0]));
    return this.k.out(0);
  }
}

/**
 * Buffered output to an fd: one system call per 64 KiB, not per line. `flush` before the process ends
 * (script-host.ts does it for stdout and stderr).
 */
export class Output {
  private readonly buf = new Uint8Array(64 * 1024);
  private fill = 0;

  constructor(
    private readonly sys: System,
    readonly fd: number,
  ) {}

  write(data: Uint8Array | string): void {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    if (this.fill + bytes.length > this.buf.length) {
      this.flush();
      if (bytes.length > this.buf.length) return this.sys.write(this.fd, bytes);
    }
    this.buf.set(bytes, this.fill);
    this.fill += bytes.length;
  }

  flush(): void {
    if (this.fill === 0) return;
    const n = this.fill;
    this.fill = 0;
    this.sys.write(this.fd, this.buf.subarray(0, n));
  }
}
