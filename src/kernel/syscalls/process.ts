import { MessageChannel } from "node:worker_threads";
import { unpackFields } from "../../abi/channel.js";
import { STDIO_DEVNULL, WAIT_ANY, WNOHANG } from "../../abi/wasi.js";
import { WASM_PAGE_BYTES } from "../../abi/process-task.js";
import { Sys } from "../../abi/syscalls.js";
import { ExecFailure } from "../executable.js";
import { kerr } from "../kernel-error.js";
import type { Kernel } from "../kernel.js";
import type { OpenFile } from "../open-file.js";
import { join } from "../path.js";
import { PidFd } from "../pid-fd.js";
import { listOpenFiles } from "../open-files.js";
import { RoomFd } from "../room-fd.js";
import { SignalFd } from "../signal-fd.js";
import type { Process } from "../process.js";
import { setLongTimeout } from "../../util/long-timeout.js";
import type { SyscallHandler } from "./context.js";

const decoder = new TextDecoder();

/** Splits NUL-terminated strings; empty strings are real entries (an empty argument stays an argument). */
function splitNul(bytes: Uint8Array): string[] {
  const parts = decoder.decode(bytes).split("\0");
  parts.pop(); // after the last terminator
  return parts;
}

/** `KEY=VALUE\0…` to an object; a later duplicate wins. */
export function parseEnv(entries: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of entries) {
    const i = e.indexOf("=");
    if (i > 0) env[e.slice(0, i)] = e.slice(i + 1);
  }
  return env;
}

/** The arguments that fit in about `max` characters, the last one shortened to fit (a long command line in ps). */
function cutArgv(argv: readonly string[], max: number): string[] {
  const out: string[] = [];
  let left = max;
  for (const a of argv) {
    if (left <= 0) break;
    out.push(a.length > left ? a.slice(0, left) : a);
    left -= a.length + 1;
  }
  return out;
}

/** A child of `p` that has exited (or undefined), for waitpid's `pid` argument. */
function exitedChild(p: Process, pid: number): Process | undefined {
  for (const c of p.children) if ((pid === WAIT_ANY || c.pid === pid) && c.state === "exited") return c;
  return undefined;
}

/**
 * waitpid: collects an exited child (`pid` or any: WAIT_ANY), parking until one exits. The published binaries'
 * convention (Sys.WAITPID) answers ECHILD to WNOHANG while the children run and ESRCH for a pid that is not a
 * child; POSIX's (Sys.WAIT) pid 0 and ECHILD.
 */
function waitChild(...[k, p, ch, posix]: [...Parameters<SyscallHandler>, boolean]): number | Promise<number> {
  const pid = ch.uarg(0);
  if (p.children.size === 0) throw kerr("ECHILD", { syscall: "waitpid", pid });
  if (pid !== WAIT_ANY && ![...p.children].some((c) => c.pid === pid)) throw kerr(posix ? "ECHILD" : "ESRCH", { syscall: "waitpid", pid });
  const collect = (c: Process): number => {
    k.reap(c);
    ch.setOut(0, c.waitStatus);
    ch.setOut(1, c.pid);
    return 0;
  };
  const done = exitedChild(p, pid);
  if (done) return collect(done);
  if (ch.arg(1) & WNOHANG) {
    if (!posix) throw kerr("ECHILD", { syscall: "waitpid", pid });
    ch.setOut(0, 0);
    ch.setOut(1, 0);
    return 0;
  }
  return k.park(p, (resolve) => {
    // Collects one child only: a second exit before this waiter is removed stays for the next waitpid.
    const check = (): void => {
      const c = exitedChild(p, pid);
      if (!c) return;
      p.childExitWaiters.delete(check);
      resolve(collect(c));
    };
    p.childExitWaiters.add(check);
    return () => p.childExitWaiters.delete(check);
  });
}

/**
 * The working directory a child starts in: the one the caller sends, joined to its own. From a command that
 * may not know its working directory (a user's WebAssembly binary, whose libc says "/"), "/" or nothing
 * means the caller's.
 */
function childCwd(p: Process, requested: string): string {
  if (requested === "" || (requested === "/" && !p.keepsCwd)) return p.cwd;
  return join(p.cwd, requested);
}

/**
 * The fds above 2 a child inherits (host_process.proc_spawn_fds): u32 pairs (child's fd, caller's fd). A
 * child's fd must be above 2 and below Limits.maxOpenFds, as bash's must be below `ulimit -n` (EBADF).
 */
function inheritedFds(k: Kernel, p: Process, pairs: Uint8Array): Map<number, OpenFile> {
  const view = new DataView(pairs.buffer, pairs.byteOffset, pairs.byteLength);
  const fds = new Map<number, OpenFile>();
  for (let off = 0; off + 8 <= pairs.byteLength; off += 8) {
    const fd = view.getUint32(off, true);
    if (fd < 3 || fd >= k.limits.maxOpenFds) throw kerr("EBADF", { syscall: "spawn", message: `bad file descriptor ${fd}` });
    fds.set(fd, p.fds.get(view.getUint32(off + 4, true)));
  }
  return fds;
}

/** The fds above 2 a script inherited and still has open, for a child it starts (Process.passesOnFds). */
function passedOnFds(p: Process): Map<number, OpenFile> | undefined {
  if (p.passesOnFds.length === 0) return undefined;
  const fds = new Map<number, OpenFile>();
  for (const fd of p.passesOnFds) {
    const file = p.fds.find(fd);
    if (file) fds.set(fd, file);
  }
  return fds;
}

