/** WASI preview1 errno numbers: the one numbering used end to end, from kernel to guest to the public API. */
export const Errno = {
  SUCCESS: 0,
  E2BIG: 1,
  EACCES: 2,
  EADDRINUSE: 3,
  EADDRNOTAVAIL: 4,
  EAFNOSUPPORT: 5,
  EAGAIN: 6,
  EALREADY: 7,
  EBADF: 8,
  /** 10 is EBUSY in WASI; these binaries read it as ECHILD (guest-abi §2), so it is ECHILD here. */
  ECHILD: 10,
  ECONNREFUSED: 14,
  ECONNRESET: 15,
  EEXIST: 20,
  EFAULT: 21,
  EHOSTUNREACH: 23,
  EINPROGRESS: 26,
  EINTR: 27,
  EINVAL: 28,
  EIO: 29,
  EISCONN: 30,
  EISDIR: 31,
  ELOOP: 32,
  EMFILE: 33,
  EMSGSIZE: 35,
  ENAMETOOLONG: 37,
  ENETUNREACH: 40,
  ENOENT: 44,
  ENOEXEC: 45,
  ENOMEM: 48,
  ENOPROTOOPT: 50,
  ENOSPC: 51,
  ENOSYS: 52,
  ENOTCONN: 53,
  ENOTDIR: 54,
  ENOTEMPTY: 55,
  ENOTSOCK: 57,
  ENOTSUP: 58,
  ENOTTY: 59,
  EPERM: 63,
  EPIPE: 64,
  EPROTOTYPE: 67,
  ERANGE: 68,
  EROFS: 69,
  ESPIPE: 70,
  ESRCH: 71,
  ETIMEDOUT: 73,
  EXDEV: 75,
} as const;

export type ErrnoName = keyof typeof Errno;

const names = new Map<number, ErrnoName>(
  (Object.entries(Errno) as [ErrnoName, number][]).map(([k, v]) => [v, k]),
);

const descriptions: Partial<Record<ErrnoName, string>> = {
  EACCES: "permission denied",
  EADDRINUSE: "address already in use",
  EADDRNOTAVAIL: "address not available",
  EAFNOSUPPORT: "address family not supported",
  EBADF: "bad file descriptor",
  ECHILD: "no child processes",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by peer",
  EEXIST: "file already exists",
  EINVAL: "invalid argument",
  EIO: "i/o error",
  EISCONN: "socket is already connected",
  EISDIR: "illegal operation on a directory",
  ELOOP: "too many symbolic links encountered",
  EMSGSIZE: "message too long",
  ENETUNREACH: "network is unreachable",
  ENOENT: "no such file or directory",
  ENOPROTOOPT: "protocol not available",
  ENOSYS: "function not implemented",
  ENOTCONN: "socket is not connected",
  ENOTDIR: "not a directory",
  ENOTEMPTY: "directory not empty",
  ENOTSOCK: "socket operation on non-socket",
  EPERM: "operation not permitted",
  EPIPE: "broken pipe",
  EROFS: "read-only file system",
  ESPIPE: "invalid seek",
  ESRCH: "no such process",
  ETIMEDOUT: "timed out",
  EXDEV: "cross-device link not permitted",
};

export function errnoName(errno: number): ErrnoName | "EUNKNOWN" {
  return names.get(errno) ?? "EUNKNOWN";
}

export function errnoDescription(errno: number): string {
  const name = names.get(errno);
  return (name && descriptions[name]) ?? `errno ${errno}`;
}
