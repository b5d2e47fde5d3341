import type { NetworkAllow } from "./net/policy.js";
import type { NetworkDenial, NetworkOptions, NetworkStats } from "./net/vm-network.js";
import { Signal } from "./abi/wasi.js";
import type { CommandHandler, WasmCommand } from "./commands/command.js";
import { CommandRegistry } from "./commands/registry.js";
import { ExecRouter, type RouterStats } from "./exec/exec-router.js";
import { ExecGate } from "./exec/exec-gate.js";
import { runExec, type ExecResult } from "./exec/exec-run.js";
import { OutputCollector, type OutputStop } from "./exec/output.js";
import { freshShell } from "./exec/fresh-shell.js";
import { ProcessHandle } from "./exec/process-handle.js";
import {
  checkListener,
  checkMode,
  checkOptionNames,
  checkSignal,
  checkTimeout,
  signalNumber,
  type SignalLike,
} from "./exec/exec-options.js";
import { Kernel } from "./kernel/kernel.js";
import type { Duplex } from "node:stream";
import { hostSocketDuplex } from "./kernel/host-socket-duplex.js";
import type { ListenerInfo } from "./kernel/socket-table.js";
import { VmFetch, type VmFetchInput } from "./net/vm-fetch.js";
import type { MemoryUse } from "./kernel/memory-budget.js";
import { kerr, KernelError } from "./kernel/kernel-error.js";
import { dirname, normalize } from "./kernel/path.js";
import { checkPathLength } from "./kernel/path-lookup.js";
import type { Vfs } from "./kernel/vfs.js";
import type { OverlayDiff } from "./kernel/overlay.js";
import { Image } from "./kernel/image.js";
import { CA_BUNDLE, ROOT_BUNDLE, runtimeLayers } from "./kernel/runtime-image.js";
import { checkNetworkCa, NETWORK_CA_FILE } from "./net/extra-ca.js";
import { createRootLayout, defaultEnv, homeDirectory, userland } from "./kernel/root-layout.js";
import { FileType } from "./abi/wasi.js";
import { checkLimit, EXEC_ADMISSION_HOLD_MS, EXECS_AT_ONCE, EXITED_PROCESSES_LISTED, resolveLimits, type Limits } from "./limits.js";
import { compileAhead } from "./modules/module-cache.js";
import { moduleStats, type ModuleStats } from "./modules/module-stats.js";

export interface AgentOsOptions {
  /**
   * Extra commands by name, overriding built-in commands of the same name: a TypeScript handler, or
   * `{ wasm: "/host/path/tool.wasm" }` for a WebAssembly command of your own (the file must exist: TypeError).
   */
  commands?: Record<string, CommandHandler | WasmCommand>;
  /** Added to the default environment of every command. */
  env?: Record<string, string>;
  /** What the VM may take (see Limits); each one given replaces its default. */
  limits?: Partial<Limits>;
  /** Host directories shown inside the VM (see MountOptions). */
  mounts?: MountOptions[];
  /**
   * Serve `exec` from persistent shells (default true). Results are the same either way; false runs every
   * exec as a fresh `sh -c` process.
   */
  execRouter?: boolean;
  /**
   * For experiments only: delays the start of every process by this many milliseconds, to show how the
   * VM behaves on a machine where starting a process is slow. Default 0.
   */
  simulatedSpawnLatencyMs?: number;
  /**
   * An initial tree: `{ "/workspace/a.txt": "hello\n" }`. Paths are absolute; missing parent directories are
   * created. A path that cannot be written fails `create` with a KernelError carrying `code` and `path`.
   */
  files?: Record<string, string | Uint8Array>;
  /**
   * Read-only images shown in the VM's root below everything the VM writes, the first the lowest (a later one's
   * entry hides an earlier one's; directories merge). Held once in the host process and shared by every VM
   * given them: a VM pays for the entries it looks at, and for a file's bytes only once it writes the file
   * (copy-up). See Image and the README's "Image layers".
   */
  layers?: readonly Image[];
  /**
   * Outbound network (see the README's "Outbound network"). Without it the VM has its own loopback only: no connection
   * leaves it and no name is looked up. `{ allow: ["example.com", "*.npmjs.org", "10.0.0.0/8:5432",
   * "host.agentos.internal:8080"] }`, or `{ allow: (request) => boolean | Promise<boolean> }`.
   */
  network?: NetworkOptions;
}

