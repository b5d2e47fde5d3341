import { describe, expect, it } from "vitest";
import { AgentOs, type Limits } from "../src/index.js";
import { createVm, result } from "./helpers.js";
import { LATE_MS, RUN_DEADLINE_MS } from "./deadlines.js";
import { dyingPoolWorkers, poolWorkerEnded, stoppedPoolWorkers } from "../src/pool/dying-workers.js";
import { processPool } from "../src/pool/process-pool.js";

/**
 * Attacks a guest or a careless caller can make, scaled down with small limits. Each asserts what a user
 * cares about: the exec ends with a defined result within its deadline, the host's memory grew less than
 * a stated bound, a file written before reads back intact, and the VM still answers afterwards.
 * `pnpm test:adversarial` runs the full-size attacks with the default limits, each in its own process.
 */

const MiB = 2 ** 20;
/**
 * Host RSS growth allowed per attack: the limits below keep each under it. The largest is 16 processes at
 * once (maxProcesses), each a pool worker with its guest: with uutils coreutils (one 10 MB binary whose
 * 3.7 MB of data every instance copies into its 4.6 MiB memory) 120 execs of `echo i | cat` measured
 * 420–450 MiB in a fresh process and 359 MiB in the suite, against 306–312 MiB for the published cat (3
 * runs each, scratch measurement); per-utility binaries would bring it back down.
 */
const RSS_BOUND = 512 * MiB;
/** Slack on a deadline for a loaded machine (test/deadlines.ts); the full-size runner reports exact overshoots. */
const DEADLINE_SLACK_MS = LATE_MS;

const SMALL: Partial<Limits> = {
  maxOutputBytes: 1 * MiB,
  maxVmMemoryBytes: 256 * MiB,
  maxProcesses: 16,
  pipeBufferBytes: 64 * 1024,
};

async function attacked(limits: Partial<Limits> = SMALL): Promise<{ vm: AgentOs; survived: () => Promise<void> }> {
  const vm = await createVm({ limits });
  const before = `precious ${Math.random()}\n`;
  await vm.writeFile("/home/user/before.txt", before);
  const rss = process.memoryUsage.rss();
  return {
    vm,
    survived: async () => {
      // A worker stopped under a killed process ends and gives its memory back later, minutes later on a
      // loaded machine; its process keeps its slots until then, so the VM's limits bound these workers.
      // What stays once they have ended is a leak.
      while (dyingPoolWorkers() > 0) await poolWorkerEnded();
      expect(process.memoryUsage.rss() - rss).toBeLessThan(RSS_BOUND);
      expect(await vm.exec("echo alive")).toEqual(result("alive\n"));
      expect(new TextDecoder().decode(await vm.readFile("/home/user/before.txt"))).toBe(before);
      expect(vm.stats().faults).toBe(0);
    },
  };
}

