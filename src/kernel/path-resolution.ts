import { kerr } from "./kernel-error.js";
import type { Process } from "./process.js";
import { join, normalize } from "./path.js";

/**
 * Resolves a path a process gave relative to one of its directory fds, as openat does. Every command resolves
 * relative paths against its own working directory before they reach the kernel (README "Working directories
 * and paths"): a path under the root preopen (Process.rootFd) comes from `/`, and an absolute path does not
 * look at the fd at all (the scripts' and node's fd 3 may be one they inherited rather than their root).
 */
export function resolvePath(proc: Process, dirfd: number, path: string): string {
  if (path.startsWith("/") || dirfd === proc.rootFd) return normalize("/" + path);
  const dir = proc.fds.get(dirfd);
  if (dir.path === undefined) throw kerr("ENOTDIR", { syscall: "openat", path });
  return join(dir.path, path);
}
