/**
 * Commands written in TypeScript. They run as real processes of the VM (a pid, an fd table, a cwd,
 * an exit status) on the kernel's thread, with the same stdio and filesystem semantics as the
 * WebAssembly commands. The runtime provides `sort` this way; users register their own through
 * `AgentOs.create({ commands })`.
 */

/** The file system as a command sees it: paths are resolved against the process's cwd. */
export interface CommandFs {
  /** Whole file; throws a KernelError (`code` ENOENT, EISDIR, …) on failure. */
  readFile(path: string): Uint8Array;
  /** Creates or truncates. */
  writeFile(path: string, data: Uint8Array | string): void;
  exists(path: string): boolean;
  /**
   * What a path names: symlinks followed unless `follow` is false (then a symlink reports itself, as
   * lstat does). Throws a KernelError (ENOENT, ENOTDIR, ELOOP, EACCES, …).
   */
  stat(path: string, follow?: boolean): CommandStat;
  /**
   * Sets the permission bits (`mode & 0o7777`) of what `path` names, symlinks followed, as chmod(2) does.
   * Throws a KernelError: ENOENT, EPERM for the root and /dev, EROFS in a read-only mount, EACCES for a
   * path through a directory without search permission.
   */
  chmod(path: string, mode: number): void;
  /** The names in a directory (without `.` and `..`), in byte order; symlinks followed. */
  readdir(path: string): string[];
  /**
   * Opens a file as open(2) does, as an fd of the process (closed when it exits, if not before):
   * "r" to read; "w" to write, created or truncated; "wx" to write a new file (EEXIST if the name exists).
   * `/dev/stdin`, `/dev/fd/N` and `/proc/PID/fd/N` (the shell's `<(…)`) are the open files they name.
   * Throws a KernelError (ENOENT, EACCES, EISDIR for writing a directory, EMFILE, ENOSPC, …).
   */
  open(path: string, flags: "r" | "w" | "wx"): CommandFile;
  /** Removes a name, as unlink(2) does (EISDIR for a directory). */
  unlink(path: string): void;
}

/** A file opened with CommandFs.open. */
export interface CommandFile {
  /**
   * Reads into `target` from the file's offset, which it advances: the count, 0 at end of file. A pipe may
   * make it wait for data; it rejects with the kill reason when the process is killed. A directory is EISDIR.
   */
  read(target: Uint8Array): Promise<number>;
  /**
   * Writes all of `data` at the offset, or throws: ENOSPC when the file system is full (what fitted stays
   * written), EPIPE for a pipe nobody reads.
   */
  write(data: Uint8Array | string): void;
  /** Closes it; idempotent. Reading or writing afterwards throws EBADF. */
  close(): void;
}

export interface CommandStat {
  type: "file" | "directory" | "symlink" | "other";
  /** st_mode: the type bits and the permission bits, e.g. 0o100644 for a regular file rw-r--r--. */
  mode: number;
  size: number;
  /** Device and inode numbers: paths with the same pair name the same file. */
  dev: number;
  ino: number;
}

export interface CommandContext {
  /** argv[0] is the command name as the caller wrote it. */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Resolves with the next chunk of stdin, or null at end of file. */
  readStdin(): Promise<Uint8Array | null>;
  /** Reads stdin to end of file. */
  readAllStdin(): Promise<Uint8Array>;
  /**
   * Writes all of `data`, or throws a KernelError: EPIPE when nobody reads any more, ENOSPC when stdout is a
   * file and the file system is full (what fitted stays written).
   */
  writeStdout(data: Uint8Array | string): void;
  writeStderr(data: Uint8Array | string): void;
  readonly fs: CommandFs;
  /** Aborted when the process is killed. */
  readonly signal: AbortSignal;
}

/** Returns the exit status (0–255). A thrown error ends the process with status 1 and its message on stderr. */
export type CommandHandler = (ctx: CommandContext) => number | Promise<number>;

/**
 * A WebAssembly command of the user's (`AgentOs.create({ commands: { name: { wasm } } })`): a wasm32-wasip1
 * module file on the host, run like the built-in binaries (see README, "Your own WebAssembly commands").
 */
export interface WasmCommand {
  /** Path of the .wasm file on the host; it must exist when the VM is created. */
  wasm: string;
}
