import { VmNetwork, type NetworkOptions } from "../net/vm-network.js";
import { ROOT_PREOPEN_FD, Signal } from "../abi/wasi.js";
import type { Limits } from "../limits.js";
import { isVmShell, needsLocaleData, type CommandRegistry } from "../commands/registry.js";
import { ExecFailure, findExecutable, type Executable } from "./executable.js";
import { kerr, KernelError } from "./kernel-error.js";
import type { OpenFile } from "./open-file.js";
import { DEFAULT_PATH } from "./root-layout.js";
import { basename } from "./path.js";
import { Process, ProcessKilled } from "./process.js";
import { ProcessTable } from "./process-table.js";
import { startTsProcess } from "./ts-process.js";
import { MemoryBudget } from "./memory-budget.js";
import { shellChildEnv, simpleCommand } from "./simple-command.js";
import { SocketTable } from "./socket-table.js";
import { releaseGuestMemory } from "./guest-memory-account.js";
import { LoopHold } from "../util/loop-hold.js";
import { givePoolSlot, poolHasRoom, poolSlotFreed, takePoolSlot } from "../pool/process-pool.js";
import { DirectoryFile, Vfs } from "./vfs.js";
import { startWasmProcess } from "./wasm-process.js";
import { startScriptProcess } from "./pool-process.js";
import { startNodeProcess } from "./node-process.js";

export interface SpawnRequest {
  parent: Process | undefined;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** What the child's fds 0, 1, 2 refer to; the child takes its own references. */
  stdio: readonly OpenFile[];
  /**
   * The child's fds above 2, at these numbers (`exec 3>f; cmd`, `cmd 3<f` of the shell), its root preopen
   * moving after them. A script passes them on to its own children (Process.passesOnFds); the commands that
   * run on the kernel's thread get fds 0-2 only.
   */
  fds?: ReadonlyMap<number, OpenFile>;
  /**
   * The registered command to run, by name, without looking argv[0] up in the file system: the runtime's
   * own shells, which must start even when /bin is gone.
   */
  command?: string;
  /**
   * It lives long and waits most of the time (the exec router's shells): the worker that runs it first gives
   * back the memory of the processes it ran before (workers/collect-garbage.ts), rather than hold it as long.
   */
  longLived?: boolean;
}

/** Bytes of argv and environment as a process receives them: NUL-terminated strings. */
export function argBytes(argv: readonly string[], env: Record<string, string>): number {
  let n = 0;
  for (const a of argv) n += Buffer.byteLength(a) + 1;
  for (const [k, v] of Object.entries(env)) n += Buffer.byteLength(k) + Buffer.byteLength(v) + 2;
  return n;
}

/** One VM's kernel: its file system, its processes, and the system calls that connect them. */
export class Kernel {
  readonly vfs: Vfs;
  readonly processes = new ProcessTable();
  /** Host memory the VM holds, against limits.maxVmMemoryBytes. */
  readonly memory: MemoryBudget;
  /** The VM's way out: its network policy, resolver and counters. */
  readonly network: VmNetwork;
  /** The VM's loopback network: its sockets and their bindings. */
  readonly sockets: SocketTable;
  /** Kernel faults: system calls that failed for a reason of the kernel's own (the guest got EIO). */
  readonly faults = { count: 0 };
  private readonly root: DirectoryFile;
  private readonly nullDevice: OpenFile;
  private disposed = false;
  /**
   * Processes of this VM that hold a process slot: those that have not exited, and those whose stopped
   * worker has not ended yet (exitProcess).
   */
  private running = 0;
  /** Processes that hold a pool slot until they give back their slots. */
  private readonly pooled = new Set<Process>();
  /** Stopped workers of exited processes that have not ended (exitProcess); dispose waits for them. */
  private readonly ending = new Set<Promise<void>>();
  private readonly slotWaiters: Array<() => void> = [];
  /** Called whenever one of this VM's processes gives back its slots (room-fd.ts watches it). */
  private readonly exitWatchers = new Set<() => void>();
  /** Called whenever one of this VM's processes starts waiting (parks in a system call) or exits. */
  private readonly quietWatchers = new Set<() => void>();

