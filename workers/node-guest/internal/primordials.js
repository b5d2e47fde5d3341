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

ObjectFreeze(primordials);
module.exports = primordials;
