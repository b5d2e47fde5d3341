'use strict';
// The realm's intrinsics as they were at boot, before any guest code ran (Node's primordials, with Node's
// names): the runtime's modules are loaded lazily, often after the guest has replaced a prototype's methods,
// so what a module captures at its own evaluation may already be the guest's. They take theirs from here:
//   const { ArrayPrototypePush, StringPrototypeSlice, SafeMap, JSONParse } = require('internal/primordials');
// Names, as Node's lib/internal/per_context/primordials.js:
//   - `Array`, `Promise`, … the constructors; `JSON`, `Math`, `Reflect`, … their members as `JSONParse`,
//     `MathMax`, `ReflectApply`; a constructor's static members as `ArrayIsArray`, `ObjectKeys` (Promise's
//     bound to Promise: `PromiseResolve(v)`);
//   - `ArrayPrototype`, … the prototypes themselves (objects the guest can change: for identity checks only);
//   - a prototype's methods uncurried, `this` first: `ArrayPrototypePush(list, v)`, `MapPrototypeGet(m, k)`;
//     its accessors as `TypedArrayPrototypeGetLength(ta)`; symbol-keyed ones as `ArrayPrototypeSymbolIterator`;
//   - `SafeMap`, `SafeSet`, `SafeWeakMap`, `SafeWeakSet`, `SafeFinalizationRegistry`, `SafeWeakRef`: subclasses
//     whose methods (and iterators) are their own, on a frozen prototype, so that `m.get(k)` or
//     `for (const v of s)` reaches nothing the guest can replace; `SafeArrayIterator(list)` iterates an array
//     the same way, `SafeSetIterator(set)` a Set's values and `SafeMapIterator(map)` a Map's entries. Unlike Node's, their prototypes keep their chain to Object.prototype (every object a guest
//     can reach ends there, test/node/escape.test.ts): only what they do not have themselves is looked up there.
// Loaded by internal/globals.js right after internal/memory-limit.js, so that the constructors here are the
// memory limit's wrappers (what the runtime allocates is counted as the guest's). The object is frozen and has
// no prototype: it is read by nothing a guest can change, and carries no capability.

const { apply: ReflectApply, ownKeys: ReflectOwnKeys, getOwnPropertyDescriptor: ReflectGetOwnPropertyDescriptor, defineProperty: ReflectDefineProperty } = Reflect;
const { freeze: ObjectFreeze, getPrototypeOf: ObjectGetPrototypeOf } = Object;
const uncurryThis = Function.prototype.bind.bind(Function.prototype.call);
const FunctionPrototypeBind = Function.prototype.bind;
const StringPrototypeToUpperCase = uncurryThis(String.prototype.toUpperCase);
const StringPrototypeSlice = uncurryThis(String.prototype.slice);
const StringPrototypeStartsWith = uncurryThis(String.prototype.startsWith);
const SymbolIterator = Symbol.iterator;
const SymbolPrototypeGetDescription = uncurryThis(ReflectGetOwnPropertyDescriptor(Symbol.prototype, 'description').get);

const primordials = { __proto__: null };
primordials.uncurryThis = uncurryThis;

/** `Symbol.iterator` → `SymbolIterator`; `name` → `Name`. */
function keyName(key) {
  if (typeof key === 'symbol') {
    const d = SymbolPrototypeGetDescription(key);
    return StringPrototypeStartsWith(d, 'Symbol.') ? `Symbol${StringPrototypeToUpperCase(d[7])}${StringPrototypeSlice(d, 8)}` : undefined;
  }
  return `${StringPrototypeToUpperCase(key[0])}${StringPrototypeSlice(key, 1)}`;
}
function own(target, name, value) {
  if (!(name in target)) ReflectDefineProperty(target, name, { __proto__: null, value, enumerable: true });
}
/** Each property of `src` as `prefix + Name` (values as they are, functions bound to `src` when asked). */
function copyStatics(src, prefix, bound) {
  const keys = ReflectOwnKeys(src);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'prototype' || key === 'length' || key === 'name' || key === 'caller' || key === 'arguments') continue;
    const name = keyName(key);
    if (name === undefined) continue;
    const d = ReflectGetOwnPropertyDescriptor(src, key);
    if ('get' in d) {
      if (typeof d.get === 'function') own(primordials, `${prefix}Get${name}`, uncurryThis(d.get));
    } else if (bound && typeof d.value === 'function') {
      own(primordials, `${prefix}${name}`, ReflectApply(FunctionPrototypeBind, d.value, [src]));
    } else {
      own(primordials, `${prefix}${name}`, d.value);
    }
  }
}
/** Each method of `proto` as `prefix + Name`, uncurried; accessors as `prefix + Get/Set + Name`. */
function copyPrototype(proto, prefix) {
  const keys = ReflectOwnKeys(proto);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'constructor' || key === 'caller' || key === 'arguments') continue;
    const name = keyName(key);
    if (name === undefined) continue;
    const d = ReflectGetOwnPropertyDescriptor(proto, key);
    if ('get' in d) {
      if (typeof d.get === 'function') own(primordials, `${prefix}Get${name}`, uncurryThis(d.get));
      if (typeof d.set === 'function') own(primordials, `${prefix}Set${name}`, uncurryThis(d.set));
    } else if (typeof d.value === 'function') {
      own(primordials, `${prefix}${name}`, uncurryThis(d.value));
    } else {
      own(primordials, `${prefix}${name}`, d.value);
    }
  }
}

