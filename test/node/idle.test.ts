// Acceptance test 17 of shared/docs/guest-js.md §6: a guest `node` waiting for input makes no system calls
// and sets no timers while it waits; readiness is pushed to it through its wake ring. The kernel's trace
// (AGENTOS_TRACE=1: one line per system call on the host's stderr) is the syscall counter.
import { afterAll, beforeAll, expect, it } from "vitest";

process.env.AGENTOS_TRACE = "1";
const { AgentOs } = await import("../../src/index.js");

type Vm = Awaited<ReturnType<typeof AgentOs.create>>;
let vm: Vm;
const traced: string[] = [];
const write = process.stderr.write.bind(process.stderr);
let onTrace = (): void => {};

beforeAll(async () => {
  vm = await AgentOs.create();
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof chunk === "string" && / \[\d+ node\] /.test(chunk)) {
      traced.push(chunk);
      onTrace();
      return true;
    }
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
});

afterAll(async () => {
  process.stderr.write = write;
  await vm.dispose();
});

it("a guest waiting on stdin makes no system call until data arrives, then answers it", async () => {
  const child = vm.spawn("node", ["-e", "process.stdin.on('data', (d) => { process.stdout.write('got ' + d); process.exit(0); }); console.log('ready');"]);
  let out = "";
  const ready = new Promise<void>((resolve) =>
    child.onStdout((chunk) => {
      out += new TextDecoder().decode(chunk);
      if (out.includes("ready")) resolve();
    }),
  );
  // The guest reaches its wait: its first read answers EAGAIN and it arms its wake ring for fd 0.
  const armed = new Promise<void>((resolve) => {
    onTrace = () => {
      if (/ ARM\(0,1,/.test(traced[traced.length - 1] ?? "")) resolve();
    };
  });
  await ready;
  await armed;
  const before = traced.length;
  await new Promise((r) => setTimeout(r, 500));
  expect(traced.slice(before)).toEqual([]);
  child.writeStdin("hello\n");
  expect(await child.wait()).toBe(0);
  expect(out).toBe("ready\ngot hello\n");
  expect(traced.length).toBeGreaterThan(before);
});
