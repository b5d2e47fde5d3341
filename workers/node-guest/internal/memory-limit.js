// The guest's memory outside its V8 heap, held to its process's budget (Limits.maxProcessMemoryBytes) as it
// is allocated, not when a system call next reports it. Loaded first by internal/globals.js, before any
// guest code and before the runtime's own modules capture the realm's constructors.
//
// Why it holds. The heap is bounded by the worker's resourceLimits. Everything else a guest can hold is a
// backing store, and a backing store is only made by:
//   - the ArrayBuffer, SharedArrayBuffer and typed-array constructors (directly, through `new.target` of a
//     subclass, through @@species of the typed-array and ArrayBuffer methods, or through TypedArray.from/of,
//     which construct `this`): the globals are replaced by Proxies of the originals whose `construct` trap
//     counts the request first, and each prototype's `constructor` is the Proxy, so species lookups land
//     on it too. The originals are never reachable from the guest again (the prototype's `constructor`
//     was their only other path);
//   - the few built-in methods that allocate with the intrinsic constructor itself, not the species one
//     (%TypedArray%.prototype.slice/map/filter/toReversed/toSorted/with, ArrayBuffer and SharedArrayBuffer
//     .prototype.slice, when `constructor` is undefined), and those that grow a buffer in place
//     (ArrayBuffer.prototype.resize, SharedArrayBuffer.prototype.grow): wrapped likewise;
//   - WebAssembly memories: `new WebAssembly.Memory` and `Memory.prototype.grow` are wrapped, and every
//     memory gets a maximum no larger than the budget, so that memory.grow inside wasm code (which no
//     JavaScript hook sees) fails there (returns -1) past it. A module's own memories are given that
//     maximum by rewriting its memory section before V8 compiles it (WebAssembly.Module, compile,
//     instantiate); an instance's initial memories are counted before it is made;
//   - the native code of WebAssembly modules, which is no backing store: each module compiled (Module,
//     compile, instantiate) is counted at a multiple of its size until it is collected (reserveCode);
//   - the worker's helpers (zlib, scrypt, pbkdf2), bounded on the host side (workers/node-host/memory-budget.ts).
// Sizes given as objects or strings are converted once, by the wrapper, and V8 is given the number counted.
// Each allocation adds to a running count; one of CHECK_AT bytes or more, or the count passing
// MEASURE_EVERY, asks the host (memoryAdmit: V8's used heap + external memory, ~5 µs; a full collection
// only when the answer would be no), which answers the room left: the count between two measures is held
// to half of it, the other half being left for the heap, which grows between measures uncounted here. A
// refused allocation throws what Node throws for a failed one (RangeError: Array buffer allocation
// failed). Refusals start a reserve short of the budget (memory-budget.ts), so that the guest can still
// report one. So what the guest holds stays within its budget, but for its heap's growth between two
// measures and what wasm code grows inside the memories of several instances (each memory bounded by the
// budget): both are seen at the next measure, and at the next system call, where the kernel kills a
// process past its limit (src/kernel/guest-memory-account.ts).
//
// V8 does not count SharedArrayBuffers nor the growth of a resizable ArrayBuffer in its external memory:
// those are counted here (`untracked`), and given back when their buffer is collected.
'use strict';

const { apply: ReflectApply, construct: ReflectConstruct } = Reflect;
const { defineProperty, getPrototypeOf, getOwnPropertyDescriptor } = Object;
const ProxyCtor = Proxy;
const RangeErrorCtor = RangeError;
const WeakMapCtor = WeakMap;
const WeakMapGet = WeakMap.prototype.get;
const WeakMapSet = WeakMap.prototype.set;
const WeakMapHas = WeakMap.prototype.has;
const FinalizationRegistryCtor = FinalizationRegistry;
const FinalizationRegistryRegister = FinalizationRegistry.prototype.register;
const PromiseThen = Promise.prototype.then;
const PromiseReject = Promise.reject.bind(Promise);
const MathMin = Math.min;
const MathMax = Math.max;
const MathFloor = Math.floor;
const MathTrunc = Math.trunc;
const TASet = getPrototypeOf(Uint8Array).prototype.set;
const TASubarray = getPrototypeOf(Uint8Array).prototype.subarray;

