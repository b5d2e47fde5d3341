import { describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { createVm, result } from "./helpers.js";
import { LATE_MS, RUN_DEADLINE_MS } from "./deadlines.js";

/**
 * What guests with an event loop need (Go's netpoller, a C program around poll): NONBLOCK fds,
 * poll_oneoff that waits for readiness, proc_pidfd, fds > 2 that stay the caller's after proc_spawn,
 * and users' own WebAssembly commands. Driven by guests/probe (Go), built by `pnpm build:guests`.
 */
const dist = new URL("../guests/dist/", import.meta.url).pathname;
const probe = `${dist}probe.wasm`;
const withProbe = (): Promise<AgentOs> => createVm({ commands: { probe: { wasm: probe } } });

describe("event loops in guests", () => {
  it("a user's WebAssembly command is registered from { wasm }; a missing file or a bad value is a TypeError", async () => {
    const vm = await withProbe();
    expect(await vm.exec("command -v probe >/dev/null && echo found")).toEqual(result("found\n"));
    await expect(AgentOs.create({ commands: { x: { wasm: `${dist}nosuch.wasm` } } })).rejects.toMatchObject({
      name: "TypeError",
      code: "ERR_INVALID_ARG_VALUE",
    });
    await expect(AgentOs.create({ commands: { x: { wasm: dist } } })).rejects.toThrow(TypeError);
    await expect(AgentOs.create({ commands: { x: { file: probe } as never } })).rejects.toThrow(TypeError);
  });

  it("NONBLOCK is kept per fd and reported by fd_fdstat_get: EAGAIN on an empty pipe, not shared by a dup or a child", async () => {
    const vm = await withProbe();
    expect(await vm.exec("probe nonblock")).toEqual(
      result(
        [
          "stdin: non-blocking", // Go's syscall package sets it on fds 0-2
          "pipe read end: blocking",
          "after SetNonblock: non-blocking",
          "read of an empty pipe: EAGAIN",
          "its dup: blocking",
          'read "abc"',
          "cat read this", // cat, given the fd, blocked in its read instead of failing with EAGAIN
          "cat: exited 0",
          "no writer left: read 0 bytes ok",
          "",
        ].join("\n"),
      ),
    );
  });

  it("poll_oneoff waits in the kernel for fd readiness or a clock, and reports everything ready", async () => {
    const vm = await withProbe();
    expect(await vm.exec("probe poll")).toEqual(
      result(
        [
          "empty pipe, 30ms clock: [clock] on time",
          "data: [r(2 bytes), w]",
          "absolute clocks at 20ms and 60ms: [real] on time",
          "then: [mono] on time",
          "non-blocking write of 100000 bytes: 65536 ok then EAGAIN", // a short write up to pipeBufferBytes
          "full pipe, 30ms clock: [clock] on time",
          "after a read: [w]",
          "drained 64536 bytes, then EAGAIN",
          'woken by a child\'s write: [r(3 bytes)] "hi\\n"',
          "pidfd: ok",
          "child exit: [pidfd hangup] waitpid exited 0",
          "no writer left: [r hangup]",
          "no reader left: [w hangup]",
          "bad fd: [999 error EBADF]",
          "",
        ].join("\n"),
      ),
    );
  });

  it("a goroutine reads a non-blocking stdin through the netpoller while a timer runs", async () => {
    const vm = await withProbe();
    const r = await vm.exec("seq 3 | probe stdin-and-timer");
    expect({ stdout: r.stdout, exitCode: r.exitCode }).toEqual({ stdout: "line 1\nline 2\nline 3\neof\n", exitCode: 0 });
  });

  it("the timer fires while stdin is empty, and then data on stdin alone wakes the process", async () => {
    const vm = await withProbe();
    let stdout = "";
    const p = vm.spawn("probe", ["stdin-and-timer"], { onStdout: (c) => void (stdout += Buffer.from(c).toString()) });
    // Input is written only once the timer has fired, so the reader was parked in poll_oneoff meanwhile;
    // after that the process has no timer left and waits on stdin only.
    p.onStderr((c) => {
      expect(Buffer.from(c).toString()).toBe("timer fired\n");
      p.writeStdin("a\nb\n");
      p.closeStdin();
    });
    expect(await p.wait()).toBe(0);
    expect(stdout).toBe("line a\nline b\neof\n");
  });

  it("a guest waiting in its netpoller is parked in the kernel, not spinning: the host spends next to no CPU", async () => {
    const vm = await withProbe();
    const p = vm.spawn("probe", ["stdin-and-timer"]);
    await new Promise<void>((resolve) => p.onStderr(() => resolve())); // the timer fired; now it waits on stdin only
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = process.cpuUsage(before);
    // Were poll_oneoff to report stdin ready at once, Go would retry its read without end: a core or more.
    expect((used.user + used.system) / 1000).toBeLessThan(100);
    p.closeStdin();
    expect(await p.wait()).toBe(0);
  });

  it("time.Sleep: sleeping goroutines wake in deadline order, none early", async () => {
    const vm = await withProbe();
    await vm.exec("probe sleep 1"); // the first run of the module includes its compilation
    const t0 = performance.now();
    expect(await vm.exec("probe sleep 60 10 30")).toEqual(result("woke 10ms:on time 30ms:on time 60ms:on time\n"));
    expect(performance.now() - t0).toBeLessThan(60 + LATE_MS);
  });

  it("proc_pidfd: a goroutine waits for a child in the netpoller while another feeds it; waitpid then returns at once", async () => {
    const vm = await withProbe();
    expect(await vm.exec("probe spawn-wait")).toEqual(
      result(
        [
          "hello from a goroutine",
          "pidfd reached end of file; waitpid without waiting: exited 0",
          "pidfd of a collected child: ESRCH of a stranger: ESRCH",
          "",
        ].join("\n"),
      ),
    );
  });

  it("a process parked in poll_oneoff is ended by a kill", async () => {
    const vm = await withProbe();
    const p = vm.spawn("probe", ["stdin-and-timer"]);
    p.onStderr(() => p.kill());
    expect(await p.wait()).toBe(128 + 15);
    const r = await vm.exec("probe sleep 100000", { timeout: 300 });
    expect(r.exitCode).toBe(124);
  });

  it("fds > 2 passed to proc_spawn stay the caller's: a child's end does not close them, and pipes lent to a child reach end of file", async () => {
    const vm = await withProbe();
    // The probe's dup of stdout still works after the child it was lent to exited.
    expect(await vm.exec("probe keep-fd")).toEqual(result("child wrote to the fd\nparent still writes to it\n"));
    // xargs and env hold no pipe end they lent a child, or its reader would wait forever.
    expect(await vm.exec("echo a b | xargs echo; printf '1\\n2\\n' | xargs -n1 echo; env echo e", { timeout: RUN_DEADLINE_MS })).toEqual(
      result("a b\n1\n2\ne\n"),
    );
  });
});
