import { describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { processPool } from "../src/pool/process-pool.js";
import { createVm, result } from "./helpers.js";

describe("bad input and faults", () => {
  it("an unknown command exits 127 with a message", async () => {
    const vm = await createVm();
    // As `bash -c … sh` says it.
    expect(await vm.exec("nosuch --flag; echo $?")).toEqual(
      result("127\n", 0, "sh: line 1: nosuch: command not found\n"),
    );
  });

  it("binary data passes through pipes and files byte for byte", async () => {
    const vm = await createVm();
    const bytes = new Uint8Array(300_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    await vm.writeFile("/tmp/in.bin", bytes);
    expect(await vm.exec("cat /tmp/in.bin | cat | cat > /tmp/out.bin && cat /tmp/in.bin | wc -c")).toEqual(
      result("300000\n"),
    );
    expect(await vm.readFile("/tmp/out.bin")).toEqual(bytes);
    const sums = await vm.exec("md5sum < /tmp/in.bin; gzip -c /tmp/in.bin | gunzip -c | md5sum");
    const [a, b] = sums.stdout.split("\n");
    expect(a).toBe(b);
  });

  it("handles tens of MiB of output", async () => {
    const vm = await createVm();
    expect(await vm.exec("head -c 30000000 /dev/zero | wc -c")).toEqual(result("30000000\n"));
    const big = await vm.exec("head -c 20000000 /dev/zero | tr '\\0' a");
    expect(big.exitCode).toBe(0);
    expect(big.stdout.length).toBe(20_000_000);
    expect(big.stdout.replaceAll("a", "")).toBe("");
  });

  it("a command that traps exits 1 with the trap on stderr", async () => {
    const vm = await createVm();
    // uutils' printf (the shell's builtin would not be a process of its own).
    const r = await vm.exec("/usr/bin/printf '%.99999999f' 1; echo status=$?");
    expect(r.stdout).toBe("status=1\n");
    expect(r.stderr).toContain("panicked at");
    expect(r.stderr.endsWith("printf: trap: unreachable\n")).toBe(true);
  });

  it("a worker that dies fails its process; the VM lives on", async () => {
    const vm = await createVm();
    await vm.exec("true");
    const p = vm.spawn("cat", []);
    const echoed = new Promise<void>((resolve) => p.onStdout(() => resolve()));
    p.writeStdin("x\n");
    await echoed; // cat is running in a worker now
    await Promise.all(processPool().threads.map((w) => w.terminate()));
    expect(await p.wait()).toBe(1);
    expect(await vm.exec("echo alive")).toEqual(result("alive\n"));
  });

  it("dispose during a running pipeline ends it", async () => {
    const vm = await AgentOs.create();
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    // Output reaching the host means every stage of the pipeline is running.
    const pending = vm.exec("yes | cat | cat", { onStdout: () => running() });
    await started;
    await vm.dispose();
    const r = await pending;
    expect(r.exitCode).toBe(137);
    await expect(vm.exec("true")).rejects.toMatchObject({ code: "EPERM" });
  });

  it("many VMs in one process, each with its own file system", async () => {
    const vms = await Promise.all(Array.from({ length: 6 }, () => createVm()));
    await Promise.all(vms.map((vm, i) => vm.writeFile("/tmp/id", `vm${i}\n`)));
    const outs = await Promise.all(vms.map((vm) => vm.exec("cat /tmp/id | tr a-z A-Z")));
    expect(outs).toEqual(vms.map((_, i) => result(`VM${i}\n`)));
  });

  it("a long pipeline and many concurrent execs get the workers they need", async () => {
    const vm = await createVm();
    const stages = Array.from({ length: 12 }, () => "cat").join(" | ");
    expect(await vm.exec(`seq 1 1000 | ${stages} | wc -l`)).toEqual(result("1000\n"));
    const many = await Promise.all(Array.from({ length: 16 }, (_, i) => vm.exec(`echo ${i} | cat`)));
    expect(many).toEqual(Array.from({ length: 16 }, (_, i) => result(`${i}\n`)));
    expect(await vm.exec("x=$(seq 1 3 | cat | wc -l); echo $x")).toEqual(result("3\n"));
  });

  it("the shell's tracing noise never reaches stderr or a pipe", async () => {
    const vm = await createVm();
    expect(await vm.exec("ls / > /dev/null; yes | head -n 1; sh -c 'ls /bin >/dev/null' 2>&1 | cat")).toEqual(
      result("y\n"),
    );
    expect(await vm.exec("ls /nope 2>&1 | wc -l")).toEqual(result("1\n"));
  });

  it("yes | head terminates: writers get EPIPE when the reader is gone", async () => {
    const vm = await createVm();
    expect(await vm.exec("yes abc | head -n 2")).toEqual(result("abc\nabc\n"));
    // yes dies of SIGPIPE, quietly, as in bash.
    expect(await vm.exec("yes | head -n 1; echo ${PIPESTATUS[@]}")).toEqual(result("y\n141 0\n"));
  });
});
