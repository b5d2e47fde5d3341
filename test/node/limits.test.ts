// A guest `node`'s memory: its heap is capped by the worker's resourceLimits (test/service/node.test.ts, test 14);
// what the heap limit does not bound — ArrayBuffers, WebAssembly memories — is counted as it is allocated and
// refused past the process limit (workers/node-guest/internal/memory-limit.js; test/node/memory.test.ts runs the
// full-size attacks), and reported with its system calls and counted against the process limit and the VM's
// budget (src/kernel/guest-memory-account.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { AgentOs } from "../../src/index.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";

const MiB = 1024 * 1024;
let vm: AgentOs;

beforeAll(async () => {
  vm = await AgentOs.create({ limits: { maxProcessMemoryBytes: 128 * MiB } });
});
afterAll(() => vm.dispose());

it("ArrayBuffers past the process limit are refused with Node's RangeError, before any system call; the VM goes on", async () => {
  const bomb = "const a = []; for (let i = 0; i < 64; i++) a.push(new ArrayBuffer(16 * 1024 * 1024)); console.log('survived')";
  const r = await vm.exec(`node -e "${bomb}"`, { timeout: RUN_DEADLINE_MS });
  expect(r).toMatchObject({ exitCode: 1, stdout: "" });
  expect(r.stderr).toContain("RangeError: Array buffer allocation failed\n    at [eval]:1:");
  expect(await vm.exec("node -p '6 * 7'")).toMatchObject({ exitCode: 0, stdout: "42\n" });
});

it("a refused allocation can be caught, and memory let go of is the guest's again", async () => {
  const code = [
    "let refused = 0;",
    "try { new Uint8Array(200 * 1024 * 1024) } catch (e) { refused++ }",
    "try { new Float64Array({ length: 2 ** 25 }) } catch (e) { refused++ }",
    "try { Buffer.alloc(200 * 1024 * 1024) } catch (e) { refused++ }",
    "try { new WebAssembly.Memory({ initial: 3000 }) } catch (e) { refused++; console.log(e.message) }",
    "let kept = 0;",
    "for (let i = 0; i < 20; i++) { const b = new Uint8Array(32 * 1024 * 1024); b.fill(1); kept += b[i]; }",
    "const big = new Uint8Array(16 * 1024 * 1024); const copies = [structuredClone(big), big.slice(), big.map((x) => x)];",
    "console.log(refused, kept, copies.length)",
  ].join(" ");
  const r = await vm.exec(`node -e "${code}"`, { timeout: RUN_DEADLINE_MS });
  expect(r).toMatchObject({ exitCode: 0, stdout: "WebAssembly.Memory(): could not allocate memory\n4 20 3\n", stderr: "" });
});

it("memories grown inside wasm by several instances are caught at the next system call (SIGKILL, 137)", async () => {
  // A module with its own memory (1 page, no maximum) and grow(n) = memory.grow: each instance may grow to the
  // process limit inside wasm, where no JavaScript sees it; together they pass it, which the kernel sees.
  const wasm = "0061736d0100000001060160017f017f0302010005030100010708010467726f7700000a08010600200040000b";
  const code = `const m = new WebAssembly.Module(Buffer.from('${wasm}', 'hex')); const a = new WebAssembly.Instance(m).exports, b = new WebAssembly.Instance(m).exports; const grown = [a.grow(1500), b.grow(1500), a.grow(1000)]; require('fs').statSync('/'); console.log(grown); console.log('survived')`;
  const r = await vm.exec(`node -e "${code}"`, { timeout: RUN_DEADLINE_MS });
  expect(r).toMatchObject({ exitCode: 137, stdout: "" });
  expect(r.stderr).toBe(`node: out of memory (process limit ${128 * MiB} bytes)\n`);
});

it("ArrayBuffers within the limit are the guest's to use", async () => {
  const r = await vm.exec(`node -e "const b = new Uint8Array(32 * 1024 * 1024); b.fill(7); require('fs').statSync('/'); console.log(b[b.length - 1])"`);
  expect(r).toMatchObject({ exitCode: 0, stdout: "7\n" });
});

it("vm contexts a guest keeps are its heap: the process ends at the heap limit, the VM goes on", async () => {
  // Contexts live in the worker's isolate (workers/node-host/vm-contexts.ts), under its heap limit.
  const keep = "const vm = require('vm'); const keep = []; for (let i = 0; ; i++) keep.push(vm.createContext({ i }));";
  const r = await vm.exec(`node -e "${keep}"`, { timeout: RUN_DEADLINE_MS });
  expect(r.exitCode).toBe(134);
  expect(r.stderr).toContain("JavaScript heap out of memory");
  expect(await vm.exec("node -p '6 * 7'")).toMatchObject({ exitCode: 0, stdout: "42\n" });
});

it("vm contexts a guest lets go of are collected: many more than the heap could keep at once", async () => {
  const code = "const vm = require('vm'); let sum = 0; for (let i = 0; i < 3000; i++) sum += vm.runInNewContext('x + 1', { x: i }); console.log(sum)";
  const r = await vm.exec(`node -e "${code}"`, { timeout: RUN_DEADLINE_MS });
  expect(r).toMatchObject({ exitCode: 0, stdout: "4501500\n", stderr: "" });
});
