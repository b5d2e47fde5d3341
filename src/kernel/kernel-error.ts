import { Errno, errnoDescription, errnoName, type ErrnoName } from "../abi/errno.js";

/**
 * A failed kernel operation, shaped like a Node system error: `code` is the errno name, `errno` the WASI
 * number, and `syscall`/`path`/`pid` say what was asked. Guest failures are values; this is what the
 * public API throws for a call it could not do.
 */
export class KernelError extends Error {
  readonly code: ErrnoName | "EUNKNOWN";
  readonly errno: number;
  declare syscall?: string;
  declare path?: string;
  declare pid?: number;

  constructor(errno: number, detail: { syscall?: string; path?: string; pid?: number; message?: string } = {}) {
    const code = errnoName(errno);
    const where = detail.path !== undefined ? ` '${detail.path}'` : detail.pid !== undefined ? ` pid ${detail.pid}` : "";
    super(`${code}: ${detail.message ?? errnoDescription(errno)}${detail.syscall ? `, ${detail.syscall}` : ""}${where}`);
    this.name = "KernelError";
    this.code = code;
    this.errno = errno;
    if (detail.syscall !== undefined) this.syscall = detail.syscall;
    if (detail.path !== undefined) this.path = detail.path;
    if (detail.pid !== undefined) this.pid = detail.pid;
  }
}

export function kerr(name: ErrnoName, detail?: ConstructorParameters<typeof KernelError>[1]): KernelError {
  return new KernelError(Errno[name], detail);
}

/** Converts a memfs (Node-style) error into a KernelError; anything else is rethrown as is. */
export function fromNodeError(e: unknown, syscall: string, path?: string): KernelError {
  if (e instanceof KernelError) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code in Errno) {
    return new KernelError(Errno[code as ErrnoName], { syscall, ...(path !== undefined ? { path } : {}) });
  }
  if (code === "ENOTSUP" || code === "EOPNOTSUPP") return new KernelError(Errno.ENOTSUP, { syscall });
  throw e;
}
