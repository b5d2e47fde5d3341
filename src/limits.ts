/** Every limit of the runtime, in one place: the host process's own, then each VM's (`Limits`). */

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/**
 * System-call channels of exited processes kept for the next ones (src/kernel/pool-process.ts): a new one
 * is a 256 KiB SharedArrayBuffer, whose allocation costs more than zeroing a kept one.
 */
export const SPARE_CHANNELS = 16;
/** Workers kept ready when idle. */
export const POOL_MIN_THREADS = 2;
/**
 * Upper bound on concurrent guest processes of all VMs together. Each running process holds a worker,
 * and processes wait on each other, so this is a cap on concurrency, not a queue length.
 */
export const POOL_MAX_THREADS = 256;
/** An idle worker above the minimum is retired after this long. */
export const POOL_IDLE_TIMEOUT_MS = 30_000;
/**
 * Booted workers kept ready for guest `node` processes (src/pool/node-workers.ts), per heap size in use.
 * Each costs a thread and ~10 MB while it waits.
 */
export const NODE_SPARE_WORKERS = 1;
/** Heap sizes (Limits.maxProcessMemoryBytes of the VMs) spares are kept for: the ones used last. */
export const NODE_SPARE_HEAP_SIZES = 2;
/** Persistent shells the exec router keeps per VM; more concurrent execs run in fresh processes. */
export const ROUTER_SHELLS_PER_VM = 4;
/**
 * Persistent shells of all VMs together. Each holds a pool worker for good, so this stays well below
 * POOL_MAX_THREADS: the commands they run need workers too.
 */
export const ROUTER_SHELLS_MAX = 32;
/**
 * A router shell handed a command longer than this is let go after it: parsing a command grows the shell's
 * memory to several times its size (~7× measured: 28 MiB for a 4 MiB here-document), and WebAssembly
 * memory never shrinks. The next exec starts a new shell.
 */
export const ROUTER_SHELL_RETIRE_BYTES = 1 * MiB;
/** Execs of one VM that start at once (as many as the router has shells); more wait their turn (exec-gate.ts). */
export const EXECS_AT_ONCE = ROUTER_SHELLS_PER_VM;
/** An exec running longer than this no longer keeps others waiting. */
export const EXEC_ADMISSION_HOLD_MS = 1000;
/** Processes started with spawn() that have exited and that listProcesses() still shows: the newest ones. */
export const EXITED_PROCESSES_LISTED = 100;
/** How long a killed guest that is computing gets to reach a system call before its worker is stopped. */
export const KILL_GRACE_MS = 20;
/** System calls of one process served in a row, and the time they may take, before other work gets a turn. */
export const SYSCALLS_PER_TURN = 256;
export const SYSCALL_TURN_MS = 4;
/**
 * What the runtime's `sort` holds of its input on the host's heap before it sorts that part and spills it
 * to a temporary file, unless `-S` says otherwise (src/commands/sort/runs.ts): GNU sort's main-memory buffer.
 */
export const SORT_BUFFER_BYTES = 128 * MiB;

/**
 * What one VM may take. Each is enforced by the kernel and counted against the VM; `AgentOs.create({ limits })`
 * overrides any of them, and `exec(cmd, { maxOutputBytes })` the output cap of one exec.
 */
export interface Limits {
  /** Output of one exec or spawned process kept per stream; past it the command is stopped (exit 141). */
  maxOutputBytes: number;
  /** Linear memory of one guest process; growing past it fails inside the guest. */
  maxProcessMemoryBytes: number;
  /** All the VM holds: guest memories, file data, pipe buffers and kept output. */
  maxVmMemoryBytes: number;
  /** File data in the VM's file system (ENOSPC past it; sizes count in full: files are not sparse). */
  maxFsBytes: number;
  /** Files, directories and links in the VM's file system (ENOSPC past it). */
  maxFsInodes: number;
  /** Processes running at once in the VM (EAGAIN past it). */
  maxProcesses: number;
  /** Open fds of one process (EMFILE past it). */
  maxOpenFds: number;
  /** argv and environment of a new process together, NUL terminators included (E2BIG past it). */
  maxArgBytes: number;
  /**
   * The command of one `exec` (E2BIG past it). It reaches the shell through the shell's input, not through
   * argv, so maxArgBytes does not bound it; a here-document of a file of several MiB fits.
   */
  maxCommandBytes: number;
  /** A path (ENAMETOOLONG past it). */
  maxPathBytes: number;
  /** One path component (ENAMETOOLONG past it). */
  maxNameBytes: number;
  /** Symbolic links followed while resolving one path (ELOOP past it). */
  maxSymlinkDepth: number;
  /** Bytes a pipe buffers before a writer that can wait is made to wait for its reader. */
  pipeBufferBytes: number;
  /** Sockets open at once in the VM, host-owned ends and queued connections included (EMFILE past it). */
  maxSockets: number;
  /** A socket's receive buffer (SO_RCVBUF's default): a stream sender gets a short send or waits past it. */
  socketBufferBytes: number;
  /** The most SO_RCVBUF can ask for. */
  maxSocketBufferBytes: number;
  /** Connections a listener queues (listen's backlog is capped to it); a connect past it is ECONNREFUSED. */
  maxListenBacklog: number;
  /** Datagrams a socket queues; more are dropped, as UDP drops them. */
  datagramQueueLength: number;
  /** Outbound connections open at once (a connect past it is refused, and the denial recorded). */
  maxNetworkConnections: number;
  /** Bytes the VM's outbound connections may carry in all, both ways: past it they are reset, new ones refused. */
  maxNetworkBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxOutputBytes: 32 * MiB,
  maxProcessMemoryBytes: 512 * MiB,
  maxVmMemoryBytes: 2 * GiB,
  maxFsBytes: 1 * GiB,
  maxFsInodes: 100_000,
  maxProcesses: 64,
  maxOpenFds: 1024,
  maxArgBytes: 192 * KiB,
  maxCommandBytes: 16 * MiB,
  maxPathBytes: 4096,
  maxNameBytes: 255,
  maxSymlinkDepth: 40,
  pipeBufferBytes: 64 * KiB,
  maxSockets: 1024,
  socketBufferBytes: 256 * KiB,
  maxSocketBufferBytes: 4 * MiB,
  maxListenBacklog: 4096,
  datagramQueueLength: 128,
  maxNetworkConnections: 256,
  maxNetworkBytes: 64 * GiB,
});

/** listen()'s backlog when the caller gives none (≤ 0), as Linux's SOMAXCONN. */
export const DEFAULT_LISTEN_BACKLOG = 4096;
/** Idle keep-alive connections `vm.fetch` keeps per guest port (each holds two of the VM's sockets). */
export const VM_FETCH_IDLE_PER_PORT = 16;
/** The least SO_RCVBUF can ask for (Linux's floor). */
export const MIN_SOCKET_BUFFER_BYTES = 2304;

/** The VM's limits: the defaults with `overrides` applied. Throws TypeError for an unknown name or a bad value. */
export function resolveLimits(overrides: unknown): Limits {
  if (overrides === undefined) return { ...DEFAULT_LIMITS };
  if (typeof overrides !== "object" || overrides === null) throw new TypeError("limits must be an object");
  const limits: Limits = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(overrides)) {
    if (!(name in DEFAULT_LIMITS)) throw new TypeError(`unknown limit ${JSON.stringify(name)}`);
    limits[name as keyof Limits] = checkLimit(name, value);
  }
  return limits;
}

/** A limit is a positive safe integer. */
export function checkLimit(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0)
    throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}