const OriginalU8 = Uint8Array;
const ArrayBufferOriginal = ArrayBuffer;
const SharedArrayBufferOriginal = SharedArrayBuffer;
const TypedArray = getPrototypeOf(Uint8Array);
const getter = (proto, name) => {
  const d = getOwnPropertyDescriptor(proto, name);
  return d && d.get;
};
const taByteLength = getter(TypedArray.prototype, 'byteLength');
const taByteOffset = getter(TypedArray.prototype, 'byteOffset');
const taBuffer = getter(TypedArray.prototype, 'buffer');
const taLength = getter(TypedArray.prototype, 'length');
const taTag = getter(TypedArray.prototype, Symbol.toStringTag);
const abByteLength = getter(ArrayBuffer.prototype, 'byteLength');
const abResizable = getter(ArrayBuffer.prototype, 'resizable');
const sabByteLength = getter(SharedArrayBuffer.prototype, 'byteLength');
const dvByteLength = getter(DataView.prototype, 'byteLength');
const dvByteOffset = getter(DataView.prototype, 'byteOffset');
const dvBuffer = getter(DataView.prototype, 'buffer');

const host = internal.host;
const PAGE = 65536;
/** An allocation this large is measured before it is made. */
const CHECK_AT = 1024 * 1024;
/** The count of smaller allocations after which the next one is measured. */
const MEASURE_EVERY = 16 * 1024 * 1024;

const budget = host('memoryBudget');
/** The largest a WebAssembly memory may grow to, in pages. */
const maxPages = typeof budget === 'number' ? MathMin(65536, MathMax(1, MathFloor(budget / PAGE))) : 65536;

let sinceMeasure = 0;
/** The count of small allocations after which the next is measured: less when little room is left. */
let measureEvery = MEASURE_EVERY;
/** Bytes held that V8's external memory does not count (SharedArrayBuffers, resizable ArrayBuffers' growth). */
let untracked = 0;

/**
 * What the guest may allocate in small pieces, unmeasured, after a refusal: enough to report it or handle it
 * (its error's message, a write to stderr), taken from the reserve the host keeps short of the budget
 * (memory-budget.ts keeps at least 4 times this). Once only, until a measure finds room again: a guest that
 * catches refusals in a loop gets no more.
 */
const GRACE = MathMin(4 * 1024 * 1024, typeof budget === 'number' ? MathFloor(budget / 64) : 0);
let graced = false;

/**
 * Whether `bytes` more may be allocated now. The host answers the room left after them (-1: none); the
 * next measure comes after at most half of it, the other half being left for the heap (JS objects), which
 * grows between measures without being counted here.
 */
function fits(bytes) {
  if (!(bytes > 0)) return true;
  sinceMeasure += bytes;
  if (bytes < CHECK_AT && sinceMeasure < measureEvery) return true;
  sinceMeasure = 0;
  const room = host('memoryAdmit', bytes, untracked);
  if (typeof room !== 'number') return true; // the host could not measure (never expected)
  if (room < 0) {
    measureEvery = graced ? 0 : GRACE;
    graced = true;
    return false;
  }
  if (room >= 2 * GRACE) graced = false;
  measureEvery = MathMin(MEASURE_EVERY, MathFloor(room / 2));
  return true;
}

const ErrorCaptureStackTrace = Error.captureStackTrace;
const WeakSetAdd = WeakSet.prototype.add;
const WeakSetHas = WeakSet.prototype.has;
/** The errors made here: their stacks start at the guest's call (trimmed by `thrownBy`). */
const refusals = new WeakSet();
function allocationFailed(message) {
  const e = new RangeErrorCtor(message || 'Array buffer allocation failed');
  ReflectApply(WeakSetAdd, refusals, [e]);
  return e;
}
const StringSplit = String.prototype.split;
const StringIncludes = String.prototype.includes;
const ArrayJoin = Array.prototype.join;
const ArrayFilter = Array.prototype.filter;
const OWN_FRAME = 'node:internal/memory-limit:';
/**
 * Rethrows `e`. A refusal made here gets a stack that starts where the guest called `trap`; an error V8 (or
 * the guest's own code, a valueOf) threw inside the wrapper loses the wrapper's frames, as if it had been
 * thrown by the built-in itself.
 */
