import { join } from "node:path";
import common from "@rivet-dev/agent-os-common";
import { describe, expect, it } from "vitest";
import { createVm, result } from "./helpers.js";

/**
 * fds above 2 a command inherits (host_process.proc_spawn_fds; the shell's `exec 3>f; cmd`, `cmd 3<f`):
 * a WebAssembly child has them at the same numbers and its root preopen after them; fd_prestat_get answers
 * the fds below the preopen "not a directory" (tag 1), which wasi-libc and Go skip. Driven by guests/probe
 * (Go) and a published binary (Rust, wasi-libc); the shell's forms are in test/shell-cases.ts. A runtime
 * script passes its inherited fds on to the commands it starts (Process.passesOnFds); `node` does not.
 */
const probe = new URL("../guests/dist/probe.wasm", import.meta.url).pathname;
const withProbe = () => createVm({ commands: { probe: { wasm: probe } } });

describe("fds a command inherits", () => {
  it("the root preopen comes after the inherited fds; the fds below it, open or not, are not directory preopens", async () => {
    const vm = await withProbe();
    expect(await vm.exec("probe prestat")).toEqual(result("3 dir / open\n4 EBADF\n"));
    expect(await vm.exec("cd /tmp && probe prestat 3<&0 5>x")).toEqual(
      result("3 tag 1 open\n4 tag 1 closed\n5 tag 1 open\n6 dir / open\n7 EBADF\n"),
    );
    expect(await vm.exec("cd /tmp && exec 4>y; probe prestat")).toEqual(result("3 tag 1 closed\n4 tag 1 open\n5 dir / open\n6 EBADF\n"));
  });

  it("proc_spawn_fds: pairs (child's fd, caller's fd); EBADF for a closed fd or a child's fd outside 3..maxOpenFds-1", async () => {
    const vm = await withProbe();
    expect(await vm.exec("cd /tmp && exec 7>y; probe spawn-fds 3:7 5:1")).toEqual(
      result("3 tag 1 open\n4 tag 1 closed\n5 tag 1 open\n6 dir / open\n7 EBADF\nchild exited 0\n"),
    );
    expect(await vm.exec("probe spawn-fds 2:1; probe spawn-fds 1024:1; probe spawn-fds 3:9; probe spawn-fds 1023:1 | tail -2")).toEqual(
      result("proc_spawn_fds: EBADF\nproc_spawn_fds: EBADF\nproc_spawn_fds: EBADF\n1025 EBADF\nchild exited 0\n"),
    );
  });

  it("a wasi-libc binary of an older libc finds the moved preopen; without a cwd of its own, its relative paths are from /", async () => {
    // The cat of the published @rivet-dev/agent-os-common, as a user's command: it never moves to its working
    // directory (README "Working directories and paths"), so r.txt is /r.txt to it, as to any WASI program.
    const pkg = (common as unknown as { commands: { name: string }[]; commandDir: string }[]).find((p) => p.commands.some((c) => c.name === "cat"))!;
    const vm = await createVm({ commands: { pcat: { wasm: join(pkg.commandDir, "cat") } } });
    expect(await vm.exec("mkdir -p /tmp/d && cd /tmp/d && echo in > r.txt && echo top > /r.txt && pcat r.txt 3</dev/null 5>x && pcat /dev/fd/4 4<r.txt /r.txt")).toEqual(
      result("top\nin\ntop\n"),
    );
  });

  it("a script has them at the same numbers, its root after them, and its children get them too, nested", async () => {
    const vm = await withProbe();
    expect(await vm.exec("cd /tmp && timeout 5 probe prestat 3<&0 5>x")).toEqual(
      result("3 tag 1 open\n4 tag 1 closed\n5 tag 1 open\n6 dir / open\n7 EBADF\n"),
    );
    expect(await vm.exec("cd /tmp && exec 4>y; timeout 5 env X=1 nice probe prestat")).toEqual(result("3 tag 1 closed\n4 tag 1 open\n5 dir / open\n6 EBADF\n"));
    expect(await vm.exec("cd /tmp && timeout 5 env sh -c 'echo deep >&3' 3>log && cat log")).toEqual(result("deep\n"));
  });

  it("a script's paths and its own files are unaffected: an absolute path ignores the dirfd, as openat's", async () => {
    const vm = await createVm();
    const script = "cd /tmp && echo ok > f && grep ok f 3<f && sort f 4<f && timeout 5 cat f 3</dev/null 5>x && env cat /dev/fd/3 3<f";
    expect(await vm.exec(script)).toEqual(result("ok\nok\nok\nok\n"));
  });

  it("node has them at the same numbers; its children get only their stdio, as Node's", async () => {
    const vm = await withProbe();
    const node = "node -e \"require('fs').writeSync(3, require('fs').readFileSync('f', 'utf8')); require('child_process').spawnSync('probe', ['prestat'], { stdio: 'inherit' })\"";
    expect(await vm.exec(`cd /tmp && echo ok > f && ${node} 3>log && cat log`)).toEqual(result("3 dir / open\n4 EBADF\nok\n"));
  });
});
