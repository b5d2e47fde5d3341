// One memory attack by a guest `node`, run in a process of its own (test/node/memory.test.ts spawns it with
// `node --import tsx`): a failure of the bound can only take this process down, never the test runner.
// Prints one line of JSON: the exec's result and this process's peak RSS (the host's: the kernel and every
// guest's worker live in it).
import { gzipSync } from "node:zlib";
import { AgentOs } from "../../src/index.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";

const MiB = 1024 * 1024;

/** A WebAssembly module with a memory of its own (1 page, no maximum) and `grow(n)` = memory.grow, `fill(p)` storing 1 every 4 KiB below p pages. */
const WASM_OWN_MEMORY = Buffer.from(
  "0061736d0100000001060160017f017f03030200000503010001070f020467726f7700000466696c6c00010a2e020600200040000b2501017f034020012000411074490440200141013a000020014180206a21010c010b0b20010b",
  "hex",
);

/**
 * Guest code that builds `bytes`, a 14 MB WebAssembly module of 2000 functions (V8 compiles each module to
 * about as much native code again, outside the heap), whose last two bytes (a custom section's) make each
 * module compiled from it a new one.
 */
const WASM_BIG_MODULE = "const leb = (n) => { const o = []; do { let b = n & 127; n >>>= 7; if (n) b |= 128; o.push(b); } while (n); return o; }; const F = 2000; const body = [0]; for (let r = 0; r < 1000; r++) body.push(0x20, 0, 0x41, r & 0x3f, 0x6a, 0x21, 0); body.push(0x20, 0, 0x0b); const fb = [...leb(body.length), ...body]; const head = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 6, 1, 0x60, 1, 0x7f, 1, 0x7f, 3, ...leb(leb(F).length + F), ...leb(F), ...new Array(F).fill(0), 10, ...leb(leb(F).length + fb.length * F), ...leb(F)]; const bytes = new Uint8Array(head.length + fb.length * F + 6); bytes.set(head); for (let i = 0; i < F; i++) bytes.set(fb, head.length + i * fb.length); const at = bytes.length - 6; bytes.set([0, 4, 1, 0x78, 0, 0], at); const mark = (i) => { bytes[at + 4] = i & 127; bytes[at + 5] = i >> 7; };";

