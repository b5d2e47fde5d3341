import { describe, expect, it } from "vitest";
import type { AgentOs } from "../src/index.js";
import { createVm, result } from "./helpers.js";

const MiB = 1024 * 1024;

/** awk doubling a string until something stops it, printing each length (a write, so a system call, per doubling). */
const GROWER = `BEGIN { s = "x"; while (1) { s = s s; print length(s) } }`;
/** The lengths GROWER prints, 2 up to `last`. */
const lengths = (last: number): string => Array.from({ length: Math.log2(last) }, (_, i) => `${2 ** (i + 1)}\n`).join("");
/** awk holding a string of 4 MiB (about 15 MiB of linear memory) until its stdin ends. */
const HOLDER = `BEGIN { s = "x"; while (length(s) < 4194304) s = s s; print "ready"; getline line; print length(s) }`;

/** Runs `argv` through spawn (so the exit status is the process's own, not the shell's report of it). */
async function spawned(vm: AgentOs, argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const p = vm.spawn(argv[0]!, argv.slice(1));
  const out = { stdout: "", stderr: "" };
  const decoder = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  p.onStdout((d) => (out.stdout += decoder.stdout.decode(d, { stream: true })));
  p.onStderr((d) => (out.stderr += decoder.stderr.decode(d, { stream: true })));
  p.closeStdin();
  return { exitCode: await p.wait(), ...out };
}

describe("guest memory limits", () => {
  // First in the file, so that the process's peak RSS so far is close to its RSS now (see below).
  it("a guest that grows without bound fails at maxProcessMemoryBytes, inside the guest; the host barely grows", async () => {
    const vm = await createVm({ execRouter: false, limits: { maxProcessMemoryBytes: 32 * MiB } });
    expect(await vm.exec(`awk 'BEGIN { print "warm" }'`)).toEqual(result("warm\n")); // compiled, workers started
    const rssBefore = process.memoryUsage().rss;

    const r = await vm.exec(`awk '${GROWER}'`);

    // The guest's allocator gets -1 from memory.grow: Go's runtime (awk is goawk) reports it with its
    // goroutines' stacks and exits with status 2.
    expect({ ...r, stderr: r.stderr.split("\n").slice(0, 2).join("\n") }).toEqual(
      result(lengths(8 * MiB), 2, "runtime: out of memory: cannot allocate 16777216-byte block (17694720 in use)\nfatal error: out of memory"),
    );
    // Peak RSS of the whole host process (maxRSS is its high-water mark, in KiB): the guest's 32 MiB and
    // the worker's own churn. Without the cap the same command grows until the default 512 MiB cap,
    // and without any cap until the host runs out of memory.
    const peakGrowth = process.resourceUsage().maxRSS * 1024 - rssBefore;
    expect(peakGrowth).toBeLessThan(32 * MiB + 64 * MiB);

    expect(await vm.exec("echo alive")).toEqual(result("alive\n"));
    expect(vm.stats().memory.guest).toBe(0);
  });

  it("the VM's guests together are capped by maxVmMemoryBytes: past it a guest is killed like by an OOM killer", async () => {
    const vm = await createVm({ execRouter: false, limits: { maxVmMemoryBytes: 48 * MiB } });

    // The process cap (512 MiB by default) is far away: the VM's account stops it, at the write after
    // a doubling it could no longer be charged for.
    expect(await spawned(vm, ["awk", GROWER])).toEqual({
      exitCode: 137,
      stdout: lengths(16 * MiB),
      stderr: "awk: out of memory (VM limit 50331648 bytes)\n",
    });
    // Through the shell the same kill shows as 128 + SIGKILL, as bash reports it.
    expect(await vm.exec(`awk '${GROWER}' > /dev/null`)).toEqual(result("", 137, "awk: out of memory (VM limit 50331648 bytes)\n"));

    expect(await vm.exec("echo alive")).toEqual(result("alive\n"));
    expect(vm.stats().memory.guest).toBe(0);
  });

  it("two guests that each fit but not together: the one that grows second is killed, the first runs on", async () => {
    const vm = await createVm({ execRouter: false, limits: { maxVmMemoryBytes: 24 * MiB } });
    const first = vm.spawn("awk", [HOLDER]);
    let firstOut = "";
    const ready = new Promise<void>((resolve) =>
      first.onStdout((d) => {
        firstOut += new TextDecoder().decode(d);
        if (firstOut === "ready\n") resolve();
      }),
    );
    await ready; // the first holds its string now, and was charged for it at its write
    const held = vm.stats().memory.guest;
    expect(held).toBeGreaterThan(12 * MiB);
    expect(held).toBeLessThan(24 * MiB);

    // The second is charged at its first write after growing: too much, so it ends there, before writing.
    expect(await spawned(vm, ["awk", HOLDER])).toEqual({
      exitCode: 137,
      stdout: "",
      stderr: "awk: out of memory (VM limit 25165824 bytes)\n",
    });
    expect(vm.stats().memory.guest).toBe(held);

    first.closeStdin();
    expect(await first.wait()).toBe(0);
    expect(firstOut).toBe("ready\n4194304\n");
    expect(vm.stats().memory.guest).toBe(0);
  });

  it("a process limit below what a command needs to start fails that command, not the VM", async () => {
    const vm = await createVm({ execRouter: false, limits: { maxProcessMemoryBytes: 1 * MiB } });
    // Every command needs 17–37 pages (1.1–2.4 MiB) to start (guest-abi §1); awk, a Go program, needs 53.
    expect(await spawned(vm, ["awk", "BEGIN { print 1 }"])).toEqual({
      exitCode: 1,
      stdout: "",
      stderr: "awk: out of memory: needs 3473408 bytes, process limit 1048576 bytes\n",
    });
    expect(vm.stats().memory.guest).toBe(0);
  });
});
