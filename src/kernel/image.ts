import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { BLOCK, parseHeader, parsePax } from "../gnu/tar-format.js";
import { hostDirectory } from "./host-mount.js";
import { kerr } from "./kernel-error.js";
import { S_IFDIR, S_IFLNK, S_IFMT, S_IFREG } from "./file-stat.js";

/** One entry of an image: a directory (entries), a regular file (data) or a symlink (target). */
export interface ImageNode {
  /** st_mode, type bits included. */
  readonly mode: number;
  readonly mtimeMs: number;
  readonly entries?: ReadonlyMap<string, ImageNode>;
  readonly data?: Uint8Array;
  readonly target?: string;
}

/** What a path of Image.fromFiles holds: a file's content, or an entry described. */
export type ImageEntry =
  | string
  | Uint8Array
  | { data: string | Uint8Array; mode?: number }
  | { symlink: string }
  | { directory: true; mode?: number };

interface Building {
  mode: number;
  mtimeMs: number;
  entries?: Map<string, Building>;
  data?: Uint8Array;
  target?: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const DIR_MODE = 0o755;
const FILE_MODE = 0o644;

/**
 * A read-only file-system image: a tree of directories, files and symlinks held once in the host process and
 * shared by every VM created with it as a layer (`AgentOs.create({ layers })`). A VM sees the image's files in
 * its own root, below what it writes itself: the kernel brings an image directory's entries in when a lookup or
 * a listing first enters it (overlay.ts), serves reads from the image's bytes, and copies a file up into the
 * VM's memory only when the VM writes it. Nothing a VM does changes an image.
 *
 * Build one once and pass it to every VM: each `from…` call reads its source again. Paths are absolute in the
 * image; symlinks are the VM's symlinks, resolved in the VM's namespace. Hard links of a tarball become files
 * of their own with the same bytes.
 */
export class Image {
  private constructor(
    /** The image's root directory. */
    readonly root: ImageNode,
    /** Files, directories and symlinks in it (the root not counted). */
    readonly entries: number,
    /** Bytes of its files. */
    readonly bytes: number,
  ) {}

  /**
   * An image whose only content is the directory `path`, holding the root of the image `load` returns, which
   * is called when a lookup or a listing first enters `path` (of any VM), once: a large tree that only some
   * VMs use (the Python standard library) costs a host process nothing until one does.
   */
  static deferred(path: string, load: () => Image): Image {
    const names = normalize(path).split("/").slice(1);
    const now = Date.now();
    let loaded: ImageNode | undefined;
    let node: ImageNode = Object.freeze({
      mode: S_IFDIR | DIR_MODE,
      mtimeMs: now,
      get entries(): ReadonlyMap<string, ImageNode> {
        return (loaded ??= load().root).entries!;
      },
    });
    for (let i = names.length - 1; i >= 0; i--) node = Object.freeze({ mode: S_IFDIR | DIR_MODE, mtimeMs: now, entries: new Map([[names[i]!, node]]) });
    return new Image(node, names.length, 0);
  }

  private static built(tree: Tree): Image {
    const { root, entries, bytes } = tree.freeze();
    return new Image(root, entries, bytes);
  }

