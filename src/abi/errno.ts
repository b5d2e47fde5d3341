/** WASI preview1 errno numbers: the one numbering used end to end, from kernel to guest to the public API. */
export const Errno = {
  SUCCESS: 0,
  E2BIG: 1,
  EACCES: 2,
  EAGAIN: 6,
  EBADF: 8,
  /** 10 is EBUSY in WASI; these binaries read it as ECHILD (guest-abi §2), so it is ECHILD here. */
  ECHILD: 10,
  EEXIST: 20,
  EFAULT: 21,
  EINTR: 27,
  EINVAL: 28,
  EIO: 29,
  EISDIR: 31,
  ELOOP: 32,
  EMFILE: 33,
  ENAMETOOLONG: 37,
  ENOENT: 44,
  ENOEXEC: 45,
  ENOMEM: 48,
  ENOSPC: 51,
  ENOSYS: 52,
  ENOTDIR: 54,
  ENOTEMPTY: 55,
  ENOTSUP: 58,
  ENOTTY: 59,
  EPERM: 63,
  EPIPE: 64,
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
  EBADF: "bad file descriptor",
  ECHILD: "no child processes",
  EEXIST: "file already exists",
  EINVAL: "invalid argument",
  EIO: "i/o error",
  EISDIR: "illegal operation on a directory",
  ELOOP: "too many symbolic links encountered",
  ENOENT: "no such file or directory",
  ENOSYS: "function not implemented",
  ENOTDIR: "not a directory",
  ENOTEMPTY: "directory not empty",
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