function thrownBy(e, trap) {
  if (typeof e === 'object' && e !== null) {
    if (ReflectApply(WeakSetHas, refusals, [e])) ErrorCaptureStackTrace(e, trap);
    else {
      try {
        const stack = e.stack;
        if (typeof stack === 'string' && ReflectApply(StringIncludes, stack, [OWN_FRAME])) {
          const lines = ReflectApply(StringSplit, stack, ['\n']);
          e.stack = ReflectApply(ArrayJoin, ReflectApply(ArrayFilter, lines, [(line) => !ReflectApply(StringIncludes, line, [OWN_FRAME])]), ['\n']);
        }
      } catch {
        // a stack that cannot be read or written stays as it is
      }
    }
  }
  throw e;
}
const call = (fn, self) => {
  try {
    return ReflectApply(fn, self, []);
  } catch {
    return undefined;
  }
};
const isArrayBuffer = (v) => call(abByteLength, v) !== undefined;
const isSharedArrayBuffer = (v) => call(sabByteLength, v) !== undefined;
const isTypedArray = (v) => ReflectApply(taTag, v, []) !== undefined;

// ---- what V8 does not count: a record per buffer, given back when the buffer is collected ----

const records = new WeakMapCtor();
const released = new FinalizationRegistryCtor((record) => {
  untracked -= record.bytes;
});
/** Counts `bytes` of `owner` as untracked (`base`: what V8 counts of it already). */
function track(owner, bytes, base) {
  const record = { bytes: 0, base };
  grown(record, bytes);
  ReflectApply(WeakMapSet, records, [owner, record]);
  ReflectApply(FinalizationRegistryRegister, released, [owner, record]);
}
function grown(record, size) {
  const bytes = MathMax(0, size - record.base);
  untracked += bytes - record.bytes;
  record.bytes = bytes;
}

/** A length argument of a primitive type as a byte count (others are counted after the allocation). */
const countOf = (v, scale) => {
  if (typeof v === 'number') return MathTrunc(v) * scale;
  if (typeof v !== 'string' && typeof v !== 'boolean') return 0;
  const n = +v;
  return n === n ? MathTrunc(n) * scale : 0;
};

/**
 * A size argument converted to a number once, here, so that what is counted is what V8 is given (an
 * object's valueOf runs once, as it would); undefined when it does not convert (V8 then throws its own error).
 */
function numberOnce(v) {
  if (typeof v === 'number') return v;
  try {
    return +v;
  } catch {
    return undefined;
  }
}

/** `args` with its first element replaced by `first`. */
function withFirst(args, first) {
  const out = [first];
  for (let i = 1; i < args.length; i++) out[i] = args[i];
  return out;
}

// ---- the wrappers, as the built-ins they stand for ----

/**
 * Each wrapper (a Proxy) and the built-in it stands for. A guest must not tell a wrapper from the built-in:
 * name, length, properties and prototype are the built-in's through the Proxy; what else could tell answers
 * as for the built-in too: Function.prototype.toString (wrapped below), util.types.isProxy and util.inspect's
 * showProxy (builtins/util.js asks `internal.isIntrinsicWrapper`), and the wrapper's frames are taken out of
 * the stacks of errors thrown through it (thrownBy).
 */
const wrapped = new WeakMapCtor();
internal.isIntrinsicWrapper = (v) => ReflectApply(WeakMapHas, wrapped, [v]);
/** `v`, or the built-in it wraps. */
const unwrapped = (v) => {
  const original = ReflectApply(WeakMapGet, wrapped, [v]);
  return original === undefined ? v : original;
};

// ---- constructors ----

const setGlobal = (owner, name, value) => defineProperty(owner, name, { value, writable: true, enumerable: false, configurable: true });

