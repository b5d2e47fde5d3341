import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs, type ExecResult } from "../../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, runHostNode, SETUP_DEADLINE_MS } from "./host-node.js";

// Differential test of the guest `node`'s web-platform globals (stream/web, Blob and File, MessageChannel,
// MessagePort, BroadcastChannel; workers/node-guest) against this machine's own `node` (process.execPath,
// the binary the VM's workers run on). Each case is one script, run in one VM as `node case.js` (or
// case.mjs) with its directory as cwd, and on the host in a temp directory holding the same file; stdout,
// stderr and the exit code must be equal after replacing the directory by <DIR> and collapsing stack frames.
// Snippets avoid what legitimately differs (times, pids) and what Node itself does not order
// deterministically (a setTimeout(0) against the first turn of the loop).

interface Case {
  name: string;
  code: string;
  /** Run as an ES module (case.mjs). */
  esm?: boolean;
}

const js = String.raw;

const CASES: Case[] = [
  // ---------------------------------------------------------------- stream/web
  { name: "web-module-shape", code: js`const w = require('stream/web'); const n = require('node:stream/web'); console.log(w === n, ['ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest', 'ReadableByteStreamController', 'ReadableStreamDefaultController', 'TransformStream', 'TransformStreamDefaultController', 'WritableStream', 'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy', 'TextEncoderStream', 'TextDecoderStream'].map((k) => k + ':' + (typeof w[k]) + ':' + (globalThis[k] === w[k])).join(' ')); console.log(require('module').builtinModules.includes('stream/web'), require('stream').web, typeof ReadableStream.from);` },
  { name: "web-esm-import", esm: true, code: js`import { ReadableStream as R, TextDecoderStream } from 'node:stream/web'; import web from 'stream/web'; console.log(R === ReadableStream, web.TextDecoderStream === TextDecoderStream); const chunks = []; for await (const c of R.from(['a', 'b'])) chunks.push(c); console.log(chunks);` },
  { name: "web-readable-roundtrip", code: js`const rs = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); }, pull(c) { c.enqueue('c'); c.close(); } }); (async () => { const r = rs.getReader(); console.log(rs.locked); let x; while (!(x = await r.read()).done) console.log('read', x.value); console.log('done', x); r.releaseLock(); console.log(rs.locked); })();` },
  { name: "web-async-iteration", code: js`(async () => { const rs = new ReadableStream({ start(c) { for (let i = 0; i < 4; i++) c.enqueue(i); c.close(); } }); for await (const v of rs) console.log('v', v); const rs2 = new ReadableStream({ pull(c) { c.enqueue(1); }, cancel(r) { console.log('cancelled', r); } }); for await (const v of rs2) { console.log('first', v); break; } console.log(rs2.locked); })();` },
  { name: "web-from-iterables", code: js`(async () => { async function* gen() { yield 'x'; await null; yield 'y'; } const out = []; for await (const v of ReadableStream.from(gen())) out.push(v); for await (const v of ReadableStream.from(new Set([1, 2]))) out.push(v); console.log(out); })();` },
  { name: "web-writable-roundtrip", code: js`const log = []; const ws = new WritableStream({ start() { log.push('start'); }, write(chunk) { log.push('write ' + chunk); return new Promise((r) => setTimeout(r, 1)); }, close() { log.push('close'); } }, new CountQueuingStrategy({ highWaterMark: 2 })); const w = ws.getWriter(); console.log(w.desiredSize); w.write('a'); w.write('b'); console.log(w.desiredSize); w.close().then(() => console.log(log, ws.locked));` },
  { name: "web-transform-pipe", code: js`const upper = new TransformStream({ transform(chunk, c) { c.enqueue(chunk.toUpperCase()); }, flush(c) { c.enqueue('!'); } }); const out = []; ReadableStream.from(['ab', 'cd']).pipeThrough(upper).pipeTo(new WritableStream({ write(c) { out.push(c); } })).then(() => console.log(out));` },
  { name: "web-text-decoder-stream", code: js`const bytes = new TextEncoder().encode('h\u00e9llo \u{1F600}!'); const parts = [bytes.slice(0, 2), bytes.slice(2, 8), bytes.slice(8)]; const out = []; const d = new TextDecoderStream(); console.log(d.encoding, d.fatal, d.ignoreBOM); ReadableStream.from(parts).pipeThrough(d).pipeTo(new WritableStream({ write(s) { out.push(s); } })).then(() => console.log(JSON.stringify(out.join('')), out.length > 1));` },
  { name: "web-text-encoder-stream", code: js`const out = []; const e = new TextEncoderStream(); console.log(e.encoding); ReadableStream.from(['a\uD83D', '\uDE00b', 'c']).pipeThrough(e).pipeTo(new WritableStream({ write(b) { out.push(...b); } })).then(() => console.log(Buffer.from(out).toString(), out.length));` },
  { name: "web-tee", code: js`const [a, b] = ReadableStream.from([1, 2, 3]).tee(); (async () => { const ra = []; const rb = []; await Promise.all([(async () => { for await (const v of a) ra.push(v); })(), (async () => { for await (const v of b) rb.push(v * 10); })()]); console.log(ra, rb); })();` },
  { name: "web-errors-cancel", code: js`(async () => { const rs = new ReadableStream({ start(c) { c.error(new Error('boom')); } }); try { await rs.getReader().read(); } catch (e) { console.log('read rejected', e.message); } const rs2 = new ReadableStream({ cancel(reason) { console.log('cancel', reason); } }); await rs2.cancel('why'); const rs3 = ReadableStream.from([1]); rs3.getReader(); try { rs3.getReader(); } catch (e) { console.log(e instanceof TypeError); } const ws = new WritableStream({ abort(r) { console.log('abort', r); } }); await ws.abort('stop'); const t = new TransformStream({ transform() { throw new Error('in transform'); } }); const w = t.writable.getWriter(); await w.write('x').catch((e) => console.log('write rejected', e.message)); await t.readable.getReader().read().catch((e) => console.log('readable errored', e.message)); })();` },
  { name: "web-pipe-abort-signal", code: js`const ac = new AbortController(); let n = 0; let cancelled = false; const rs = new ReadableStream({ pull(c) { return new Promise((r) => setTimeout(() => { if (!cancelled) c.enqueue('tick ' + n++); r(); }, 2)); }, cancel(reason) { cancelled = true; console.log('source cancelled', reason.message); } }); const seen = []; rs.pipeTo(new WritableStream({ write(c) { seen.push(c); if (seen.length === 2) ac.abort(new Error('enough')); }, abort(reason) { console.log('sink aborted', reason.message); } }), { signal: ac.signal }).catch((e) => console.log('pipe rejected', e.message, seen));` },
  { name: "web-byte-stream", code: js`const rs = new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([1, 2, 3, 4])); c.close(); } }); const r = rs.getReader({ mode: 'byob' }); (async () => { const first = await r.read(new Uint8Array(3)); console.log(first.value, first.done); const second = await r.read(new Uint8Array(3)); console.log(second.value, second.done); const third = await r.read(new Uint8Array(3)); console.log(third.done); })();` },
  { name: "web-inspect", code: js`console.log(new ReadableStream(), new WritableStream()); console.log(new TransformStream()); const rs = new ReadableStream(); rs.getReader(); console.log(rs); console.log(new CountQueuingStrategy({ highWaterMark: 3 }), new ByteLengthQueuingStrategy({ highWaterMark: 5 })); console.log(new TextDecoderStream()); console.log(new TextEncoderStream()); const closed = ReadableStream.from([]); closed.getReader().read().then(() => console.log(closed));` },
  { name: "web-queuing-strategies", code: js`const b = new ByteLengthQueuingStrategy({ highWaterMark: 16 }); const c = new CountQueuingStrategy({ highWaterMark: 2 }); console.log(b.highWaterMark, b.size(new Uint8Array(5)), c.highWaterMark, c.size('anything'), Object.prototype.toString.call(b), Object.prototype.toString.call(new ReadableStream()));` },

  // ---------------------------------------------------------------- stream adapters
  { name: "adapter-readable-toweb", code: js`const { Readable } = require('stream'); (async () => { const rs = Readable.toWeb(Readable.from([Buffer.from('q'), Buffer.from('r')])); for await (const c of rs) console.log('chunk', c); const bytes = Readable.toWeb(new Readable({ read() { this.push(Buffer.from('xyz')); this.push(null); } })); for await (const c of bytes) console.log('bytes', c); })();` },
  { name: "adapter-readable-fromweb", code: js`const { Readable } = require('stream'); (async () => { const nr = Readable.fromWeb(ReadableStream.from(['u', 'v']), { objectMode: true }); for await (const c of nr) console.log('obj', c); const enc = new TextEncoder(); const br = Readable.fromWeb(ReadableStream.from([enc.encode('ab'), enc.encode('cd')]), { encoding: 'utf8' }); let s = ''; for await (const c of br) s += c; console.log(s); const failing = Readable.fromWeb(new ReadableStream({ start(c) { c.error(new Error('web fail')); } })); failing.on('error', (e) => console.log('error event', e.message)); })();` },
  { name: "adapter-writable", code: js`const { Writable } = require('stream'); const got = []; const w = Writable.fromWeb(new WritableStream({ write(c) { got.push(Buffer.from(c).toString()); }, close() { got.push('closed'); } })); w.write('one'); w.end('two', () => { console.log('ended', got); const sink = []; const node = new Writable({ write(chunk, enc, cb) { sink.push(chunk.toString()); cb(); } }); const ws = Writable.toWeb(node); const writer = ws.getWriter(); writer.write(new TextEncoder().encode('web->node')).then(() => writer.close()).then(() => console.log('sink', sink, node.writableFinished)); });` },
  { name: "adapter-duplex-and-errors", code: js`const { Duplex, PassThrough, Readable } = require('stream'); const { readable, writable } = Duplex.toWeb(new PassThrough()); const w = writable.getWriter(); w.write(new TextEncoder().encode('through')); w.close(); (async () => { let s = ''; for await (const c of readable) s += Buffer.from(c).toString(); console.log('duplex', s); const t = new TransformStream({ transform(c, ctl) { ctl.enqueue(String(c).toUpperCase()); } }); const d = Duplex.fromWeb(t, { objectMode: true }); d.on('data', (c) => console.log('data', c)); d.on('end', () => console.log('end')); d.write('hello'); d.end(); })(); try { Readable.fromWeb({}); } catch (e) { console.log(e.code, e.message); } try { Readable.toWeb(5); } catch (e) { console.log(e.code); }` },
  { name: "adapter-stream-promises-unaffected", code: js`const { pipeline } = require('stream/promises'); const { Readable, Writable } = require('stream'); const out = []; pipeline(Readable.from(['a', 'b']), new Writable({ objectMode: true, write(c, e, cb) { out.push(c); cb(); } })).then(() => console.log('pipeline', out, typeof require('stream/promises').finished));` },

  // ---------------------------------------------------------------- Blob and File
  { name: "blob-basics", code: js`(async () => { const b = new Blob(['ab', new Uint8Array([99, 100]), new Blob(['e'])], { type: 'Text/Plain' }); console.log(b.size, b.type, await b.text(), Buffer.from(await b.arrayBuffer()).toString('hex'), await b.bytes()); const s = b.slice(1, -1, 'x/y'); console.log(s.size, s.type, await s.text(), await b.slice(-2).text(), await b.slice(3, 1).text(), b.slice().size); console.log(require('buffer').Blob === Blob, require('buffer').File === File, b instanceof Blob, Object.prototype.toString.call(b)); console.log(new Blob(['\u00e9']).size, new Blob([], { type: 'caf\u00e9' }).type, new Blob().size); })();` },
  { name: "blob-stream", code: js`(async () => { const b = new Blob(['ab', 'cd', new Blob(['x', 'y'])]); const chunks = []; for await (const c of b.stream()) chunks.push(c.constructor.name + ':' + Buffer.from(c).toString()); console.log(chunks); const parts = []; for await (const c of b.slice(1, 5).stream()) parts.push(Buffer.from(c).toString()); console.log(parts); const text = []; await b.stream().pipeThrough(new TextDecoderStream()).pipeTo(new WritableStream({ write(t) { text.push(t); } })); console.log(text.join('')); })();` },
  { name: "blob-inspect", code: js`console.log(new Blob(['abc'])); console.log(new Blob(['x'], { type: 'text/plain' }), [new Blob([])]); console.log({ nested: { deeper: { blob: new Blob(['1']) } } }); console.log(new File(['a'], 'a.txt', { lastModified: 5, type: 'text/plain' }));` },
  { name: "blob-errors", code: js`for (const bad of ['abc', 5, null]) { try { new Blob(bad); console.log('no error'); } catch (e) { console.log(e.name); } }` },
  { name: "file-basics", esm: true, code: js`const f = new File(['hello ', 'file'], 'greeting.txt', { type: 'text/plain', lastModified: 1234 }); console.log(f.name, f.size, f.type, f.lastModified, await f.text(), f instanceof Blob, f instanceof File, Object.prototype.toString.call(f)); console.log(typeof new File([], 'now.txt').lastModified, new File([], 'n').size); try { new File(['x']); } catch (e) { console.log(e.name); } const s = f.slice(0, 5); console.log(s instanceof File, await s.text());` },
  { name: "blob-response-like-use", code: js`(async () => { const { Readable } = require('stream'); const b = new Blob(['line1\n', 'line2\n']); const r = Readable.fromWeb(b.stream()); let s = ''; for await (const c of r) s += c; console.log(JSON.stringify(s)); })();` },

  // ---------------------------------------------------------------- MessageChannel / MessagePort
  { name: "port-basic-order", code: js`const { port1, port2 } = new MessageChannel(); port1.on('message', (m) => { console.log('message', m); if (m === 3) port1.close(); }); port2.postMessage(1); port2.postMessage({ two: [2] }); port2.postMessage(3); process.nextTick(() => console.log('tick')); Promise.resolve().then(() => console.log('promise')); console.log('sync');` },
  { name: "port-order-in-timer", code: js`const { port1, port2 } = new MessageChannel(); port1.onmessage = (e) => { console.log('message', e.data, e instanceof MessageEvent); process.nextTick(() => console.log('tick after message')); Promise.resolve().then(() => console.log('promise after message')); }; setTimeout(() => { setImmediate(() => { console.log('immediate'); port1.close(); }); port2.postMessage('a'); port2.postMessage('b'); Promise.resolve().then(() => console.log('promise in timer')); }, 1);` },
  { name: "port-post-from-immediate", code: js`const { port1, port2 } = new MessageChannel(); const log = []; port1.on('message', (m) => { log.push('message ' + m); if (m === 'last') { port1.close(); console.log(log); } }); setImmediate(() => { port2.postMessage('from immediate'); setImmediate(() => log.push('next immediate')); setTimeout(() => { log.push('timeout'); port2.postMessage('last'); }, 50); });` },
  // The close follows the message it waits for: a close in the same turn as the post drops the message (in Node too).
  { name: "port-keeps-alive-then-closes", code: js`const { port1, port2 } = new MessageChannel(); port1.on('message', (m) => { console.log('got', m); setTimeout(() => { console.log('closing'); port1.close(); }, 5); }); port1.on('close', () => console.log('close event')); console.log(port1.hasRef(), port2.hasRef()); setTimeout(() => port2.postMessage('late'), 5); process.on('exit', (c) => console.log('exit', c));` },
  { name: "port-unref-exits", code: js`const { port1, port2 } = new MessageChannel(); port1.on('message', (m) => console.log('never', m)); port1.unref(); console.log(port1.hasRef()); port2.postMessage('x'); process.on('exit', () => console.log('exited'));` },
  { name: "port-unref-delivers-while-alive", code: js`const { port1, port2 } = new MessageChannel(); port1.on('message', (m) => console.log('got', m)); port1.unref(); setTimeout(() => { port2.postMessage('while a timer runs'); setTimeout(() => console.log('timer done'), 50); }, 1);` },
  { name: "port-start-and-queue", code: js`const { port1, port2 } = new MessageChannel(); port2.postMessage('queued 1'); port2.postMessage('queued 2'); setTimeout(() => { console.log('adding listener'); port1.addEventListener('message', (e) => { console.log(e.type, e.data); if (e.data === 'queued 2') port1.close(); }); port1.start(); }, 5);` },
  { name: "port-close-delivers-pending", code: js`const { port1, port2 } = new MessageChannel(); port2.postMessage(1); port2.postMessage(2); port2.close(); port2.postMessage('after close, dropped'); port1.on('message', (m) => console.log('m', m)); port1.on('close', () => { console.log('close1'); setTimeout(() => console.log('t'), 20); });` },
  { name: "port-close-events", code: js`const a = new MessageChannel(); a.port2.on('close', () => { console.log('closed from main'); setTimeout(() => { b.port2.postMessage('last'); b.port2.close(); console.log('b2 closing'); }, 20); }); a.port2.close(); setImmediate(() => console.log('immediate after close')); process.nextTick(() => console.log('tick')); const b = new MessageChannel(); b.port1.on('message', (m) => console.log('b1 got', m)); b.port1.on('close', () => console.log('b1 close')); b.port2.on('close', () => console.log('b2 close')); ` },
  { name: "port-off-and-ref", code: js`const { port1, port2 } = new MessageChannel(); const f = (m) => console.log('f', m); port1.on('message', f); console.log(port1.hasRef()); port1.off('message', f); console.log(port1.hasRef()); port1.ref(); console.log(port1.hasRef()); port1.unref(); port1.once('message', (m) => { console.log('once', m, port1.hasRef()); setImmediate(() => { console.log(port1.hasRef()); port1.close(); }); }); port2.postMessage('one'); port2.postMessage('two');` },
  { name: "port-receive-sync", code: js`const { MessageChannel, receiveMessageOnPort } = require('worker_threads'); const { port1, port2 } = new MessageChannel(); port1.postMessage({ hello: 'world' }); port1.postMessage(2); console.log(receiveMessageOnPort(port2), receiveMessageOnPort(port2), receiveMessageOnPort(port2)); port1.close();` },
  { name: "port-clone-semantics", code: js`const { port1, port2 } = new MessageChannel(); const original = { date: new Date(0), map: new Map([[1, { deep: true }]]), set: new Set(['s']), buf: new Uint8Array([1, 2, 3]), re: /x/g, nested: { arr: [1, [2]] } }; original.self = original; port1.on('message', (m) => { console.log(m, m !== original, m.self === m, m.map.get(1).deep, m.buf instanceof Uint8Array); port1.close(); }); port2.postMessage(original); original.nested.arr.push('mutated after post'); try { port2.postMessage({ f() {} }); } catch (e) { console.log(e.name); }` },
  { name: "port-transfer", code: js`const { port1, port2 } = new MessageChannel(); const inner = new MessageChannel(); port1.on('message', (m) => { console.log('outer got', Object.keys(m), m.port instanceof MessagePort, m.port === inner.port2); m.port.on('message', (x) => { console.log('inner got', x); m.port.close(); port1.close(); }); }); inner.port1.postMessage('sent before the transfer'); port2.postMessage({ port: inner.port2 }, [inner.port2]); const x = new MessageChannel(); const y = structuredClone({ p: x.port1 }, { transfer: [x.port1] }); console.log(y.p instanceof MessagePort, y.p === x.port1); y.p.close();` },
  { name: "port-transfer-missing", code: js`const c = new MessageChannel(); try { c.port2.postMessage({ p: new MessageChannel().port1 }); } catch (e) { console.log(e.name, e.code, e.message); } try { structuredClone([new MessageChannel().port1]); } catch (e) { console.log(e.name, e.code, e.message); }` },
  { name: "port-worker-threads-exports", code: js`const wt = require('worker_threads'); console.log(wt.MessageChannel === MessageChannel, wt.MessagePort === MessagePort, wt.BroadcastChannel === BroadcastChannel, typeof wt.receiveMessageOnPort, wt.isMainThread, wt.parentPort); const { port1 } = new MessageChannel(); console.log(port1 instanceof MessagePort, port1 instanceof EventTarget); try { new MessagePort(); } catch (e) { console.log(e.name); } port1.close();` },
  { name: "port-listener-error", code: js`const { port1, port2 } = new MessageChannel(); process.on('uncaughtException', (e) => { console.log('uncaught', e.message); port1.close(); }); port1.on('message', () => { throw new Error('in listener'); }); port2.postMessage(1);` },

  // ---------------------------------------------------------------- BroadcastChannel
  { name: "broadcast-two-instances", code: js`const a = new BroadcastChannel('chan'); const b = new BroadcastChannel('chan'); const other = new BroadcastChannel('other'); console.log(a.name, a); other.onmessage = () => console.log('wrong channel'); b.onmessage = (e) => { console.log('b got', e.data, e instanceof MessageEvent); a.close(); b.close(); other.close(); }; a.onmessage = () => console.log('sender does not hear itself'); a.postMessage({ hi: [1, 2] });` },
  { name: "broadcast-event-listener-and-closed", code: js`const a = new BroadcastChannel('x'); const b = new BroadcastChannel('x'); const c = new BroadcastChannel('x'); let n = 0; const done = () => { if (++n === 2) { a.close(); b.close(); c.close(); try { a.postMessage(1); } catch (e) { console.log(e.name, e.message); } } }; b.addEventListener('message', (e) => { console.log('b', e.data); done(); }); c.addEventListener('message', (e) => { console.log('c', e.data); done(); }); a.postMessage('to all');` },
  { name: "broadcast-keeps-alive-until-closed", code: js`const a = new BroadcastChannel('k'); const b = new BroadcastChannel('k'); let n = 0; b.onmessage = (e) => { console.log('got', e.data); if (++n === 3) { a.close(); b.close(); } }; setTimeout(() => { a.postMessage(1); a.postMessage(2); }, 5); setTimeout(() => a.postMessage(3), 15); process.on('exit', (c) => console.log('exit', c));` },
  { name: "broadcast-unref-exits", code: js`const a = new BroadcastChannel('u'); a.unref(); console.log('main done'); process.on('exit', (c) => console.log('exit', c));` },

  // ---------------------------------------------------------------- structuredClone
  { name: "structured-clone-invalid", code: js`for (const t of [[{}], [1], 5]) { try { structuredClone(1, { transfer: t }); console.log('ok'); } catch (e) { console.log(e.name, e.code, e.message); } } const { port1 } = new MessageChannel(); try { port1.postMessage(1, [{}]); } catch (e) { console.log(e.name, e.code, e.message); } try { structuredClone(() => {}); } catch (e) { console.log(e.name, e.message); } port1.close();` },
  { name: "structured-clone-transfer", code: js`const buf = new ArrayBuffer(4); new Uint8Array(buf).set([1, 2, 3, 4]); const out = structuredClone({ view: new Uint8Array(buf, 1, 2), buf }, { transfer: [buf] }); console.log(out.view, out.view.buffer === out.buf, new Uint8Array(out.buf)); try { structuredClone(); } catch (e) { console.log(e.name, e.code); } console.log(structuredClone(new Map([[{ a: 1 }, new Set([2])]])));` },
];

