import { constants as bufferConstants } from "node:buffer";
import type { Volume } from "memfs";

/**
 * What the VFS uses of memfs's internals (memfs 4.80.1, pinned in package.json): its superblock, the links
 * (directory entries) and nodes (inodes) under it, and a node's data buffer. The public fs API cannot say
 * when an inode is really gone, lets a rename over a file or a recursive rmdir leave nodes behind in the
 * inode table, and sizes a file's buffer on its own (doubling it); the VFS does those parts itself.
 */
export type Superblock = Volume["_core"];
export type Link = Superblock["root"];
export type MemNode = ReturnType<Link["getNode"]>;

/** The node fields memfs declares private: `size` bytes of `buf` are the file, `capacity` is `buf`'s length. */
interface Storage {
  buf: Buffer;
  capacity: number;
  size: number;
}
const storage = (node: MemNode): Storage => node as unknown as Storage;

/** The largest file a node can hold: one Buffer. */
export const MAX_FILE_BYTES = bufferConstants.MAX_LENGTH;

export function nodeSize(node: MemNode): number {
  return storage(node).size;
}

/** The file's bytes (a view of the node's buffer, valid until the file next changes). */
export function nodeData(node: MemNode): Uint8Array {
  const s = storage(node);
  return s.buf.subarray(0, s.size);
}

/** True while the node is in the inode table, i.e. some directory entry still names it. */
export function isLinked(core: Superblock, node: MemNode): boolean {
  return core.inodes[node.ino] === node;
}

/** The link at an absolute path with no symlinks in it (see path-lookup.ts); undefined when missing. */
export function linkAt(core: Superblock, path: string): Link | undefined {
  let link: Link | undefined = core.root;
  // Component by component without splitting: a deep path is walked at every system call.
  for (let from = 0; from < path.length; ) {
    let to = path.indexOf("/", from);
    if (to === -1) to = path.length;
    if (to > from) {
      if (!link.getNode().isDirectory()) return undefined;
      link = link.children.get(path.slice(from, to));
      if (!link) return undefined;
    }
    from = to + 1;
  }
  return link;
}

/**
 * The link at `path` (absolute, normalised; a symlink only as its last component, which is not followed)
 * found as memfs's stat and lstat find it, with the same failures: EACCES at a directory on the way
 * without search (x) permission, ENOTDIR below something that is not a directory, ENOENT for a missing
 * component. Without memfs's costs, which grow with the depth at every call: it parses the path again
 * and stamps every directory on the way with a new atime.
 */
export function statLink(core: Superblock, path: string): Link | "EACCES" | "ENOTDIR" | "ENOENT" {
  // Asked once: each is a call into the host's C++.
  const [uid, gid] = [process.getuid?.() ?? 0, process.getgid?.() ?? 0];
  let link: Link = core.root;
  let from = 1;
  while (from < path.length) {
    const to = path.indexOf("/", from);
    const name = path.slice(from, to === -1 ? undefined : to);
    from = to === -1 ? path.length : to + 1;
    const node = link.getNode();
    if (!node.isDirectory()) return "ENOTDIR";
    if (!node.canExecute(uid, gid)) return "EACCES";
    const child = link.children.get(name);
    if (!child || name === "." || name === "..") return "ENOENT";
    link = child;
  }
  return link;
}

/** What stat says of a node of the memory file system (its number fields, as memfs's Stats has them). */
export function nodeStats(node: MemNode): { mode: number; ino: number; nlink: number; size: number; atimeMs: number; mtimeMs: number; ctimeMs: number } {
  return {
    mode: node.mode,
    ino: node.ino,
    nlink: node.nlink,
    size: node.getSize(),
    atimeMs: node.atime.getTime(),
    mtimeMs: node.mtime.getTime(),
    ctimeMs: node.ctime.getTime(),
  };
}

/** A link's path: memfs keeps each link's components from the root (the root's own is ""). */
export function pathOf(link: Link): string {
  return link.steps.length <= 1 ? "/" : link.steps.join("/");
}

/** The entries of a directory link, without "." and "..". */
export function* childrenOf(link: Link): IterableIterator<[string, Link]> {
  for (const [name, child] of link.children) if (child && name !== "." && name !== "..") yield [name, child];
}

export function nodeCapacity(node: MemNode): number {
  return storage(node).capacity;
}

/** Files up to this size get buffers of their own; larger ones grow in place (see setCapacity). */
const IN_PLACE_FROM = 1 << 20;

/**
 * Gives a file's node a buffer of exactly `capacity` bytes (at least its size), keeping its content. The
 * quota decides how much (fs-quota.ts): memfs would double the buffer on its own whenever a write passes
 * its end, and keep a large buffer after a truncation. Only the first `size` bytes are ever read, and
 * memfs zero-fills any gap it writes past.
 *
 * A small file's buffer is one of its own (a small one from Node's shared pool would keep a whole 8 KiB
 * slab alive as long as the file lives). A file past IN_PLACE_FROM lives in a resizable ArrayBuffer that
 * reserves address space up to `reserve` bytes and commits memory as it grows: growing it copies nothing,
 * where copying a large file into a new buffer held the host's event loop for ~0.7 s at 1 GiB.
 */
export function setCapacity(node: MemNode, capacity: number, reserve: number): void {
  const s = storage(node);
  if (capacity < s.size) throw new Error(`memfs node ${node.ino}: capacity ${capacity} below size ${s.size}`);
  if (capacity === s.capacity) return;
  const current = s.buf.buffer as ArrayBuffer;
  if (current.resizable && capacity <= current.maxByteLength) {
    current.resize(capacity);
  } else {
    const buf =
      capacity < IN_PLACE_FROM
        ? Buffer.allocUnsafeSlow(capacity)
        : Buffer.from(new ArrayBuffer(capacity, { maxByteLength: Math.max(capacity, reserve) }));
    if (s.size > 0) s.buf.copy(buf, 0, 0, s.size);
    s.buf = buf;
    s.capacity = capacity;
    return;
  }
  s.buf = Buffer.from(current, 0, capacity);
  s.capacity = capacity;
}
