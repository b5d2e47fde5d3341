import { FileType } from "../abi/wasi.js";
import type { FileStat } from "../abi/filestat.js";
import { kerr } from "./kernel-error.js";
import { OpenFile } from "./open-file.js";
import type { DirEntry, Vfs } from "./vfs.js";

/** An open directory: reads fail with EISDIR; entries are listed through readdir. */
export class DirectoryFile extends OpenFile {
  readonly filetype = FileType.DIRECTORY;
  override readonly writable = false;
  constructor(
    private readonly vfs: Vfs,
    override readonly path: string,
  ) {
    super();
  }
  read(): number {
    throw kerr("EISDIR", { syscall: "read", path: this.path });
  }
  write(): number {
    throw kerr("EISDIR", { syscall: "write", path: this.path });
  }
  override stat(): FileStat {
    return this.vfs.stat(this.path);
  }
  override mode(): number {
    return this.vfs.mode(this.path);
  }
  /** A directory has no offset for fd_seek and fd_tell (its read position is readdir's cookie), as wasmtime answers. */
  override seek(): number {
    throw kerr("EISDIR", { syscall: "seek", path: this.path });
  }
  override pread(): number {
    throw kerr("EISDIR", { syscall: "pread", path: this.path });
  }
  override pwrite(): number {
    throw kerr("EISDIR", { syscall: "pwrite", path: this.path });
  }
  override allocate(): void {
    throw kerr("EBADF", { syscall: "fallocate", path: this.path, message: "not open for writing" });
  }

  private listing: DirEntry[] | undefined;

  /**
   * The entries from `cookie` on, "." and ".." first as WASI hosts list them. The listing is taken when a
   * reader starts at cookie 0 and kept for the rest of that pass, so that a guest reading a large
   * directory in many small calls does not make the kernel list it again for each one.
   */
  entriesFrom(cookie: number): DirEntry[] {
    if (cookie === 0 || !this.listing) {
      this.listing = [
        { name: ".", filetype: FileType.DIRECTORY, ino: this.vfs.stat(this.path).ino },
        { name: "..", filetype: FileType.DIRECTORY, ino: 0 },
        ...this.vfs.readdir(this.path),
      ];
    }
    return this.listing.slice(cookie);
  }
}
