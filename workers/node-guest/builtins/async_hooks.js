// `async_hooks`: AsyncLocalStorage and AsyncResource as Node's AsyncContextFrame builds them, over the frame of
// internal/async-context.js. Stores follow callbacks the runtime schedules and promise reactions (the host
// carries the frame into them); no async hooks (createHook's hooks are never called).
'use strict';

const { ReflectApply, ObjectIs, ObjectDefineProperties: defineProperties,
  SafeArrayIterator,
} = require('internal/primordials');

const ctx = require('internal/async-context');
const { invalidArgType } = require('internal/errors');

let nextAsyncId = 2;

class AsyncResource {
  #frame;
  #asyncId;
  #triggerAsyncId;
  constructor(type, opts = {}) {
    if (typeof type !== 'string') throw invalidArgType('type', 'of type string', type);
    this.#frame = ctx.get();
    this.#asyncId = nextAsyncId++;
    this.#triggerAsyncId = typeof opts === 'number' ? opts : opts !== null && typeof opts === 'object' && opts.triggerAsyncId !== undefined ? opts.triggerAsyncId : 1;
  }
  runInAsyncScope(fn, thisArg, ...args) {
    return ctx.runIn(this.#frame, fn, thisArg, args);
  }
  emitDestroy() {
    return this;
  }
  asyncId() {
    return this.#asyncId;
  }
  triggerAsyncId() {
    return this.#triggerAsyncId;
  }
  bind(fn, thisArg) {
    if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
    const resource = this;
    const bound =
      thisArg === undefined
        ? function (...args) {
            return ReflectApply(resource.runInAsyncScope, resource, [fn, this, ...new SafeArrayIterator(args)]);
          }
        : (...args) => ReflectApply(resource.runInAsyncScope, resource, [fn, thisArg, ...new SafeArrayIterator(args)]);
    let self = this;
    defineProperties(bound, {
      length: { configurable: true, enumerable: false, value: fn.length, writable: false },
      asyncResource: {
        configurable: true,
        enumerable: true,
        get() {
          return self;
        },
        set(v) {
          self = v;
        },
      },
    });
    return bound;
  }
  static bind(fn, type, thisArg) {
    type = type || fn.name;
    return new AsyncResource(type || 'bound-anonymous-fn').bind(fn, thisArg);
  }
}

class AsyncLocalStorage {
  static bind(fn) {
    return AsyncResource.bind(fn);
  }
  static snapshot() {
    return AsyncResource.bind((cb, ...args) => ReflectApply(cb, undefined, args));
  }
  getStore() {
    return ctx.lookup(ctx.get(), this);
  }
  enterWith(store) {
    ctx.enter(this, store);
  }
  run(store, callback, ...args) {
    const prior = this.getStore();
    if (ObjectIs(prior, store)) return ReflectApply(callback, null, args);
    ctx.enter(this, store);
    try {
      return ReflectApply(callback, null, args);
    } finally {
      ctx.enter(this, prior);
    }
  }
  exit(callback, ...args) {
    return ReflectApply(this.run, this, [undefined, callback, ...new SafeArrayIterator(args)]);
  }
  disable() {
    ctx.forget(this);
  }
}

module.exports = {
  AsyncLocalStorage,
  AsyncResource,
  createHook: () => ({
    enable() {
      return this;
    },
    disable() {
      return this;
    },
  }),
  executionAsyncId: () => 1,
  triggerAsyncId: () => 0,
  executionAsyncResource: () => ({}),
};
