import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs, type ExecResult } from "../../src/index.js";

// Differential test of the guest `node`'s host-assisted crypto (ciphers, pbkdf2, scrypt, hkdf) and incremental
// zlib streams (workers/node-guest/builtins/{crypto,zlib}.js, workers/node-host/{crypto,zlib}-ops.ts) against this
// machine's own `node` (process.execPath, the binary the VM's workers run on): stdout, stderr and exit code must
// be equal after replacing the script's directory and collapsing stack frames. A last group checks what only the
// VM has: the per-process cap on live cipher and zlib handles.

const js = String.raw;

interface Case {
  name: string;
  code: string;
}

const CASES: Case[] = [
  // ---------------------------------------------------------------- ciphers
  { name: "cipher-vectors", code: js`const c = require('crypto');
const h = (s) => Buffer.from(s, 'hex');
// NIST SP 800-38A F.2.1 (CBC-AES128), F.5.1 (CTR-AES128), F.1.1 (ECB-AES128).
const key = h('2b7e151628aed2a6abf7158809cf4f3c'), pt = h('6bc1bee22e409f96e93d7e117393172a');
const cbc = c.createCipheriv('aes-128-cbc', key, h('000102030405060708090a0b0c0d0e0f')).setAutoPadding(false);
console.log(Buffer.concat([cbc.update(pt), cbc.final()]).toString('hex'));
const ctr = c.createCipheriv('aes-128-ctr', key, h('f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff'));
console.log(ctr.update(pt, undefined, 'hex') + ctr.final('hex'));
const ecb = c.createCipheriv('aes-128-ecb', key, null); ecb.setAutoPadding(false);
console.log(ecb.update(pt).toString('hex'), ecb.final().length);
for (const alg of ['aes-128-cbc', 'aes-192-cbc', 'aes-256-cbc', 'aes-128-ctr', 'aes-192-ctr', 'aes-256-ctr', 'aes-128-ecb', 'aes-192-ecb', 'aes-256-ecb']) {
  const bits = Number(alg.slice(4, 7)); const k = Buffer.alloc(bits / 8, 7); const iv = alg.endsWith('ecb') ? null : Buffer.alloc(16, 9);
  const e = c.createCipheriv(alg, k, iv); const ct = e.update('héllo wörld, a message longer than one block', 'utf8', 'base64') + e.final('base64');
  const d = c.createDecipheriv(alg, k, iv); console.log(alg, ct, d.update(ct, 'base64', 'utf8') + d.final('utf8'));
}
const e = c.createCipheriv('aes-256-cbc', 'k'.repeat(32), 'i'.repeat(16)); const parts = [];
for (let i = 0; i < 40; i += 7) parts.push(e.update(Buffer.alloc(7, i)));
parts.push(e.final()); console.log(parts.map((p) => p.length).join(), Buffer.concat(parts).toString('hex'));
const big = Buffer.alloc(600000, 'abc'); const be = c.createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
const bct = Buffer.concat([be.update(big), be.final()]); console.log(bct.length, c.createHash('sha256').update(bct).digest('hex'));
const bd = c.createDecipheriv('aes-128-ctr', key, Buffer.alloc(16)); console.log(Buffer.concat([bd.update(bct), bd.final()]).equals(big));
console.log(c.getCiphers().includes('aes-256-gcm'), c.getCiphers().includes('chacha20-poly1305'), c.getCiphers().length > 50);
` },
  { name: "cipher-aead", code: js`const c = require('crypto');
const key = Buffer.alloc(32, 3), iv = Buffer.alloc(12, 4), aad = Buffer.from('header');
for (const [alg, k, opts] of [['aes-256-gcm', key, undefined], ['aes-128-gcm', key.subarray(0, 16), { authTagLength: 12 }], ['chacha20-poly1305', key, { authTagLength: 16 }]]) {
  const e = c.createCipheriv(alg, k, iv, opts); e.setAAD(aad);
  const ct = Buffer.concat([e.update('attack at dawn'), e.final()]); const tag = e.getAuthTag();
  console.log(alg, ct.toString('hex'), tag.toString('hex'), e.getAuthTag().equals(tag));
  const d = c.createDecipheriv(alg, k, iv, opts); d.setAAD(aad); d.setAuthTag(tag);
  console.log(Buffer.concat([d.update(ct), d.final()]).toString());
  const bad = c.createDecipheriv(alg, k, iv, opts); bad.setAAD(Buffer.from('other')); bad.setAuthTag(tag); bad.update(ct);
  try { bad.final(); } catch (err) { console.log(err.name, err.message, err.code, Object.keys(err)); }
}
const g = c.createCipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12));
try { g.getAuthTag(); } catch (e) { console.log(e.message, e.code); }
g.final(); console.log(g.getAuthTag().length);
try { c.createDecipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12)).setAuthTag(Buffer.alloc(3)); } catch (e) { console.log(e.name, e.message, e.code); }
try { c.createCipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12), { authTagLength: 3 }); } catch (e) { console.log(e.name, e.message, e.code); }
console.log(typeof c.createCipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12)).setAuthTag, typeof c.createDecipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12)).getAuthTag);
` },
  { name: "cipher-errors", code: js`const c = require('crypto');
const t = (f) => { try { console.log('ok', f()); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.code, Object.keys(e).join(), e.stack.split('\n')[0]); } };
const k = Buffer.alloc(16, 1), iv = Buffer.alloc(16, 2);
t(() => c.createCipheriv('aes-128-cbc', Buffer.alloc(5), iv));
t(() => c.createCipheriv('aes-256-cbc', k, iv));
t(() => c.createCipheriv('aes-128-cbc', k, Buffer.alloc(5)));
t(() => c.createCipheriv('aes-128-ecb', k, iv));
t(() => c.createCipheriv('nope-128', k, iv));
t(() => c.createCipheriv(5, k, iv));
t(() => c.createCipheriv('aes-128-cbc', 5, iv));
t(() => c.createCipheriv('aes-128-cbc', {}, iv));
t(() => c.createCipheriv('aes-128-cbc', [1, 2], iv));
let x = c.createCipheriv('aes-128-cbc', k, iv); x.final();
t(() => x.update('a')); t(() => x.final()); t(() => x.setAutoPadding(false)); t(() => x.getAuthTag()); t(() => x.setAAD(Buffer.alloc(1)));
x = c.createCipheriv('aes-128-cbc', k, iv);
t(() => x.update({})); t(() => x.update(new ArrayBuffer(2))); t(() => x.update('abc', 'hex')); t(() => x.update(5)); t(() => x.setAAD(Buffer.alloc(1)));
let d = c.createDecipheriv('aes-128-cbc', k, iv); d.update(Buffer.alloc(16)); t(() => d.final()); t(() => d.final());
d = c.createDecipheriv('aes-128-cbc', k, iv); d.update(Buffer.alloc(15)); t(() => d.final());
x = c.createCipheriv('aes-128-cbc', k, iv); x.setAutoPadding(false); x.update('abc'); t(() => x.final());
try { d = c.createDecipheriv('aes-128-cbc', k, iv); d.update(Buffer.alloc(16)); d.final(); } catch (e) { console.log(e); }
t(() => c.timingSafeEqual(Buffer.alloc(1), Buffer.alloc(2))); t(() => c.timingSafeEqual('a', 'a')); t(() => c.timingSafeEqual(Buffer.from('ab'), new Uint8Array([97, 98])));
` },
  { name: "cipher-uncaught", code: js`const c = require('crypto'); const d = c.createDecipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)); d.update(Buffer.alloc(16)); d.final();` },
  { name: "cipher-streams", code: js`const c = require('crypto'); const { pipeline, Readable, Writable } = require('stream');
const key = Buffer.alloc(32, 5), iv = Buffer.alloc(16, 6); const out = [];
pipeline(Readable.from(['first chunk, ', 'second chunk, ', 'x'.repeat(5000)]), c.createCipheriv('aes-256-cbc', key, iv), c.createDecipheriv('aes-256-cbc', key, iv),
  new Writable({ write(ch, e, cb) { out.push(ch); cb(); } }), (err) => {
    console.log('pipeline', err, Buffer.concat(out).length, Buffer.concat(out).subarray(0, 26).toString());
    const d = c.createDecipheriv('aes-256-cbc', key, iv); d.on('error', (e) => console.log('stream error', e.message, e.code)); d.on('data', () => {}); d.end(Buffer.alloc(16));
  });
const e = c.createCipheriv('aes-128-ctr', Buffer.alloc(16), Buffer.alloc(16)); e.setEncoding('hex'); let s = '';
e.on('data', (d) => (s += d)); e.on('end', () => console.log('hex stream', s)); e.write('abc'); e.end('def');
` },
  // ---------------------------------------------------------------- key derivation
  { name: "kdf", code: js`const c = require('crypto');
const t = (f) => { try { const r = f(); console.log('ok', Buffer.isBuffer(r) ? r.toString('hex') : r); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.code, e.stack.split('\n')[0]); } };
// RFC 6070 PBKDF2-HMAC-SHA1 vectors.
t(() => c.pbkdf2Sync('password', 'salt', 1, 20, 'sha1')); t(() => c.pbkdf2Sync('password', 'salt', 4096, 20, 'sha1'));
t(() => c.pbkdf2Sync('passwordPASSWORDpassword', 'saltSALTsaltSALTsaltSALTsaltSALTsalt', 4096, 25, 'sha1'));
t(() => c.pbkdf2Sync(Buffer.from('pw'), new Uint8Array([1, 2, 3]), 10, 64, 'sha512')); t(() => c.pbkdf2Sync('pw', 'salt', 1000, 32, 'sha256'));
t(() => c.pbkdf2Sync('a', 'b', 0, 10, 'sha1')); t(() => c.pbkdf2Sync('a', 'b', 1, 10, 'nope')); t(() => c.pbkdf2Sync('a', 'b', 1, 10)); t(() => c.pbkdf2Sync('a', 'b', 1, -1, 'sha1')); t(() => c.pbkdf2Sync({}, 'b', 1, 1, 'sha1'));
t(() => c.pbkdf2('a', 'b', 1, 10, 'sha1'));
// RFC 7914 scrypt vectors.
t(() => c.scryptSync('', '', 64, { N: 16, r: 1, p: 1 })); t(() => c.scryptSync('password', 'NaCl', 64, { N: 1024, r: 8, p: 16 }));
t(() => c.scryptSync('pw', 'salt', 16)); t(() => c.scryptSync('pw', 'salt', 16, { cost: 32, blockSize: 2, parallelization: 2 }));
t(() => c.scryptSync('a', 'b', 10, { N: 3 })); t(() => c.scryptSync('a', 'b', 10, { N: 16, cost: 16 })); t(() => c.scryptSync('a', 'b', 10, { N: 2 ** 20 }));
t(() => c.scryptSync('a', 'b', 10, { N: 2 ** 14, maxmem: 1024 })); t(() => c.scryptSync('a', 'b', 10, { r: 0 })); t(() => c.scryptSync('a', 'b', 10, { N: 'x' })); t(() => c.scryptSync('a', 'b', 10, { maxmem: -1 }));
// RFC 5869 A.1.
const hk = c.hkdfSync('sha256', Buffer.from('0b'.repeat(22), 'hex'), Buffer.from('000102030405060708090a0b0c', 'hex'), Buffer.from('f0f1f2f3f4f5f6f7f8f9', 'hex'), 42);
console.log(hk instanceof ArrayBuffer, Buffer.from(hk).toString('hex'));
t(() => c.hkdfSync('sha256', 'k', 's', 'i', 10000)); t(() => c.hkdfSync('nope', 'k', 's', 'i', 10)); t(() => c.hkdfSync('sha256', 'k', 's', 'i'));
c.pbkdf2('pw', 'salt', 1, 8, 'sha1', (e, k) => {
  console.log('pbkdf2 cb', e, k.toString('hex'));
  c.scrypt('pw', 'salt', 8, (e2, k2) => {
    console.log('scrypt cb', e2, k2.toString('hex'));
    c.scrypt('pw', 'salt', 8, { N: 32 }, (e3, k3) => {
      console.log('scrypt opts cb', e3, k3.toString('hex'));
      c.hkdf('sha512', 'key', 'salt', 'info', 16, (e4, k4) => console.log('hkdf cb', e4, k4 instanceof ArrayBuffer, Buffer.from(k4).toString('hex')));
    });
  });
});
const { promisify } = require('util'); promisify(c.pbkdf2)('p', 's', 2, 4, 'md5').then((k) => console.log('promisified', k.toString('hex')));
` },
  // ---------------------------------------------------------------- zlib
  { name: "zlib-incremental", code: js`const zlib = require('zlib');
const gz = zlib.createGzip(); const seen = []; let ended = false;
gz.on('data', (d) => seen.push(d)); gz.on('end', () => { ended = true; console.log('end', seen.length > 1, zlib.gunzipSync(Buffer.concat(seen)).toString(), gz.bytesWritten); next(); });
gz.write('first half of the input, ');
gz.flush(() => {
  console.log('after flush: data before end', seen.length > 0, !ended, Buffer.concat(seen).toString('hex'));
  gz.end('second half');
});
function next() {
  const inf = zlib.createInflate(); const got = []; const input = zlib.deflateSync('x'.repeat(100000) + 'tail');
  inf.on('data', (d) => got.push(d.length));
  inf.write(input.subarray(0, input.length >> 1), () => {
    setTimeout(() => { console.log('data before end', got.length > 0); inf.end(input.subarray(input.length >> 1)); }, 5);
  });
  inf.on('end', () => { console.log('inflated', got.reduce((a, b) => a + b, 0), got.every((n) => n <= 16384)); next2(); });
}
function next2() {
  const d = zlib.createDeflate({ level: 1 }); const out = [];
  d.on('data', (b) => out.push(b)); d.write('abc'.repeat(100));
  d.params(9, zlib.constants.Z_FILTERED, () => { console.log('params done', d._level, d._strategy); d.end('def'.repeat(100)); });
  d.on('end', () => { const all = Buffer.concat(out); console.log('params', all.toString('base64'), zlib.inflateSync(all).length); next3(); });
}
function next3() {
  const b = zlib.createBrotliCompress(); const out = []; b.on('data', (x) => out.push(x));
  b.write('brotli '.repeat(50)); b.flush(() => { console.log('brotli flushed', zlib.brotliDecompressSync(Buffer.concat(out), { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }).toString().length); b.end(); });
  b.on('end', () => { const bd = zlib.createBrotliDecompress(); const r = []; bd.on('data', (x) => r.push(x)); bd.on('end', () => console.log('brotli', Buffer.concat(r).toString().length)); bd.end(Buffer.concat(out)); });
}
` },
  { name: "zlib-big-roundtrip", code: js`const zlib = require('zlib'); const crypto = require('crypto'); const { pipeline, Readable, Writable } = require('stream');
const chunks = []; let seed = 1; for (let i = 0; i < 80; i++) { const b = Buffer.alloc(65536); for (let j = 0; j < b.length; j++) { seed = (seed * 1103515245 + 12345) & 0x7fffffff; b[j] = 97 + ((seed >> 16) % 8); } chunks.push(b); }
const input = Buffer.concat(chunks); const hIn = crypto.createHash('sha256').update(input).digest('hex'); const hGz = crypto.createHash('sha256'); const hOut = crypto.createHash('sha256'); let n = 0; let gzBytes = 0;
const gz = zlib.createGzip(); gz.on('data', (d) => { gzBytes += d.length; hGz.update(d); });
pipeline(Readable.from(chunks), gz, zlib.createGunzip(), new Writable({ write(c, e, cb) { n += c.length; hOut.update(c); cb(); } }), (err) => {
  console.log(err, input.length, n, hIn === hOut.digest('hex'), gzBytes, hGz.digest('hex'));
  const big = zlib.gzipSync(input); console.log(big.length, zlib.gunzipSync(big).equals(input), zlib.inflateSync(zlib.deflateSync(input, { level: 9 })).length);
  zlib.gunzip(big, (e, out) => console.log('async', e, out.length));
});
` },
  { name: "zlib-errors", code: js`const zlib = require('zlib');
const t = (f) => { try { const r = f(); console.log('ok', Buffer.isBuffer(r) ? r.toString() : r); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.code, e.errno, Object.keys(e).join(), e.stack.split('\n')[0]); } };
const gz = zlib.gzipSync('some text to compress');
t(() => zlib.gunzipSync(Buffer.from('not gzip at all'))); t(() => zlib.gunzipSync(gz.subarray(0, 12))); t(() => zlib.inflateSync(Buffer.from([1, 2, 3, 4])));
t(() => zlib.inflateRawSync(Buffer.from([0xff, 0xff]))); t(() => zlib.brotliDecompressSync(Buffer.from('garbage garbage')));
t(() => zlib.gunzipSync(gz.subarray(0, 12), { finishFlush: zlib.constants.Z_SYNC_FLUSH }));
t(() => zlib.gzipSync('x', { level: 42 })); t(() => zlib.gzipSync(123)); t(() => zlib.gzipSync({})); t(() => zlib.deflateSync('x', { windowBits: 'a' }));
t(() => zlib.gunzipSync(Buffer.concat([gz, zlib.gzipSync(' and more')]))); t(() => zlib.inflateSync(Buffer.concat([zlib.deflateSync('abc'), Buffer.from('junk')])));
t(() => zlib.inflateSync(zlib.deflateSync('dict data', { dictionary: Buffer.from('dict') }), { dictionary: Buffer.from('dict') }));
t(() => zlib.inflateSync(zlib.deflateSync('dict data', { dictionary: Buffer.from('dict') })));
t(() => zlib.inflateSync(zlib.deflateSync('a'.repeat(1000)), { maxOutputLength: 10 }));
zlib.gunzip(Buffer.from('bad'), (e, r) => console.log('cb', e.message, e.code, e.errno, r));
const s = zlib.createGunzip(); s.on('error', (e) => { console.log('stream error', e.message, e.code, e.errno); next(); }); s.on('data', () => {}); s.end(Buffer.from('definitely not gzip'));
function next() {
  const u = zlib.createGunzip(); u.on('error', (e) => { console.log('truncated', e.message, e.code, e.errno); next2(); }); u.on('data', () => {}); u.end(gz.subarray(0, 15));
}
function next2() {
  const both = Buffer.concat([zlib.gzipSync('member one, '), zlib.gzipSync('member two')]); const u = zlib.createGunzip(); const r = [];
  u.on('data', (d) => r.push(d)); u.on('end', () => { console.log('members', Buffer.concat(r).toString()); next3(); });
  u.write(both.subarray(0, 5)); u.write(both.subarray(5, 40)); u.end(both.subarray(40));
}
function next3() {
  const u = zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }); const r = [];
  u.on('data', (d) => r.push(d)); u.on('error', (e) => console.log('unexpected', e.message)); u.on('end', () => { console.log('finishFlush', Buffer.concat(r).toString()); next4(); }); u.end(zlib.gzipSync('partial content here').subarray(0, 20));
}
function next4() {
  const g = zlib.createGzip(); g.write('abc'); g.close(() => console.log('closed', g.destroyed));
  const d = zlib.createDeflate(); d.on('close', () => console.log('destroy close')); d.destroy();
  try { zlib.createGzip({ level: 99 }); } catch (e) { console.log(e.name, e.message, e.code); }
  try { zlib.createGzip({ chunkSize: 10 }); } catch (e) { console.log(e.name, e.message, e.code); }
  console.log(typeof zlib.crc32, typeof zlib.crc32 === 'function' ? [zlib.crc32('hello'), zlib.crc32(Buffer.from('world'), 12345), zlib.crc32('')] : 'none');
  console.log(zlib.codes.Z_DATA_ERROR, zlib.codes['-3'], zlib.Z_SYNC_FLUSH, zlib.constants.Z_DEFAULT_CHUNK, Object.isFrozen(zlib.constants));
}
` },
];

