import { FileType } from "../abi/wasi.js";
import type { FileStat } from "../abi/filestat.js";
import { kerr } from "./kernel-error.js";
import { OpenFile } from "./open-file.js";

/**
 * A file of an image layer (image.ts), open for reading: reads come from the image's bytes, shared by every VM,
 * which nothing here can change. fstat shows the VM's entry (its inode, mode and times).
 */
export class ImageFile extends OpenFile {
  readonly filetype = FileType.REGULAR_FILE;
  override readonly writable = false;
  private position = 0;

  constructor(
    private readonly bytes: Uint8Array,
    override readonly path: string,
    private readonly standsFor: { stat(): FileStat; mode(): number },
  ) {
    super();
  }

  read(target: Uint8Array): number {
    const n = this.pread(target, this.position);
    this.position += n;
    return n;
  }
  override pread(target: Uint8Array, offset: number): number {
    if (offset >= this.bytes.length) return 0;
    const part = this.bytes.subarray(offset, offset + target.length);
    target.set(part);
    return part.length;
  }
  write(): number {
    throw kerr("EBADF", { syscall: "write", path: this.path });
  }
  override pwrite(): number {
    throw kerr("EBADF", { syscall: "pwrite", path: this.path });
  }
  override allocate(): void {
    throw kerr("EBADF", { syscall: "fallocate", path: this.path, message: "not open for writing" });
  }
  override truncate(): void {
    throw kerr("EINVAL", { syscall: "ftruncate", path: this.path, message: "not open for writing" });
  }
  override seek(offset: number, whence: number): number {
    const base = whence === 0 ? 0 : whence === 1 ? this.position : this.bytes.length;
    const next = base + offset;
    if (next < 0) throw kerr("EINVAL", { syscall: "seek", path: this.path });
    this.position = next;
    return next;
  }
  override stat(): FileStat {
    return this.standsFor.stat();
  }
  override mode(): number {
    return this.standsFor.mode();
  }
}