export const ATTACKS: Record<string, string> = {
  // Twelve 512 MiB Uint8Arrays, each filled, no system call.
  typedArrays: "const a = []; for (let i = 0; i < 12; i++) { const b = new Uint8Array(512 * 1024 * 1024); b.fill(1); a.push(b); } console.log('survived', a.length)",
  // A WebAssembly.Memory grown to 4 GiB from JavaScript, each growth touched.
  wasmMemory: "const m = new WebAssembly.Memory({ initial: 1 }); for (let i = 1; i < 65536; i += 4096) { m.grow(Math.min(4096, 65535 - i + 1)); new Uint8Array(m.buffer).fill(1, (i - 1) * 65536); } console.log('survived', m.buffer.byteLength)",
  // gunzipSync of a multi-member gzip bomb (6 MB that inflate to 6 GiB).
  gzipBomb: "const z = require('zlib'); const b = require('fs').readFileSync('/tmp/bomb.gz'); const out = z.gunzipSync(b); console.log('survived', out.length)",
  // The same bomb through a stream.
  gzipBombStream: "const z = require('zlib'); const g = z.createGunzip(); let n = 0; const kept = []; g.on('data', (c) => { n += c.length; kept.push(c); }); g.on('end', () => console.log('survived', n)); g.on('error', (e) => { console.error(e.name + ': ' + e.message); process.exitCode = 1; }); g.end(require('fs').readFileSync('/tmp/bomb.gz'))",
  // scrypt with the guest's own huge maxmem (N = 2**22, r = 8: 4 GiB).
  scrypt: "const c = require('crypto'); const k = c.scryptSync('p', 's', 16, { N: 2 ** 22, r: 8, maxmem: 2 ** 33 }); console.log('survived', k.length)",
  // N = 2**21: 2 GiB, which a bound-less worker held and the guest exited 0.
  scryptHalf: "const c = require('crypto'); const k = c.scryptSync('p', 's', 16, { N: 2 ** 21, r: 8, maxmem: 2 ** 33 }); console.log('survived', k.length)",
  // Many small buffers kept: 4 KiB each, 1.5 GiB in all.
  smallBuffers: "const a = []; for (let i = 0; i < 393216; i++) { const b = Buffer.alloc(4096); b[0] = 1; a.push(b); } console.log('survived', a.length)",
  // A resizable ArrayBuffer resized up to 4 GiB, touched as it grows.
  resizable: "const r = new ArrayBuffer(0, { maxByteLength: 2 ** 32 }); const step = 256 * 1024 * 1024; for (let n = step; n <= 2 ** 32; n += step) { r.resize(n); new Uint8Array(r).fill(1, n - step); } console.log('survived', r.byteLength)",
  // A growable SharedArrayBuffer grown to 4 GiB.
  sharedGrow: "const s = new SharedArrayBuffer(0, { maxByteLength: 2 ** 32 }); const step = 256 * 1024 * 1024; for (let n = step; n <= 2 ** 32; n += step) { s.grow(n); new Uint8Array(s).fill(1, n - step); } console.log('survived', s.byteLength)",
  // Twelve 512 MiB SharedArrayBuffers.
  shared: "const a = []; for (let i = 0; i < 12; i++) { const s = new SharedArrayBuffer(512 * 1024 * 1024); new Uint8Array(s).fill(1); a.push(s); } console.log('survived', a.length)",
  // 150 distinct 14 MB WebAssembly modules compiled and kept: their code is no ArrayBuffer.
  wasmCode: `${WASM_BIG_MODULE} const kept = []; for (let i = 0; i < 150; i++) { mark(i); kept.push(new WebAssembly.Module(bytes)); } console.log('survived', kept.length)`,
  // The same, compiled asynchronously ten at a time (what a batch holds is counted before any of it is compiled).
  wasmCodeAsync: `${WASM_BIG_MODULE} (async () => { const kept = []; for (let b = 0; b < 15; b++) { const batch = []; for (let i = 0; i < 10; i++) { mark(b * 10 + i); batch.push(WebAssembly.compile(bytes)); } kept.push(...(await Promise.all(batch))); } console.log('survived', kept.length); })().catch((e) => { console.error(e.name + ': ' + e.message); process.exitCode = 1; })`,
  // A hash over 460 MiB of input, given 1 MiB at a time (Node hashes it as it comes, in constant memory).
  hashStream: "const h = require('crypto').createHash('sha256'); const b = Buffer.alloc(1024 * 1024, 1); for (let i = 0; i < 460; i++) h.update(b); console.log('survived', h.digest('hex'))",
  // A module whose own memory (no maximum) grows from inside wasm to 4 GiB, every 4 KiB touched.
  wasmOwnMemory: `const m = new WebAssembly.Module(Buffer.from('${WASM_OWN_MEMORY.toString("hex")}', 'hex')); const { grow, fill } = new WebAssembly.Instance(m).exports; let pages = 1; while (pages < 65536) { if (grow(4096) < 0) break; pages += 4096; fill(Math.min(pages, 65535)); } console.log('survived', pages)`,
};

async function main(): Promise<void> {
  const name = process.argv[2]!;
  const source = ATTACKS[name];
  if (!source) throw new Error(`no attack ${name}`);
  const vm = await AgentOs.create();
  if (name.startsWith("gzipBomb")) {
    // 6 MB: a thousand members of 1 MiB zeros each repeated; gunzip reads every member.
    const member = gzipSync(Buffer.alloc(64 * MiB), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: Math.ceil((6 * 1000 * 1000) / member.length) }, () => member));
        await vm.writeFile("/tmp/bomb.gz", bomb);
  }
  const r = await vm.exec(`node -e "${source.replaceAll('"', '\\"')}"`, { timeout: RUN_DEADLINE_MS });
  const peakRss = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({ name, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr.slice(0, 2000), peakRssMiB: Math.round(peakRss / MiB) }));
  await vm.dispose();
  process.exit(0);
}

if (process.argv[2]) void main();
