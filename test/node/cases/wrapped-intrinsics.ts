// Cases of test/node/node.differential.test.ts: the built-ins the guest's runtime wraps to count memory
// (workers/node-guest/internal/memory-limit.js) look as Node's own: util.types.isProxy, source text, name,
// length, own keys, util.inspect with showProxy, the first line of an error thrown through one and the frames
// of a stack taken inside one; real proxies are still proxies.
import type { Case } from "./case.js";

const js = String.raw;
export const CASES: Case[] = [
  {
    name: "wrapped-intrinsics-look-native",
    code: js`const util = require('util');
const TA = Object.getPrototypeOf(Uint8Array.prototype);
const subjects = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array,
  Float16Array: globalThis.Float16Array, ArrayBuffer, SharedArrayBuffer,
  'ArrayBuffer.prototype.slice': ArrayBuffer.prototype.slice, 'ArrayBuffer.prototype.resize': ArrayBuffer.prototype.resize,
  'ArrayBuffer.prototype.transfer': ArrayBuffer.prototype.transfer, 'SharedArrayBuffer.prototype.slice': SharedArrayBuffer.prototype.slice,
  'SharedArrayBuffer.prototype.grow': SharedArrayBuffer.prototype.grow, 'Uint8Array.fromBase64': Uint8Array.fromBase64,
  'WebAssembly.Memory': WebAssembly.Memory, 'WebAssembly.Module': WebAssembly.Module, 'WebAssembly.Instance': WebAssembly.Instance,
  'WebAssembly.compile': WebAssembly.compile, 'WebAssembly.instantiate': WebAssembly.instantiate, 'WebAssembly.Memory.prototype.grow': WebAssembly.Memory.prototype.grow,
  'Function.prototype.toString': Function.prototype.toString,
};
for (const m of ['slice', 'map', 'filter', 'subarray', 'toReversed', 'toSorted', 'with']) subjects['TypedArray.prototype.' + m] = TA[m];
for (const [k, v] of Object.entries(subjects)) {
  if (typeof v !== 'function') { console.log(k, typeof v); continue; }
  console.log(k, util.types.isProxy(v), Function.prototype.toString.call(v), v.name, v.length, Reflect.ownKeys(v).map(String).sort().join(','), util.inspect(v, { showProxy: true }).replace(/\s+/g, ' '));
}
console.log(Uint8Array.prototype.constructor === Uint8Array, new Uint8Array(2).constructor === Uint8Array, Object.getPrototypeOf(Int8Array) === TA.constructor);
console.log(util.types.isProxy(new Proxy({}, {})), util.types.isProxy(new Proxy(function f() {}, {})), util.types.isProxy({}), util.types.isProxy(1));
console.log(util.inspect(new Proxy({ a: 1 }, {}), { showProxy: true }), util.inspect(new Proxy([1], {})), Function.prototype.toString.call(new Proxy(function f() {}, {})));
for (const f of [() => new Uint8Array(-1), () => new ArrayBuffer(-1), () => TA.slice.call({}), () => Function.prototype.toString.call({}), () => Uint8Array(2), () => new WebAssembly.Memory({ initial: -1 })]) {
  try { f(); console.log('no error'); } catch (e) { console.log(e.constructor.name, e.message, e.stack.split('\n')[0]); }
}
// A stack taken by guest code the wrapper calls (a length getter) names no frame of the runtime.
let taken = false;
new Uint8Array({ get length() { if (!taken) { taken = true; console.log(new Error('x').stack.split('\n').filter((l) => l.includes('memory-limit')).length); } return 1; } });`,
  },
  {
    // A typed array made from an object reads it as Node does: @@iterator once, then either the iterator or
    // `length` once and each element in order (a getter or a Proxy's trap runs as often as in Node).
    name: "typed-array-from-object-reads-once",
    code: js`const show = (f) => { try { const r = f(); console.log(r.constructor.name, r.length, Array.from(r).join()); } catch (e) { console.log(e.constructor.name + ': ' + e.message); } };
let n = 0;
show(() => new Uint8Array({ get length() { n++; return 2; }, 0: 1, 1: 2 }));
console.log('length getter runs', n);
show(() => new Uint8Array({ [Symbol.iterator]: 1 }));
show(() => new Uint8Array({ [Symbol.iterator]: () => 1 }));
show(() => new Uint8Array({ length: -5 }));
show(() => new Uint8Array({ length: 1n }));
show(() => new BigInt64Array({ length: 1, 0: 1 }));
show(() => new Uint8Array({ length: '3', 0: '7', 2: { valueOf() { return 9; } } }));
show(() => new Uint8Array(new Set([3, 4])));
show(() => new Float64Array([1.5, , 3]));
show(() => new Uint8Array({ length: 3, get 1() { throw new RangeError('element'); } }));
for (const target of [[5, 6], { length: 2, 0: 8, 1: 9 }]) {
  const reads = [];
  const p = new Proxy(target, { get(t, k, r) { reads.push(String(k)); return Reflect.get(t, k, r); } });
  show(() => new Int16Array(p));
  console.log(reads.join());
}
class Sub extends Uint8Array {}
show(() => new Sub({ length: 1, 0: 4 }));
show(() => Reflect.construct(Uint8Array, [[1]], Sub));
show(() => new Uint8Array((function* () { yield 1; yield 2; })()));`,
  },
  {
    // A guest's Error.prepareStackTrace sees the frames Node would: none of the runtime's wrappers of built-ins.
    // (It reads back as a Proxy of the guest's function, not the function itself: see internal/globals.js.)
    name: "prepare-stack-trace-sees-no-runtime-frames",
    code: js`const mine = (e, sites) => sites.map((s) => s.getFunctionName() + ' ' + (s.getFileName() === __filename ? 'case.js' : String(s.getFileName())) + ':' + s.getLineNumber()).filter((l) => !l.includes('node:'));
Error.prepareStackTrace = mine;
console.log(typeof Error.prepareStackTrace, Error.prepareStackTrace.name, Error.prepareStackTrace.length);
let inner;
new Uint8Array({ get length() { inner = new Error('in getter').stack; return 1; } });
console.log(inner);
try { new Float32Array({ get length() { throw new Error('thrown'); } }); } catch (e) { console.log(e.stack); }
try { new ArrayBuffer({ valueOf() { throw new Error('valueOf'); } }); } catch (e) { console.log(e.stack); }
const saved = Error.prepareStackTrace;
Error.prepareStackTrace = undefined;
console.log(new Error('default').stack.split('\n')[0]);
Error.prepareStackTrace = saved;
console.log(new Error('again').stack.length > 0);`,
  },
];