  /**
   * An image of the files given by absolute path: a string or bytes is a file (mode 0644), `{ data, mode }` a
   * file with its mode, `{ symlink }` a symbolic link, `{ directory: true }` a directory (0755). Missing parent
   * directories are made (0755). Every entry gets the time of the call as its times.
   */
  static fromFiles(files: Record<string, ImageEntry>): Image {
    if (typeof files !== "object" || files === null) throw new TypeError("Image.fromFiles takes an object of paths");
    const now = Date.now();
    const tree = new Tree(now);
    for (const [path, entry] of Object.entries(files)) {
      if (typeof entry === "string" || entry instanceof Uint8Array) tree.add(path, { mode: S_IFREG | FILE_MODE, mtimeMs: now, data: bytesOf(entry) });
      else if (typeof entry === "object" && entry !== null && "symlink" in entry && typeof entry.symlink === "string")
        tree.add(path, { mode: S_IFLNK | 0o777, mtimeMs: now, target: entry.symlink });
      else if (typeof entry === "object" && entry !== null && "directory" in entry && entry.directory === true)
        tree.add(path, { mode: S_IFDIR | permissions(entry.mode, DIR_MODE, path), mtimeMs: now, entries: new Map() });
      else if (typeof entry === "object" && entry !== null && "data" in entry && (typeof entry.data === "string" || entry.data instanceof Uint8Array))
        tree.add(path, { mode: S_IFREG | permissions(entry.mode, FILE_MODE, path), mtimeMs: now, data: bytesOf(entry.data) });
      else throw new TypeError(`Image.fromFiles: ${path}: a string, bytes, { data, mode }, { symlink } or { directory: true }`);
    }
    return Image.built(tree);
  }

  /**
   * An image of host directory `hostDir` as it is now: its directories, regular files (read into memory) and
   * symlinks, with their permissions and modification times. FIFOs, sockets and devices are left out.
   */
  static fromDirectory(hostDir: string): Image {
    const top = hostDirectory(hostDir);
    const st = lstatSync(top);
    const tree = new Tree(st.mtimeMs, st.mode & 0o7777);
    // Depth first without recursion: [host path, image path].
    const stack: Array<[string, string]> = [[top, ""]];
    while (stack.length > 0) {
      const [host, at] = stack.pop()!;
      for (const name of readdirSync(host)) {
        const from = `${host}/${name}`;
        const path = `${at}/${name}`;
        const s = lstatSync(from);
        const mode = s.mode & 0o7777;
        if (s.isDirectory()) {
          tree.add(path, { mode: S_IFDIR | mode, mtimeMs: s.mtimeMs, entries: new Map() });
          stack.push([from, path]);
        } else if (s.isFile()) tree.add(path, { mode: S_IFREG | mode, mtimeMs: s.mtimeMs, data: new Uint8Array(readFileSync(from)) });
        else if (s.isSymbolicLink()) tree.add(path, { mode: S_IFLNK | 0o777, mtimeMs: s.mtimeMs, target: readlinkSync(from) });
      }
    }
    return Image.built(tree);
  }

  /**
   * An image of a tar archive (ustar, GNU or pax; gzip-compressed or not), its member names taken as paths from
   * the root. Directories, regular files, symlinks and hard links come in; other members are left out.
   */
  static fromTar(archive: Uint8Array): Image {
    if (!(archive instanceof Uint8Array)) throw new TypeError("Image.fromTar takes the archive's bytes");
    const tar = archive[0] === 0x1f && archive[1] === 0x8b ? new Uint8Array(gunzipSync(archive)) : archive;
    const tree = new Tree(Date.now());
    const files = new Map<string, Uint8Array>();
    let longName: string | undefined;
    let longLink: string | undefined;
    let pax = new Map<string, string>();
    for (let off = 0; off + BLOCK <= tar.length; ) {
      const parsed = parseHeader(tar.subarray(off, off + BLOCK));
      if (parsed.kind === "zero") break;
      if (parsed.kind === "bad") throw kerr("EINVAL", { syscall: "image", message: `not a tar archive (a bad header at byte ${off})` });
      const e = parsed.entry;
      const data = tar.subarray(off + BLOCK, off + BLOCK + e.size);
      if (data.length < e.size) throw kerr("EINVAL", { syscall: "image", message: `the tar archive ends inside ${e.name}` });
      off += BLOCK + Math.ceil(e.size / BLOCK) * BLOCK;
      if (e.type === "L") longName = decoder.decode(data).replace(/\0+$/, "");
      else if (e.type === "K") longLink = decoder.decode(data).replace(/\0+$/, "");
      else if (e.type === "x") pax = parsePax(data);
      else if (e.type !== "g") {
        const name = pax.get("path") ?? longName ?? e.name;
        const link = pax.get("linkpath") ?? longLink ?? e.linkname;
        const mtimeMs = Number(pax.get("mtime") ?? e.mtime) * 1000;
        [longName, longLink, pax] = [undefined, undefined, new Map()];
        const path = `/${name}`.replace(/\/+$/, "");
        if (path === "" || path === "/.") continue;
        if (e.type === "5") tree.add(path, { mode: S_IFDIR | (e.mode & 0o7777), mtimeMs, entries: new Map() });
        else if (e.type === "2") tree.add(path, { mode: S_IFLNK | 0o777, mtimeMs, target: link });
        else if (e.type === "0" || e.type === "1") {
          const bytes = e.type === "1" ? files.get(normalize(`/${link}`)) : new Uint8Array(data);
          if (!bytes) throw kerr("EINVAL", { syscall: "image", path, message: `a hard link to ${link}, which the archive has not given before` });
          files.set(normalize(path), bytes);
          tree.add(path, { mode: S_IFREG | (e.mode & 0o7777), mtimeMs, data: bytes });
        }
      }
    }
    return Image.built(tree);
  }
}

/** The tree an image is built in: later entries of a path replace earlier ones, as a tar extraction does. */
class Tree {
  private readonly root: Building;

