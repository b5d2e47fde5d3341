// Cases of test/node/node.differential.test.ts: CompressionStream and DecompressionStream, the perf_hooks
// classes and histograms, and the Crypto class of the global crypto.
import type { Case } from "./case.js";

const js = String.raw;
export const CASES: Case[] = [
  { name: "web-compression-construct", files: { "case.js": js`const util = require('util'); const web = require('stream/web');
console.log(web.CompressionStream === CompressionStream, web.DecompressionStream === DecompressionStream, typeof CompressionStream, CompressionStream.length, DecompressionStream.name);
for (const C of [CompressionStream, DecompressionStream]) for (const f of ['gzip', 'deflate', 'deflate-raw', 'brotli', 'GZIP', 'x', undefined, 'constructor', '__proto__', 42, { toString() { return 'gzip'; } }, 'a'.repeat(200)]) { try { new C(f); console.log(C.name, util.inspect(f), 'ok'); } catch (e) { console.log(C.name, util.inspect(f), e.name, e.code, e.message); } }
try { CompressionStream('gzip'); } catch (e) { console.log(e.name, e.message); }
const c = new CompressionStream('gzip'), d = new DecompressionStream('deflate');
console.log(util.inspect(c)); console.log(util.inspect(d)); console.log(util.inspect(c, { depth: 0 }), util.inspect({ a: { b: c } }, { depth: 1 }));
console.log(Object.prototype.toString.call(c), String(d), Object.keys(c), c.readable instanceof ReadableStream, c.writable instanceof WritableStream, c.readable === c.readable);
for (const C of [CompressionStream, DecompressionStream]) { console.log(Reflect.ownKeys(C.prototype).map(String)); for (const k of Reflect.ownKeys(C.prototype)) { const p = Object.getOwnPropertyDescriptor(C.prototype, k); console.log(String(k), Object.keys(p), p.enumerable, p.configurable, p.writable, typeof p.value, typeof p.get, p.set); } }
for (const k of ['readable', 'writable']) try { Object.getOwnPropertyDescriptor(CompressionStream.prototype, k).get.call({}); } catch (e) { console.log(e.name, e.code, e.message); }
console.log(Object.getOwnPropertyDescriptor(globalThis, 'CompressionStream'));
` } },
  { name: "web-compression-roundtrip", files: { "case.js": js`async function collect(rs) { const out = []; for await (const c of rs) out.push(c); return out; }
(async () => {
  const text = 'hello world '.repeat(1000) + 'é€😀';
  for (const fmt of ['gzip', 'deflate', 'deflate-raw']) {
    const packed = await collect(new Blob([text]).stream().pipeThrough(new CompressionStream(fmt)));
    const types = new Set(packed.map((c) => c.constructor.name + ':' + Buffer.isBuffer(c)));
    const all = Buffer.concat(packed);
    const back = await collect(new Blob([all]).stream().pipeThrough(new DecompressionStream(fmt)));
    const out = Buffer.concat(back).toString();
    console.log(fmt, [...types], all.length < text.length, out === text, new Set(back.map((c) => c.constructor.name + ':' + Buffer.isBuffer(c))));
    console.log(fmt, 'zlib agrees', require('zlib')[{ gzip: 'gunzipSync', deflate: 'inflateSync', 'deflate-raw': 'inflateRawSync' }[fmt]](all).toString() === text);
    const piped = await collect(new Blob([text]).stream().pipeThrough(new CompressionStream(fmt)).pipeThrough(new DecompressionStream(fmt)).pipeThrough(new TextDecoderStream()));
    console.log(fmt, 'chained', piped.join('') === text);
  }
  console.log((await collect(new Blob([]).stream().pipeThrough(new CompressionStream('deflate')))).map((x) => Buffer.from(x).toString('hex')));
  console.log((await collect(new Blob([]).stream().pipeThrough(new CompressionStream('deflate-raw')))).map((x) => Buffer.from(x).toString('hex')));
  const g = Buffer.concat(await collect(new Blob(['abc']).stream().pipeThrough(new CompressionStream('gzip'))));
  console.log(g.length, g.subarray(0, 4).toString('hex'));
})();
` } },
  { name: "web-compression-chunks", files: { "case.js": js`const util = require('util');
(async () => {
  for (const chunk of ['str', new Uint8Array([1, 2]), Buffer.from('b'), new DataView(new ArrayBuffer(3)), new Float64Array(2), 42, null, {}, [1], undefined, Symbol('s')]) {
    const cs = new CompressionStream('deflate');
    const w = cs.writable.getWriter();
    const r = cs.readable.getReader();
    const res = await w.write(chunk).then(() => 'write ok', (e) => ['write err', e.name, e.code, e.message]);
    const closed = await Promise.race([w.closed.then(() => 'closed', (e) => 'closed err ' + e.code), new Promise((r) => setTimeout(r, 20, 'open'))]);
    let out = 'no close';
    if (closed === 'open') { await w.close(); const parts = []; for (;;) { const v = await r.read(); if (v.done) break; parts.push(v.value); } out = require('zlib').inflateSync(Buffer.concat(parts)).toString('hex'); }
    console.log(util.inspect(chunk), res, closed, out);
  }
  const ds = new DecompressionStream('gzip');
  const w = ds.writable.getWriter();
  await w.write('x').then(() => console.log('string to decompress written'), (e) => console.log(e.code));
})();
` } },
  { name: "web-compression-corrupt", files: { "case.js": js`async function collect(rs) { const out = []; for await (const c of rs) out.push(c); return out; }
const show = (e) => [e.code, (e.cause ?? e).message, (e.cause ?? e).errno];
(async () => {
  for (const fmt of ['gzip', 'deflate', 'deflate-raw']) {
    const ds = new DecompressionStream(fmt);
    const w = ds.writable.getWriter();
    const r = ds.readable.getReader();
    const p = w.write(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).then(() => 'write ok', (e) => ['write err', ...show(e)]);
    const c = w.close().then(() => 'close ok', (e) => ['close err', ...show(e)]);
    const q = r.read().then((v) => ['read', v.done], (e) => ['read err', ...show(e)]);
    console.log(fmt, await p, await q, await c);
  }
  const full = Buffer.concat(await collect(new Blob(['abcdef'.repeat(100)]).stream().pipeThrough(new CompressionStream('gzip'))));
  try { await collect(new Blob([full.subarray(0, full.length - 4)]).stream().pipeThrough(new DecompressionStream('gzip'))); } catch (e) { console.log('truncated', show(e)); }
  const cs = new CompressionStream('gzip');
  const w = cs.writable.getWriter(); w.write(new Uint8Array(3)).catch(() => {});
  await w.abort(new Error('boom'));
  try { await cs.readable.getReader().read(); } catch (e) { console.log('after abort', e.message); }
  const cs2 = new CompressionStream('gzip');
  await cs2.readable.cancel(new Error('c'));
  console.log(require('util').inspect(cs2));
})();
` } },
];
CASES.push({ name: "perf-classes-shapes", files: { "case.js": js`const util = require('util'); const ph = require('perf_hooks');
for (const n of ['Performance', 'PerformanceEntry', 'PerformanceMark', 'PerformanceMeasure', 'PerformanceObserver', 'PerformanceObserverEntryList', 'PerformanceResourceTiming']) {
  const C = ph[n]; const d = Object.getOwnPropertyDescriptor(globalThis, n);
  console.log(n, C === globalThis[n], C.length, d.enumerable, Object.getPrototypeOf(C).name, n === 'PerformanceResourceTiming' ? '' : Reflect.ownKeys(C.prototype).map(String).filter((k) => !k.startsWith('Symbol(k')).join(','));
  try { new C(); console.log('  constructed'); } catch (e) { console.log('  ', e.name, e.code, e.message); }
}
console.log(ph.PerformanceObserver.supportedEntryTypes, Object.keys(ph).filter((k) => !['eventLoopUtilization', 'timerify'].includes(k)));
console.log(performance instanceof ph.Performance, performance instanceof EventTarget, performance === ph.performance, Object.getPrototypeOf(performance) === ph.Performance.prototype, Object.prototype.toString.call(performance), Object.keys(performance), typeof performance.timeOrigin, typeof performance.now());
for (const k of ['now', 'timeOrigin', 'mark', 'toJSON', 'nodeTiming']) { const p = Object.getOwnPropertyDescriptor(ph.Performance.prototype, k); console.log(k, p.enumerable, p.configurable, typeof p.get, typeof p.value); }
console.log(Object.keys(performance.toJSON()), typeof performance.eventLoopUtilization, typeof performance.timerify, typeof performance.markResourceTiming);
` } });
CASES.push({ name: "perf-classes-marks", files: { "case.js": js`const util = require('util'); const ph = require('perf_hooks');
const m = performance.mark('a', { detail: { x: 1 } });
console.log(m instanceof ph.PerformanceMark, m instanceof ph.PerformanceEntry, m.name, m.entryType, m.duration, m.detail, Object.keys(m), Object.prototype.toString.call(m), typeof m.startTime); performance.clearMarks('a');
const m2 = new ph.PerformanceMark('b', { startTime: 5, detail: 'd' }); console.log(util.inspect(m2), JSON.stringify(m2), util.inspect([m2], { depth: 0 }));
for (const f of [() => new ph.PerformanceMark(), () => new ph.PerformanceMark('x', { startTime: -1 }), () => new ph.PerformanceMark('x', { startTime: 'no' }), () => new ph.PerformanceMark('x', 1), () => ph.PerformanceEntry.prototype.name, () => Object.getOwnPropertyDescriptor(ph.PerformanceMark.prototype, 'detail').get.call({}), () => performance.measure('z', 'nomark'), () => performance.getEntriesByName(), () => performance.measure('z', {}), () => performance.measure('y', { start: 1 }, 'e'), () => performance.measure('y', { start: 1, end: 2, duration: 1 })]) { try { f(); console.log('no throw'); } catch (e) { console.log(e.name, e.code, e.message); } }
performance.mark('s', { startTime: 10 }); performance.mark('e', { startTime: 25 });
const q = performance.measure('q', 's', 'e'); console.log(q instanceof ph.PerformanceMeasure, util.inspect(q), Object.prototype.toString.call(q));
console.log(performance.measure('r', { start: 's', duration: 4, detail: [1] }).toJSON(), performance.measure('u', undefined, 'e').startTime, performance.measure('v', { start: 1, end: 3 }).duration, performance.measure('w', { end: 'e', duration: 5 }).startTime, performance.measure('n', 5).startTime);
console.log(performance.getEntries().map((e) => e.name), performance.getEntriesByName('s').length, performance.getEntriesByType('mark').map((e) => e.name), performance.getEntriesByType('measure').length, performance.getEntriesByType('other'));
performance.clearMarks('s'); console.log(performance.getEntriesByType('mark').map((e) => e.name)); performance.clearMarks(); performance.clearMeasures(); console.log(performance.getEntries().length);
const o = new ph.PerformanceObserver((list, obs) => { console.log('observed', list.getEntries().map((e) => e.name), list.getEntriesByType('mark').length, list.getEntriesByName('o2').length, list instanceof ph.PerformanceObserverEntryList, obs === o, Object.prototype.toString.call(list)); o.disconnect(); });
o.observe({ entryTypes: ['mark', 'measure'] }); performance.mark('o1', { startTime: 1 }); performance.mark('o2', { startTime: 2 }); console.log('sync', o.takeRecords().length); performance.mark('o3', { startTime: 3 });
for (const f of [() => o.observe({}), () => new ph.PerformanceObserver(1), () => o.observe(1)]) { try { f(); console.log('no throw'); } catch (e) { console.log(e.name, e.code, e.message); } }
` } });
CASES.push({ name: "perf-classes-histogram", files: { "case.js": js`const util = require('util'); const { createHistogram } = require('perf_hooks');
const show = (h) => console.log(h.count, h.min, h.max, h.mean, h.stddev, h.exceeds, h.minBigInt, h.maxBigInt, h.countBigInt, h.exceedsBigInt, [...h.percentiles], [...h.percentilesBigInt].length, JSON.stringify(h.toJSON(), ['count', 'min', 'max', 'mean', 'exceeds', 'stddev', 'percentiles', '0', '50', '100']));
const h = createHistogram(); show(h); console.log(h.constructor.name, Object.getPrototypeOf(Object.getPrototypeOf(h)).constructor.name, Object.prototype.toString.call(h), Object.keys(h), h.constructor === Object.getPrototypeOf(h).constructor, util.inspect([h], { depth: 0 }));
h.record(5); h.record(10); h.record(15); show(h); console.log(h.percentile(50), h.percentile(100), h.percentile(0.001), h.percentileBigInt(75));
for (const v of ['x', 0n, 3n, -1, 1.5, 2 ** 53, 0]) { try { h.record(v); console.log('ok', v); } catch (e) { console.log(e.name, e.code, e.message); } }
for (const f of [() => h.percentile(0), () => h.percentile(101), () => h.percentile('1'), () => h.add({}), () => new h.constructor(), () => createHistogram({ lowest: 0 }), () => createHistogram({ figures: 6 }), () => createHistogram(1), () => createHistogram({ highest: 1 })]) { try { f(); console.log('no throw'); } catch (e) { console.log(e.name, e.code, e.message); } }
const h2 = createHistogram(); h2.record(100); h.add(h2); show(h); h.reset(); show(h);
const h3 = createHistogram({ highest: 10 }); h3.record(5); h3.record(50); show(h3);
const h4 = createHistogram(); h4.record(123456789); h4.record(3000); h4.record(2047); h4.record(2049); h4.record(70000); show(h4); console.log(h4.percentile(50), h4.percentile(99));
const h5 = createHistogram({ lowest: 100, figures: 1 }); for (const v of [1, 150, 999, 12345, 100000]) h5.record(v); show(h5);
const h6 = createHistogram(); for (let i = 1; i <= 1000; i++) h6.record(i * 37); show(h6);
const h7 = createHistogram(); h7.recordDelta(); h7.recordDelta(); h7.recordDelta(); console.log(h7.count);
` } });
CASES.push({ name: "web-crypto-class", files: { "case.js": js`const util = require('util');
console.log(crypto instanceof Crypto, crypto === require('crypto').webcrypto, Object.getPrototypeOf(crypto) === Crypto.prototype, Crypto.length, Crypto.name, Object.getOwnPropertyDescriptor(globalThis, 'Crypto').enumerable);
try { new Crypto(); } catch (e) { console.log(e.name, e.code, e.message); }
console.log(Reflect.ownKeys(Crypto.prototype).map(String), Reflect.ownKeys(crypto).map(String), Object.prototype.toString.call(crypto), util.inspect(crypto));
for (const k of Reflect.ownKeys(Crypto.prototype)) { const d = Object.getOwnPropertyDescriptor(Crypto.prototype, k); console.log(String(k), d.enumerable, d.configurable, typeof d.get, typeof d.value); }
try { Crypto.prototype.getRandomValues.call({}, new Uint8Array(1)); } catch (e) { console.log(e.name, e.code, e.message); }
try { Object.getOwnPropertyDescriptor(Crypto.prototype, 'subtle').get.call({}); } catch (e) { console.log(e.name, e.code, e.message); }
console.log(crypto.getRandomValues(new Uint8Array(4)).length, typeof crypto.randomUUID(), crypto.subtle === require('crypto').subtle, crypto.subtle instanceof SubtleCrypto);
` } });
