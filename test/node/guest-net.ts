// What the guest networking suites (net.test.ts, http.test.ts) share: one VM per file whose kernel trace is on
// (AGENTOS_TRACE=1, set before the package loads), so that the system calls a guest `node` makes meanwhile can
// be counted; programs run in it and with this machine's `node`.
import { execFile } from "node:child_process";
import { afterAll, beforeAll } from "vitest";
import { RUN_DEADLINE_MS } from "../deadlines.js";

process.env.AGENTOS_TRACE = "1";
const { AgentOs } = await import("../../src/index.js");

export type Vm = Awaited<ReturnType<typeof AgentOs.create>>;
export const js = String.raw;
const decoder = new TextDecoder();

/** Another VM, for tests of two (the caller disposes it). */
export const createVm = (): Promise<Vm> => AgentOs.create();

/** The file's VM (set before its tests run). */
export let vm: Vm;
let recording = false;
const traced: string[] = [];
const write = process.stderr.write.bind(process.stderr);

beforeAll(async () => {
  vm = await AgentOs.create();
  await vm.mkdir("/w");
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof chunk === "string" && /^ *\+\d+µs \[\d+ /.test(chunk)) {
      if (recording && / \[\d+ node\] /.test(chunk)) traced.push(chunk);
      return true;
    }
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
});

afterAll(async () => {
  await vm.dispose();
  process.stderr.write = write;
});

/** The trace lines of the system calls guest `node` processes make during `ms` milliseconds. */
export async function syscallsDuring(ms: number): Promise<string[]> {
  traced.length = 0;
  recording = true;
  await new Promise((r) => setTimeout(r, ms));
  recording = false;
  return traced.splice(0);
}

/** Runs `code` as /w/t.js with the VM's `node`. */
export async function run(code: string, timeout = RUN_DEADLINE_MS) {
  await vm.writeFile("/w/t.js", code);
  return vm.exec("node /w/t.js", { timeout });
}

/** The same program on this machine's node: its stdout (an exit status of 1 is an answer too). */
export function hostNode(code: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ["-e", code], { timeout: RUN_DEADLINE_MS }, (err, stdout) => (err && err.code !== 1 ? reject(err) : resolve(stdout))),
  );
}

/** Starts `node file` in `v` and resolves `ready` once its stdout has printed `marker`. */
export function spawnUntil(v: Vm, file: string, marker: string) {
  const child = v.spawn("node", [file]);
  let out = "";
  const ready = new Promise<void>((resolve) =>
    child.onStdout((chunk) => {
      out += decoder.decode(chunk);
      if (out.includes(marker)) resolve();
    }),
  );
  return { child, ready, output: () => out };
}