/** Runs `work` and measures it from before it starts, so a timeout set inside it cannot look early. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await work();
  return [r, performance.now() - t0];
}

const stopped = (stream: string, bytes: number): string =>
  `agentos: ${stream} passed maxOutputBytes (${bytes} bytes); the command was stopped\n`;

describe("output floods", () => {
  it("`yes` without a timeout is stopped at maxOutputBytes and says so", async () => {
    const { vm, survived } = await attacked();
    const r = await vm.exec("yes");
    expect(r).toEqual({ exitCode: 141, stdout: "y\n".repeat(MiB / 2), stderr: stopped("stdout", MiB), truncated: true });
    expect(vm.stats().memory.output).toBe(0);
    await survived();
  });

  it("a flood on stderr from a shell loop is stopped the same way", async () => {
    const { vm, survived } = await attacked();
    const r = await vm.exec("while true; do echo xxxxxxxxxxxxxxx >&2; done", { maxOutputBytes: 64 * 1024 });
    expect(r.exitCode).toBe(141);
    expect(r.truncated).toBe(true);
    expect(r.stderr).toBe("xxxxxxxxxxxxxxx\n".repeat(4096) + stopped("stderr", 64 * 1024));
    await survived();
  });

  it("`cat /dev/zero` with a timeout ends at the output cap, long before the deadline", async () => {
    const { vm, survived } = await attacked();
    const [r, ms] = await timed(() => vm.exec("cat /dev/zero", { timeout: RUN_DEADLINE_MS }));
    expect(r.exitCode).toBe(141);
    expect(r.stdout.length).toBe(MiB);
    expect(ms).toBeLessThan(RUN_DEADLINE_MS);
    await survived();
  });

  it("an exec's listener sees what is kept, then the command stops", async () => {
    const { vm, survived } = await attacked();
    let seen = 0;
    const r = await vm.exec("yes", { onStdout: (c) => (seen += c.length), maxOutputBytes: 100_000 });
    expect(r.exitCode).toBe(141);
    expect(r.stdout.length).toBe(seen);
    expect(seen).toBeLessThanOrEqual(100_000);
    await survived();
  });

  it("a spawned process's output is streamed, not kept", async () => {
    const { vm, survived } = await attacked();
    const p = vm.spawn("yes", []);
    let seen = 0;
    await new Promise<void>((resolve) =>
      p.onStdout((c) => {
        seen += c.length;
        if (seen > 8 * MiB) resolve();
      }),
    );
    expect(vm.stats().memory.output).toBe(0);
    p.kill();
    expect(await p.wait()).toBe(143);
    await survived();
  });

  it("a listener that throws stops the command and the exec rejects with its error", async () => {
    const { vm, survived } = await attacked();
    const boom = new Error("listener failed");
    await expect(
      vm.exec("yes", {
        onStdout: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    const p = vm.spawn("yes", [], {
      onStdout: () => {
        throw boom;
      },
    });
    await expect(p.wait()).rejects.toBe(boom);
    await survived();
  });
});

describe("pipes", () => {
  it("an unread pipe holds at most its buffer: `cat /dev/zero | sleep 30` ends at its timeout", async () => {
    const { vm, survived } = await attacked();
    let pipes = 0;
    const [r, ms] = await timed(() =>
      vm.exec("cat /dev/zero | sleep 30", {
        timeout: 1000,
        onStderr: () => {},
      }),
    );
    pipes = vm.stats().memory.pipes;
    expect(r).toEqual(result("", 124, "agentos: timed out after 1000 ms\n"));
    expect(ms).toBeLessThan(1000 + DEADLINE_SLACK_MS);
    expect(pipes).toBe(0);
    await survived();
  });

  it("a writer waits for a slow reader: the data arrives whole and the buffer stays bounded", async () => {
    const { vm, survived } = await attacked();
    expect(await vm.exec("head -c 20000000 /dev/zero | cat | cat | wc -c")).toEqual(result("20000000\n"));
    await survived();
  });

  it("the shell holds a command substitution's output, counted against the VM: past its memory it is killed", async () => {
    // 16 MiB: a coreutils process starts with 4.6 MiB of linear memory (uutils' multicall binary), and the
    // pipeline below holds two of them beside the shell.
    const { vm, survived } = await attacked({ ...SMALL, maxVmMemoryBytes: 16 * MiB, maxOutputBytes: MiB });
    expect(await vm.exec("x=$(head -c 1000000 /dev/zero | tr '\\0' a); echo ${#x}")).toEqual(result("1000000\n"));
    // The shell reads as the command writes, into its own memory: it is the one that runs out (killed
    // like by an OOM killer, 128 + SIGKILL).
    expect(await vm.exec("x=$(cat /dev/zero); echo status=$?")).toEqual(result("", 137, "sh: out of memory (VM limit 16777216 bytes)\n"));
    expect(vm.stats().memory.pipes).toBe(0);
    await survived();
  });
});

describe("time", () => {
  it("a timeout ends a command whatever it is doing", async () => {
    const { vm, survived } = await attacked();
    const cases = [
      "sleep 3000000", // past 2^31 ms: must not return at once
      "awk 'BEGIN { while (1) i++ }'", // computing, no system calls
      "cat /dev/zero > /dev/null", // system calls as fast as it can
      "yes | cat | cat > /dev/null", // several processes
      "while true; do :; done", // the shell itself
    ];
    for (const cmd of cases) {
      const [r, ms] = await timed(() => vm.exec(cmd, { timeout: 300 }));
      expect(r, cmd).toEqual(result("", 124, "agentos: timed out after 300 ms\n"));
      expect(ms, cmd).toBeGreaterThanOrEqual(300); // a timeout never ends a command early
      expect(ms, cmd).toBeLessThan(300 + DEADLINE_SLACK_MS);
    }
    await survived();
  });

  it("an abort ends the command; an already aborted signal never starts it", async () => {
    const { vm, survived } = await attacked();
    const ac = new AbortController();
    const pending = vm.exec("echo started; sleep 30", { signal: ac.signal, onStdout: () => ac.abort() });
    expect(await pending).toEqual(result("started\n", 130, "agentos: aborted\n"));
    expect(await vm.exec("echo x > /home/user/ran", { signal: AbortSignal.abort() })).toEqual(
      result("", 130, "agentos: aborted\n"),
    );
    expect(await vm.exists("/home/user/ran")).toBe(false);
    await survived();
  });

  it("timeouts past 2^31 ms and Infinity are real timeouts, not instant kills", async () => {
    const { vm, survived } = await attacked();
    for (const timeout of [2 ** 31, 3e9, Infinity]) {
      expect(await vm.exec("sleep 0.05; echo ok", { timeout })).toEqual(result("ok\n"));
    }
    await survived();
  });
});

describe("bad input through the API", () => {
  it("invalid options are TypeErrors with a code, before anything runs", async () => {
    const { vm, survived } = await attacked();
    for (const timeout of [NaN, -1, 0, "abc", null]) {
      await expect(vm.exec("echo x > /home/user/ran", { timeout: timeout as number })).rejects.toMatchObject({
        name: "TypeError",
        code: "ERR_INVALID_ARG_VALUE",
      });
    }
    await expect(vm.exec(42 as unknown as string)).rejects.toBeInstanceOf(TypeError);
    await expect(vm.exec("true", { signal: "no" as unknown as AbortSignal })).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    await expect(vm.exec("true", { onStdout: 1 as unknown as () => void })).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    await expect(vm.exec("true", { maxOutputBytes: -5 })).rejects.toBeInstanceOf(TypeError);
    await expect(vm.exec("true", { stdin: 5 as unknown as string })).rejects.toBeInstanceOf(TypeError);
    await expect(vm.exec("true", { cwd: "/tmp\0x" })).rejects.toMatchObject({ code: "EINVAL" });
    await expect(AgentOs.create({ limits: { maxProcesses: 0 } })).rejects.toBeInstanceOf(TypeError);
    await expect(AgentOs.create({ limits: { nope: 1 } as Partial<Limits> })).rejects.toBeInstanceOf(TypeError);
    expect(await vm.exists("/home/user/ran")).toBe(false);
    await survived();
  });

  it("a large stdin is read whole", async () => {
    const { vm, survived } = await attacked({ ...SMALL, maxVmMemoryBytes: 512 * MiB });
    const stdin = new Uint8Array(64 * MiB).fill(97);
    expect(await vm.exec("wc -c", { stdin })).toEqual(result(`${64 * MiB}\n`));
    await survived();
  });

  it("a command longer than maxCommandBytes is E2BIG, and a guest's argument list longer than maxArgBytes", async () => {
    const { vm, survived } = await attacked({ ...SMALL, maxArgBytes: 4096, maxCommandBytes: 8192 });
    await expect(vm.exec(`echo ${"x".repeat(9000)}`)).rejects.toMatchObject({ code: "E2BIG" });
    // The command itself reaches the shell through its input: maxArgBytes does not bound it.
    expect(await vm.exec(`echo ${"x".repeat(5000)} | wc -c`)).toEqual(result("5001\n"));
    const r = await vm.exec("/bin/echo $(seq 1 2000) | wc -c; echo status=${PIPESTATUS[0]}");
    expect(r.stdout).toBe("0\nstatus=126\n");
    await survived();
  });
});

describe("processes", () => {
  it("execs beyond what the VM runs at once wait their turn and all finish", async () => {
    const { vm, survived } = await attacked();
    const n = 120;
    const rs = await Promise.all(Array.from({ length: n }, (_, i) => vm.exec(`echo ${i} | cat`)));
    expect(rs).toEqual(Array.from({ length: n }, (_, i) => result(`${i}\n`)));
    await survived();
  });

  it("execs that wait for a later exec do not keep it out", async () => {
    const { vm, survived } = await attacked();
    const waiters = Array.from({ length: 6 }, (_, i) =>
      vm.exec(`while [ ! -f /tmp/go ]; do sleep 0.05; done; echo ${i}`, { timeout: RUN_DEADLINE_MS }),
    );
    const go = vm.exec("touch /tmp/go");
    expect(await go).toEqual(result(""));
    expect(await Promise.all(waiters)).toEqual(Array.from({ length: 6 }, (_, i) => result(`${i}\n`)));
    await survived();
  });

  it("a pipeline longer than maxProcesses waits in the guest for room, as bash retries a fork, not in the host", async () => {
    const { vm, survived } = await attacked({ ...SMALL, maxProcesses: 6 });
    // Every stage is still running when the next is started: the later ones start as the first ones end.
    const r = await vm.exec(Array(10).fill("sleep 0.3").join(" | "));
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^(sh: fork: retry: Resource temporarily unavailable\n)*$/);
    await survived();
  });

  it("a process past maxOpenFds gets EMFILE", async () => {
    // The shell itself holds a few dozen fds in a loop with a command substitution.
    const { vm, survived } = await attacked({ ...SMALL, maxOpenFds: 64 });
    await vm.exec("mkdir /tmp/p && cd /tmp/p && for i in $(seq 70); do echo $i > f$i; done");
    // paste holds all its files open at once: with stdio and the root preopen, 74 fds.
    expect(await vm.exec("cd /tmp/p && paste f*")).toEqual(result("", 1, "paste: f64: No file descriptors available\n"));
    expect(await vm.exec("paste /tmp/p/f1 /tmp/p/f2")).toEqual(result("1\t2\n"));
    await survived();
  });

  it("spawning and killing in a loop leaves nothing behind", async () => {
    const { vm, survived } = await attacked();
    for (let i = 0; i < 100; i++) {
      const p = vm.spawn("cat", []);
      p.kill();
      expect(await p.wait()).toBe(143);
    }
    await survived();
  });

  it("a guest shell that starts and kills computing commands in a loop is held to maxProcesses", async () => {
    const { vm, survived } = await attacked();
    // Each child computes without a system call, so a kill stops its worker, which ends later (minutes
    // on a loaded machine): its process keeps its slot until then, and the shell's next fork waits for
    // room as bash does ("fork: retry"). Workers stopped and not yet ended never outnumber maxProcesses.
    let most = 0;
    const count = (): void => void (most = Math.max(most, stoppedPoolWorkers()));
    processPool().on("workerDestroy", count);
    try {
      // In a shell of its own: the exec's shell keeps killed jobs unreaped after `wait` (as zombies).
      const r = await vm.exec(`sh -c 'for i in $(seq 40); do sh -c "while :; do :; done" & kill $!; done; wait; echo done'`);
      expect(r.stdout).toBe("done\n");
      expect(r.stderr.replaceAll("sh: fork: retry: Resource temporarily unavailable\n", "")).toBe("");
      expect(r.exitCode).toBe(0);
    } finally {
      processPool().off("workerDestroy", count);
    }
    expect(most).toBeLessThanOrEqual(SMALL.maxProcesses!);
    await survived();
  });
});

describe("the runtime's own commands", () => {
  it("a command that must hold its input stops at maxProcessMemoryBytes with ENOMEM's message", async () => {
    const { vm, survived } = await attacked({ ...SMALL, maxProcessMemoryBytes: 16 * MiB });
    const flood = "head -c 20000000 /dev/zero";
    expect(await vm.exec(`${flood} | tac | wc -c`)).toEqual(result("0\n", 0, "tac: memory exhausted\n"));
    expect(await vm.exec(`${flood} | grep -c x; echo $?`)).toEqual(result("2\n", 0, "grep: (standard input): Cannot allocate memory\n"));
    expect(await vm.exec(`${flood} | diff - /dev/null; echo $?`)).toEqual(result("2\n", 0, "diff: -: Cannot allocate memory\n"));
    expect(await vm.exec(`${flood} | bc`)).toEqual(result("", 1, "bc: Cannot allocate memory\n"));
    await survived();
  });
});
