// structuredClone of the guest's realm: the HTML structured clone of plain data (objects, arrays, Map, Set,
// Date, RegExp, ArrayBuffer and views, Errors, boxed primitives), keeping shared and circular references.
'use strict';

const {
  Array,
  ArrayBuffer,
  ArrayBufferIsView,
  SharedArrayBuffer,
  ArrayIsArray,
  Boolean,
  DataView,
  Date,
  Error,
  EvalError,
  Map,
  Number,
  Object,
  ObjectGetPrototypeOf,
  ObjectKeys,
  Promise,
  RangeError,
  ReferenceError,
  RegExp,
  Set,
  String,
  SymbolToStringTag,
  SyntaxError,
  TypeError,
  URIError,
  Uint8Array,
  WeakMap,
  WeakSet,
  SafeMap,
  SafeArrayIterator,
  ArrayBufferPrototypeSlice, ArrayPrototypeIncludes, StringPrototypeSlice,
  MapPrototypeForEach, MapPrototypeSet, SetPrototypeAdd, SetPrototypeForEach,
  BooleanPrototypeValueOf, DatePrototypeGetTime, NumberPrototypeValueOf, StringPrototypeValueOf,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  GetLength,
} = require('internal/primordials');

function cloneError(what) {
  const e = new (globalThis.DOMException || Error)(`${what} could not be cloned.`, 'DataCloneError');
  if (!globalThis.DOMException) e.name = 'DataCloneError';
  return e;
}

module.exports = function structuredClone(value, options) {
  const seen = new SafeMap();
  const transfer = options && options.transfer ? options.transfer : [];
  function clone(v) {
    if (typeof v === 'function') throw cloneError(StringPrototypeSlice(String(v), 0, 60));
    if (typeof v === 'symbol') throw cloneError(String(v));
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return seen.get(v);
    let out;
    if (ArrayIsArray(v)) {
      out = new Array(GetLength(v));
      seen.set(v, out);
      for (const k of new SafeArrayIterator(ObjectKeys(v))) out[k] = clone(v[k]);
      return out;
    }
    if (v instanceof Date) out = new Date(DatePrototypeGetTime(v));
    else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
    else if (v instanceof ArrayBuffer) out = ArrayPrototypeIncludes(transfer, v) ? v : ArrayBufferPrototypeSlice(v, 0);
    // Shared memory stays shared: Node's clone is a second object over the same memory, which JavaScript cannot
    // make, so the clone is the object itself (its views are new, over it).
    else if (SharedArrayBuffer !== undefined && v instanceof SharedArrayBuffer) out = v;
    else if (ArrayBufferIsView(v)) {
      const buffer = clone(GetBuffer(v));
      const Ctor = v instanceof DataView ? DataView : ObjectGetPrototypeOf(ObjectGetPrototypeOf(v)) === ObjectGetPrototypeOf(Uint8Array.prototype) ? globalThis[v[SymbolToStringTag]] : Uint8Array;
      out = v instanceof DataView ? new DataView(buffer, GetByteOffset(v), GetByteLength(v)) : new Ctor(buffer, GetByteOffset(v), GetLength(v));
    } else if (v instanceof Map) {
      out = new Map();
      seen.set(v, out);
      // The map's entries as they are, not through an iterator the guest may have replaced (as V8's serializer reads them).
      MapPrototypeForEach(v, (val, k) => MapPrototypeSet(out, clone(k), clone(val)));
      return out;
    } else if (v instanceof Set) {
      out = new Set();
      seen.set(v, out);
      SetPrototypeForEach(v, (k) => SetPrototypeAdd(out, clone(k)));
      return out;
    } else if (v instanceof Error) {
      const Ctor = { EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError }[v.name] || Error;
      out = new Ctor(v.message);
      if (v.stack !== undefined) out.stack = v.stack;
      if ('cause' in v) out.cause = clone(v.cause);
    } else if (v instanceof Number) out = Object(NumberPrototypeValueOf(v));
    else if (v instanceof String) out = Object(StringPrototypeValueOf(v));
    else if (v instanceof Boolean) out = Object(BooleanPrototypeValueOf(v));
    else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) throw cloneError(`#<${v.constructor.name}>`);
    else {
      out = {};
      seen.set(v, out);
      for (const k of new SafeArrayIterator(ObjectKeys(v))) out[k] = clone(v[k]);
      return out;
    }
    seen.set(v, out);
    return out;
  }
  return clone(value);
};