export const processSyscalls: Record<number, SyscallHandler> = {
  [Sys.SPAWN]: (k, p, ch) => {
    const [argvBytes, envBytes, cwdBytes, fdPairs] = unpackFields(ch.data, ch.requestLength);
    const argv = splitNul(argvBytes!);
    const cwd = childCwd(p, decoder.decode(cwdBytes));
    const stdioFds = [ch.uarg(0), ch.uarg(1), ch.uarg(2)];
    const stdio = stdioFds.map((fd): OpenFile => (fd === STDIO_DEVNULL ? k.devNull() : p.fds.get(fd)));
    const fds = fdPairs ? inheritedFds(k, p, fdPairs) : passedOnFds(p);
    let child: Process;
    p.execFailure = undefined;
    try {
      child = k.spawn({ parent: p, argv, env: parseEnv(splitNul(envBytes!)), cwd, stdio, fds });
    } catch (e) {
      // The shell asks for it (Sys.SPAWNERROR) to print bash's words.
      if (e instanceof ExecFailure) p.execFailure = e;
      throw e;
    }
    ch.setOut(0, child.pid);
    return 0;
  },

  [Sys.WAITPID]: (k, p, ch) => waitChild(k, p, ch, false),
  [Sys.WAIT]: (k, p, ch) => waitChild(k, p, ch, true),

  [Sys.GETPPID]: (_k, p, ch) => {
    ch.setOut(0, p.parent?.pid ?? 0);
    return 0;
  },


  [Sys.PIDFD]: (_k, p, ch) => {
    const pid = ch.uarg(0);
    const child = [...p.children].find((c) => c.pid === pid);
    if (!child) throw kerr("ESRCH", { syscall: "pidfd", pid });
    ch.setOut(0, p.fds.allocate(new PidFd(child)));
    return 0;
  },

  [Sys.THREADOF]: (_k, p, ch) => {
    const pid = ch.uarg(0);
    const child = [...p.children].find((c) => c.pid === pid);
    if (!child || child.state !== "running") throw kerr("ESRCH", { syscall: "threadof", pid });
    if (child.isThread) throw kerr("EEXIST", { syscall: "threadof", pid });
    child.isThread = true;
    // Two one-way links between the runtimes, for SharedArrayBuffers (workers/node-host/runtime.ts shareMemory):
    // each posts on its `out` port, and the other reads its `in` port in its guest's context.
    const down = new MessageChannel();
    const up = new MessageChannel();
    p.postToRuntime({ memoryLink: child.pid, out: down.port1, in: up.port2 }, [down.port1, up.port2]);
    child.postToRuntime({ memoryLink: 0, out: up.port1, in: down.port2 }, [up.port1, down.port2]);
    return 0;
  },

  [Sys.ROOMFD]: (k, p, ch) => {
    ch.setOut(0, p.fds.allocate(new RoomFd(k)));
    return 0;
  },

  [Sys.KILL]: (k, _p, ch) => {
    k.kill(ch.arg(0), ch.arg(1));
    return 0;
  },

  [Sys.GETPID]: (_k, p, ch) => {
    ch.setOut(0, p.pid);
    return 0;
  },

  [Sys.GETCWD]: (_k, p, ch) => {
    // It asked: it knows its directory now, so a "/" it gives a child means "/" (childCwd).
    p.keepsCwd = true;
    const cwd = new TextEncoder().encode(p.cwd);
    if (cwd.length > ch.data.length) throw kerr("ENAMETOOLONG", { syscall: "getcwd", path: p.cwd });
    ch.data.set(cwd);
    return cwd.length;
  },

  [Sys.SIGCATCH]: (_k, p, ch) => {
    p.signals.setMask(ch.uarg(0));
    ch.setOut(0, p.fds.allocate(new SignalFd(p.signals)));
    return 0;
  },

  [Sys.SPAWNERROR]: (_k, p, ch) => {
    const why = p.execFailure;
    if (!why) throw kerr("ENOENT", { syscall: "spawnerror" });
    const text = new TextEncoder().encode(`${why.path}: ${why.text}`);
    const n = Math.min(text.length, ch.data.length);
    ch.data.set(text.subarray(0, n));
    return n;
  },

  [Sys.PROCLIST]: (k, p, ch) => {
    const max = ch.uarg(0);
    const processes = k.processes.all().map((q) => ({
      pid: q.pid,
      ppid: q.parent?.pid ?? 0,
      pgid: q.pgid,
      state: q.state === "exited" ? "Z" : q === p || !q.inSyscall ? "R" : "S",
      startMs: q.startMs,
      memoryKiB: ((q.guestPagesCharged ?? 0) * WASM_PAGE_BYTES) / 1024,
      argv: max === 0 ? q.argv : cutArgv(q.argv, max),
    }));
    const text = new TextEncoder().encode(JSON.stringify({ now: Date.now(), processes }));
    if (text.length > ch.data.length) throw kerr("ERANGE", { syscall: "proclist", message: `the process list (${text.length} bytes) is longer than the channel's payload` });
    ch.data.set(text);
    return text.length;
  },

  [Sys.OPENFILES]: (k, _p, ch) => {
    const text = new TextEncoder().encode(JSON.stringify(listOpenFiles(k, ch.uarg(0))));
    if (text.length > ch.data.length) throw kerr("ERANGE", { syscall: "openfiles", message: `the list of open files (${text.length} bytes) is longer than the channel's payload` });
    ch.data.set(text);
    return text.length;
  },

  [Sys.SLEEP]: (k, p, ch) =>
    k.park(p, (resolve) => {
      // A real deadline, not a poll: the guest asked to sleep this long (up to ~49 days).
      return setLongTimeout(() => resolve(0), ch.uarg(0));
    }),
};