/** Replaces the script's directory and collapses stack frames ("    at …" lines) to one placeholder. */
function normalise(text: string, dir: string): string {
  let s = text.split(dir).join("<DIR>");
  s = s.replace(/(?:\n[ \t]+at [^\n]*?)+( \{)?(?=\n|$)/g, "\n    at <frames>$1");
  // The header Node prints above an uncaught error: `file:line`, the source line, the caret line.
  s = s.replace(/(^|\n)[^\n]*:\d+\n[^\n]*\n *\^+[^\n]*\n(?:\n)?/g, "$1");
  return s;
}

function runOnHost(dir: string, file: string): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd: dir, env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: "/home/user", LANG: "C.UTF-8" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (code) => resolve({ exitCode: code ?? -1, stdout, stderr }));
  });
}

let hostRoot = "";
let vm: AgentOs | undefined;
const vmResults = new Map<string, ExecResult>();
const hostResults = new Map<string, ExecResult>();

beforeAll(async () => {
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), "agentos-crypto-zlib-")));
  vm = await AgentOs.create();
  await vm.mkdir("/w", { recursive: true });
  for (const r of await vm.writeFiles(CASES.map((c) => ({ path: `/w/${c.name}.js`, content: c.code })))) if (!r.success) throw new Error(`${r.path}: ${r.error}`);
  mkdirSync(hostRoot, { recursive: true });
  for (const c of CASES) writeFileSync(join(hostRoot, `${c.name}.js`), c.code);
  await Promise.all([
    (async () => {
      for (const c of CASES) vmResults.set(c.name, await vm!.exec(`node /w/${c.name}.js`, { timeout: 60_000 }));
    })(),
    (async () => {
      for (const c of CASES) hostResults.set(c.name, await runOnHost(hostRoot, join(hostRoot, `${c.name}.js`)));
    })(),
  ]);
}, 180_000);