// Species. An array's slice, splice, map, filter, concat, flat and flatMap, a promise's then, and a typed
// array's or an ArrayBuffer's slice and subarray make their result with the receiver's
// `constructor[Symbol.species]`: a guest's getter on Array.prototype.constructor, Array[Symbol.species],
// Promise's or Buffer.prototype.constructor would be given the runtime's value as `this`, and the constructor
// it returns would make what the runtime fills or awaits. Node's own builtins make theirs natively.
// - Arrays and promises: while Array.prototype.constructor and Array[Symbol.species] (Promise's) are the
//   realm's own, the native method is called (its lookup reaches nothing of the guest's). Once a guest changed
//   either, the receiver is given an own `constructor` of undefined for the call (the default constructor is
//   then used, with no lookup), taken off after. Doing that while they are intact would cost every array
//   operation of the process its fast path (V8's species protector); by then the guest's change has.
// - Typed arrays and ArrayBuffers: made by the intrinsic constructor of the receiver's kind, over the same
//   memory (subarray) or a copy (slice), with the receiver's prototype (a Buffer's subarray is a Buffer).
// A receiver of another prototype, or with its own `constructor`, is the guest's own and is called as is.
const ObjectHasOwn = Object.hasOwn;
const ObjectSetPrototypeOf = Object.setPrototypeOf;
const ReflectDeleteProperty = Reflect.deleteProperty;
const ArrayIsArray = Array.isArray;
const MathMax = Math.max;
const MathMin = Math.min;
const MathTrunc = Math.trunc;
const SymbolSpecies = Symbol.species;
const NO_SPECIES = ObjectFreeze({ __proto__: null, value: undefined, writable: true, configurable: true });
/** Whether `C.prototype.constructor` is `C` and `C[Symbol.species]` its own getter, as at boot. */
function speciesIntact(C, proto, speciesGetter) {
  const c = ReflectGetOwnPropertyDescriptor(proto, 'constructor');
  if (c === undefined || !ObjectHasOwn(c, 'value') || c.value !== C) return false;
  const s = ReflectGetOwnPropertyDescriptor(C, SymbolSpecies);
  return s !== undefined && ObjectHasOwn(s, 'get') && s.get === speciesGetter;
}
/** `method` (of C.prototype), called on a receiver of C.prototype with no species lookup a guest can see. */
function withoutSpecies(method, C, isC) {
  const proto = C.prototype;
  const speciesGetter = ReflectGetOwnPropertyDescriptor(C, SymbolSpecies).get;
  return function (self, ...args) {
    if (!isC(self) || ObjectGetPrototypeOf(self) !== proto || ObjectHasOwn(self, 'constructor') || speciesIntact(C, proto, speciesGetter) ||
        !ReflectDefineProperty(self, 'constructor', NO_SPECIES)) {
      return ReflectApply(method, self, args);
    }
    try {
      return ReflectApply(method, self, args);
    } finally {
      ReflectDeleteProperty(self, 'constructor');
    }
  };
}
const ARRAY_SPECIES_METHODS = ['slice', 'splice', 'map', 'filter', 'concat', 'flat', 'flatMap'];
for (let i = 0; i < ARRAY_SPECIES_METHODS.length; i++) {
  const name = ARRAY_SPECIES_METHODS[i];
  own(primordials, `ArrayPrototype${keyName(name)}`, withoutSpecies(Array.prototype[name], Array, ArrayIsArray));
}
// A promise is told by the realm's own Promise.prototype being its prototype (withoutSpecies's check).
own(primordials, 'PromisePrototypeThen', withoutSpecies(Promise.prototype.then, Promise, (v) => v !== null && typeof v === 'object'));
// catch and finally look `then` up on the promise (Promise.prototype.then, which a guest can replace): the
// runtime's go through the species-free then.
const PromisePrototypeThen = primordials.PromisePrototypeThen;
const PromiseResolve = ReflectApply(FunctionPrototypeBind, Promise.resolve, [Promise]);
own(primordials, 'PromisePrototypeCatch', (promise, onRejected) => PromisePrototypeThen(promise, undefined, onRejected));
own(primordials, 'PromisePrototypeFinally', (promise, onFinally) => {
  if (typeof onFinally !== 'function') return PromisePrototypeThen(promise, onFinally, onFinally);
  const after = (settle) => {
    const r = onFinally();
    return r !== null && (typeof r === 'object' || typeof r === 'function') ? PromisePrototypeThen(PromiseResolve(r), settle) : settle();
  };
  return PromisePrototypeThen(promise, (v) => after(() => v), (e) => after(() => { throw e; }));
});
const TypedArrayPrototype = ObjectGetPrototypeOf(Uint8Array.prototype);
const TypedArrayPrototypeGetTag = uncurryThis(ReflectGetOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get);
const TypedArrayPrototypeGetBufferOf = uncurryThis(ReflectGetOwnPropertyDescriptor(TypedArrayPrototype, 'buffer').get);
const TypedArrayPrototypeGetByteOffsetOf = uncurryThis(ReflectGetOwnPropertyDescriptor(TypedArrayPrototype, 'byteOffset').get);
const TypedArrayPrototypeGetLengthOf = uncurryThis(ReflectGetOwnPropertyDescriptor(TypedArrayPrototype, 'length').get);
const TypedArrayPrototypeSetOf = uncurryThis(TypedArrayPrototype.set);
const ArrayBufferPrototypeGetByteLengthOf = uncurryThis(ReflectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get);
// The constructors here are memory-limit.js's (what they allocate is counted as the guest's).
const TYPED_ARRAY_NAMES = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'Float16Array'];
const TYPED_ARRAYS = { __proto__: null };
for (let i = 0; i < TYPED_ARRAY_NAMES.length; i++) {
  if (typeof globalThis[TYPED_ARRAY_NAMES[i]] === 'function') TYPED_ARRAYS[TYPED_ARRAY_NAMES[i]] = globalThis[TYPED_ARRAY_NAMES[i]];
}
const ArrayBufferCtor = ArrayBuffer;
const Uint8ArrayCtor = Uint8Array;
const TypeErrorCtor = TypeError;
/** `start` of `slice`/`subarray`, relative to `length`, as the standard reads it. */
function relativeStart(length, start) {
  const s = MathTrunc(+start) || 0;
  return s < 0 ? MathMax(length + s, 0) : MathMin(s, length);
}
/** How many elements from `first` to `end` (relative to `length`, the end when undefined). */
function relativeCount(length, first, end) {
  const e = end === undefined ? length : MathTrunc(+end) || 0;
  return MathMax((e < 0 ? MathMax(length + e, 0) : MathMin(e, length)) - first, 0);
}
/** `made` (of `self`'s kind, by its intrinsic constructor `C`) given `self`'s prototype. */
function sameKind(self, C, made) {
  const proto = ObjectGetPrototypeOf(self);
  if (proto !== C.prototype) ObjectSetPrototypeOf(made, proto);
  return made;
}
/** The intrinsic constructor of the typed array `self`'s kind. */
function kindOf(self) {
  const C = TYPED_ARRAYS[TypedArrayPrototypeGetTag(self)];
  if (C === undefined) throw new TypeErrorCtor('this is not a typed array.');
  return C;
}
own(primordials, 'TypedArrayPrototypeSubarray', (self, start, end) => {
  const C = kindOf(self);
  const length = TypedArrayPrototypeGetLengthOf(self);
  const first = relativeStart(length, start);
  const count = relativeCount(length, first, end);
  const offset = TypedArrayPrototypeGetByteOffsetOf(self) + first * C.BYTES_PER_ELEMENT;
  return sameKind(self, C, new C(TypedArrayPrototypeGetBufferOf(self), offset, count));
});
own(primordials, 'TypedArrayPrototypeSlice', (self, start, end) => {
  const C = kindOf(self);
  const length = TypedArrayPrototypeGetLengthOf(self);
  const first = relativeStart(length, start);
  const count = relativeCount(length, first, end);
  const made = new C(count);
  const offset = TypedArrayPrototypeGetByteOffsetOf(self) + first * C.BYTES_PER_ELEMENT;
  if (count > 0) TypedArrayPrototypeSetOf(made, new C(TypedArrayPrototypeGetBufferOf(self), offset, count));
  return sameKind(self, C, made);
});
own(primordials, 'ArrayBufferPrototypeSlice', (self, start, end) => {
  const length = ArrayBufferPrototypeGetByteLengthOf(self);
  const first = relativeStart(length, start);
  const count = relativeCount(length, first, end);
  const made = new ArrayBufferCtor(count);
  if (count > 0) TypedArrayPrototypeSetOf(new Uint8ArrayCtor(made), new Uint8ArrayCtor(self, first, count));
  return made;
});