/** Replaces constructor `name` of `owner` by a Proxy whose construct trap is `construct`; answers the Proxy. */
function wrapConstructor(owner, name, construct) {
  const target = owner[name];
  const trap = (t, args, newTarget) => {
    try {
      return construct(args, newTarget === proxy ? t : newTarget);
    } catch (e) {
      thrownBy(e, trap);
    }
  };
  const proxy = new ProxyCtor(target, { __proto__: null, construct: trap });
  ReflectApply(WeakMapSet, wrapped, [proxy, target]);
  defineProperty(target.prototype, 'constructor', { value: proxy, writable: true, enumerable: false, configurable: true });
  setGlobal(owner, name, proxy);
  return proxy;
}

/** Replaces method `name` of `proto` by a Proxy whose apply trap is `apply(original, self, args)`. */
function wrapMethod(proto, name, apply) {
  const d = getOwnPropertyDescriptor(proto, name);
  if (!d || typeof d.value !== 'function') return;
  const original = d.value;
  const trap = (t, self, args) => {
    try {
      return apply(t, self, args);
    } catch (e) {
      thrownBy(e, trap);
    }
  };
  d.value = new ProxyCtor(original, { __proto__: null, apply: trap });
  ReflectApply(WeakMapSet, wrapped, [d.value, original]);
  defineProperty(proto, name, d);
}

// A wrapper's source text is its built-in's ("function Uint8Array() { [native code] }"; a Proxy's would be
// "function () { [native code] }"); toString's own too, it being a wrapper.
wrapMethod(Function.prototype, 'toString', (original, self, args) => ReflectApply(original, unwrapped(self), args));

/** What `new TA(a)` allocates for a primitive `a` (a length) or a typed array (a copy); 0 for a buffer (a view of it). */
function typedArrayRequest(a, size) {
  if (typeof a !== 'object' || a === null) return countOf(a, size);
  if (isTypedArray(a)) return ReflectApply(taLength, a, []) * size;
  return 0;
}

const SymbolIterator = Symbol.iterator;
const NumberMaxSafe = Number.MAX_SAFE_INTEGER;
/**
 * `new TA(object)` for an object that is no typed array nor buffer. V8 reads the object (@@iterator, then
 * either the iterator or `length` and each element), through a Proxy whose `get` reads each property
 * of the object itself, once, with the object as receiver, so that a getter (or a Proxy's trap) runs as
 * often as in Node, inside the built-in's frame:
 *   - `length` is converted here (once, as V8 would) and what it asks for refused past the budget before V8
 *     allocates for it;
 *   - an @@iterator is called with the object as `this`; V8 lists the values it yields on the heap (which is
 *     bounded) before it allocates, and what it made is counted after.
 */
function constructFromObject(C, size, a, args, newTarget) {
  let iterated = false;
  // The Proxy's target is an empty object, so that no invariant binds what `get` answers to the object's own.
  const source = new ProxyCtor({ __proto__: null }, {
    __proto__: null,
    get(target, key) {
      if (key === 'length') {
        const n = +a.length;
        const length = n !== n || n <= 0 ? 0 : MathMin(MathTrunc(n), NumberMaxSafe);
        if (!fits(length * size)) throw allocationFailed();
        return length;
      }
      const v = a[key];
      if (key !== SymbolIterator || typeof v !== 'function') return v;
      iterated = true;
      return () => ReflectApply(v, a, []);
    },
  });
  const made = ReflectConstruct(C, withFirst(args, source), newTarget);
  if (iterated) countAfter(ReflectApply(taByteLength, made, []), 0);
  return made;
}

/** Counts what an allocation made beyond what was counted before it; refused, its result is dropped. */
function countAfter(made, counted) {
  if (made > counted && !fits(made - counted)) throw allocationFailed();
}

for (const name of ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'Float16Array']) {
  const C = globalThis[name];
  if (typeof C !== 'function') continue;
  const size = C.BYTES_PER_ELEMENT;
  wrapConstructor(globalThis, name, (args, newTarget) => {
    const a = args[0];
    if (typeof a === 'object' && a !== null && !isTypedArray(a) && !isArrayBuffer(a) && !isSharedArrayBuffer(a)) return constructFromObject(C, size, a, args, newTarget);
    if (!fits(typedArrayRequest(a, size))) throw allocationFailed();
    return ReflectConstruct(C, args, newTarget);
  });
}

