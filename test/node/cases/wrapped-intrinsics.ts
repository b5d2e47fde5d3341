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
];
