import { WASM_PAGE_BYTES } from "../src/abi/process-task.js";

/** Access to a guest's linear memory. The buffer changes when the guest grows its memory, so views are made per use. */
export class GuestMemory {
  private memory: WebAssembly.Memory | undefined;

  attach(memory: WebAssembly.Memory): void {
    this.memory = memory;
  }
  /** The memory's size in pages (0 before one is attached): reported to the kernel with every system call. */
  get pages(): number {
    return this.memory ? this.memory.buffer.byteLength / WASM_PAGE_BYTES : 0;
  }
  get view(): DataView {
    return new DataView(this.memory!.buffer);
  }
  get bytes(): Uint8Array {
    return new Uint8Array(this.memory!.buffer);
  }
  slice(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.memory!.buffer, ptr, len);
  }
  u32(ptr: number, value: number): void {
    this.view.setUint32(ptr, value >>> 0, true);
  }
  u64(ptr: number, value: bigint | number): void {
    this.view.setBigUint64(ptr, BigInt(value), true);
  }
}
