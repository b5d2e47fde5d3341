import { kerr } from "./kernel-error.js";
import type { Kernel } from "./kernel.js";
import type { OpenFile } from "./open-file.js";
import type { Process } from "./process.js";

const STDIO_PATHS: Readonly<Record<string, number>> = { "/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2 };
const FD_PATH = /^\/(?:dev\/fd|proc\/(self|\d+)\/fd)\/(\d+)$/;

/**
 * A path that names an open file as Linux's /proc does (open, stat, path_mode): /dev/stdin|stdout|stderr
 * and /dev/fd/N are the caller's own fd, /proc/PID/fd/N process PID's of the same VM (the shell's process
 * substitution hands its commands such a path). ENOENT for a closed fd or no such process, as on Linux.
 */
export function openFileAt(k: Kernel, p: Process, path: string, syscall: string): OpenFile | undefined {
  const m = FD_PATH.exec(path);
  const fd = STDIO_PATHS[path] ?? (m ? Number(m[2]) : undefined);
  if (fd === undefined) return undefined;
  const owner = m?.[1] === undefined || m[1] === "self" ? p : k.processes.get(Number(m[1]));
  const file = owner?.state === "running" ? owner.fds.find(fd) : undefined;
  if (!file) throw kerr("ENOENT", { syscall, path });
  return file;
}
