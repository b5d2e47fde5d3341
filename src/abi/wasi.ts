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

/** Rights bits (only the two whose meaning the kernel needs). */
export const Rights = {
  FD_READ: 1n << 1n,
  FD_WRITE: 1n << 6n,
  ALL: 0x1fffffffn,
} as const;

export const OFlags = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 } as const;
export const FdFlags = { APPEND: 1, DSYNC: 2, NONBLOCK: 4, RSYNC: 8, SYNC: 16 } as const;
export const LookupFlags = { SYMLINK_FOLLOW: 1 } as const;
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
