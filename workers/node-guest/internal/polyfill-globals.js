'use strict';
// What the npm polyfills (buffer, events, readable-stream, path-browserify, …) see as `Object`, `Math`,
// `Reflect` and `JSON` (and the built-in constructors, below): the worker compiles each polyfill as a function of these names too
// (workers/node-host/runtime.ts, POLYFILL_PARAMS), so that `Object.setPrototypeOf(…)`, `Object.create(…)` or
// `Math.min(…)` in a polyfill calls the intrinsic as it was at boot (internal/primordials.js), not what a guest
// put on the global since: the polyfills load lazily, often after guest code, and npm code calls these as it
// finds them. Each stands in for the global it names (the same statics and constants, `Object(v)`,
// `new Object()`, `x instanceof Object`), is frozen, and carries no capability.

const primordials = require('internal/primordials');

const {
  Object: ObjectCtor, ObjectPrototype, ObjectFreeze, ObjectGetPrototypeOf, ObjectCreate,
  ReflectConstruct, ReflectDefineProperty, ReflectOwnKeys,
  StringPrototypeToUpperCase, StringPrototypeSlice, StringPrototypeStartsWith, SymbolPrototypeGetDescription,
} = primordials;

/** The name primordials.js gives a static `key` of `prefix`: `keys` → `ObjectKeys`, Symbol.toStringTag → `MathSymbolToStringTag`. */
function primordialName(prefix, key) {
  if (typeof key === 'symbol') {
    const d = SymbolPrototypeGetDescription(key);
    return d !== undefined && StringPrototypeStartsWith(d, 'Symbol.') ? `${prefix}Symbol${StringPrototypeToUpperCase(d[7])}${StringPrototypeSlice(d, 8)}` : undefined;
  }
  return `${prefix}${StringPrototypeToUpperCase(key[0])}${StringPrototypeSlice(key, 1)}`;
}

/** `target` given each static of `real` (by name) as primordials.js captured it, then frozen. */
function withStatics(target, real, prefix) {
  const keys = ReflectOwnKeys(real);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'prototype' || key === 'length' || key === 'name') continue;
    const name = primordialName(prefix, key);
    if (name === undefined || !(name in primordials)) continue;
    ReflectDefineProperty(target, key, { __proto__: null, value: primordials[name], writable: true, enumerable: false, configurable: true });
  }
  return ObjectFreeze(target);
}

/** `Object(v)` and `new Object(v)` as the global's; a subclass's `super()` makes an instance of the subclass. */
function Object(value) {
  if (new.target !== undefined && new.target !== Object) return ReflectConstruct(ObjectCtor, [], new.target);
  return ObjectCtor(value);
}
ReflectDefineProperty(Object, 'prototype', { __proto__: null, value: ObjectPrototype, writable: false, enumerable: false, configurable: false });

const namespace = (real, prefix) => withStatics(ObjectCreate(ObjectGetPrototypeOf(real)), real, prefix);

// The built-in constructors a polyfill names, as primordials.js captured them (the memory limit's wrappers where
// it has them), in the order of runtime.ts's POLYFILL_CONSTRUCTORS, after Object, Math, Reflect, JSON and the
// primordials: a guest that replaced `globalThis.Array` or `globalThis.TypeError` is not called by them.
const CONSTRUCTORS = [
  'AggregateError', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView', 'Date', 'Error', 'EvalError',
  'FinalizationRegistry', 'Float32Array', 'Float64Array', 'Int16Array', 'Int32Array', 'Int8Array', 'Map', 'Number', 'Promise', 'RangeError',
  'ReferenceError', 'RegExp', 'Set', 'SharedArrayBuffer', 'String', 'Symbol', 'SyntaxError', 'TypeError', 'URIError', 'Uint16Array',
  'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap', 'WeakRef', 'WeakSet',
];
const values = [
  withStatics(Object, ObjectCtor, 'Object'),
  namespace(primordials.Math, 'Math'),
  namespace(primordials.Reflect, 'Reflect'),
  namespace(primordials.JSON, 'JSON'),
  primordials,
];
// Defined, not assigned: an assignment past the end would run a guest's setter on Array.prototype's index.
for (let i = 0; i < CONSTRUCTORS.length; i++) {
  ReflectDefineProperty(values, values.length, { __proto__: null, value: primordials[CONSTRUCTORS[i]], writable: true, enumerable: true, configurable: true });
}
module.exports = ObjectFreeze(values);
