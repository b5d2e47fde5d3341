// `async_hooks`: AsyncLocalStorage and AsyncResource as frameworks use them. The store follows synchronous
// code and callbacks run through `run`; it is not propagated into promise continuations (no hooks here).
'use strict';

class AsyncLocalStorage {
  constructor() {
    this._store = undefined;
    this._enabled = false;
  }
  getStore() {
    return this._enabled ? this._store : undefined;
  }
  run(store, callback, ...args) {
    const prev = this._store;
    const wasEnabled = this._enabled;
    this._store = store;
    this._enabled = true;
    try {
      return callback(...args);
    } finally {
      this._store = prev;
      this._enabled = wasEnabled;
    }
  }
  exit(callback, ...args) {
    return this.run(undefined, callback, ...args);
  }
  enterWith(store) {
    this._store = store;
    this._enabled = true;
  }
  disable() {
    this._enabled = false;
    this._store = undefined;
  }
  static bind(fn) {
    return fn;
  }
  static snapshot() {
    return (fn, ...args) => fn(...args);
  }
}

class AsyncResource {
  constructor(type) {
    this.type = type;
  }
  runInAsyncScope(fn, thisArg, ...args) {
    return Reflect.apply(fn, thisArg, args);
  }
  emitDestroy() {
    return this;
  }
  asyncId() {
    return 1;
  }
  triggerAsyncId() {
    return 0;
  }
  bind(fn) {
    return fn.bind(this);
  }
  static bind(fn) {
    return fn;
  }
}

module.exports = {
  AsyncLocalStorage,
  AsyncResource,
  createHook: () => ({ enable() { return this; }, disable() { return this; } }),
  executionAsyncId: () => 1,
  triggerAsyncId: () => 0,
  executionAsyncResource: () => ({}),
};
