import type { Channel } from "../abi/channel.js";
import { WASM_PAGE_BYTES } from "../abi/process-task.js";
import { Signal } from "../abi/wasi.js";
import type { Kernel } from "./kernel.js";
import type { Process } from "./process.js";

/**
 * Guest linear memory counted against the VM's memory budget (`k.memory`, kind "guest").
 *
 * Each guest's memory is capped by its own maximum (Limits.maxProcessMemoryBytes, enforced by the memory
 * itself in the worker). What all of a VM's guests hold together is counted here: the worker reports its
 * memory size with every system call (Slot.MEMORY_PAGES), and the kernel charges the difference since the
 * last call. When the VM's budget cannot cover a growth, the process is killed like by an OOM killer; the
 * memory is already the guest's, so there is no error a system call could return instead. Between two
 * system calls a guest can hold more than it was charged, by at most its own cap.
 *
 * The process's runner (pool-process.ts, node-process.ts) opens the account when it starts the guest; the
 * kernel releases it when the process gives back its slots (Kernel.exitProcess): at its exit, or, if its
 * worker had to be stopped, once that worker has ended and its memory is the host's again.
 */

/** Starts counting `p`'s guest memory (nothing is charged until its first system call). */
export function openGuestMemory(p: Process): void {
  p.guestPagesCharged = 0;
}

/**
 * Charges `p` for its memory as reported with the pending request. Called for every request, so the
 * common case (no change since the last call) is one read of the slot and one comparison.
 */
export function chargeGuestMemory(k: Kernel, p: Process, ch: Channel): void {
  const pages = ch.memoryPages;
  const before = p.guestPagesCharged;
  if (pages === before || before === undefined) return; // unchanged, or not counted (the account is closed)
  // A guest `node` reports memory its heap limit does not bound (ArrayBuffers): the process limit holds for it too.
  if (pages * WASM_PAGE_BYTES > k.limits.maxProcessMemoryBytes && p.killedBy === undefined) {
    p.tellStderr(`${p.command}: out of memory (process limit ${k.limits.maxProcessMemoryBytes} bytes)\n`);
    return p.kill(Signal.SIGKILL);
  }
  if (pages < before) {
    k.memory.give("guest", (before - pages) * WASM_PAGE_BYTES);
  } else if (!k.memory.tryTake("guest", (pages - before) * WASM_PAGE_BYTES)) {
    // The charge stays as it was: the process is about to end and give back what it was charged.
    if (p.killedBy === undefined) {
      p.tellStderr(`${p.command}: out of memory (VM limit ${k.limits.maxVmMemoryBytes} bytes)\n`);
      p.kill(Signal.SIGKILL);
    }
    return;
  }
  p.guestPagesCharged = pages;
}

/** Gives back all `p` was charged and stops counting it: requests that arrive later charge nothing. */
export function releaseGuestMemory(k: Kernel, p: Process): void {
  const pages = p.guestPagesCharged;
  p.guestPagesCharged = undefined;
  if (pages) k.memory.give("guest", pages * WASM_PAGE_BYTES);
}
