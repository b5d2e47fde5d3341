import type { Limits } from "../limits.js";
import { kerr } from "./kernel-error.js";
import type { Link, Superblock } from "./memfs-core.js";

/**
 * Path lookup in the memory file system (namei): the kernel follows symlinks itself, so that what a path
 * really names is known before anything is done to it — a device reached through a link is still the
 * device, /dev stays protected through a link to it, a link into a host mount reaches the mount — and so
 * that chains and loops end at limits.maxSymlinkDepth with ELOOP. memfs then only sees paths without links.
 */

/** ENAMETOOLONG for a path over limits.maxPathBytes or a component over limits.maxNameBytes (UTF-8 bytes). */
export function checkPathLength(path: string, limits: Pick<Limits, "maxPathBytes" | "maxNameBytes">, syscall: string): void {
  // A UTF-16 unit is at most 3 UTF-8 bytes: most paths are decided without encoding them.
  if (path.length * 3 > limits.maxPathBytes && Buffer.byteLength(path) > limits.maxPathBytes)
    throw kerr("ENAMETOOLONG", { syscall, path, message: `file name too long (maxPathBytes ${limits.maxPathBytes})` });
  if (path.length * 3 <= limits.maxNameBytes) return;
  // Only a component long enough in UTF-16 units can be too long in bytes: found without splitting the path.
  for (let from = 0; from < path.length; ) {
    let to = path.indexOf("/", from);
    if (to === -1) to = path.length;
    if ((to - from) * 3 > limits.maxNameBytes && Buffer.byteLength(path.slice(from, to)) > limits.maxNameBytes)
      throw kerr("ENAMETOOLONG", { syscall, path, message: `file name too long (maxNameBytes ${limits.maxNameBytes})` });
    from = to + 1;
  }
}

export interface LookupOptions {
  /** Follow a symlink in the last component too (stat, open) or not (lstat, unlink, rename, readlink). */
  follow: boolean;
  maxSymlinkDepth: number;
  /** Directories where a host directory is mounted: what lies below them is the host's to resolve. */
  mountPoints: ReadonlySet<Link>;
  syscall: string;
  /** Called with each directory before its entries are looked at (an overlay brings its lower entries in). */
  enter?: (dir: Link) => void;
}

/**
 * The path `path` (absolute, normalised) really names: every symlink on the way replaced by its target,
 * the last one only when `follow`. Components that do not exist are kept as written (a file about to be
 * created; the operation itself then reports ENOENT or ENOTDIR). Iterative, so a long chain cannot
 * exhaust the host's stack; throws ELOOP after maxSymlinkDepth links.
 */
export function lookup(core: Superblock, path: string, opts: LookupOptions): string {
  return noLinksOnTheWay(core, path, opts) ? path : resolveLinks(core, path, opts);
}

/**
 * True when no symlink is to be followed on the way to `path`: the common case, decided in one walk
 * without the allocations of resolveLinks (every system call looks its path up, and a deep path is long).
 * Like resolveLinks, it stops at a missing component, below a file and below a mount point.
 */
function noLinksOnTheWay(core: Superblock, path: string, opts: LookupOptions): boolean {
  let link = core.root;
  for (let from = 0; from < path.length; ) {
    let to = path.indexOf("/", from);
    if (to === -1) to = path.length;
    const name = path.slice(from, to);
    if (name === "..") return false;
    if (name !== "" && name !== ".") {
      if (opts.mountPoints.has(link) || !link.getNode().isDirectory()) return true;
      opts.enter?.(link);
      const child = link.children.get(name);
      if (!child) return true;
      // A link at the end is followed only when asked to; on the way, always.
      if (child.getNode().isSymlink() && (opts.follow || path.slice(to + 1).split("/").some((p) => p !== "" && p !== "."))) return false;
      link = child;
    }
    from = to + 1;
  }
  return true;
}

/** lookup's general case: replaces links by their targets, component by component. */
function resolveLinks(core: Superblock, path: string, opts: LookupOptions): string {
  const pending = path.split("/").reverse(); // the next component last
  const names: string[] = [];
  /** links[i] is the link of names[0..i); shorter than names + 1 once a component does not exist. */
  const links: Link[] = [core.root];
  let hops = 0;
  let changed = false;
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      names.pop();
      if (links.length > names.length + 1) links.length = names.length + 1;
      changed = true;
      continue;
    }
    const dir = links.length === names.length + 1 ? links[links.length - 1]! : undefined;
    names.push(name);
    // Below a missing component, a file, or a mount point, there is nothing (more) to look up here.
    if (!dir || opts.mountPoints.has(dir) || !dir.getNode().isDirectory()) continue;
    opts.enter?.(dir);
    const child = dir.children.get(name);
    if (!child) continue;
    const node = child.getNode();
    if (node.isSymlink() && (opts.follow || pending.some((p) => p !== "" && p !== "."))) {
      if (++hops > opts.maxSymlinkDepth)
        throw kerr("ELOOP", { syscall: opts.syscall, path, message: `too many levels of symbolic links (maxSymlinkDepth ${opts.maxSymlinkDepth})` });
      names.pop();
      changed = true;
      const target = node.symlink;
      if (target.startsWith("/")) {
        names.length = 0;
        links.length = 1;
      }
      pending.push(...target.split("/").reverse());
      continue;
    }
    links.push(child);
  }
  return changed ? "/" + names.join("/") : path;
}
