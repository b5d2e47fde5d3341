import * as nodeFs from "node:fs";
import { kerr } from "./kernel-error.js";
import { fsError, openHostFile, readUpTo } from "./host-mount.js";
import { childrenOf, type Link, type MemNode, type Superblock } from "./memfs-core.js";
import type { FsQuota } from "./fs-quota.js";
import { S_IFDIR, S_IFLNK, S_IFMT, S_IFREG } from "./file-stat.js";
import { isImageDir, type Image, type ImageNode } from "./image.js";

/**
 * Overlay mounts: a host directory as a read-only lower layer under the VM's memory file system, which is the
 * upper layer and keeps every change (overlayfs's model). The VM's image layers (image.ts) are lower layers of
 * its root in the same way, their bytes held in the host process's memory, once for every VM.
 *
 * The lower layer is brought into the memory file system lazily, one directory at a time, the first time a
 * lookup, a listing or a removal enters it: each of its entries becomes a memfs entry with the host entry's
 * type, permissions and times. Directories come in empty and marked "not yet read"; regular files come in
 * without their bytes, marked with the host file that holds them, which reads are served from (stat shows its
 * size). Writing to such a file without O_TRUNC copies its bytes up into the VM; O_TRUNC drops them. After
 * that, the memory file system does everything: a rename moves the entry (a moved file still reads from its
 * host file), a removal removes it (the lower entry stays hidden, as behind a whiteout: its directory has
 * been read and will not be read again), chmod and utimes change the VM's copy of the metadata.
 *
 * The host directory is never written. Its symlinks are the VM's symlinks, resolved in the VM's namespace
 * (an absolute target names a VM path), so nothing in the lower layer can lead to the host outside it; the
 * host paths the overlay reads are built from names of entries it listed itself, and checked again (realpath,
 * O_NOFOLLOW) when read. FIFOs, sockets and devices in the lower layer are not shown.
 *
 * Entries the VM has brought in count as inodes and entry memory in its quota; lower bytes count only once
 * copied up. The lower directory should not change while it is mounted: a directory read already does not
 * see later changes (overlayfs calls such changes undefined behaviour).
 */

/** A regular file whose bytes are still a lower layer's: a host file's, or an image's (image.ts). */
export type LowerFile = { host: string; size: number } | { bytes: Uint8Array; size: number };

/**
 * Where a directory's lower entries come from: a host directory (an overlay mount), or the directories at its
 * path in the VM's image layers, the top one first.
 */
type LowerDir = string | readonly ImageNode[];

export interface OverlayDiff {
  /** Paths that the lower layer does not have (everything below an added directory too). */
  added: string[];
  /** Paths in both whose content, type, permissions or modification time differ (directories: permissions). */
  modified: string[];
  /** Paths of the lower layer the VM removed (a removed directory only, not what was in it). */
  deleted: string[];
}

interface HostEntry {
  name: string;
  st: nodeFs.Stats;
}

export class Overlays {
  /** Directories whose lower entries have not been brought in yet: where they come from. */
  private readonly unread = new WeakMap<MemNode, LowerDir>();
  private readonly lowerFiles = new WeakMap<MemNode, LowerFile>();
  /** Mount path → real host directory. */
  readonly mounts = new Map<string, string>();
  private layered = false;

  constructor(
    private readonly core: Superblock,
    private readonly quota: FsQuota,
  ) {}

  /** Makes the directory at `link` (mounted at `path`) show `hostDir` (a real path) below it. */
  add(link: Link, path: string, hostDir: string): void {
    const node = link.getNode();
    // The merged directory shows the lower one's permissions and times, as overlayfs's copied-up directory does.
    const st = nodeFs.statSync(hostDir);
    node.mode = S_IFDIR | (st.mode & 0o7777);
    node.atime = st.atime;
    node.mtime = st.mtime;
    node.ctime = st.ctime;
    this.unread.set(node, hostDir);
    this.mounts.set(path, hostDir);
  }

