/** WASI preview1 constants the process host and the kernel agree on. */

export const FileType = {
  UNKNOWN: 0,
  BLOCK_DEVICE: 1,
  CHARACTER_DEVICE: 2,
  DIRECTORY: 3,
  REGULAR_FILE: 4,
  SOCKET_DGRAM: 5,
  SOCKET_STREAM: 6,
  SYMBOLIC_LINK: 7,
} as const;
export type FileTypeValue = (typeof FileType)[keyof typeof FileType];

/** preview1's rights, by bit. */
const RIGHT_BITS = [
  "FD_DATASYNC", "FD_READ", "FD_SEEK", "FD_FDSTAT_SET_FLAGS", "FD_SYNC", "FD_TELL", "FD_WRITE", "FD_ADVISE",
  "FD_ALLOCATE", "PATH_CREATE_DIRECTORY", "PATH_CREATE_FILE", "PATH_LINK_SOURCE", "PATH_LINK_TARGET", "PATH_OPEN",
  "FD_READDIR", "PATH_READLINK", "PATH_RENAME_SOURCE", "PATH_RENAME_TARGET", "PATH_FILESTAT_GET",
  "PATH_FILESTAT_SET_SIZE", "PATH_FILESTAT_SET_TIMES", "FD_FILESTAT_GET", "FD_FILESTAT_SET_SIZE",
  "FD_FILESTAT_SET_TIMES", "PATH_SYMLINK", "PATH_REMOVE_DIRECTORY", "PATH_UNLINK_FILE", "POLL_FD_READWRITE",
  "SOCK_SHUTDOWN", "SOCK_ACCEPT",
] as const;
const rights = (...names: Array<(typeof RIGHT_BITS)[number]>): bigint =>
  names.reduce((set, name) => set | (1n << BigInt(RIGHT_BITS.indexOf(name))), 0n);

/** Rights: the two whose meaning the kernel needs, and the sets fd_fdstat_get reports (as wasmtime does). */
export const Rights = {
  FD_READ: rights("FD_READ"),
  FD_WRITE: rights("FD_WRITE"),
  /** What an open regular file (or device, pipe, socket) can do. */
  FILE: rights(
    "FD_DATASYNC", "FD_READ", "FD_SEEK", "FD_FDSTAT_SET_FLAGS", "FD_SYNC", "FD_TELL", "FD_WRITE", "FD_ADVISE",
    "FD_ALLOCATE", "FD_FILESTAT_GET", "FD_FILESTAT_SET_SIZE", "FD_FILESTAT_SET_TIMES", "POLL_FD_READWRITE",
  ),
  /** What an open directory can do: no read, write or seek, and no path_filestat_set_size (no call uses it). */
  DIRECTORY: rights(
    "PATH_CREATE_DIRECTORY", "PATH_CREATE_FILE", "PATH_LINK_SOURCE", "PATH_LINK_TARGET", "PATH_OPEN", "FD_READDIR",
    "PATH_READLINK", "PATH_RENAME_SOURCE", "PATH_RENAME_TARGET", "PATH_FILESTAT_GET", "PATH_FILESTAT_SET_TIMES",
    "FD_FILESTAT_GET", "FD_FILESTAT_SET_TIMES", "PATH_SYMLINK", "PATH_REMOVE_DIRECTORY", "PATH_UNLINK_FILE",
  ),
  SOCKET: rights("SOCK_SHUTDOWN", "SOCK_ACCEPT"),
} as const;

/**
 * fd_fdstat_get's (base, inheriting) rights for an fd of type `filetype`, with `access` bit 0 set when it
 * was opened for reading and bit 1 for writing (Sys.FDSTAT). A directory passes the file rights on, so that
 * wasi-libc's `openat`, which asks for its access mode within the directory's inheriting rights, gets them.
 */
export function rightsOf(filetype: number, access: number): [bigint, bigint] {
  if (filetype === FileType.DIRECTORY) return [Rights.DIRECTORY, Rights.DIRECTORY | Rights.FILE];
  let base = Rights.FILE;
  if (!(access & 1)) base &= ~Rights.FD_READ;
  if (!(access & 2)) base &= ~Rights.FD_WRITE;
  if (filetype === FileType.SOCKET_STREAM || filetype === FileType.SOCKET_DGRAM) base |= Rights.SOCKET;
  return [base, 0n];
}

export const OFlags = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 } as const;
export const FdFlags = { APPEND: 1, DSYNC: 2, NONBLOCK: 4, RSYNC: 8, SYNC: 16 } as const;
export const LookupFlags = { SYMLINK_FOLLOW: 1 } as const;
/** sock_recv's flags. */
export const RiFlags = { RECV_PEEK: 1, RECV_WAITALL: 2 } as const;
/** sock_recv's roflags: the datagram was longer than the buffers. */
export const RO_DATA_TRUNCATED = 1;
export const FstFlags = { ATIM: 1, ATIM_NOW: 2, MTIM: 4, MTIM_NOW: 8 } as const;
/** Sys.UTIMES's flag beside the fstflags: the times in its payload are u64 nanoseconds, not float64 milliseconds. */
export const UTIMES_EXACT = 16;
export const Whence = { SET: 0, CUR: 1, END: 2 } as const;

export const ClockId = { REALTIME: 0, MONOTONIC: 1, PROCESS_CPUTIME: 2, THREAD_CPUTIME: 3 } as const;
export const EventType = { CLOCK: 0, FD_READ: 1, FD_WRITE: 2 } as const;
/** poll_oneoff: a clock subscription's flag (the timeout is a deadline) and an fd event's flag. */
export const SUBCLOCK_ABSTIME = 1;
export const EVENT_FD_HANGUP = 1;

/** Signals the kernel delivers. */
export const Signal = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGPIPE: 13, SIGTERM: 15 } as const;

/**
 * The preopened directory every process gets, named "/": fd 3, or the fd after those it inherits above 2
 * (Process.rootFd). The runtime's scripts and `node` give it with their absolute paths, which the kernel
 * resolves without looking at it, so their fd 3 may be an inherited one.
 */
export const ROOT_PREOPEN_FD = 3;
/**
 * fd_prestat_get's tag for an inherited fd below the preopen: not a directory, so wasi-libc and Go skip it
 * and go on to the next fd (an error would stop wasi-libc's scan, or abort it).
 */
export const PREOPENTYPE_NOT_DIR = 1;
/** proc_spawn's stdio sentinel meaning /dev/null. */
export const STDIO_DEVNULL = 0xffffffff;
/** proc_waitpid's pid meaning any child. */
export const WAIT_ANY = 0xffffffff;
export const WNOHANG = 1;

/** POSIX wait status encoding. */
export function exitStatus(code: number): number {
  return (code & 0xff) << 8;
}
export function signalStatus(signo: number): number {
  return signo & 0x7f;
}