let hostRoot = "";
let vm: AgentOs | undefined;
const fileOf = (c: Case): string => (c.esm ? "case.mjs" : "case.js");

/** The case's directory → <DIR>; stack frames → one placeholder line. */
function normalise(text: string, dir: string): string {
  return text
    .split(dir)
    .join("<DIR>")
    .replace(/(?:\n[ \t]+at [^\n]*?)+( \{)?(?=\n|$)/g, "\n    at <frames>$1");
}

function runOnHost(c: Case, dir: string): Promise<ExecResult> {
  return runHostNode([fileOf(c)], dir);
}

// Only the files are set up here; each case runs in the VM and on the host as its own test, a few at a time.
beforeAll(async () => {
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), "agentos-web-globals-")));
  vm = await AgentOs.create();
  const entries: { path: string; content: string }[] = [];
  for (const c of CASES) {
    mkdirSync(join(hostRoot, c.name));
    writeFileSync(join(hostRoot, c.name, fileOf(c)), c.code);
    await vm.mkdir(`/w/${c.name}`, { recursive: true });
    entries.push({ path: `/w/${c.name}/${fileOf(c)}`, content: c.code });
  }
  for (const r of await vm.writeFiles(entries)) if (!r.success) throw new Error(`${r.path}: ${r.error}`);
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (hostRoot) rmSync(hostRoot, { recursive: true, force: true });
});

describe("guest node's web globals match the host's node", { concurrent: true, timeout: CASE_DEADLINE_MS }, () => {
  it("has unique case names", () => {
    const names = CASES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });

  for (const c of CASES) {
    it(c.name, async ({ expect }) => {
      const [vmResult, hostResult] = await Promise.all([
        vm!.exec(`node ${fileOf(c)}`, { timeout: RUN_DEADLINE_MS, cwd: `/w/${c.name}` }),
        runOnHost(c, join(hostRoot, c.name)),
      ]);
      const norm = (r: ExecResult, dir: string): ExecResult => ({ exitCode: r.exitCode, stdout: normalise(r.stdout, dir), stderr: normalise(r.stderr, dir) });
      expect(norm(vmResult, `/w/${c.name}`)).toEqual(norm(hostResult, join(hostRoot, c.name)));
    });
  }
});