  constructor(
    readonly commands: CommandRegistry,
    readonly limits: Limits,
    /** Added to every process start (AgentOsOptions.simulatedSpawnLatencyMs). */
    private readonly spawnLatencyMs = 0,
    /** AgentOsOptions.network: undefined leaves the VM with its loopback only. */
    network?: NetworkOptions,
  ) {
    this.memory = new MemoryBudget(limits.maxVmMemoryBytes);
    this.vfs = new Vfs(limits, this.memory);
    this.network = new VmNetwork(network, () => new TextDecoder().decode(this.vfs.readFile("/etc/hosts")));
    this.sockets = new SocketTable(this.vfs, this.memory, limits, this.network);
    this.root = new DirectoryFile(this.vfs, "/").retain();
    this.nullDevice = this.vfs.open("/dev/null", { read: true, write: true }).retain();
  }

  /** Records a fault of the kernel's own; AGENTOS_TRACE=1 prints it. Nothing is thrown into the host. */
  fault(cause: unknown): void {
    this.faults.count++;
    if (process.env.AGENTOS_TRACE === "1") process.stderr.write(`agentos: kernel fault: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}\n`);
  }

  devNull(): OpenFile {
    return this.nullDevice;
  }

  /**
   * Starts a process: argv[0] is looked up as execvp does (executable.ts). Throws what exec fails with
   * (ENOENT, EACCES, ENOEXEC, ELOOP), E2BIG when argv and environment pass limits.maxArgBytes, EAGAIN when
   * the VM runs limits.maxProcesses already or the worker pool is full.
   */
  spawn(req: SpawnRequest): Process {
    if (this.disposed) throw kerr("EPERM", { syscall: "spawn", message: "VM disposed" });
    const argv0 = req.argv[0] ?? "";
    const { spec, argv: given } = this.executable(req);
    const exec = isVmShell(spec) && given[1] === "-c" && given.length >= 3 ? this.shellExec(req, given[2]!) : undefined;
    if (exec) return exec;
    // A multicall binary run under another name (a copy of /bin/echo as /tmp/say) is still that command.
    const argv = spec.kind === "wasm" && spec.multicall && basename(given[0] ?? "") !== spec.name ? [spec.name, ...given.slice(1)] : given;
    if (argBytes(argv, req.env) > this.limits.maxArgBytes)
      throw kerr("E2BIG", { syscall: "spawn", path: argv0, message: `argument list too long (maxArgBytes ${this.limits.maxArgBytes})` });
    if (this.running >= this.limits.maxProcesses)
      throw kerr("EAGAIN", { syscall: "spawn", path: argv0, message: `too many processes (maxProcesses ${this.limits.maxProcesses})` });
    const inPool = spec.kind !== "ts";
    if (inPool && !takePoolSlot())
      throw kerr("EAGAIN", { syscall: "spawn", path: argv0, message: "the worker pool is full" });
    this.running++;
    const inherited = spec.kind !== "ts" && req.fds !== undefined && req.fds.size > 0 ? req.fds : undefined;
    const p = new Process({
      pid: this.processes.allocatePid(),
      parent: req.parent,
      argv,
      env: req.env,
      cwd: req.cwd,
      command: basename(argv0),
      keepsCwd: spec.kind === "script" || spec.kind === "node" || (spec.kind === "wasm" && spec.keepsCwd),
      seesDevices: spec.kind === "script" || spec.kind === "node" || (spec.kind === "wasm" && spec.seesDevices === true),
      sigpipeOnStdioOnly: spec.kind === "wasm" && spec.sigpipeOnStdioOnly === true,
      longLived: req.longLived === true,
      maxOpenFds: this.limits.maxOpenFds,
      rootFd: inherited ? Math.max(ROOT_PREOPEN_FD, ...inherited.keys()) + 1 : ROOT_PREOPEN_FD,
      passesOnFds: inherited && spec.kind === "script" ? [...inherited.keys()] : undefined,
    });
    if (inPool) this.pooled.add(p);
    req.stdio.forEach((file, fd) => p.fds.set(fd, file));
    for (const [fd, file] of inherited ?? []) p.fds.set(fd, file);
    p.fds.set(p.rootFd, this.root);
    this.processes.add(p);
    req.parent?.children.add(p);
    const start = (): void => {
      if (spec.kind === "wasm") startWasmProcess(this, p, spec.dataFile !== undefined && needsLocaleData(p.env) ? spec.dataFile : spec.file);
      else if (spec.kind === "script") startScriptProcess(this, p, spec.script);
      else if (spec.kind === "node") startNodeProcess(this, p);
      else startTsProcess(this, p, spec.handler);
    };
    if (this.spawnLatencyMs > 0) {
      // An experiment's stand-in for a slow machine (see AgentOsOptions): the process starts late.
      const timer = setTimeout(start, this.spawnLatencyMs);
      p.runner = { terminate: () => (clearTimeout(timer), this.exitProcess(p, 0)) };
    } else start();
    return p;
  }

