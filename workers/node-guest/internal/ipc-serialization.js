// The IPC channel's two message formats (child_process `serialization`). 'json' is Node's: JSON text.
// 'advanced' carries what the structured clone algorithm carries (undefined, NaN and -0, BigInt, Date,
// RegExp, Map, Set, ArrayBuffer and views, Buffers, errors, boxed primitives, shared and circular
// references), as Node's v8 serializer does; both ends are guests of this VM, so the encoding is a tagged
// JSON tree: a node is a JSON primitive or [tag, ...], and objects are numbered in the order first met.
'use strict';

const { Buffer } = require('buffer');

const VIEWS = { Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView };
const ERRORS = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };

function notCloneable(v) {
  return new Error(`${typeof v === 'symbol' ? v.toString() : String(v)} could not be cloned.`);
}

function viewType(v) {
  if (Buffer.isBuffer(v)) return 'Buffer';
  for (const name of Object.keys(VIEWS)) if (v instanceof VIEWS[name]) return name;
  return 'Uint8Array';
}

function encode(value) {
  const seen = new Map();
  const entries = (o) => Object.keys(o).map((k) => [k, walk(o[k])]);
  function walk(v) {
    if (v === undefined) return ['u'];
    if (typeof v === 'number') {
      if (Object.is(v, -0)) return ['n', '-0'];
      return Number.isFinite(v) ? v : ['n', String(v)];
    }
    if (typeof v === 'bigint') return ['b', v.toString()];
    if (typeof v === 'function' || typeof v === 'symbol') throw notCloneable(v);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return ['r', seen.get(v)];
    seen.set(v, seen.size);
    if (Array.isArray(v)) return ['A', v.length, entries(v)];
    if (v instanceof Date) return ['D', v.getTime()];
    if (v instanceof RegExp) return ['R', v.source, v.flags];
    if (v instanceof Map) return ['M', [...v].map(([k, x]) => [walk(k), walk(x)])];
    if (v instanceof Set) return ['S', [...v].map(walk)];
    if (v instanceof ArrayBuffer) return ['B', Buffer.from(v).toString('base64')];
    // As Node's serializer: a view carries its own bytes, and arrives over a buffer of its own.
    if (ArrayBuffer.isView(v)) return ['V', viewType(v), Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')];
    if (v instanceof Error) {
      const name = Object.prototype.hasOwnProperty.call(ERRORS, v.name) ? v.name : 'Error';
      return ['E', name, String(v.message), v.stack === undefined ? ['u'] : String(v.stack), 'cause' in v ? walk(v.cause) : null];
    }
    for (const [tag, Box] of [['Sb', String], ['Nb', Number], ['Bb', Boolean], ['Ib', BigInt]]) {
      if (v instanceof Box) return [tag, walk(Box.prototype.valueOf.call(v))];
    }
    return ['O', entries(v)];
  }
  return JSON.stringify(walk(value));
}

/** A new ArrayBuffer holding the base64 text's bytes. */
function bytesOf(base64) {
  const bytes = Buffer.from(base64, 'base64');
  const ab = new ArrayBuffer(bytes.length);
  new Uint8Array(ab).set(bytes);
  return ab;
}

function decode(text) {
  const objects = [];
  const made = (o) => (objects.push(o), o);
  function walk(n) {
    if (!Array.isArray(n)) return n;
    switch (n[0]) {
      case 'u':
        return undefined;
      case 'n':
        return Number(n[1]);
      case 'b':
        return BigInt(n[1]);
      case 'r':
        return objects[n[1]];
      case 'A': {
        const a = made(new Array(n[1]));
        for (const [k, x] of n[2]) a[k] = walk(x);
        return a;
      }
      case 'O': {
        const o = made({});
        for (const [k, x] of n[1]) o[k] = walk(x);
        return o;
      }
      case 'D':
        return made(new Date(n[1]));
      case 'R':
        return made(new RegExp(n[1], n[2]));
      case 'M': {
        const m = made(new Map());
        for (const [k, x] of n[1]) m.set(walk(k), walk(x));
        return m;
      }
      case 'S': {
        const s = made(new Set());
        for (const x of n[1]) s.add(walk(x));
        return s;
      }
      case 'B':
        return made(bytesOf(n[1]));
      case 'V': {
        const ab = bytesOf(n[2]);
        if (n[1] === 'Buffer') return made(Buffer.from(ab));
        const View = VIEWS[n[1]];
        return made(new View(ab, 0, View === DataView ? ab.byteLength : ab.byteLength / View.BYTES_PER_ELEMENT));
      }
      case 'E': {
        const e = made(new ERRORS[n[1]](n[2]));
        const stack = walk(n[3]);
        if (stack === undefined) delete e.stack;
        else Object.defineProperty(e, 'stack', { value: stack, writable: true, configurable: true, enumerable: false });
        if (n[4] !== null) Object.defineProperty(e, 'cause', { value: walk(n[4]), writable: true, configurable: true, enumerable: false });
        return e;
      }
      case 'Sb':
      case 'Nb':
      case 'Bb':
      case 'Ib': {
        const i = objects.push(null) - 1;
        objects[i] = Object(walk(n[1]));
        return objects[i];
      }
      default:
        throw new Error(`unknown IPC message node ${n[0]}`);
    }
  }
  return walk(JSON.parse(text));
}

module.exports = {
  json: { encode: (message) => JSON.stringify(message), decode: (line) => JSON.parse(line) },
  advanced: { encode, decode },
};
