import { afterEach, describe, expect, it, vi } from "vitest";
import type { Kernel } from "../src/kernel/kernel.js";
import { MemoryBudget } from "../src/kernel/memory-budget.js";
import { OpenFile, type Readiness } from "../src/kernel/open-file.js";
import { Pipe } from "../src/kernel/pipe.js";
import { pollFiles, type PollSubscription } from "../src/kernel/poll.js";
import type { Process } from "../src/kernel/process.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A pipe whose ends are held as a process's fds would hold them. */
function openPipe(capacity: number): Pipe {
  const pipe = new Pipe(new MemoryBudget(1 << 20), capacity);
  pipe.readEnd.retain();
  pipe.writeEnd.retain();
  return pipe;
}

/** Kernel.park without a process to kill: pollFiles only needs that. */
const kernel = { park: (_p: Process, register: (resolve: (n: number) => void) => () => void) => new Promise<number>((r) => register(r)) } as unknown as Kernel;
const proc = {} as Process;

/** A file that is ready once `ready` is set, and counts the watchers it holds. */
class Gate extends OpenFile {
  readonly filetype = 0;
  ready = false;
  readonly wakers = new Set<() => void>();
  read(): number {
    return 0;
  }
  write(): number {
    return 0;
  }
  override readiness(): Readiness {
    return { ready: this.ready, nbytes: 0, hangup: false };
  }
  override watchReadiness(wake: () => void): () => void {
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }
  open(): void {
    this.ready = true;
    for (const w of [...this.wakers]) w();
  }
}

/** What each poll answered: which subscriptions were ready, and whether the timeout passed. */
let answers: Array<{ ready: boolean[]; timedOut: boolean }> = [];
const states = (subs: PollSubscription[], timeoutMs: number | undefined): number | Promise<number> =>
  pollFiles(kernel, proc, subs, timeoutMs, (st, timedOut) => {
    answers.push({ ready: st.map((r) => r.ready), timedOut });
    return 0;
  });

afterEach(() => {
  answers = [];
  vi.useRealTimers();
});

describe("pipe: NONBLOCK writes and readiness", () => {
  it("a non-blocking write takes what fits below the capacity, then EAGAIN; a read makes room", () => {
    const pipe = openPipe(8);
    expect(pipe.writeNonblocking(bytes("0123456789"))).toBe(8);
    expect(() => pipe.writeNonblocking(bytes("x"))).toThrow(expect.objectContaining({ code: "EAGAIN" }));
    expect(pipe.readiness("write")).toEqual({ ready: false, nbytes: 0, hangup: false });
    expect(pipe.read(new Uint8Array(3))).toBe(3);
    expect(pipe.readiness("write")).toEqual({ ready: true, nbytes: 3, hangup: false });
    expect(pipe.writeNonblocking(bytes("abcdef"))).toBe(3);
  });

  it("readiness: data or end of file for readers, room or no reader (hang-up) for writers", () => {
    const pipe = openPipe(4);
    expect(pipe.readiness("read")).toEqual({ ready: false, nbytes: 0, hangup: false });
    void pipe.write(bytes("ab"));
    expect(pipe.readiness("read")).toEqual({ ready: true, nbytes: 2, hangup: false });
    pipe.writeEnd.release();
    expect(pipe.readiness("read")).toEqual({ ready: true, nbytes: 2, hangup: true });
    const other = openPipe(4);
    other.readEnd.release();
    expect(other.readiness("write")).toMatchObject({ ready: true, hangup: true });
    expect(() => other.writeNonblocking(bytes("x"))).toThrow(expect.objectContaining({ code: "EPIPE" }));
  });

  it("watchers are told when readiness may have changed, until removed", () => {
    const pipe = openPipe(4);
    const wake = vi.fn();
    const unwatch = pipe.watch(wake);
    void pipe.write(bytes("a"));
    expect(wake).toHaveBeenCalledTimes(1);
    unwatch();
    void pipe.write(bytes("b"));
    pipe.writeEnd.release();
    expect(wake).toHaveBeenCalledTimes(1);
  });
});

describe("pollFiles", () => {
  it("answers at once when a subscription is ready or the timeout is 0, without watching anything", () => {
    const gate = new Gate();
    const pipe = openPipe(4);
    expect(states([{ file: gate, op: "read" }, { file: pipe.writeEnd, op: "write" }], undefined)).toBe(0);
    expect(answers).toEqual([{ ready: [false, true], timedOut: false }]);
    expect(states([{ file: gate, op: "read" }], 0)).toBe(0);
    expect(answers[1]).toEqual({ ready: [false], timedOut: true });
    expect(gate.wakers.size).toBe(0);
  });

  it("a bad fd is ready at once", () => {
    expect(states([{ file: undefined, op: "read" }], undefined)).toBe(0);
    expect(answers).toEqual([{ ready: [true], timedOut: false }]);
  });

  it("waits until a file becomes ready, then removes every watcher and its timer", async () => {
    vi.useFakeTimers();
    const a = new Gate();
    const b = new Gate();
    const waiting = states([{ file: a, op: "read" }, { file: b, op: "write" }], 60_000);
    expect(a.wakers.size + b.wakers.size).toBe(2);
    expect(vi.getTimerCount()).toBe(1);
    b.open();
    await waiting;
    expect(answers).toEqual([{ ready: [false, true], timedOut: false }]);
    expect(a.wakers.size + b.wakers.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a spurious wake does not end the wait; the timeout does, once, and leaves nothing behind", async () => {
    vi.useFakeTimers();
    const a = new Gate();
    const waiting = states([{ file: a, op: "read" }], 50);
    for (const w of [...a.wakers]) w(); // woken, but still not ready
    expect(answers).toEqual([]);
    await vi.advanceTimersByTimeAsync(50);
    await waiting;
    expect(answers).toEqual([{ ready: [false], timedOut: true }]);
    expect(a.wakers.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