const CREATE_OPTIONS = ["commands", "env", "limits", "mounts", "execRouter", "simulatedSpawnLatencyMs", "files", "layers", "network"] as const;
const NETWORK_OPTIONS = ["allow", "ca", "_lookup", "_dial"] as const;
const MOUNT_OPTIONS = ["path", "hostDir", "readOnly", "overlay"] as const;
const EXEC_OPTIONS = ["cwd", "env", "stdin", "timeout", "signal", "maxOutputBytes", "onStdout", "onStderr"] as const;
const SPAWN_OPTIONS = ["cwd", "env", "onStdout", "onStderr"] as const;

/**
 * A host directory shown at `path` in the VM. Read-only by default: changes fail with EROFS. With
 * `readOnly: false` the VM's changes are made in the host directory (and the VM's file-system quota does not
 * count them). Confined either way: a path that resolves outside `hostDir` on the host (through a symlink)
 * fails with EACCES, and `..` is resolved in the VM's namespace, so it cannot climb out of the mount either.
 * See the README's "Host directories".
 */
export interface MountOptions {
  /** Absolute path in the VM; created if missing. */
  path: string;
  hostDir: string;
  /** Default true. false: the VM writes to the host directory. */
  readOnly?: boolean;
  /**
   * The host directory as a read-only lower layer, the VM's changes kept in the VM (copy-up, whiteouts);
   * `diff(path)` lists them. Not with `readOnly`.
   */
  overlay?: boolean;
}

export interface VmStats {
  /** WebAssembly modules of this host process (shared by all VMs). */
  modules: ModuleStats;
  /** This VM's exec router. */
  router: RouterStats;
  /** Host memory this VM holds, by kind, against its limit. */
  memory: MemoryUse;
  /** System calls that failed for a reason of the kernel's own (the guest got EIO; AGENTOS_TRACE=1 prints why). */
  faults: number;
  /** Outbound connections, bytes and denials. */
  network: NetworkStats;
}

export interface ExecOptions {
  /** Working directory of the shell and of the commands it runs (default /home/user). */
  cwd?: string;
  /** Added to the environment (PWD follows `cwd`). */
  env?: Record<string, string>;
  /** Everything the command reads on stdin; without it stdin is /dev/null. */
  stdin?: string | Uint8Array;
  /**
   * Kills the whole process tree after this many milliseconds (a number > 0; Infinity means none); the
   * result then has exit code 124.
   */
  timeout?: number;
  /** Aborting kills the whole process tree; the result then has exit code 130. */
  signal?: AbortSignal;
  /** Output kept per stream (default limits.maxOutputBytes); past it the command is stopped. */
  maxOutputBytes?: number;
  /** Called with each chunk as it is written; an exception stops the command and rejects the exec. */
  onStdout?: (chunk: Uint8Array) => void;
  onStderr?: (chunk: Uint8Array) => void;
}

export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string>;
  onStdout?: (chunk: Uint8Array) => void;
  onStderr?: (chunk: Uint8Array) => void;
}

export interface Spawned {
  readonly pid: number;
  writeStdin(data: string | Uint8Array): void;
  closeStdin(): void;
  /** Adds a listener; returns a function that removes it. */
  onStdout(listener: (chunk: Uint8Array) => void): () => void;
  onStderr(listener: (chunk: Uint8Array) => void): () => void;
  /** Resolves with the exit code (128 + signal when killed). */
  wait(): Promise<number>;
  /** Default SIGTERM; the process and its descendants. A number or a name: `kill("SIGINT")`. */
  kill(signal?: SignalLike): void;
}

