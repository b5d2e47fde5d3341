// node:test's `mock` (MockTracker): mock functions and methods that record their calls, as Node's
// (lib/internal/test_runner/mock/mock.js): fn(), method(), getter(), setter(), reset(), restoreAll(), and each
// mock's `mock` context (calls, callCount(), mockImplementation(), mockImplementationOnce(), resetCalls(),
// restore()). Timers (mock.timers) and module mocks are not there.
'use strict';

const {
  ArrayPrototypePush,
  Error,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  Proxy,
  ReflectApply,
  ReflectConstruct,
  SafeMap,
} = require('internal/primordials');

const { codeError, invalidArgType } = require('internal/errors');

class MockFunctionContext {
  #calls = [];
  #implementation;
  #onces = new SafeMap();
  #restore;
  #times;

  constructor(implementation, restore, times) {
    this.#implementation = implementation;
    this.#restore = restore;
    this.#times = times;
  }

  get calls() {
    const out = [];
    for (let i = 0; i < this.#calls.length; i++) ArrayPrototypePush(out, this.#calls[i]);
    return out;
  }

  callCount() {
    return this.#calls.length;
  }

  mockImplementation(implementation) {
    if (typeof implementation !== 'function') throw invalidArgType('implementation', 'function', implementation);
    this.#implementation = implementation;
  }

  mockImplementationOnce(implementation, onCall) {
    if (typeof implementation !== 'function') throw invalidArgType('implementation', 'function', implementation);
    this.#onces.set(onCall === undefined ? this.#calls.length : onCall, implementation);
  }

  resetCalls() {
    this.#calls.length = 0;
  }

  restore() {
    if (this.#restore !== undefined) this.#restore();
  }

  /** The implementation for the next call (a once-implementation first), and that call's record. */
  nextImplementation(original) {
    const n = this.#calls.length;
    const once = this.#onces.get(n);
    if (once !== undefined) {
      this.#onces.delete(n);
      return once;
    }
    if (this.#times !== undefined && n >= this.#times) return original;
    return this.#implementation;
  }

  record(call) {
    ArrayPrototypePush(this.#calls, call);
  }
}

function makeMock(original, implementation, restore, times) {
  const ctx = new MockFunctionContext(implementation, restore, times);
  const target = typeof original === 'function' ? original : function () {};
  const mock = new Proxy(target, {
    apply(fn, thisArg, args) {
      const impl = ctx.nextImplementation(original);
      let result;
      let error;
      try {
        result = impl === undefined ? undefined : ReflectApply(impl, thisArg, args);
      } catch (e) {
        error = e;
        ctx.record({ arguments: args, error, result: undefined, stack: new Error(), target: undefined, this: thisArg });
        throw e;
      }
      ctx.record({ arguments: args, error: undefined, result, stack: new Error(), target: undefined, this: thisArg });
      return result;
    },
    construct(fn, args, newTarget) {
      const impl = ctx.nextImplementation(original);
      const result = ReflectConstruct(impl === undefined ? fn : impl, args, newTarget);
      ctx.record({ arguments: args, error: undefined, result, stack: new Error(), target: newTarget, this: result });
      return result;
    },
    get(fn, key, receiver) {
      if (key === 'mock') return ctx;
      const d = ObjectGetOwnPropertyDescriptor(fn, key);
      return d !== undefined && 'value' in d ? d.value : ReflectApply(ObjectGetPrototypeOf(fn) === null ? () => undefined : () => fn[key], receiver, []);
    },
  });
  return { mock, ctx };
}

class MockTracker {
  #mocks = [];

  fn(original = function () {}, implementation = original, options = {}) {
    if (original !== null && typeof original === 'object') {
      options = original;
      original = function () {};
      implementation = original;
    } else if (implementation !== null && typeof implementation === 'object') {
      options = implementation;
      implementation = original;
    }
    if (typeof original !== 'function') throw invalidArgType('original', 'function', original);
    if (typeof implementation !== 'function') throw invalidArgType('implementation', 'function', implementation);
    const { mock, ctx } = makeMock(original, implementation, undefined, options.times);
    ArrayPrototypePush(this.#mocks, ctx);
    return mock;
  }

  method(object, methodName, implementation, options = {}) {
    if (implementation !== null && typeof implementation === 'object' && typeof implementation !== 'function') {
      options = implementation;
      implementation = undefined;
    }
    if (object === null || (typeof object !== 'object' && typeof object !== 'function')) throw invalidArgType('object', 'object', object);
    const getter = options.getter === true;
    const setter = options.setter === true;
    let owner = object;
    let descriptor;
    while (owner !== null) {
      descriptor = ObjectGetOwnPropertyDescriptor(owner, methodName);
      if (descriptor !== undefined) break;
      owner = ObjectGetPrototypeOf(owner);
    }
    if (descriptor === undefined) throw codeError(Error, 'ERR_INVALID_ARG_VALUE', `The argument 'methodName' must be a method. Received ${String(methodName)}`);
    const original = getter ? descriptor.get : setter ? descriptor.set : descriptor.value;
    if (typeof original !== 'function') throw codeError(Error, 'ERR_INVALID_ARG_VALUE', `The argument 'methodName' must be a method. Received ${String(methodName)}`);
    const own = ObjectGetOwnPropertyDescriptor(object, methodName);
    const restore = () => {
      if (own === undefined) delete object[methodName];
      else ObjectDefineProperty(object, methodName, own);
    };
    const { mock, ctx } = makeMock(original, implementation === undefined ? original : implementation, restore, options.times);
    const d = { configurable: descriptor.configurable, enumerable: descriptor.enumerable };
    if (getter) d.get = mock;
    else if (setter) d.set = mock;
    else {
      d.value = mock;
      d.writable = descriptor.writable !== false;
    }
    if (getter || setter) {
      if (!getter) d.get = descriptor.get;
      if (!setter) d.set = descriptor.set;
    }
    ObjectDefineProperty(object, methodName, d);
    ArrayPrototypePush(this.#mocks, ctx);
    return mock;
  }

  getter(object, methodName, implementation, options = {}) {
    return this.method(object, methodName, implementation, { ...options, getter: true });
  }

  setter(object, methodName, implementation, options = {}) {
    return this.method(object, methodName, implementation, { ...options, setter: true });
  }

  reset() {
    this.restoreAll();
    this.#mocks.length = 0;
  }

  restoreAll() {
    for (let i = 0; i < this.#mocks.length; i++) this.#mocks[i].restore();
  }
}

module.exports = { MockTracker };