afterAll(async () => {
  await vm?.dispose();
  if (hostRoot) rmSync(hostRoot, { recursive: true, force: true });
});

describe("guest crypto and zlib match the host's node", () => {
  for (const c of CASES) {
    it(c.name, () => {
      const norm = (r: ExecResult, dir: string): ExecResult => ({ exitCode: r.exitCode, stdout: normalise(r.stdout, dir), stderr: normalise(r.stderr, dir) });
      const inVm = norm(vmResults.get(c.name)!, "/w");
      const onHost = norm(hostResults.get(c.name)!, hostRoot);
      expect(inVm).toEqual(onHost);
    });
  }
});

describe("handles of a guest process are bounded and released", () => {
  const run = async (code: string): Promise<ExecResult> => {
    await vm!.writeFiles([{ path: "/w/limits.js", content: code }]);
    return vm!.exec("node /w/limits.js", { timeout: 60_000 });
  };

  it("a guest leaking 1000 unfinished ciphers hits the cap with a coded error", async () => {
    const r = await run(js`const c = require('crypto'); const kept = [];
      try { for (let i = 0; i < 1000; i++) { const x = c.createCipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)); x.update('data'); kept.push(x); } console.log('no cap'); }
      catch (e) { console.log(kept.length, e.name, e.code, e.errno, e.message); }
      kept.forEach((x) => x.final()); const more = c.createCipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)); console.log('after final', more.final().length);`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("256 Error EMFILE -24 EMFILE: too many open cipher handles (limit 256 per process)\nafter final 16\n");
  });

  it("ciphers finished, destroyed or failed release their handles", async () => {
    const r = await run(js`const c = require('crypto');
      for (let i = 0; i < 1000; i++) c.createCipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12)).final();
      for (let i = 0; i < 1000; i++) c.createCipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)).destroy();
      for (let i = 0; i < 1000; i++) { const d = c.createDecipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)); d.update(Buffer.alloc(16)); try { d.final(); } catch {} }
      console.log('ok');`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("ok\n");
  });

  it("zlib streams are capped too and released by end, close and destroy", async () => {
    const r = await run(js`const zlib = require('zlib'); const kept = [];
      try { for (let i = 0; i < 1000; i++) kept.push(zlib.createGzip()); } catch (e) { console.log(kept.length, e.code, e.message); }
      kept.forEach((z) => z.destroy());
      // Three rounds of 200 streams, each round ending before the next starts: 600 streams, never more than 200 live.
      const round = (k) => { let done = 0; for (let i = 0; i < 200; i++) { const z = zlib.createDeflate(); z.on('data', () => {}); z.on('end', () => { if (++done === 200) k(); }); z.end('x'); } };
      round(() => round(() => round(() => { for (let j = 0; j < 300; j++) zlib.createInflate().close(); console.log('rounds done'); })));`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("256 EMFILE EMFILE: too many open zlib handles (limit 256 per process)\nrounds done\n");
  });
});