  constructor(private readonly now: number, rootMode = DIR_MODE) {
    this.root = { mode: S_IFDIR | rootMode, mtimeMs: now, entries: new Map() };
  }

  add(path: string, node: Building): void {
    const names = normalize(path).split("/").slice(1);
    const last = names.pop();
    if (last === undefined || last === "") throw kerr("EINVAL", { syscall: "image", path, message: "an image entry needs an absolute path below /" });
    let dir = this.root;
    for (const name of names) {
      let next = dir.entries!.get(name);
      if (!next?.entries) dir.entries!.set(name, (next = { mode: S_IFDIR | DIR_MODE, mtimeMs: this.now, entries: new Map() }));
      dir = next;
    }
    const old = dir.entries!.get(last);
    // A directory given again keeps what is in it (tar archives list a directory before and after its files).
    if (old?.entries && node.entries) dir.entries!.set(last, { ...node, entries: old.entries });
    else dir.entries!.set(last, node);
  }

  freeze(): { root: ImageNode; entries: number; bytes: number } {
    let entries = 0;
    let bytes = 0;
    const freeze = (b: Building): ImageNode => {
      if (b.data) bytes += b.data.length;
      if (!b.entries) return Object.freeze({ ...b });
      const out = new Map<string, ImageNode>();
      for (const [name, child] of b.entries) {
        entries++;
        out.set(name, freeze(child));
      }
      return Object.freeze({ mode: b.mode, mtimeMs: b.mtimeMs, entries: out });
    };
    const root = freeze(this.root);
    return { root, entries, bytes };
  }
}

/** An absolute image path with `.`, `..` (not above the root) and repeated slashes resolved. */
function normalize(path: string): string {
  if (typeof path !== "string" || !path.startsWith("/")) throw kerr("EINVAL", { syscall: "image", path: String(path), message: "image paths are absolute" });
  const out: string[] = [];
  for (const name of path.split("/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") {
      if (out.pop() === undefined) throw kerr("EINVAL", { syscall: "image", path, message: "an image path climbs above its root" });
    } else out.push(name);
  }
  return `/${out.join("/")}`;
}

function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : new Uint8Array(data);
}

function permissions(mode: number | undefined, fallback: number, path: string): number {
  if (mode === undefined) return fallback;
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) throw new TypeError(`Image.fromFiles: ${path}: mode must be an integer from 0 to 0o7777`);
  return mode;
}

/** Whether an image node is a directory. */
export const isImageDir = (n: ImageNode): boolean => (n.mode & S_IFMT) === S_IFDIR;
