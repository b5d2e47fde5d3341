import type { CommandContext, CommandFile, CommandHandler, CommandStat } from "../commands/command.js";
import { FileType, Signal } from "../abi/wasi.js";
import { S_IFDIR, S_IFLNK, S_IFMT, S_IFREG } from "./file-stat.js";
import { openFileAt } from "./fd-path.js";
import { kerr, KernelError } from "./kernel-error.js";
import type { Kernel } from "./kernel.js";
import type { OpenFile } from "./open-file.js";
import { join } from "./path.js";
import type { Process } from "./process.js";
import type { Vfs } from "./vfs.js";

const encoder = new TextEncoder();
const toBytes = (d: Uint8Array | string): Uint8Array => (typeof d === "string" ? encoder.encode(d) : d);
const READ_CHUNK = 64 * 1024;

const TYPES: Record<number, CommandStat["type"]> = { [S_IFREG]: "file", [S_IFDIR]: "directory", [S_IFLNK]: "symlink" };

/** CommandFs.stat: the real st_mode (a device is a character device here, not the guest's regular file). */
function statOf(vfs: Vfs, path: string, follow: boolean): CommandStat {
  const st = vfs.stat(path, follow);
  const mode = vfs.mode(path, follow);
  return { type: TYPES[mode & S_IFMT] ?? "other", mode, size: st.size, dev: st.dev, ino: st.ino };
}

/**
 * Writes all of `data`. A file on a full file system takes what fits (a short write); the rest is written
 * again, which then fails with ENOSPC, so that the command hears of it rather than losing the rest.
 * Without a signal no write parks (OpenFile.write), so each returns its count at once.
 */
function writeAll(file: OpenFile, data: Uint8Array): void {
  for (let off = 0; off < data.length; ) {
    const n = file.write(data.subarray(off)) as number;
    if (!(n > 0)) throw kerr("EIO", { syscall: "write", message: `a write of ${data.length - off} bytes wrote ${String(n)}` });
    off += n;
  }
}

/** CommandFs.open's file: the process's fd `fd`, which it closes at the latest when it exits. */
function commandFile(p: Process, fd: number): CommandFile {
  let closed = false;
  const file = (syscall: string): OpenFile => {
    if (closed) throw kerr("EBADF", { syscall, message: "file already closed" });
    return p.fds.get(fd);
  };
  return {
    read: async (target) => file("read").read(target, p.killSignal),
    write: (data) => writeAll(file("write"), toBytes(data)),
    close: () => {
      if (closed) return;
      closed = true;
      if (p.fds.has(fd)) p.fds.close(fd);
    },
  };
}

/**
 * Runs `p` as a TypeScript command on the kernel's thread. It is a process like any other: its stdio are
 * its fds 0–2 (pipes, files, sinks) and its paths resolve against its cwd.
 */
export function startTsProcess(k: Kernel, p: Process, handler: CommandHandler): void {
  p.runner = { terminate: () => k.exitProcess(p, 0) };
  // As a guest's paths (syscalls/path.ts): "" names nothing, and `file/` is not a directory.
  const resolve = (path: string): string => {
    if (path === "") throw kerr("ENOENT", { syscall: "lookup", path });
    const abs = join(p.cwd, path);
    const type = abs !== "/" && /\/\.?$/.test(path) ? k.vfs.typeOf(abs) : undefined;
    if (type !== undefined && type !== FileType.DIRECTORY) throw kerr("ENOTDIR", { syscall: "lookup", path: abs });
    return abs;
  };
  const holds = (path: string, test: (abs: string) => boolean): boolean => {
    try {
      return test(resolve(path));
    } catch {
      return false;
    }
  };
  const readStdin = async (): Promise<Uint8Array | null> => {
    const buf = new Uint8Array(READ_CHUNK);
    const n = await p.fds.get(0).read(buf, p.killSignal);
    return n === 0 ? null : buf.subarray(0, n);
  };
  // A killed command's code runs on until it next waits; from the kill on, a write or a call that makes or
  // changes a file throws the kill's reason: a killed process says nothing, and nothing it makes outlives it.
  const alive = (): void => p.killSignal.throwIfAborted();
  const ctx: CommandContext = {
    argv: p.argv,
    env: p.env,
    cwd: p.cwd,
    signal: p.killSignal,
    readStdin,
    async readAllStdin() {
      const chunks: Uint8Array[] = [];
      for (let c = await readStdin(); c; c = await readStdin()) chunks.push(c);
      return Buffer.concat(chunks);
    },
    writeStdout: (d) => (alive(), writeAll(p.fds.get(1), toBytes(d))),
    writeStderr: (d) => (alive(), writeAll(p.fds.get(2), toBytes(d))),
    fs: {
      readFile: (path) => k.vfs.readFile(resolve(path)),
      writeFile: (path, data) => (alive(), k.vfs.writeFile(resolve(path), data)),
      exists: (path) => holds(path, (abs) => k.vfs.exists(abs)),
      stat: (path, follow = true) => statOf(k.vfs, resolve(path), follow),
      chmod: (path, mode) => (alive(), k.vfs.chmod(resolve(path), mode)),
      readdir: (path) => k.vfs.readdir(resolve(path)).map((e) => e.name),
      open: (path, flags) => {
        alive();
        if (flags !== "r" && flags !== "w" && flags !== "wx") throw new TypeError(`open flags must be "r", "w" or "wx", got ${String(flags)}`);
        const abs = resolve(path);
        const write = flags !== "r";
        const file =
          openFileAt(k, p, abs, "open") ??
          k.vfs.open(abs, { read: !write, write, create: write, truncate: flags === "w", exclusive: flags === "wx" });
        // Held while the fd is allocated, so that an EMFILE closes the file again (syscalls/path.ts, OPEN).
        file.retain();
        try {
          return commandFile(p, p.fds.allocate(file, p.rootFd + 1));
        } finally {
          file.release();
        }
      },
      // Not refused after a kill: a killed command removes what it made (sort its temporary files).
      unlink: (path) => k.vfs.unlink(resolve(path)),
    },
  };
  Promise.resolve()
    .then(() => handler(ctx))
    .then(
      (code) => k.exitProcess(p, typeof code === "number" ? code : 0),
      (error: unknown) => {
        if (p.state === "exited") return;
        // Killed: the handler stopped at the kill (its reason is thrown where it waited); the exit status is
        // the signal's, and a killed process says nothing.
        if (p.killSignal.aborted) return k.exitProcess(p, 0);
        // A write to a pipe nobody reads raises SIGPIPE, which ends the process quietly.
        if (error instanceof KernelError && error.code === "EPIPE") return p.kill(Signal.SIGPIPE);
        p.tellStderr(`${p.command}: ${error instanceof Error ? error.message : String(error)}\n`);
        k.exitProcess(p, 1);
      },
    );
}