  /** Whether any directory has lower entries: lookups must then enter directories first. */
  get active(): boolean {
    return this.layered || this.mounts.size > 0;
  }

  /** Shows `images` (the first the lowest) below the directory at `link`: the VM's root. */
  addImages(link: Link, images: readonly Image[]): void {
    if (images.length === 0) return;
    this.unread.set(link.getNode(), images.map((i) => i.root).reverse());
    this.layered = true;
  }

  /** The host file that holds a file's bytes, while they have not been copied up. */
  lowerFile(node: MemNode): LowerFile | undefined {
    return this.lowerFiles.get(node);
  }

  /** The file's bytes are the VM's from now on (after a copy-up, or O_TRUNC). */
  ownContent(node: MemNode): void {
    this.lowerFiles.delete(node);
  }

  /**
   * Brings in the lower entries of the directory at `link`, once; `path` names it for errors. The directory
   * keeps its times: its entries were there all along.
   */
  enter(link: Link, path = "", syscall = "open"): void {
    const node = link.getNode();
    const lower = this.unread.get(node);
    if (lower === undefined) return;
    const [atime, mtime, ctime] = [node.atime, node.mtime, node.ctime];
    try {
      if (typeof lower === "string") this.enterHost(link, lower, path, syscall);
      else this.enterImages(link, lower, path, syscall);
    } finally {
      [node.atime, node.mtime, node.ctime] = [atime, mtime, ctime];
    }
  }

  private enterHost(link: Link, host: string, path: string, syscall: string): void {
    const node = link.getNode();
    const entries = listHost(host, path, syscall);
    // All or nothing: the quota must take every entry, or the directory stays unread.
    this.quota.checkCreate(link.steps.length + 1, syscall, path, 0, entries.length);
    this.unread.delete(node);
    for (const { name, st } of entries) {
      // The VM made an entry of that name before the directory was read (the mount point's own parents).
      if (link.children.has(name)) continue;
      const type = st.mode & S_IFMT;
      const child = this.core.createNode(type | (st.mode & 0o7777));
      if (type === S_IFLNK) child.symlink = nodeFs.readlinkSync(`${host}/${name}`);
      if (type === S_IFDIR) this.unread.set(child, `${host}/${name}`);
      if (type === S_IFREG) this.lowerFiles.set(child, { host: `${host}/${name}`, size: st.size });
      this.quota.created(link.createChild(name, child));
      // After linking it, which sets a directory's link count and so its ctime.
      child.atime = st.atime;
      child.mtime = st.mtime;
      child.ctime = st.ctime;
    }
  }

  /**
   * Brings in the entries of image directories `dirs` (the top one first) at `link`. An entry of a higher layer
   * hides those of the same name below it, but for directories over directories, whose entries merge.
   */
  private enterImages(link: Link, dirs: readonly ImageNode[], path: string, syscall: string): void {
    const merged = new Map<string, ImageNode[]>();
    for (const dir of dirs) {
      for (const [name, entry] of dir.entries!) {
        const stack = merged.get(name);
        if (!stack) merged.set(name, [entry]);
        else if (isImageDir(stack[0]!) && isImageDir(entry)) stack.push(entry);
      }
    }
    this.quota.checkCreate(link.steps.length + 1, syscall, path, 0, merged.size);
    this.unread.delete(link.getNode());
    for (const [name, stack] of merged) {
      if (link.children.has(name)) continue;
      const top = stack[0]!;
      const type = top.mode & S_IFMT;
      const child = this.core.createNode(top.mode);
      if (type === S_IFLNK) child.symlink = top.target!;
      if (type === S_IFDIR) this.unread.set(child, stack);
      if (type === S_IFREG) this.lowerFiles.set(child, { bytes: top.data!, size: top.data!.length });
      this.quota.created(link.createChild(name, child));
      const time = new Date(top.mtimeMs);
      child.atime = time;
      child.mtime = time;
      child.ctime = time;
    }
  }

