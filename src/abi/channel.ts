/**
 * The shared-memory channel one process host uses to make system calls to its kernel.
 *
 * Protocol: the worker writes OP, ARGs and the request payload, stores STATE=REQUEST and notifies;
 * then it `Atomics.wait`s while STATE is REQUEST. The kernel, woken by `Atomics.waitAsync` on STATE,
 * writes RET, OUTs and the reply payload, stores STATE=RESPONSE and notifies. Stores of STATE are the
 * only synchronisation; every other slot is written before and read after them.
 */
export const Slot = {
  STATE: 0,
  OP: 1,
  ARG0: 2, // ARG0..ARG5
  LEN: 8,
  RET: 9,
  OUT0: 10, // OUT0..OUT3
  RLEN: 14,
  /**
   * The guest's linear memory size in 64 KiB pages, written by the worker with every request (pages, not
   * bytes, so that 4 GiB still fits an i32). The kernel charges it to the VM (guest-memory-account.ts).
   */
  MEMORY_PAGES: 15,
  /** Set by the kernel with each answer: whether the worker may watch for the next one before parking. */
  SPIN: 16,
  /**
   * Which came first (a Start value): the worker that took the process's task starting it, or the kernel
   * giving up on a process killed before that. A process killed while its task waits for a worker then
   * never runs, and the worker that takes the task need not be stopped (pool-process.ts).
   */
  START: 17,
} as const;

export const State = { RESPONSE: 0, REQUEST: 1 } as const;
export const Start = { PENDING: 0, STARTED: 1, CANCELLED: 2 } as const;

const HEADER_BYTES = 128;
const ARG_COUNT = 6;
const OUT_COUNT = 4;

/**
 * How long (in STATE loads, ~16 ns each here) each side watches for the other before it parks. The worker
 * has nothing else to do meanwhile; the kernel's thread serves every process, so it watches less.
 */
const WORKER_SPIN = 20_000;
const KERNEL_SPIN = 4_000;

/** RET value meaning "the process was killed": the host unwinds the guest instead of returning. */
export const RET_KILLED = -1;

/** Payload capacity of one channel: larger transfers are split by the host, reads are capped by it. */
export const CHANNEL_DATA_BYTES = 256 * 1024;