  /**
   * `sh -c SCRIPT` where SCRIPT is one program with literal words: that program, started in the shell's
   * place, as bash execs such a script (simple-command.ts). A program that cannot be started is left to the
   * shell, which says why in its words.
   */
  private shellExec(req: SpawnRequest, script: string): Process | undefined {
    const argv = simpleCommand(script);
    const env = argv && shellChildEnv(req.env, req.cwd);
    if (!argv || !env) return undefined;
    try {
      return this.spawn({ parent: req.parent, argv, env, cwd: req.cwd, stdio: req.stdio, fds: req.fds });
    } catch (e) {
      if (e instanceof ExecFailure || (e instanceof KernelError && (e.code === "EAGAIN" || e.code === "E2BIG"))) return undefined;
      throw e;
    }
  }

  private executable(req: SpawnRequest): Executable {
    if (req.command === undefined) {
      const at = { vfs: this.vfs, commands: this.commands, cwd: req.cwd, path: req.env.PATH ?? DEFAULT_PATH };
      return findExecutable(req.argv, at);
    }
    const spec = this.commands.resolve(req.command);
    if (!spec) throw kerr("ENOENT", { syscall: "spawn", path: req.command });
    return { spec, argv: req.argv };
  }

  /**
   * Called by a process's runner when it ends. Its status is delivered now; its process slot, pool slot and
   * guest-memory charge are given back when `workerEnded` resolves, if the runner had to stop its worker:
   * until that thread ends the host still holds the guest's isolate and memory, and the VM's limits must
   * bound it (a loop that spawns and kills would otherwise pile up dying workers without bound).
   */
  exitProcess(p: Process, code: number, workerEnded?: Promise<void>): void {
    if (p.state === "exited") return;
    p.exit(code);
    if (workerEnded) {
      this.ending.add(workerEnded);
      void workerEnded.then(() => {
        this.ending.delete(workerEnded);
        this.giveBack(p);
      });
    } else this.giveBack(p);
    this.quieted();
    // Orphans are nobody's to wait for: they leave the table when they exit.
    for (const c of p.children) {
      // A process's threads end with it (its guest `node` Workers).
      if (c.isThread) c.kill(Signal.SIGKILL);
      c.parent = undefined;
      c.orphaned = true;
      if (c.state === "exited") this.processes.remove(c);
    }
    p.children.clear();
    if (p.orphaned) this.processes.remove(p);
  }

  /** Gives back what an exited process held, and wakes who waits for room. */
  private giveBack(p: Process): void {
    this.running--;
    // After the exit, so that a request still in flight finds the account closed and charges nothing.
    releaseGuestMemory(this, p);
    if (this.pooled.delete(p)) givePoolSlot();
    for (const w of this.slotWaiters.splice(0)) w();
    for (const w of [...this.exitWatchers]) w();
  }

  /** Processes of this VM that hold a process slot (limits.maxProcesses caps it): see `running`. */
  get runningProcesses(): number {
    return this.running;
  }

  /**
   * Whether a spawn would find room now: fewer than limits.maxProcesses running and a pool worker free (a
   * process of the runtime's TypeScript commands needs no worker, but the caller cannot know what it will
   * start). `spawn` answers EAGAIN only when this is false.
   */
  get hasRoom(): boolean {
    return this.running < this.limits.maxProcesses && poolHasRoom();
  }