// The accessors of typed arrays, DataViews and (Shared)ArrayBuffers, read on any value: `GetLength(v)`,
// `GetByteLength(v)`, `GetByteOffset(v)`, `GetBuffer(v)` for `v.length`, … A read of `v.byteLength` runs the
// getter on the prototype, which a guest can redefine, and the guest's getter would get the runtime's buffer
// as `this` (its system-call scratch, a host reply). These call the realm's own getter for the value's kind,
// told without a lookup a guest can see (the typed array's tag, ArrayBuffer.isView, the prototype of a
// buffer), and read the property as it is on anything else (an array's or a string's own length, the guest's
// own objects).
const ArrayBufferIsView = ArrayBuffer.isView;
const getterOf = (proto, name) => uncurryThis(ReflectGetOwnPropertyDescriptor(proto, name).get);
const accessorsOf = (name) => {
  const ta = getterOf(TypedArrayPrototype, name);
  const dv = name === 'length' ? undefined : getterOf(DataView.prototype, name);
  const ab = name === 'byteLength' ? getterOf(ArrayBuffer.prototype, name) : undefined;
  const sab = name === 'byteLength' && typeof SharedArrayBuffer === 'function' ? getterOf(SharedArrayBuffer.prototype, name) : undefined;
  const SharedArrayBufferPrototype = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer.prototype : undefined;
  return (v) => {
    if (v !== null && typeof v === 'object') {
      if (TypedArrayPrototypeGetTag(v) !== undefined) return ta(v);
      if (dv !== undefined && ArrayBufferIsView(v)) return dv(v);
      if (ab !== undefined) {
        const proto = ObjectGetPrototypeOf(v);
        if (proto === ArrayBufferCtor.prototype) return ab(v);
        if (proto === SharedArrayBufferPrototype && proto !== undefined) return sab(v);
      }
    }
    return v[name];
  };
};
own(primordials, 'GetLength', accessorsOf('length'));
own(primordials, 'GetByteLength', accessorsOf('byteLength'));
own(primordials, 'GetByteOffset', accessorsOf('byteOffset'));
own(primordials, 'GetBuffer', accessorsOf('buffer'));