  /** A lower file's bytes, from the start, up to `max` (its whole content by default): a copy. */
  read(lower: LowerFile, path: string, max = Infinity): Uint8Array {
    if ("bytes" in lower) return lower.bytes.slice(0, Math.min(lower.size, max));
    const { fd } = this.openLower(lower, path);
    try {
      return readUpTo(fd, Math.min(lower.size, max));
    } catch (e) {
      throw fsError(e, "read", path);
    } finally {
      nodeFs.closeSync(fd);
    }
  }

  /** Opens a lower host file for reading: it must still be a regular file in the directory that was listed. */
  openLower(lower: { host: string }, path: string): { fd: number; stats: nodeFs.Stats } {
    const dir = lower.host.slice(0, lower.host.lastIndexOf("/"));
    let real: string;
    try {
      real = nodeFs.realpathSync.native(dir);
    } catch (e) {
      throw fsError(e, "open", path);
    }
    if (real !== dir) throw kerr("EACCES", { syscall: "open", path, message: "the overlay's lower directory changed on the host" });
    const opened = openHostFile(lower.host, path, false);
    if (!opened.stats.isFile()) {
      nodeFs.closeSync(opened.fd);
      throw kerr("EACCES", { syscall: "open", path, message: "the overlay's lower file changed on the host" });
    }
    return opened;
  }

  /** What the VM changed below overlay mount `path` (its link `top`) against the lower directory. */
  diff(top: Link, path: string): OverlayDiff {
    const hostDir = this.mounts.get(path)!;
    const out: OverlayDiff = { added: [], modified: [], deleted: [] };
    // Depth first without recursion: [link, its VM path, the lower directory at that path if there is one].
    const stack: Array<[Link, string, string | undefined]> = [[top, path, hostDir]];
    while (stack.length > 0) {
      const [link, at, host] = stack.pop()!;
      const node = link.getNode();
      // Not read since mounted, and still where it was: nothing below it changed.
      if (host !== undefined && this.unread.get(node) === host) continue;
      this.enter(link, at, "diff");
      const lower = new Map((host === undefined ? [] : listHost(host, at, "diff")).map((e) => [e.name, e.st]));
      for (const [name, child] of childrenOf(link)) {
        const childPath = `${at}/${name}`;
        const st = lower.get(name);
        lower.delete(name);
        const mine = child.getNode();
        const sameType = st !== undefined && (st.mode & S_IFMT) === (mine.mode & S_IFMT);
        if (st === undefined) out.added.push(childPath);
        else if (!sameType || !this.unchanged(mine, st, `${host}/${name}`)) out.modified.push(childPath);
        if (mine.isDirectory()) stack.push([child, childPath, sameType ? `${host}/${name}` : undefined]);
      }
      for (const name of lower.keys()) out.deleted.push(`${at}/${name}`);
    }
    for (const list of Object.values(out)) list.sort();
    return out;
  }

  /** Whether an entry of the VM is still what the lower entry `host` (of the same type, `st`) is. */
  private unchanged(node: MemNode, st: nodeFs.Stats, host: string): boolean {
    if ((node.mode & 0o7777) !== (st.mode & 0o7777)) return false;
    if (node.isDirectory()) return true;
    if (node.isSymlink()) return node.symlink === nodeFs.readlinkSync(host);
    const lower = this.lowerFiles.get(node);
    return lower !== undefined && "host" in lower && lower.host === host && node.mtime.getTime() === st.mtime.getTime();
  }
}

/** The entries of a lower directory that the overlay shows (not FIFOs, sockets, devices), by lstat. */
function listHost(host: string, path: string, syscall: string): HostEntry[] {
  try {
    if (nodeFs.realpathSync.native(host) !== host)
      throw kerr("EACCES", { syscall, path, message: "the overlay's lower directory changed on the host" });
    const out: HostEntry[] = [];
    for (const name of nodeFs.readdirSync(host)) {
      const st = nodeFs.lstatSync(`${host}/${name}`);
      if (st.isFile() || st.isDirectory() || st.isSymbolicLink()) out.push({ name, st });
    }
    return out;
  } catch (e) {
    throw fsError(e, syscall, path);
  }
}
