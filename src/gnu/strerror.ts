/** The C library's messages for the file system and socket errors TypeScript commands report, as GNU tools print them. */

const STRERROR: Record<string, string> = {
  ENOENT: "No such file or directory",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  ELOOP: "Too many levels of symbolic links",
  ENAMETOOLONG: "File name too long",
  EIO: "Input/output error",
  EROFS: "Read-only file system",
  ENOSPC: "No space left on device",
  ENOMEM: "Cannot allocate memory",
  EINVAL: "Invalid argument",
  EBADF: "Bad file descriptor",
  EEXIST: "File exists",
  ESRCH: "No such process",
  ENOTSUP: "Operation not supported",
  EAGAIN: "Resource temporarily unavailable",
  ECONNREFUSED: "Connection refused",
  ECONNRESET: "Connection reset by peer",
  EADDRINUSE: "Address already in use",
  EADDRNOTAVAIL: "Cannot assign requested address",
  ETIMEDOUT: "Connection timed out",
  ENETUNREACH: "Network is unreachable",
  EHOSTUNREACH: "No route to host",
  EAFNOSUPPORT: "Address family not supported by protocol",
  ENOTCONN: "Transport endpoint is not connected",
  EPIPE: "Broken pipe",
};

/** The errno name of a KernelError (or Node error), or "". */
export function errorCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

/** strerror(3) of an errno name ("ENOENT" → "No such file or directory"); the name when it has no text here. */
export const strerrorOf = (code: string): string => STRERROR[code] ?? code;

/** strerror(3) of a KernelError, e.g. "No such file or directory"; the message of anything else. */
export function strerror(e: unknown): string {
  return STRERROR[errorCode(e)] ?? (e instanceof Error ? e.message : String(e));
}