for (const name of ['decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'globalThis']) {
  own(primordials, name, globalThis[name]);
}
for (const name of ['JSON', 'Math', 'Proxy', 'Reflect', 'Atomics']) {
  if (globalThis[name] === undefined) continue;
  own(primordials, name, globalThis[name]);
  copyStatics(globalThis[name], name, false);
}
const constructors = [
  'AggregateError', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView', 'Date', 'Error',
  'EvalError', 'FinalizationRegistry', 'Float32Array', 'Float64Array', 'Function', 'Int16Array', 'Int32Array', 'Int8Array', 'Map',
  'Number', 'Object', 'RangeError', 'ReferenceError', 'RegExp', 'Set', 'String', 'Symbol', 'SyntaxError', 'TypeError', 'URIError',
  'Uint16Array', 'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap', 'WeakRef', 'WeakSet', 'SharedArrayBuffer', 'Promise',
];
for (let i = 0; i < constructors.length; i++) {
  const name = constructors[i];
  const C = globalThis[name];
  if (typeof C !== 'function') continue;
  own(primordials, name, C);
  own(primordials, `${name}Prototype`, C.prototype);
  copyStatics(C, name, name === 'Promise');
  copyPrototype(C.prototype, `${name}Prototype`);
}
const TypedArray = ObjectGetPrototypeOf(Uint8Array.prototype).constructor;
own(primordials, 'TypedArray', TypedArray);
own(primordials, 'TypedArrayPrototype', TypedArray.prototype);
copyStatics(TypedArray, 'TypedArray', false);
copyPrototype(TypedArray.prototype, 'TypedArrayPrototype');
const iteratorOf = (v) => ObjectGetPrototypeOf(v[SymbolIterator]());
copyPrototype(iteratorOf([]), 'ArrayIteratorPrototype');
copyPrototype(iteratorOf(''), 'StringIteratorPrototype');
copyPrototype(iteratorOf(new Map()), 'MapIteratorPrototype');
copyPrototype(iteratorOf(new Set()), 'SetIteratorPrototype');
copyPrototype(ObjectGetPrototypeOf(iteratorOf([])), 'IteratorPrototype');
own(primordials, 'AsyncIteratorPrototype', ObjectGetPrototypeOf(ObjectGetPrototypeOf(async function* () {}).prototype));
copyPrototype(ObjectGetPrototypeOf(async function* () {}.prototype), 'AsyncGeneratorPrototype');

const ArrayPrototypeSymbolIterator = primordials.ArrayPrototypeSymbolIterator;
const ArrayIteratorPrototypeNext = primordials.ArrayIteratorPrototypeNext;

/** An iterator class over what `factory(iterable)` makes, advanced by the captured `next`. */
function createSafeIterator(factory, next) {
  class SafeIterator {
    // A private field: an assignment to `this._iterator` would run a guest's setter on Object.prototype.
    #iterator;
    constructor(iterable) {
      this.#iterator = factory(iterable);
    }
    next() {
      return next(this.#iterator);
    }
    [SymbolIterator]() {
      return this;
    }
  }
  ObjectFreeze(SafeIterator.prototype);
  ObjectFreeze(SafeIterator);
  return SafeIterator;
}
own(primordials, 'SafeArrayIterator', createSafeIterator(ArrayPrototypeSymbolIterator, ArrayIteratorPrototypeNext));
own(primordials, 'SafeStringIterator', createSafeIterator(primordials.StringPrototypeSymbolIterator, primordials.StringIteratorPrototypeNext));
// Any Set's values and any Map's [key, value] entries (a guest's too), read from its internal slots.
own(primordials, 'SafeSetIterator', createSafeIterator(primordials.SetPrototypeValues, primordials.SetIteratorPrototypeNext));
own(primordials, 'SafeMapIterator', createSafeIterator(primordials.MapPrototypeEntries, primordials.MapIteratorPrototypeNext));

/** `safe` (a subclass of `unsafe`) given copies of `unsafe`'s methods, its iterators made safe, then frozen. */
function makeSafe(unsafe, safe) {
  const keys = ReflectOwnKeys(unsafe.prototype);
  let dummy;
  let next;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (ReflectGetOwnPropertyDescriptor(safe.prototype, key)) continue;
    const d = ReflectGetOwnPropertyDescriptor(unsafe.prototype, key);
    if (SymbolIterator in unsafe.prototype && typeof d.value === 'function' && d.value.length === 0) {
      if (dummy === undefined) dummy = new unsafe();
      const made = ReflectApply(d.value, dummy, []);
      if (made !== null && typeof made === 'object' && SymbolIterator in made) {
        const createIterator = uncurryThis(d.value);
        if (next === undefined) next = uncurryThis(ObjectGetPrototypeOf(made).next);
        const SafeIterator = createSafeIterator(createIterator, next);
        d.value = function () {
          return new SafeIterator(this);
        };
      }
    }
    ReflectDefineProperty(safe.prototype, key, d);
  }
  ObjectFreeze(safe.prototype);
  ObjectFreeze(safe);
  return safe;
}
// Each with its own constructor: the implicit one of a derived class, `constructor(...args) { super(...args); }`,
// spreads its arguments with Array.prototype[Symbol.iterator] (V8 before the ES2022 change), which the guest
// can replace. An array of initial entries is read by index, not given to the base constructor, which would
// iterate it with that same replaceable method (a module that builds `new SafeSet([...])` as it loads runs after
// guest code).
const isArray = Array.isArray;
const MapSet = uncurryThis(Map.prototype.set);
const SetAdd = uncurryThis(Set.prototype.add);
const WeakMapSet = uncurryThis(WeakMap.prototype.set);
const WeakSetAdd = uncurryThis(WeakSet.prototype.add);
/** Puts an array's entries into a new collection by index (`put` adds one), if `i` is an array. */
function putEach(target, i, put) {
  if (isArray(i)) for (let k = 0; k < i.length; k++) put(target, i[k]);
}
const MapPut = (target, e) => MapSet(target, e[0], e[1]);
const WeakMapPut = (target, e) => WeakMapSet(target, e[0], e[1]);
own(primordials, 'SafeMap', makeSafe(Map, class SafeMap extends Map {
  constructor(i) { super(isArray(i) ? undefined : i); putEach(this, i, MapPut); }
}));
own(primordials, 'SafeSet', makeSafe(Set, class SafeSet extends Set {
  constructor(i) { super(isArray(i) ? undefined : i); putEach(this, i, SetAdd); }
}));
own(primordials, 'SafeWeakMap', makeSafe(WeakMap, class SafeWeakMap extends WeakMap {
  constructor(i) { super(isArray(i) ? undefined : i); putEach(this, i, WeakMapPut); }
}));
own(primordials, 'SafeWeakSet', makeSafe(WeakSet, class SafeWeakSet extends WeakSet {
  constructor(i) { super(isArray(i) ? undefined : i); putEach(this, i, WeakSetAdd); }
}));
own(primordials, 'SafeWeakRef', makeSafe(WeakRef, class SafeWeakRef extends WeakRef { constructor(t) { super(t); } }));
own(primordials, 'SafeFinalizationRegistry', makeSafe(FinalizationRegistry, class SafeFinalizationRegistry extends FinalizationRegistry { constructor(c) { super(c); } }));

// Regular expressions the runtime gives a string method (`StringPrototypeReplace(s, re, x)`) or RegExp.prototype's
// symbol methods: these read `exec`, `flags` and (split, matchAll) `constructor` and its species from the regex,
// which RegExp.prototype answers unless the regex has its own, and a guest can replace them there (its function
// would get the runtime's regex and string). hardenRegExp(re) gives `re` its own, the intrinsics as they were at
// boot, as Node's hardenRegExp does; what split and matchAll make from it (SafeRegExp) is hardened too. Read by
// nothing a guest changed: the flags through the realm's own getters, `flags` composed here.
const RegExpProto = RegExp.prototype;
const REGEXP_FLAGS = [['hasIndices', 'd'], ['global', 'g'], ['ignoreCase', 'i'], ['multiline', 'm'], ['dotAll', 's'], ['unicode', 'u'], ['unicodeSets', 'v'], ['sticky', 'y']];
const regexpFlagGetters = [];
for (let i = 0; i < REGEXP_FLAGS.length; i++) {
  const d = ReflectGetOwnPropertyDescriptor(RegExpProto, REGEXP_FLAGS[i][0]);
  if (d !== undefined) regexpFlagGetters[regexpFlagGetters.length] = [REGEXP_FLAGS[i][0], REGEXP_FLAGS[i][1], uncurryThis(d.get)];
}
const regexpSourceGetter = uncurryThis(ReflectGetOwnPropertyDescriptor(RegExpProto, 'source').get);
const regexpOwnMethods = [
  ['exec', RegExpProto.exec], [Symbol.match, RegExpProto[Symbol.match]], [Symbol.matchAll, RegExpProto[Symbol.matchAll]],
  [Symbol.replace, RegExpProto[Symbol.replace]], [Symbol.search, RegExpProto[Symbol.search]], [Symbol.split, RegExpProto[Symbol.split]],
];
const defineOwn = (target, key, value) => ReflectDefineProperty(target, key, { __proto__: null, value, configurable: true });
function hardenRegExp(pattern) {
  let flags = '';
  for (let i = 0; i < regexpFlagGetters.length; i++) {
    const on = regexpFlagGetters[i][2](pattern);
    defineOwn(pattern, regexpFlagGetters[i][0], on);
    if (on) flags += regexpFlagGetters[i][1];
  }
  defineOwn(pattern, 'flags', flags);
  defineOwn(pattern, 'source', regexpSourceGetter(pattern));
  for (let i = 0; i < regexpOwnMethods.length; i++) defineOwn(pattern, regexpOwnMethods[i][0], regexpOwnMethods[i][1]);
  defineOwn(pattern, 'constructor', SafeRegExp);
  return pattern;
}
class SafeRegExp extends RegExp {
  constructor(pattern, flags) {
    super(pattern, flags);
    hardenRegExp(this);
  }
  static get [Symbol.species]() {
    return SafeRegExp;
  }
}
ObjectFreeze(SafeRegExp.prototype);
ObjectFreeze(SafeRegExp);
own(primordials, 'hardenRegExp', hardenRegExp);
own(primordials, 'SafeRegExp', SafeRegExp);

ObjectFreeze(primordials);
module.exports = primordials;