  /**
   * Calls `listener` whenever there may be more room to start a process: one of this VM's processes gave
   * back its slot, or a pool worker of any VM was freed; until the returned function removes it.
   */
  watchRoom(listener: () => void): () => void {
    this.exitWatchers.add(listener);
    let watching = true;
    const poolFreed = (): void => {
      if (!watching) return;
      listener();
      void poolSlotFreed().then(poolFreed);
    };
    void poolSlotFreed().then(poolFreed);
    return () => {
      watching = false;
      this.exitWatchers.delete(listener);
    };
  }

  /** Resolves when one of this VM's processes or any pool worker is next freed (after an EAGAIN). */
  processSlotFreed(): Promise<void> {
    return Promise.race([new Promise<void>((resolve) => this.slotWaiters.push(resolve)), poolSlotFreed()]);
  }

  /** Collects an exited process's status: it leaves the table. */
  reap(p: Process): void {
    p.parent?.children.delete(p);
    this.processes.remove(p);
  }

  kill(pid: number, signo: number = Signal.SIGTERM): void {
    const p = this.processes.get(pid);
    if (!p || p.state !== "running") throw kerr("ESRCH", { syscall: "kill", pid });
    if (signo === 0) return;
    p.kill(signo);
  }

  /** Signals every running process of a process group (a command started through the API and all it started). */
  killGroup(pgid: number, signo: number = Signal.SIGKILL): void {
    for (const q of this.processes.all()) if (q.pgid === pgid) q.kill(signo);
  }

  /** Adds a listener for processes that start waiting or exit (see groupIdle); returns its removal. */
  watchQuiet(listener: () => void): () => void {
    this.quietWatchers.add(listener);
    return () => this.quietWatchers.delete(listener);
  }

  /** A process parked in a system call or exited. */
  quieted(): void {
    for (const w of this.quietWatchers) w();
  }

  /** True when every running member of a process group is parked in a system call. */
  groupIdle(pgid: number): boolean {
    for (const q of this.processes.all()) if (q.pgid === pgid && q.state === "running" && !q.inSyscall) return false;
    return true;
  }

  /** Signals a process group and resolves when all its members have exited. */
  endGroup(pgid: number, signo: number): Promise<void> {
    return this.endProcesses(
      this.processes.all().filter((q) => q.pgid === pgid),
      signo,
    );
  }

  /**
   * Signals the running ones of `processes` and resolves when all of them have exited: one that catches
   * `signo` is killed (SIGKILL), so that this always ends.
   */
  async endProcesses(processes: readonly Process[], signo: number): Promise<void> {
    const running = processes.filter((q) => q.state === "running");
    for (const q of running) q.kill(q.signals.catches(signo) ? Signal.SIGKILL : signo);
    await Promise.all(running.map((q) => q.waitExit()));
  }

  /**
   * Parks a system call until `register`'s callback resolves it. `register` returns a cancel function,
   * called if the process is killed first (the call then fails with ProcessKilled).
   */
  park(p: Process, register: (resolve: (n: number) => void) => () => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const signal = p.killSignal;
      if (signal.aborted) return reject(signal.reason as ProcessKilled);
      const onKill = (): void => {
        cancel();
        reject(signal.reason as ProcessKilled);
      };
      const cancel = register((n) => {
        signal.removeEventListener("abort", onKill);
        resolve(n);
      });
      signal.addEventListener("abort", onKill, { once: true });
    });
  }

  /** Kills every process and waits for them, and for the workers that were stopped, to end. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const running = this.processes.all().filter((p) => p.state === "running");
    for (const p of running) p.kill(Signal.SIGKILL);
    await Promise.all(running.map((p) => p.waitExit()));
    // The stopped workers are unref'd: without a hold, a program awaiting dispose() would exit in the middle,
    // with status 0 whatever it meant to exit with.
    const hold = new LoopHold();
    hold.set(true);
    try {
      await Promise.all(this.ending);
    } finally {
      hold.set(false);
    }
    // The processes' sockets closed with their fds; what is left is the host's.
    this.sockets.dispose();
    this.root.release();
    this.nullDevice.release();
  }
}
