// A guest `node`'s memory outside its heap — ArrayBuffers, typed arrays, SharedArrayBuffers, WebAssembly
// memories, and what the worker's zlib and crypto allocate for it — is held to Limits.maxProcessMemoryBytes
// as it is allocated (workers/node-guest/internal/memory-limit.js, workers/node-host/memory-budget.ts).
// Each attack runs with the default limits in a process of its own (memory-attack.child.ts), so that a
// bound that fails takes that process down and not the test runner; its peak RSS is the host's.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const child = fileURLToPath(new URL("./memory-attack.child.ts", import.meta.url));
/** What no attack may take the host past, with the default limits (512 MiB a process, 2 GiB a VM). */
const HOST_RSS_BOUND_MIB = 1536;

interface Outcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  peakRssMiB: number;
}

async function attack(name: string): Promise<Outcome> {
  // No deadline of its own: the child's exec has one, and the test's deadline is longer.
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", child, name], { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split("\n").pop()!) as Outcome;
}

const ALLOCATION_FAILED = "RangeError: Array buffer allocation failed";

describe.sequential("memory attacks by a node guest (default limits)", () => {
  it.each([
    ["typedArrays", "twelve 512 MiB Uint8Arrays, filled without a system call", ALLOCATION_FAILED],
    ["smallBuffers", "4 KiB Buffers kept in an array, 1.5 GiB in all", ALLOCATION_FAILED],
    ["resizable", "a resizable ArrayBuffer resized up to 4 GiB", ALLOCATION_FAILED],
    ["sharedGrow", "a growable SharedArrayBuffer grown to 4 GiB", ALLOCATION_FAILED],
    ["shared", "twelve 512 MiB SharedArrayBuffers", ALLOCATION_FAILED],
    ["wasmMemory", "a WebAssembly.Memory grown to 4 GiB", "RangeError: WebAssembly.Memory.grow(): Unable to grow instance memory"],
    ["gzipBomb", "gunzipSync of a 6 MB multi-member gzip bomb", "RangeError [ERR_BUFFER_TOO_LARGE]: Cannot create a Buffer larger than"],
    ["gzipBombStream", "the gzip bomb through createGunzip", "RangeError: Cannot create a Buffer larger than"],
    ["scrypt", "scryptSync with N = 2**22, r = 8 and its own maxmem of 8 GiB", "Invalid scrypt params"],
    ["scryptHalf", "scryptSync with N = 2**21, r = 8 and its own maxmem of 8 GiB", "Invalid scrypt params"],
    ["wasmCode", "150 distinct 14 MB WebAssembly modules compiled and kept", "RangeError: WebAssembly.Module(): Out of memory"],
    ["wasmCodeAsync", "150 distinct 14 MB WebAssembly modules compiled ten at a time with WebAssembly.compile", "RangeError: WebAssembly.compile(): Out of memory"],
  ])("%s (%s): the guest gets Node's error, the host stays under 1.5 GiB", async (name, _what, error) => {
    const r = await attack(name);
    expect(r.stdout).not.toContain("survived");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(error);
    expect(r.peakRssMiB).toBeLessThan(HOST_RSS_BOUND_MIB);
  });

  it("a hash over 460 MiB of input given 1 MiB at a time is Node's, in constant memory (the worker hashes it as it comes)", async () => {
    const r = await attack("hashStream");
    expect(r).toMatchObject({ exitCode: 0, stdout: "survived 411dd11ea27aeeaaed4fa9a5954a3c01d220764020d9ee67ad0c00a71078df2e\n", stderr: "" });
    expect(r.peakRssMiB).toBeLessThan(HOST_RSS_BOUND_MIB);
  });

  it("a module's own memory (no maximum) grown from inside wasm stops at the process budget: memory.grow answers -1", async () => {
    const r = await attack("wasmOwnMemory");
    // 1 page, then 4096 at a time: 8193 pages would pass the 8192 of 512 MiB.
    expect(r).toMatchObject({ exitCode: 0, stdout: "survived 4097\n", stderr: "" });
    expect(r.peakRssMiB).toBeLessThan(HOST_RSS_BOUND_MIB);
  });
});
