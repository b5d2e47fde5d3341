import type { Transferable as WorkerTransferable } from "node:worker_threads";
import { exitStatus, ROOT_PREOPEN_FD, signalStatus } from "../abi/wasi.js";
import { KILL_GRACE_MS } from "../limits.js";
import { LoopHold } from "../util/loop-hold.js";
import type { ExecFailure } from "./executable.js";
import { SignalQueue } from "./signal-fd.js";
import { FdTable } from "./fd-table.js";
import type { WakeRing } from "./wake-ring.js";
import type { OpenFile } from "./open-file.js";

export type ProcessState = "running" | "exited";

/** Thrown into parked system calls of a process that is being killed; the host unwinds the guest. */
export class ProcessKilled extends Error {
  constructor(readonly signal: number) {
    super(`killed by signal ${signal}`);
    this.name = "ProcessKilled";
  }
}

/** How a running process is stopped by force: each kind of process (worker, TypeScript) provides one. */
export interface ProcessRunner {
  /** Ends the process now, even if it is computing; the exit is then reported through `Process.exit`. */
  terminate(): void;
}

export interface ProcessInit {
  pid: number;
  parent: Process | undefined;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  command: string;
  /**
   * It starts in its working directory (the binaries built in guests/, the scripts, node), so the `/` it
   * asks a child to start in means `/`. A user's WebAssembly command may not: its libc may say `/` always.
   */
  keepsCwd: boolean;
  /** It is shown what devices and pipes are (the shell, the runtime's scripts); the other tools see regular files (guest-type.ts). */
  seesDevices?: boolean;
  /** CommandSpec.sigpipeOnStdioOnly of its command. */
  sigpipeOnStdioOnly?: boolean;
  /** SpawnRequest.longLived. */
  longLived?: boolean;
  /** Limits.maxOpenFds. */
  maxOpenFds: number;
  /** Its root preopen's fd (ROOT_PREOPEN_FD unless it inherits fds above 2). */
  rootFd?: number;
  /** The fds above 2 it inherited that its children get too (Process.passesOnFds). */
  passesOnFds?: readonly number[];
}

/** One process of a VM: identity, fd table, working directory, and its exit as a POSIX wait status. */
export class Process {
  readonly pid: number;
  parent: Process | undefined;
  /** When it was started (Date.now()): ps's START and ELAPSED. */
  readonly startMs = Date.now();
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly command: string;
  /** ProcessInit.keepsCwd; it becomes true once the process asks for its directory (Sys.GETCWD). */
  keepsCwd: boolean;
  readonly seesDevices: boolean;
  /** A broken pipe raises SIGPIPE only on fds 0-2; on the others the guest gets EPIPE (a Go program). */
  readonly sigpipeOnStdioOnly: boolean;
  /** SpawnRequest.longLived: its worker collects garbage before it starts (workers/collect-garbage.ts). */
  readonly longLived: boolean;
  /**
   * The fd of its root preopen, "/": 3, or for a WebAssembly command that inherits fds above 2 the fd after
   * them, so those keep their numbers (the guest's libc finds the preopen by scanning from 3, fd_prestat_get).
   */
  readonly rootFd: number;
  /**
   * The fds above 2 it inherited, which each child it starts gets at the same numbers while they are open,
   * as exec keeps every fd not close-on-exec: the runtime's scripts, whose spawn names fds 0-2 only
   * (`timeout 5 sh -c 'echo >&3' 3>log`). The shell names the fds its child gets itself (proc_spawn_fds),
   * and Node's child_process gives a child the fds of its `stdio` option only, so neither passes on any of
   * its own accord.
   */
  readonly passesOnFds: readonly number[];
  /** Process group: a process started through the API leads one; children inherit it. */
  readonly pgid: number;
  readonly fds: FdTable;
  readonly children = new Set<Process>();
  state: ProcessState = "running";
  /** POSIX wait status once exited. */
  waitStatus = 0;
  /** A thread of its parent (Sys.THREADOF): it is killed when the parent exits. */
  isThread = false;
  /**
   * Posts to the runtime of a guest `node` process (its pool worker): the shared-memory links of its threads
   * (Sys.THREADOF). Set once the process has its worker; what comes before waits in `runtimeInbox`.
   */
  toRuntime: ((message: object, transfer: WorkerTransferable[]) => void) | undefined = undefined;
  readonly runtimeInbox: [object, WorkerTransferable[]][] = [];

