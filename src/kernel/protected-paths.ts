import { kerr } from "./kernel-error.js";

/**
 * Paths the VM keeps for itself, whatever its commands try. /dev and the devices in it cannot be removed,
 * renamed, replaced, chmod'ed or added to: every command's `> /dev/null` depends on them, and the exec
 * router's control paths are served under /dev. The answer is EPERM, as Linux gives an unprivileged user
 * for a device node or a mount point it does not own (rmdir of a mount point is EBUSY on Linux, but WASI's
 * EBUSY is the number these binaries read as ECHILD). Reading and writing the devices is not affected.
 * Mount points and the directories above them cannot be removed or renamed either, so that a mount
 * always stays where it was made.
 */

export const DEV = "/dev";

export function isDevPath(path: string): boolean {
  return path === DEV || path.startsWith(`${DEV}/`);
}

/** EPERM for creating an entry in /dev (open O_CREAT, mkdir, symlink, link, the API's writeFile) or changing a mode there. */
export function checkCreate(path: string, syscall: string): void {
  if (isDevPath(path)) throw kerr("EPERM", { syscall, path, message: "operation not permitted: /dev belongs to the VM" });
}

/**
 * EPERM for changing the mode of the root or of /dev and its devices: Linux refuses it to a user who does
 * not own them, and a root without search permission would make every path fail, the API's included.
 */
export function checkChmod(path: string, syscall: string): void {
  if (path === "/") throw kerr("EPERM", { syscall, path, message: "operation not permitted: the root belongs to the VM" });
  checkCreate(path, syscall);
}

/**
 * EPERM for removing or renaming `path` (either end of a rename): /dev, a device, the root, a mount point
 * or a directory above one.
 */
export function checkRemove(path: string, syscall: string, mountPoints: Iterable<string>): void {
  if (path === "/") throw kerr("EPERM", { syscall, path });
  checkCreate(path, syscall);
  for (const m of mountPoints)
    if (m === path || m.startsWith(`${path}/`))
      throw kerr("EPERM", { syscall, path, message: "operation not permitted: a host directory is mounted there" });
}