export interface VirtualStat {
  mode: number;
  size: number;
  ino: number;
  nlink: number;
  uid: number;
  gid: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  birthtimeMs: number;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

export type EntryType = "file" | "directory" | "symlink" | "other";
export interface TypedDirent {
  name: string;
  type: EntryType;
}
export interface DirEntry {
  /** Absolute path of the entry. */
  path: string;
  type: EntryType;
  size: number;
}
export interface BatchWriteEntry {
  path: string;
  content: string | Uint8Array;
}
export interface BatchWriteResult {
  path: string;
  success: boolean;
  error?: string;
}
export interface BatchReadResult {
  path: string;
  content: Uint8Array | null;
  error?: string;
}
export interface ProcessInfo {
  pid: number;
  ppid: number;
  command: string;
  args: string[];
  cwd: string;
  running: boolean;
  exitCode: number | null;
}

/** How long `waitForListener` waits when not told. */
const DEFAULT_LISTENER_WAIT_MS = 10_000;

/** The shell and the commands agents run most, compiled in the background when the first VM is created. */
const COMPILED_AHEAD = ["sh", "ls", "cat", "grep", "head", "tail", "wc", "find", "sed", "awk", "echo", "mkdir", "rm", "cp", "mv"];

const entryType = (filetype: number): EntryType =>
  filetype === FileType.REGULAR_FILE
    ? "file"
    : filetype === FileType.DIRECTORY
      ? "directory"
      : filetype === FileType.SYMBOLIC_LINK
        ? "symlink"
        : "other";

/**
 * A virtual machine in this process: a kernel with its own file system and processes, running the
 * WebAssembly userland in a worker pool shared by all VMs. Methods that take paths want absolute paths
 * and throw KernelError (`code` ENOENT, EISDIR, EINVAL …, `path`) on failure; commands that fail are
 * results, not exceptions. Using a disposed VM throws a KernelError with code EPERM.
 */
export class AgentOs {
  readonly #kernel: Kernel;
  readonly #env: Record<string, string>;
  readonly #router: ExecRouter | undefined;
  readonly #handles = new Map<number, ProcessHandle>();
  readonly #gate: ExecGate;
  #fetch: VmFetch | undefined;
  #disposed = false;