export class Channel {
  readonly i32: Int32Array;
  /** The payload area (request and reply share it). */
  readonly data: Uint8Array;
  readonly view: DataView;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.i32 = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.data = new Uint8Array(buffer, HEADER_BYTES);
    this.view = new DataView(buffer, HEADER_BYTES);
  }

  /** The worker's side: whether it may start the process (the kernel did not cancel it first). */
  claimStart(): boolean {
    return Atomics.compareExchange(this.i32, Slot.START, Start.PENDING, Start.STARTED) === Start.PENDING;
  }

  /** The kernel's side: whether it kept the process from starting (no worker had started it). */
  cancelStart(): boolean {
    return Atomics.compareExchange(this.i32, Slot.START, Start.PENDING, Start.CANCELLED) === Start.PENDING;
  }

  static allocate(): Channel {
    return new Channel(new SharedArrayBuffer(HEADER_BYTES + CHANNEL_DATA_BYTES));
  }

  get op(): number {
    return this.i32[Slot.OP]!;
  }
  arg(i: number): number {
    if (i >= ARG_COUNT) throw new RangeError(`channel arg ${i}`);
    return this.i32[Slot.ARG0 + i]!;
  }
  /** Unsigned view of an argument slot. */
  uarg(i: number): number {
    return this.arg(i) >>> 0;
  }
  get requestLength(): number {
    return this.i32[Slot.LEN]!;
  }
  out(i: number): number {
    if (i >= OUT_COUNT) throw new RangeError(`channel out ${i}`);
    return this.i32[Slot.OUT0 + i]!;
  }
  setOut(i: number, value: number): void {
    if (i >= OUT_COUNT) throw new RangeError(`channel out ${i}`);
    this.i32[Slot.OUT0 + i] = value;
  }
  get ret(): number {
    return this.i32[Slot.RET]!;
  }
  get replyLength(): number {
    return this.i32[Slot.RLEN]!;
  }
  /** The guest's memory size in pages as of the pending request (written before STATE, like the ARGs). */
  get memoryPages(): number {
    return this.i32[Slot.MEMORY_PAGES]!;
  }

  // ---- worker side ----

  /** Makes one call, reporting the guest's memory size in pages, and blocks until the kernel answers; returns RET. */
  call(op: number, args: readonly number[], payloadLength: number, memoryPages: number): number {
    const i32 = this.i32;
    i32[Slot.MEMORY_PAGES] = memoryPages;
    i32[Slot.OP] = op;
    for (let i = 0; i < args.length; i++) i32[Slot.ARG0 + i] = args[i]! | 0;
    i32[Slot.LEN] = payloadLength;
    Atomics.store(i32, Slot.STATE, State.REQUEST);
    Atomics.notify(i32, Slot.STATE);
    if (i32[Slot.SPIN] === 0 || !this.spinWhile(State.REQUEST, WORKER_SPIN))
      while (Atomics.load(i32, Slot.STATE) === State.REQUEST) Atomics.wait(i32, Slot.STATE, State.REQUEST);
    return i32[Slot.RET]!;
  }

  /**
   * Watches STATE for a short while, in case the other side answers at once: most system calls take the
   * kernel microseconds and guests make them in bursts, while a sleeping thread takes tens of
   * microseconds to wake (measured: ~50 µs per round trip parked, under 1 µs spinning). True when STATE
   * left `state` in time; the caller then parks as usual.
   */
  spinWhile(state: number, iterations = KERNEL_SPIN): boolean {
    for (let i = 0; i < iterations; i++) if (Atomics.load(this.i32, Slot.STATE) !== state) return true;
    return false;
  }

  // ---- kernel side ----

  get hasRequest(): boolean {
    return Atomics.load(this.i32, Slot.STATE) === State.REQUEST;
  }

  /** Answers the pending request. */
  /**
   * Answers the pending request. `spin` tells the worker whether watching for its next answer is worth
   * a core: it is not when other guests are computing, which its watching would slow down.
   */
  respond(ret: number, replyLength: number, spin: boolean): void {
    this.i32[Slot.SPIN] = spin ? 1 : 0;
    this.i32[Slot.RET] = ret;
    this.i32[Slot.RLEN] = replyLength;
    Atomics.store(this.i32, Slot.STATE, State.RESPONSE);
    Atomics.notify(this.i32, Slot.STATE);
  }

  /** Resolves when a request is pending (at once if one already is). */
  nextRequest(): Promise<void> | undefined {
    const r = Atomics.waitAsync(this.i32, Slot.STATE, State.RESPONSE);
    return r.async ? r.value.then(() => undefined) : undefined;
  }

  /** Wakes a kernel waiting in nextRequest() without a request (used when the process ends). */
  wakeKernel(): void {
    Atomics.notify(this.i32, Slot.STATE);
  }
}

/** Packs byte fields as `u32 length, bytes` one after another into `data`; returns the total length. */
export function packFields(data: Uint8Array, fields: readonly Uint8Array[]): number {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let off = 0;
  for (const f of fields) {
    if (off + 4 + f.length > data.length) throw new RangeError("channel payload too large");
    view.setUint32(off, f.length, true);
    data.set(f, off + 4);
    off += 4 + f.length;
  }
  return off;
}

/** Reads fields packed by packFields; the results are copies. */
export function unpackFields(data: Uint8Array, length: number): Uint8Array[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out: Uint8Array[] = [];
  let off = 0;
  while (off < length) {
    const n = view.getUint32(off, true);
    out.push(data.slice(off + 4, off + 4 + n));
    off += 4 + n;
  }
  return out;
}