/**
 * An ArrayBuffer or SharedArrayBuffer of the length `args[0]` asks for (an object converted once, so that its
 * valueOf runs once), refused past the budget; answers [the buffer, the bytes requested], read by index (no
 * destructuring: that would run the array iterator, which a guest can replace).
 */
function constructBuffer(Original, args, newTarget) {
  if (typeof args[0] === 'object' && args[0] !== null) {
    const n = numberOnce(args[0]);
    if (n !== undefined) args = withFirst(args, n);
  }
  const request = countOf(args[0], 1);
  if (!fits(request)) throw allocationFailed();
  return [ReflectConstruct(Original, args, newTarget), request];
}

wrapConstructor(globalThis, 'ArrayBuffer', (args, newTarget) => {
  const built = constructBuffer(ArrayBufferOriginal, args, newTarget);
  const made = built[0];
  const request = built[1];
  const length = ReflectApply(abByteLength, made, []);
  countAfter(length, request);
  // V8 counts a resizable buffer's first length only: its growth is counted here.
  if (abResizable && ReflectApply(abResizable, made, [])) track(made, length, length);
  return made;
});

// ---- methods that allocate with the intrinsic constructor, or grow a buffer in place ----

/** The length of slice(start, end) of something `length` long (numbers only; others are counted after). */
function sliceLength(length, start, end) {
  if ((start !== undefined && typeof start !== 'number') || (end !== undefined && typeof end !== 'number')) return 0;
  const rel = (v, dflt) => {
    if (v === undefined) return dflt;
    const n = v !== v ? 0 : MathTrunc(v);
    return n < 0 ? MathMax(length + n, 0) : MathMin(n, length);
  };
  return MathMax(rel(end, length) - rel(start, 0), 0);
}

const TA = TypedArray.prototype;
const taBytes = (self) => call(taByteLength, self) || 0;
for (const name of ['map', 'toReversed', 'toSorted', 'with']) {
  wrapMethod(TA, name, (original, self, args) => {
    if (!fits(taBytes(self))) throw allocationFailed();
    return ReflectApply(original, self, args);
  });
}
wrapMethod(TA, 'slice', (original, self, args) => {
  const length = call(taLength, self) || 0;
  const request = length === 0 ? 0 : sliceLength(length, args[0], args[1]) * (taBytes(self) / length);
  if (!fits(request)) throw allocationFailed();
  const made = ReflectApply(original, self, args);
  countAfter(taBytes(made), request);
  return made;
});
wrapMethod(TA, 'filter', (original, self, args) => {
  const made = ReflectApply(original, self, args);
  countAfter(taBytes(made), 0);
  return made;
});

wrapMethod(ArrayBuffer.prototype, 'slice', (original, self, args) => {
  const request = sliceLength(call(abByteLength, self) || 0, args[0], args[1]);
  if (!fits(request)) throw allocationFailed();
  const made = ReflectApply(original, self, args);
  countAfter(call(abByteLength, made) || 0, request);
  return made;
});
wrapMethod(ArrayBuffer.prototype, 'resize', (original, self, args) => {
  const record = ReflectApply(WeakMapGet, records, [self]);
  const to = numberOnce(args[0]);
  if (to !== undefined) args = withFirst(args, to);
  if (record && to !== undefined) {
    const more = MathMax(0, to - record.base) - record.bytes;
    if (more > 0 && !fits(more)) throw allocationFailed();
  }
  const r = ReflectApply(original, self, args);
  if (record) grown(record, ReflectApply(abByteLength, self, []));
  return r;
});