  private constructor(kernel: Kernel, env: Record<string, string>, router: boolean) {
    this.#kernel = kernel;
    this.#env = env;
    // Room for one more exec: a few processes (a shell, a pipeline) left under the VM's limit.
    this.#gate = new ExecGate(EXECS_AT_ONCE, EXEC_ADMISSION_HOLD_MS, {
      hasRoom: () => kernel.runningProcesses + 4 <= kernel.limits.maxProcesses,
      watchQuiet: (listener) => kernel.watchQuiet(listener),
    });
    if (router) {
      this.#router = new ExecRouter(kernel, this.#envIn("/"));
      this.#router.warm();
    }
  }

  static async create(options: AgentOsOptions = {}): Promise<AgentOs> {
    if (typeof options !== "object" || options === null) throw new TypeError("options must be an object");
    checkOptionNames("create", options, CREATE_OPTIONS);
    const files = checkFiles(options.files);
    for (const m of options.mounts ?? []) if (typeof m === "object" && m !== null) checkOptionNames("a mount", m, MOUNT_OPTIONS);
    const registry = new CommandRegistry(options.commands);
    compileAhead(COMPILED_AHEAD.map((name) => registry.resolve(name)).flatMap((c) => (c?.kind === "wasm" ? [c.file] : [])));
    const layers = options.layers ?? [];
    if (!Array.isArray(layers) || !layers.every((l) => l instanceof Image)) throw new TypeError("layers must be an array of Image (Image.fromFiles, fromDirectory, fromTar)");
    if (options.network !== undefined) {
      if (typeof options.network !== "object" || options.network === null) throw new TypeError("network must be an object: { allow }");
      checkOptionNames("network", options.network, NETWORK_OPTIONS);
    }
    const extraCa = options.network?.ca === undefined ? undefined : checkNetworkCa(options.network.ca);
    const kernel = new Kernel(registry, resolveLimits(options.limits), options.simulatedSpawnLatencyMs ?? 0, options.network);
    kernel.vfs.addLayers([...runtimeLayers(registry), ...layers]);
    createRootLayout(kernel.vfs, registry);
    try {
      for (const m of options.mounts ?? []) {
        if (typeof m.path !== "string" || !m.path.startsWith("/") || m.path === "/")
          throw kerr("EINVAL", { syscall: "mount", path: String(m.path), message: "mount path must be absolute and not /" });
        if (m.overlay === true && m.readOnly !== undefined)
          throw kerr("EINVAL", { syscall: "mount", path: m.path, message: "an overlay mount takes no readOnly: the host directory is never written, the VM's changes are kept in the VM" });
        kernel.vfs.mount(normalize(m.path), m.hostDir, m.overlay === true ? "overlay" : m.readOnly === false ? "read-write" : "read-only");
      }
      // Before `files`, which may replace the bundle.
      if (extraCa !== undefined) {
        kernel.vfs.mkdir(dirname(NETWORK_CA_FILE), true);
        kernel.vfs.writeFile(NETWORK_CA_FILE, extraCa);
        kernel.vfs.writeFile(CA_BUNDLE, ROOT_BUNDLE + extraCa);
      }
      for (const [path, content] of files) {
        const p = checkedPath(path, kernel.limits, "open");
        try {
          kernel.vfs.mkdir(dirname(p), true);
        } catch (e) {
          // A file on the way: writing the file then says ENOTDIR with its path, as open(2) would.
          if (!(e instanceof KernelError && e.code === "EEXIST")) throw e;
        }
        kernel.vfs.writeFile(p, content);
      }
    } catch (e) {
      await kernel.dispose();
      throw e;
    }
    // With a network, programs that read SSL_CERT_FILE (OpenSSL's, Python's) find the VM's CA bundle, and
    // guest node, which trusts its own roots rather than that file, gets network.ca as NODE_EXTRA_CA_CERTS.
    const env =
      options.network !== undefined
        ? { SSL_CERT_FILE: CA_BUNDLE, ...(extraCa !== undefined ? { NODE_EXTRA_CA_CERTS: NETWORK_CA_FILE } : {}), ...(options.env ?? {}) }
        : { ...(options.env ?? {}) };
    return new AgentOs(kernel, env, options.execRouter ?? true);
  }

  // ---- processes ----

  /**
   * Runs `command` as `sh -c command`. Resolves with its exit code and output, including on failure;
   * throws only for invalid options (TypeError), a command longer than limits.maxCommandBytes (E2BIG), a
   * disposed VM (EPERM), or the exception of an `onStdout`/`onStderr` listener (the command is stopped
   * first). On `timeout` or `signal` the whole process tree is killed and the result has exit code 124
   * (timeout) or 130 (aborted) with a line on stderr saying so; output past `maxOutputBytes` stops it
   * the same way with exit code 141 and `truncated: true`. Execs beyond what the VM runs at once wait
   * their turn (the timeout counts from the call).
   */
  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (typeof command !== "string") throw new TypeError("command must be a string");
    if (typeof options !== "object" || options === null) throw new TypeError("options must be an object");
    checkOptionNames("exec", options, EXEC_OPTIONS);
    const limits = this.#kernel.limits;
    const maxOutputBytes = options.maxOutputBytes === undefined ? limits.maxOutputBytes : checkLimit("maxOutputBytes", options.maxOutputBytes);
    checkTimeout(options.timeout);
    checkSignal(options.signal);
    const onStdout = checkListener("onStdout", options.onStdout);
    const onStderr = checkListener("onStderr", options.onStderr);
    const stdin = options.stdin === undefined ? undefined : this.#content(options.stdin, "stdin");
    const cwd = this.#checkCwd(options.cwd);
    const env = this.#envIn(cwd, this.#checkEnv(options.env));
    if (Buffer.byteLength(command) > limits.maxCommandBytes)
      throw kerr("E2BIG", { syscall: "exec", message: `command longer than maxCommandBytes (${limits.maxCommandBytes})` });
    return runExec({
      kernel: this.#kernel,
      gate: this.#gate,
      start: (output) =>
        this.#router?.run(command, { cwd, env, ...(stdin !== undefined ? { stdin } : {}), output }) ??
        freshShell(this.#kernel, command, { cwd, env, ...(stdin !== undefined ? { stdin } : {}), output }),
      timeout: options.timeout,
      signal: options.signal,
      maxOutputBytes,
      onStdout,
      onStderr,
    });
  }

  /**
   * Starts `command` with `args` (no shell). The handle streams output (nothing is kept) and takes stdin
   * until closed. Throws EAGAIN when the VM runs limits.maxProcesses already. A listener that throws
   * stops the process; `wait()` then rejects with that exception.
   */
  spawn(command: string, args: string[] = [], options: SpawnOptions = {}): Spawned {
    if (typeof command !== "string") throw new TypeError("command must be a string");
    if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) throw new TypeError("args must be strings");
    if (typeof options !== "object" || options === null) throw new TypeError("options must be an object");
    checkOptionNames("spawn", options, SPAWN_OPTIONS);
    const cwd = this.#checkCwd(options.cwd);
    let failure: { error: unknown } | undefined;
    const onStop = (why: OutputStop): void => {
      if (why.kind !== "listener" || failure) return;
      failure = { error: why.error };
      handle.kill(Signal.SIGKILL);
    };
    const streamed = { keep: false, maxBytes: Infinity, memory: this.#kernel.memory, onStop };
    const output = {
      stdout: new OutputCollector("stdout", streamed, checkListener("onStdout", options.onStdout)),
      stderr: new OutputCollector("stderr", streamed, checkListener("onStderr", options.onStderr)),
    };
    const handle = new ProcessHandle(this.#kernel, {
      argv: [command, ...args],
      cwd,
      env: this.#envIn(cwd, this.#checkEnv(options.env)),
      stdin: "pipe",
      output,
    });
    this.#handles.set(handle.pid, handle);
    this.#forgetOldExited();
    return {
      pid: handle.pid,
      writeStdin: (d) => handle.writeStdin(this.#content(d, "data")),
      closeStdin: () => handle.closeStdin(),
      onStdout: (l) => output.stdout.listen(checkListener("listener", l)!),
      onStderr: (l) => output.stderr.listen(checkListener("listener", l)!),
      wait: async () => {
        const code = await handle.wait();
        if (failure) throw failure.error;
        return code;
      },
      kill: (s) => {
        const signo = s === undefined ? undefined : signalNumber(s);
        if (signo !== 0) handle.kill(signo);
      },
    };
  }

  /** Counters of the module cache and the exec router. */
  stats(): VmStats {
    this.#assertLive();
    const none: RouterStats = { routed: 0, direct: 0, fresh: 0, shellsStarted: 0 };
    return {
      modules: { ...moduleStats },
      router: { ...(this.#router?.stats ?? none) },
      memory: this.#kernel.memory.use(),
      faults: this.#kernel.faults.count,
      network: { ...this.#kernel.network.stats },
    };
  }

  /**
   * Replaces the network policy of a VM created with a `network` option (TypeError otherwise, or for a bad
   * policy: the old one then stays). Names and connections are checked against the new one from now on;
   * connections already open stay open, as on a firewall change.
   */
  setNetworkPolicy(allow: NetworkAllow): void {
    this.#assertLive();
    this.#kernel.network.setAllow(allow);
  }

  /**
   * Calls `listener` with each name or connection the network policy refuses (kind, host, address, port,
   * reason, pid), so an agent can say why a command failed. Returns a function that removes it.
   */
  onNetworkDenied(listener: (denial: NetworkDenial) => void): () => void {
    this.#assertLive();
    if (typeof listener !== "function") throw new TypeError("listener must be a function");
    return this.#kernel.network.onDenied(listener);
  }

  /** The guests' listening sockets (TCP and Unix) and bound UDP sockets, in the VM's own loopback network. */
  listeners(): ListenerInfo[] {
    this.#assertLive();
    return this.#kernel.sockets.listeners();
  }

  /**
   * A connection to the guest listening on TCP `port` of the VM's loopback, or on the Unix socket at
   * `path`: a Duplex whose bytes never touch a host socket. ECONNREFUSED when nothing listens there.
   */
  async connect(target: number | string): Promise<Duplex> {
    this.#assertLive();
    if (typeof target === "number") {
      if (!Number.isInteger(target) || target < 1 || target > 65535) throw new TypeError(`port must be an integer in 1-65535, got ${target}`);
      return hostSocketDuplex(this.#kernel.sockets.connectHost(target));
    }
    return hostSocketDuplex(this.#kernel.sockets.connectHost(checkedPath(target, this.#kernel.limits, "connect")));
  }

  /**
   * An HTTP request to the guest listening on TCP `port` of the VM's loopback, taking what the global
   * `fetch` takes (a URL whose host only fills the Host header, a path such as "/api?x=1", or a Request;
   * `init` with method, headers, body, signal) and resolving with a Response whose body streams. Without a
   * port, the URL must be `http://localhost:PORT/…` (127.0.0.1, [::1]; no port is 80). No host socket is
   * used; connections are kept alive per VM and destroyed by dispose(). Rejects with ECONNREFUSED (`port`)
   * when nothing listens, with the signal's reason when aborted; TypeError for an invalid port or URL.
   * Redirects are not followed.
   */
  fetch(port: number, input?: VmFetchInput, init?: RequestInit): Promise<Response>;
  fetch(url: string | URL | Request, init?: RequestInit): Promise<Response>;
  async fetch(...args: [number | VmFetchInput, (VmFetchInput | RequestInit)?, RequestInit?]): Promise<Response> {
    this.#assertLive();
    const { port, url, input, init } = VmFetch.target(args);
    return (this.#fetch ??= new VmFetch(this.#kernel.sockets)).fetch(port, url, input, init);
  }

  /**
   * Resolves with the listener once a guest listens on TCP `port` (at once if one does). Rejects with
   * ETIMEDOUT after `timeout` ms (default 10,000; Infinity: none), and with EPERM if the VM is disposed.
   */
  async waitForListener(port: number, options: { timeout?: number } = {}): Promise<ListenerInfo> {
    this.#assertLive();
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new TypeError(`port must be an integer in 1-65535, got ${port}`);
    checkOptionNames("waitForListener", this.#options(options), ["timeout"]);
    checkTimeout(options.timeout);
    return this.#kernel.sockets.waitForListener(port, options.timeout ?? DEFAULT_LISTENER_WAIT_MS);
  }

  /** Keeps the handles of at most EXITED_PROCESSES_LISTED exited processes, the newest (a Map keeps spawn order). */
  #forgetOldExited(): void {
    let exited = 0;
    for (const h of this.#handles.values()) if (!h.running) exited++;
    for (const [pid, h] of this.#handles) {
      if (exited <= EXITED_PROCESSES_LISTED) return;
      if (h.running) continue;
      this.#handles.delete(pid);
      exited--;
    }
  }

  /** Processes started with spawn(): the running ones, and the newest EXITED_PROCESSES_LISTED that have exited. */
  listProcesses(): ProcessInfo[] {
    this.#assertLive();
    return [...this.#handles.values()].map((h) => this.#info(h.pid, h));
  }

  /** Every process of the VM that is still in its process table. */
  allProcesses(): ProcessInfo[] {
    this.#assertLive();
    // The router's shells are the VM's machinery, not processes anyone started.
    return this.#kernel.processes
      .all()
      .filter((p) => p.openControl === undefined)
      .map((p) => this.#info(p.pid));
  }

  /**
   * Sends `signal` (default SIGKILL; a number or a name such as "SIGTERM") to a process; to a process started
   * through the API, also to everything it started (its process group). ESRCH if it is not running; signal 0
   * only checks that.
   */
  killProcess(pid: number, signal: SignalLike = Signal.SIGKILL): void {
    this.#assertLive();
    const signo = signalNumber(signal);
    const p = this.#kernel.processes.get(pid);
    if (!p || p.state !== "running") throw kerr("ESRCH", { syscall: "kill", pid });
    if (signo === 0) return;
    if (p.pgid === p.pid) this.#kernel.killGroup(p.pgid, signo);
    else p.kill(signo);
  }

  #info(pid: number, handle?: ProcessHandle): ProcessInfo {
    const p = handle?.info ?? this.#kernel.processes.get(pid);
    const argv = p?.argv ?? [];
    return {
      pid,
      ppid: p?.parent?.pid ?? 0,
      command: argv[0] ?? "",
      args: argv.slice(1),
      cwd: p?.cwd ?? "",
      running: p ? p.state === "running" : false,
      exitCode: p && p.state === "exited" ? p.exitCode : null,
    };
  }

  /** The environment of a command started in `cwd`. */
  #envIn(cwd: string, extra?: Record<string, string>): Record<string, string> {
    return { ...defaultEnv(cwd), ...this.#env, ...extra, PWD: cwd };
  }

  #checkEnv(env: Record<string, string> | undefined): Record<string, string> | undefined {
    if (env !== undefined && (typeof env !== "object" || env === null)) throw new TypeError("env must be an object");
    return env;
  }

  #checkCwd(cwd: string | undefined): string {
    this.#assertLive();
    userland(this.#kernel.vfs, this.#kernel.commands);
    if (cwd === undefined) return homeDirectory(this.#kernel.vfs);
    const path = this.#path(cwd, "chdir");
    if (this.#kernel.vfs.stat(path).filetype !== FileType.DIRECTORY) throw kerr("ENOTDIR", { syscall: "chdir", path });
    return path;
  }

  // ---- files ----

  /** The bytes of a file; with an encoding (`"utf8"`, or any other Buffer encoding such as `"base64"`), a string. */
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: BufferEncoding): Promise<string>;
  async readFile(path: string, encoding?: BufferEncoding): Promise<Uint8Array | string> {
    if (encoding !== undefined && (typeof encoding !== "string" || !Buffer.isEncoding(encoding)))
      throw Object.assign(new TypeError(`encoding must be a Buffer encoding such as "utf8", got ${String(encoding)}`), {
        code: "ERR_INVALID_ARG_VALUE",
      });
    // A copy of its own already: the caller may keep or change it.
    const bytes = this.#kernel.vfs.readFile(this.#path(path, "open"));
    return encoding === undefined ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
  }

  /** Creates or replaces a file; the parent directory must exist. */
  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    this.#kernel.vfs.writeFile(this.#path(path, "open"), this.#content(content));
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    checkOptionNames("mkdir", this.#options(options), ["recursive"]);
    this.#kernel.vfs.mkdir(this.#path(path, "mkdir"), options.recursive === true);
  }

  readdir(path: string): Promise<string[]>;
  readdir(path: string, options: { withFileTypes: true }): Promise<TypedDirent[]>;
  async readdir(path: string, options: { withFileTypes?: boolean } = {}): Promise<string[] | TypedDirent[]> {
    checkOptionNames("readdir", this.#options(options), ["withFileTypes"]);
    const entries = this.#kernel.vfs.readdir(this.#path(path, "scandir"));
    return options.withFileTypes
      ? entries.map((e) => ({ name: e.name, type: entryType(e.filetype) }))
      : entries.map((e) => e.name);
  }

  /** Every entry below `path`, depth first; `maxDepth` 0 lists only the immediate children. */
  async readdirRecursive(path: string, options: { maxDepth?: number; exclude?: string[] } = {}): Promise<DirEntry[]> {
    checkOptionNames("readdirRecursive", this.#options(options), ["maxDepth", "exclude"]);
    const root = this.#path(path, "scandir");
    const out: DirEntry[] = [];
    const exclude = new Set(options.exclude ?? []);
    // Iterative, with a stack of directory listings: a tree can be deeper than the host's stack.
    const stack: Array<{ dir: string; depth: number; entries: ReturnType<Vfs["readdir"]>; next: number }> = [
      { dir: root, depth: 0, entries: this.#kernel.vfs.readdir(root), next: 0 },
    ];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const e = top.entries[top.next++];
      if (!e) {
        stack.pop();
        continue;
      }
      if (exclude.has(e.name)) continue;
      const full = top.dir === "/" ? `/${e.name}` : `${top.dir}/${e.name}`;
      const type = entryType(e.filetype);
      out.push({ path: full, type, size: type === "file" ? this.#kernel.vfs.stat(full).size : 0 });
      if (type === "directory" && (options.maxDepth === undefined || top.depth < options.maxDepth))
        stack.push({ dir: full, depth: top.depth + 1, entries: this.#kernel.vfs.readdir(full), next: 0 });
    }
    return out;
  }

  async stat(path: string): Promise<VirtualStat> {
    return this.#stat(this.#path(path, "stat"), true);
  }

  async lstat(path: string): Promise<VirtualStat> {
    return this.#stat(this.#path(path, "lstat"), false);
  }

  async exists(path: string): Promise<boolean> {
    return this.#kernel.vfs.exists(this.#path(path, "access"));
  }

  /** Sets the permission bits (0o7777; symlinks followed), as chmod(2) does: `vm.chmod("/w/run.sh", 0o755)`. */
  async chmod(path: string, mode: number): Promise<void> {
    const p = this.#path(path, "chmod");
    checkMode(mode);
    this.#kernel.vfs.chmod(p, mode);
  }

  /**
   * What the VM changed in the overlay mount at `path` (see MountOptions.overlay): VM paths `added` (not in the
   * host directory; everything below an added directory too), `modified` (content, type, permissions or
   * modification time differ; directories by permissions) and `deleted` (removed, a removed directory without
   * its contents), each sorted. A caller applies them by copying added and modified files out with readFile
   * and removing the deleted paths, or discards them by disposing the VM. EINVAL if `path` is no overlay mount.
   */
  async diff(path: string): Promise<OverlayDiff> {
    return this.#kernel.vfs.diff(this.#path(path, "diff"));
  }

  async move(from: string, to: string): Promise<void> {
    this.#kernel.vfs.rename(this.#path(from, "rename"), this.#path(to, "rename"));
  }

  async delete(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    checkOptionNames("delete", this.#options(options), ["recursive"]);
    const p = this.#path(path, "rm");
    if (p === "/") throw kerr("EPERM", { syscall: "rm", path: p });
    this.#kernel.vfs.remove(p, options.recursive === true);
  }

  /** Reads several files; a failure is reported per file, not thrown. */
  async readFiles(paths: string[]): Promise<BatchReadResult[]> {
    return Promise.all(
      paths.map(async (path) => {
        try {
          return { path, content: await this.readFile(path) };
        } catch (e) {
          return { path, content: null, error: (e as Error).message };
        }
      }),
    );
  }

  /** Writes several files, creating parent directories; a failure is reported per file, not thrown. */
  async writeFiles(entries: BatchWriteEntry[]): Promise<BatchWriteResult[]> {
    return Promise.all(
      entries.map(async ({ path, content }) => {
        try {
          const p = this.#path(path, "open");
          this.#kernel.vfs.mkdir(dirname(p), true);
          this.#kernel.vfs.writeFile(p, this.#content(content));
          return { path, success: true };
        } catch (e) {
          return { path, success: false, error: (e as Error).message };
        }
      }),
    );
  }

  #stat(path: string, follow: boolean): VirtualStat {
    const st = this.#kernel.vfs.stat(path, follow);
    return {
      mode: this.#kernel.vfs.mode(path, follow),
      size: st.size,
      ino: st.ino,
      nlink: st.nlink,
      uid: 1000,
      gid: 1000,
      atimeMs: st.atimeMs,
      mtimeMs: st.mtimeMs,
      ctimeMs: st.ctimeMs,
      birthtimeMs: st.ctimeMs,
      isFile: st.filetype === FileType.REGULAR_FILE,
      isDirectory: st.filetype === FileType.DIRECTORY,
      isSymbolicLink: st.filetype === FileType.SYMBOLIC_LINK,
    };
  }

  #content(content: string | Uint8Array, name = "content"): string | Uint8Array {
    if (typeof content !== "string" && !(content instanceof Uint8Array))
      throw new TypeError(`${name} must be a string or a Uint8Array`);
    return content;
  }

  /** An API path, checked (see checkedPath), of a live VM. */
  #path(path: unknown, syscall: string): string {
    this.#assertLive();
    return checkedPath(path, this.#kernel.limits, syscall);
  }

  #options<T>(options: T): T & object {
    if (typeof options !== "object" || options === null) throw new TypeError("options must be an object");
    return options;
  }

  #assertLive(): void {
    if (this.#disposed) throw kerr("EPERM", { message: "VM disposed" });
  }

  // ---- lifetime ----

  /** Kills every process, waits for them to end, and releases the VM. Idempotent. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#fetch?.dispose();
    await this.#kernel.dispose();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

/**
 * API paths are absolute: a relative path, an empty one or one with NUL is EINVAL; one over
 * limits.maxPathBytes, or with a component over limits.maxNameBytes, is ENAMETOOLONG.
 */
function checkedPath(path: unknown, limits: Limits, syscall: string): string {
  if (typeof path !== "string") throw new TypeError(`path must be a string, got ${typeof path}`);
  if (!path.startsWith("/") || path.includes("\0")) throw kerr("EINVAL", { syscall, path, message: "path must be absolute" });
  checkPathLength(path, limits, syscall);
  return normalize(path);
}

/** `create({ files })`: an object of absolute paths to contents, checked before the VM is made. */
function checkFiles(files: unknown): Array<[string, string | Uint8Array]> {
  if (files === undefined) return [];
  if (typeof files !== "object" || files === null || Array.isArray(files))
    throw Object.assign(new TypeError("files must be an object of paths to contents"), { code: "ERR_INVALID_ARG_VALUE" });
  const entries = Object.entries(files);
  for (const [path, content] of entries)
    if (typeof content !== "string" && !(content instanceof Uint8Array))
      throw Object.assign(new TypeError(`files[${JSON.stringify(path)}] must be a string or a Uint8Array`), { code: "ERR_INVALID_ARG_VALUE" });
  return entries as Array<[string, string | Uint8Array]>;
}

export { KernelError };
export type { ExecResult, SignalLike };
