/**
 * The wake ring of a process whose guest runs its own event loop (`node`): a shared buffer the kernel
 * appends readiness events to, so the guest waits with `Atomics.waitAsync` instead of polling. An event is
 * one-shot: the guest asks for it with Sys.ARM, and arming checks the level at once, so a wake-up cannot
 * be lost between a guest's last EAGAIN and its wait.
 *
 * Layout (i32 slots): TAIL (events written, kernel; the word the guest waits on), HEAD (events consumed,
 * guest), OVERFLOW (the kernel found the ring full and dropped events: the guest re-arms everything it
 * waits for), then WAKE_ENTRIES pairs `(fd, events)`.
 */
export const WakeSlot = { TAIL: 0, HEAD: 1, OVERFLOW: 2 } as const;

export const WakeEvent = { READ: 1, WRITE: 2 } as const;

const HEADER_SLOTS = 4;
/** Two interests (read, write) per fd of a process with the default maxOpenFds fit without overflow. */
export const WAKE_ENTRIES = 2048;

export const allocateWakeRing = (): SharedArrayBuffer => new SharedArrayBuffer((HEADER_SLOTS + 2 * WAKE_ENTRIES) * 4);

/** The slot of entry `n`'s fd; its events follow. */
export const wakeEntrySlot = (n: number): number => HEADER_SLOTS + 2 * (n % WAKE_ENTRIES);