// ArrayBuffer.prototype.transfer(length) and transferToFixedLength (newer V8): a new store of `length`.
for (const name of ['transfer', 'transferToFixedLength']) {
  wrapMethod(ArrayBuffer.prototype, name, (original, self, args) => {
    const current = call(abByteLength, self) || 0;
    const to = args[0] === undefined ? current : numberOnce(args[0]);
    if (args[0] !== undefined && to !== undefined) args = withFirst(args, to);
    if (to !== undefined && !fits(to - current)) throw allocationFailed();
    const record = ReflectApply(WeakMapGet, records, [self]);
    const made = ReflectApply(original, self, args);
    if (record) {
      // What was counted of the old buffer goes with it; V8 counts the new one as it is made.
      grown(record, record.base);
    }
    return made;
  });
}
// Uint8Array.fromBase64 / fromHex (newer V8) make their array with the intrinsic constructor.
for (const [name, ratio] of [['fromBase64', 0.75], ['fromHex', 0.5]]) {
  wrapMethod(globalThis.Uint8Array, name, (original, self, args) => {
    if (typeof args[0] === 'string' && !fits(MathFloor(args[0].length * ratio))) throw allocationFailed();
    return ReflectApply(original, self, args);
  });
}

// SharedArrayBuffers: V8 counts none of their memory.
wrapConstructor(globalThis, 'SharedArrayBuffer', (args, newTarget) => {
  const built = constructBuffer(SharedArrayBufferOriginal, args, newTarget);
  const made = built[0];
  const request = built[1];
  const length = ReflectApply(sabByteLength, made, []);
  countAfter(length, request);
  track(made, length, 0);
  return made;
});
wrapMethod(SharedArrayBuffer.prototype, 'slice', (original, self, args) => {
  const request = sliceLength(call(sabByteLength, self) || 0, args[0], args[1]);
  if (!fits(request)) throw allocationFailed();
  const made = ReflectApply(original, self, args);
  const length = call(sabByteLength, made) || 0;
  countAfter(length, request);
  track(made, length, 0);
  return made;
});
wrapMethod(SharedArrayBuffer.prototype, 'grow', (original, self, args) => {
  const record = ReflectApply(WeakMapGet, records, [self]);
  const to = numberOnce(args[0]);
  if (to !== undefined) args = withFirst(args, to);
  if (record && to !== undefined && to - record.bytes > 0 && !fits(to - record.bytes)) throw allocationFailed();
  const r = ReflectApply(original, self, args);
  if (record) grown(record, ReflectApply(sabByteLength, self, []));
  return r;
});

// ---- WebAssembly ----

const Wasm = WebAssembly;
const WasmModule = Wasm.Module;
const WasmInstance = Wasm.Instance;
const WasmMemory = Wasm.Memory;
const wasmCompile = Wasm.compile;
const wasmInstantiate = Wasm.instantiate;
const memoryBuffer = getter(WasmMemory.prototype, 'buffer');

/** What a module's own memories need at instantiation (bytes), by module. */
const moduleMinimum = new WeakMapCtor();

wrapConstructor(Wasm, 'Memory', (args, newTarget) => {
  const d = args[0];
  if (typeof d !== 'object' || d === null) return ReflectConstruct(WasmMemory, args, newTarget);
  // The descriptor's properties are read once each, and the sizes converted once, here: V8 is given what was counted.
  const initial = d.initial;
  const minimum = initial === undefined ? d.minimum : undefined;
  const rawMaximum = d.maximum;
  const shared = d.shared;
  const pages = numberOnce(initial === undefined ? minimum : initial);
  let maximum = rawMaximum === undefined ? undefined : numberOnce(rawMaximum);
  if (pages === undefined || (rawMaximum !== undefined && maximum === undefined)) return ReflectConstruct(WasmMemory, args, newTarget);
  if (pages <= 65536) {
    if (pages > maxPages || !fits(pages * PAGE)) throw allocationFailed('WebAssembly.Memory(): could not allocate memory');
    // A maximum within the budget: memory.grow inside wasm code fails past it.
    if (maximum === undefined || maximum > maxPages) maximum = MathMax(maxPages, MathTrunc(pages));
  }
  const desc = { maximum };
  if (initial !== undefined) desc.initial = pages;
  else desc.minimum = pages;
  if (shared !== undefined) desc.shared = shared;
  const made = ReflectConstruct(WasmMemory, [desc], newTarget);
  if (shared) track(made, ReflectApply(sabByteLength, ReflectApply(memoryBuffer, made, []), []), 0);
  return made;
});
wrapMethod(WasmMemory.prototype, 'grow', (original, self, args) => {
  const delta = numberOnce(args[0]);
  if (delta !== undefined) args = withFirst(args, delta);
  const record = ReflectApply(WeakMapGet, records, [self]);
  if (delta !== undefined && !fits(delta * PAGE)) throw allocationFailed('WebAssembly.Memory.grow(): Unable to grow instance memory');
  const r = ReflectApply(original, self, args);
  if (record) grown(record, ReflectApply(sabByteLength, ReflectApply(memoryBuffer, self, []), []));
  return r;
});