  postToRuntime(message: object, transfer: WorkerTransferable[]): void {
    if (this.toRuntime) this.toRuntime(message, transfer);
    else this.runtimeInbox.push([message, transfer]);
  }
  /** Its parent exited first: nobody will collect its status. */
  orphaned = false;
  runner: ProcessRunner | undefined;
  /**
   * True while the kernel handles one of its system calls (at once or parked): a kill then answers that
   * call and the guest unwinds; otherwise a kill has to stop the guest by force.
   */
  inSyscall = false;
  /** Paths only this process can open, served by whoever set this (the exec router's shells). */
  openControl: ((path: string) => OpenFile | undefined) | undefined;
  /**
   * Guest memory pages charged to the VM for this process (guest-memory-account.ts); undefined while
   * nothing is counted (a TypeScript process, or a guest whose charge was given back at its exit).
   */
  guestPagesCharged: number | undefined = undefined;
  /** Keeps the host's event loop alive from the start to the exit; an idle router shell lets go of it. */
  readonly loopHold = new LoopHold();
  /** The signals it catches and those pending (host_process.proc_sigcatch). */
  readonly signals = new SignalQueue();
  /** Readiness events pushed to a guest that runs its own event loop (`node`); its runner sets it. */
  wakeRing: WakeRing | undefined = undefined;
  /** Why its last spawn failed to exec, in bash's words (the shell asks for it: Sys.SPAWNERROR). */
  execFailure: ExecFailure | undefined = undefined;

  private readonly killer = new AbortController();
  private readonly exitWaiters: Array<(status: number) => void> = [];
  /** Listeners for a child's exit (waitpid parks on this). */
  readonly childExitWaiters = new Set<() => void>();
  /** Listeners for its own exit (pidfds watch this). */
  private readonly exitWatchers = new Set<() => void>();

  constructor(init: ProcessInit) {
    this.pid = init.pid;
    this.parent = init.parent;
    this.argv = init.argv;
    this.env = init.env;
    this.cwd = init.cwd;
    this.command = init.command;
    this.keepsCwd = init.keepsCwd;
    this.seesDevices = init.seesDevices ?? false;
    this.sigpipeOnStdioOnly = init.sigpipeOnStdioOnly ?? false;
    this.longLived = init.longLived ?? false;
    this.fds = new FdTable(init.maxOpenFds);
    this.rootFd = init.rootFd ?? ROOT_PREOPEN_FD;
    this.passesOnFds = init.passesOnFds ?? [];
    this.pgid = init.parent?.pgid ?? init.pid;
    this.loopHold.set(true);
  }

  /** Aborted when the process is killed: parked system calls listen to it. */
  get killSignal(): AbortSignal {
    return this.killer.signal;
  }

  get killedBy(): number | undefined {
    return this.killer.signal.aborted ? (this.killer.signal.reason as ProcessKilled).signal : undefined;
  }

  /**
   * Delivers a signal: one the guest catches is queued for it (signal-fd.ts); any other ends it: parked
   * calls are woken, a computing guest is stopped by its runner.
   */
  kill(signo: number): void {
    if (this.state !== "running" || this.killer.signal.aborted) return;
    if (this.signals.catches(signo)) return this.signals.deliver(signo);
    // Dying is running until the exit: whoever waits for it (dispose, a timeout) must not lose the loop.
    this.loopHold.set(true);
    this.killer.abort(new ProcessKilled(signo));
    if (this.inSyscall) return;
    // A guest that makes a system call soon unwinds there (the call answers "killed") and its worker
    // lives on; stopping a worker costs a new one. Only a guest that keeps computing is stopped by force.
    const deadline = setTimeout(() => this.runner?.terminate(), KILL_GRACE_MS);
    void this.waitExit().then(() => clearTimeout(deadline));
  }

  /** Records the exit; releases every fd (so pipe readers see end of file) and wakes waiters. */
  exit(code: number): void {
    if (this.state === "exited") return;
    const killed = this.killedBy;
    this.waitStatus = killed !== undefined ? signalStatus(killed) : exitStatus(code);
    this.state = "exited";
    this.loopHold.set(false);
    this.wakeRing?.disarmAll();
    this.fds.closeAll();
    for (const w of this.exitWaiters.splice(0)) w(this.waitStatus);
    for (const w of [...this.exitWatchers]) w();
    this.exitWatchers.clear();
    if (this.parent) for (const w of [...this.parent.childExitWaiters]) w();
  }

  /** Writes a message to the process's stderr on its behalf; if stderr is gone there is nobody to tell. */
  tellStderr(message: string): void {
    try {
      void this.fds.get(2).write(new TextEncoder().encode(message));
    } catch {
      // stderr closed or broken
    }
  }

  /** Calls `listener` when the process exits, unless the returned function removed it first. */
  watchExit(listener: () => void): () => void {
    this.exitWatchers.add(listener);
    return () => this.exitWatchers.delete(listener);
  }

  /** Resolves with the wait status when the process exits. */
  waitExit(): Promise<number> {
    if (this.state === "exited") return Promise.resolve(this.waitStatus);
    return new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  get exitCode(): number {
    const s = this.waitStatus;
    return (s & 0x7f) === 0 ? (s >> 8) & 0xff : 128 + (s & 0x7f);
  }
}
