import { FileType } from "../abi/wasi.js";
import type { FileStat } from "../abi/filestat.js";

/** Stat results of memfs and of the host as the kernel reports them (abi/filestat.ts). */

export const S_IFMT = 0o170000;
export const S_IFREG = 0o100000;
export const S_IFDIR = 0o040000;
export const S_IFLNK = 0o120000;
export const S_IFSOCK = 0o140000;

const typeOfMode: Record<number, number> = {
  0o040000: FileType.DIRECTORY,
  0o100000: FileType.REGULAR_FILE,
  0o120000: FileType.SYMBOLIC_LINK,
  0o020000: FileType.CHARACTER_DEVICE,
  0o060000: FileType.BLOCK_DEVICE,
  0o140000: FileType.SOCKET_STREAM,
};

/** The WASI file type of an st_mode (UNKNOWN for a FIFO, which WASI has no type for). */
export const fileTypeOf = (mode: number): number => typeOfMode[mode & S_IFMT] ?? FileType.UNKNOWN;

/** Device numbers: the memory file system, and host-directory mounts (so that inode numbers never mix). */
export const MEMORY_DEV = 1;
export const HOST_DEV = 2;

/** What memfs's and node:fs's Stats both have (number fields unless asked for bigint). */
export interface NodeStats {
  mode: number;
  ino: number | bigint;
  nlink: number | bigint;
  size: number | bigint;
  atimeMs: number | bigint;
  mtimeMs: number | bigint;
  ctimeMs: number | bigint;
}

export function toFileStat(st: NodeStats, dev: number): FileStat {
  return {
    dev,
    ino: Number(st.ino),
    filetype: fileTypeOf(st.mode),
    nlink: Number(st.nlink),
    size: Number(st.size),
    atimeMs: Number(st.atimeMs),
    mtimeMs: Number(st.mtimeMs),
    ctimeMs: Number(st.ctimeMs),
    mode: st.mode,
  };
}