/** The bytes of a BufferSource (a view of them), or undefined when it is none (V8 then says so). */
function sourceBytes(source) {
  if (typeof source !== 'object' || source === null) return undefined;
  if (isTypedArray(source)) return new OriginalU8(ReflectApply(taBuffer, source, []), ReflectApply(taByteOffset, source, []), ReflectApply(taByteLength, source, []));
  if (isArrayBuffer(source) || isSharedArrayBuffer(source)) return new OriginalU8(source);
  const length = call(dvByteLength, source);
  if (length !== undefined) return new OriginalU8(ReflectApply(dvBuffer, source, []), ReflectApply(dvByteOffset, source, []), length);
  return undefined;
}

/**
 * A module's bytes with each memory it defines given a maximum within the budget (binary format: section 5
 * is a vector of limits, flags 0 = min, 1 = min max, 2/3 = shared; 4+ is memory64, left alone), and what
 * its memories need at instantiation. Only the section headers and the memory section are read; a module
 * this does not understand is given to V8 as it is (and fails there if it is not a module).
 */
function boundedModule(source) {
  const b = sourceBytes(source);
  if (b === undefined || b.length < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) return { bytes: source, minimum: 0 };
  let pos = 8;
  const u32 = () => {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= b.length) throw 0;
      const byte = b[pos++];
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
    }
    throw 0;
  };
  try {
    while (pos < b.length) {
      const sectionStart = pos;
      const id = b[pos++];
      const size = u32();
      const start = pos;
      if (id !== 5) {
        pos += size;
        continue;
      }
      const count = u32();
      if (count > size) return { bytes: source, minimum: 0 };
      // The new section's content: at most 5 bytes of count and 15 of each memory's limits.
      const out = new OriginalU8(5 + count * 15);
      let at = 0;
      const leb = (n) => {
        do {
          const byte = n % 128;
          n = MathFloor(n / 128);
          out[at++] = n > 0 ? byte | 0x80 : byte;
        } while (n > 0);
      };
      leb(count);
      let minimum = 0;
      let changed = false;
      for (let i = 0; i < count; i++) {
        const flags = u32();
        if (flags > 3) return { bytes: source, minimum: 0 };
        const min = u32();
        const max = flags & 1 ? u32() : undefined;
        minimum += min * PAGE;
        const bounded = max === undefined || max > maxPages ? MathMax(min, maxPages) : max;
        if (bounded !== max) changed = true;
        leb(flags | 1);
        leb(min);
        leb(bounded);
      }
      if (pos !== start + size) return { bytes: source, minimum: 0 };
      if (!changed) return { bytes: source, minimum };
      const content = at;
      leb(content); // the section's new size, after its content
      const sizeLength = at - content;
      const length = sectionStart + 1 + sizeLength + content + (b.length - pos);
      if (!fits(length)) throw allocationFailed();
      const bytes = new OriginalU8(length);
      ReflectApply(TASet, bytes, [ReflectApply(TASubarray, b, [0, sectionStart + 1]), 0]);
      ReflectApply(TASet, bytes, [ReflectApply(TASubarray, out, [content, at]), sectionStart + 1]);
      ReflectApply(TASet, bytes, [ReflectApply(TASubarray, out, [0, content]), sectionStart + 1 + sizeLength]);
      ReflectApply(TASet, bytes, [ReflectApply(TASubarray, b, [pos]), sectionStart + 1 + sizeLength + content]);
      return { bytes, minimum };
    }
  } catch (e) {
    if (e !== 0) throw e;
  }
  return { bytes: source, minimum: 0 };
}

