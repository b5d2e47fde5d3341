// A guest `node`'s memory: its heap is capped by the worker's resourceLimits (test/service/node.test.ts, test 14);
// what the heap limit does not bound — ArrayBuffers — is reported with its system calls and counted against
// the process limit and the VM's budget (src/kernel/guest-memory-account.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { AgentOs } from "../../src/index.js";

const MiB = 1024 * 1024;
let vm: AgentOs;

beforeAll(async () => {
  vm = await AgentOs.create({ limits: { maxProcessMemoryBytes: 128 * MiB } });
});
afterAll(() => vm.dispose());

it("ArrayBuffers past the process limit end the guest (SIGKILL, 137) with a message; the VM goes on", async () => {
  const bomb = "const a = []; for (let i = 0; i < 64; i++) { a.push(new ArrayBuffer(16 * 1024 * 1024)); require('fs').statSync('/'); } console.log('survived')";
  const r = await vm.exec(`node -e "${bomb}"`, { timeout: 20_000 });
  expect(r).toMatchObject({ exitCode: 137, stdout: "", stderr: `node: out of memory (process limit ${128 * MiB} bytes)\n` });
  expect(await vm.exec("node -p '6 * 7'")).toMatchObject({ exitCode: 0, stdout: "42\n" });
});

it("ArrayBuffers within the limit are the guest's to use", async () => {
  const r = await vm.exec(`node -e "const b = new Uint8Array(32 * 1024 * 1024); b.fill(7); require('fs').statSync('/'); console.log(b[b.length - 1])"`);
  expect(r).toMatchObject({ exitCode: 0, stdout: "7\n" });
});