/**
 * The native code V8 compiles a module to, with the copy of its bytes it keeps: outside the heap, and not in
 * V8's external memory either. Counted as CODE_PER_BYTE times the module's size (measured on Node 20 and 24:
 * 1.3 to 2.2 times in RSS for baseline code, some more once functions tier up), held from before it is
 * compiled (so that compiles started together are counted together) until the module is collected.
 */
const CODE_PER_BYTE = 4;
const codeRefused = (where) => allocationFailed(`WebAssembly.${where}(): Out of memory: the module's code would pass the process's memory limit`);
function reserveCode(bytes, where) {
  const b = sourceBytes(bytes);
  const estimate = b === undefined ? 0 : b.length * CODE_PER_BYTE;
  if (!fits(estimate)) throw codeRefused(where);
  const record = { bytes: 0, base: 0 };
  grown(record, estimate);
  return record;
}
/** The module's code, counted until the module is collected. */
function keepCode(module, record) {
  ReflectApply(WeakMapSet, records, [module, record]);
  ReflectApply(FinalizationRegistryRegister, released, [module, record]);
}
/** A compile that failed made no code. */
const dropCode = (record) => grown(record, 0);

wrapConstructor(Wasm, 'Module', (args, newTarget) => {
  const { bytes, minimum } = boundedModule(args[0]);
  const code = reserveCode(bytes, 'Module');
  let made;
  try {
    made = ReflectConstruct(WasmModule, [bytes], newTarget);
  } catch (e) {
    dropCode(code);
    throw e;
  }
  keepCode(made, code);
  ReflectApply(WeakMapSet, moduleMinimum, [made, minimum]);
  return made;
});
const instanceFailed = (where) => allocationFailed(`WebAssembly.${where}(): Out of memory: Cannot allocate Wasm memory for new instance`);
wrapConstructor(Wasm, 'Instance', (args, newTarget) => {
  if (!fits(ReflectApply(WeakMapGet, moduleMinimum, [args[0]]) || 0)) throw instanceFailed('Instance');
  return ReflectConstruct(WasmInstance, args, newTarget);
});
const compiled = (minimum, code) => (module) => {
  keepCode(module, code);
  ReflectApply(WeakMapSet, moduleMinimum, [module, minimum]);
  return module;
};
const compileFailed = (code) => (e) => {
  dropCode(code);
  throw e;
};
wrapMethod(Wasm, 'compile', (original, self, args) => {
  let bounded, code;
  try {
    bounded = boundedModule(args[0]);
    code = reserveCode(bounded.bytes, 'compile');
  } catch (e) {
    return PromiseReject(e);
  }
  return ReflectApply(PromiseThen, ReflectApply(original, self, [bounded.bytes]), [compiled(bounded.minimum, code), compileFailed(code)]);
});
wrapMethod(Wasm, 'instantiate', (original, self, args) => {
  const source = args[0];
  if (ReflectApply(WeakMapHas, moduleMinimum, [source])) {
    if (!fits(ReflectApply(WeakMapGet, moduleMinimum, [source]))) return PromiseReject(instanceFailed('instantiate'));
    return ReflectApply(original, self, args);
  }
  let bounded, code;
  try {
    bounded = boundedModule(source);
    if (!fits(bounded.minimum)) throw instanceFailed('instantiate');
    code = reserveCode(bounded.bytes, 'instantiate');
  } catch (e) {
    return PromiseReject(e);
  }
  const rest = [bounded.bytes];
  for (let i = 1; i < args.length; i++) rest[i] = args[i];
  return ReflectApply(PromiseThen, ReflectApply(original, self, rest), [
    (result) => {
      keepCode(result.module, code);
      ReflectApply(WeakMapSet, moduleMinimum, [result.module, bounded.minimum]);
      return result;
    },
    compileFailed(code),
  ]);
});
