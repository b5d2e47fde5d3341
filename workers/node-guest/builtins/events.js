// `events`: the npm port of Node's EventEmitter, completed with what it lacks (events.on, errorMonitor,
// getEventListeners, setMaxListeners, addAbortListener).
'use strict';

const {
  ReflectApply,
  ReflectOwnKeys,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ErrorCaptureStackTrace,
  Error,
  MathMin,
  Number,
  ObjectAssign,
  ObjectGetPrototypeOf,
  Promise,
  PromiseReject,
  PromiseResolve,
  Symbol,
  SymbolAsyncIterator,
  SymbolFor,
  TypeError,
  WeakMap,
  ArrayPrototypeJoin,
  ArrayPrototypeSlice,
  ArrayPrototypeSplice,
  StringPrototypeSplit,
  ArrayPrototypePush, ArrayPrototypeShift,
  SafeWeakMap,
  SafeArrayIterator,
  ArrayPrototypeConcat, ArrayPrototypeIndexOf,
} = require('internal/primordials');

const NpmEventEmitter = internal.require('npm-events');
const ErrorCtor = Error;
const { codeError, invalidArgType } = require('internal/errors');

// Node's constructor, which takes the options (`captureRejections`); the npm port's prototype and statics.
function EventEmitter(opts) {
  ReflectApply(EventEmitter.init, this, [opts]);
}
for (const key of new SafeArrayIterator(ReflectOwnKeys(NpmEventEmitter))) {
  if (key === 'length' || key === 'name' || key === 'prototype' || key === 'arguments' || key === 'caller') continue;
  // Defined last, in Node's order of keys (it cannot be moved once defined).
  if (key === 'defaultMaxListeners') continue;
  ObjectDefineProperty(EventEmitter, key, ObjectGetOwnPropertyDescriptor(NpmEventEmitter, key));
}
EventEmitter.prototype = NpmEventEmitter.prototype;
ObjectDefineProperty(EventEmitter.prototype, 'constructor', { value: EventEmitter, writable: true, configurable: true, enumerable: false });
EventEmitter.EventEmitter = EventEmitter;

const kCapture = Symbol('kCapture');
const kRejection = SymbolFor('nodejs.rejection');
const kErrorMonitor = NpmEventEmitter.errorMonitor || Symbol('events.errorMonitor');
// Read by the runtime's printer of uncaught errors: a function giving the stack with the emit's site.
const kEnhanceStackBeforeInspector = Symbol('kEnhanceStackBeforeInspector');
internal.kEnhanceStackBeforeInspector = kEnhanceStackBeforeInspector;
ObjectDefineProperty(EventEmitter.prototype, kCapture, { value: false, writable: true, enumerable: false, configurable: true });
ObjectDefineProperty(EventEmitter, 'captureRejections', {
  get() { return EventEmitter.prototype[kCapture]; },
  set(value) {
    if (typeof value !== 'boolean') throw invalidArgType('EventEmitter.captureRejections', 'of type boolean', value);
    EventEmitter.prototype[kCapture] = value;
  },
  enumerable: true, configurable: true,
});

const npmInit = NpmEventEmitter.init;
const kShapeMode = Symbol('shapeMode');
EventEmitter.init = function init(opts) {
  const fresh = this._events === undefined || this._events === ObjectGetPrototypeOf(this)._events;
  ReflectApply(npmInit, this, []);
  this[kShapeMode] = !fresh;
  if (opts?.captureRejections) {
    if (typeof opts.captureRejections !== 'boolean') {
      throw invalidArgType('options.captureRejections', 'of type boolean', opts.captureRejections);
    }
    this[kCapture] = true;
  } else {
    this[kCapture] = EventEmitter.prototype[kCapture];
  }
};

const nextTick = (fn, ...args) => {
  const p = globalThis.process;
  if (p && typeof p.nextTick === 'function') ReflectApply(p.nextTick, p, [fn, ...new SafeArrayIterator(args)]);
  else queueMicrotask(() => ReflectApply(fn, undefined, args));
};
function addCatch(that, promise, type, args) {
  if (!that[kCapture]) return;
  try {
    const then = promise.then;
    if (typeof then === 'function') {
      ReflectApply(then, promise, [undefined, (err) => nextTick(emitUnhandledRejectionOrErr, that, err, type, args)]);
    }
  } catch (err) {
    that.emit('error', err);
  }
}
function emitUnhandledRejectionOrErr(ee, err, type, args) {
  if (typeof ee[kRejection] === 'function') {
    ReflectApply(ee[kRejection], ee, ArrayPrototypeConcat([err, type], args));
  } else {
    const prev = ee[kCapture];
    try {
      ee[kCapture] = false;
      ee.emit('error', err);
    } finally {
      ee[kCapture] = prev;
    }
  }
}

function identicalSequenceRange(a, b) {
  for (let i = 0; i < a.length - 3; i++) {
    const pos = ArrayPrototypeIndexOf(b, a[i]);
    if (pos !== -1) {
      const rest = b.length - pos;
      if (rest > 3) {
        let len = 1;
        const maxLen = MathMin(a.length - i, rest);
        while (maxLen > len && a[i + len] === b[pos + len]) len++;
        if (len > 3) return { len, offset: i };
      }
    }
  }
  return { len: 0, offset: 0 };
}
function enhanceStackTrace(err, own) {
  let ctorInfo = '';
  try {
    const { name } = this.constructor;
    if (name !== 'EventEmitter') ctorInfo = ` on ${name} instance`;
  } catch { /* as Node */ }
  const sep = `\nEmitted 'error' event${ctorInfo} at:\n`;
  const errStack = ArrayPrototypeSlice(StringPrototypeSplit(err.stack, '\n'), 1);
  const ownStack = ArrayPrototypeSlice(StringPrototypeSplit(own.stack, '\n'), 1);
  const { len, offset } = identicalSequenceRange(ownStack, errStack);
  if (len > 0) ArrayPrototypeSplice(ownStack, offset + 1, len - 2, '    [... lines matching original stack trace ...]');
  return err.stack + sep + ArrayPrototypeJoin(ownStack, '\n');
}

let utilInspect;
// Node's emit: the errorMonitor, ERR_UNHANDLED_ERROR for a non-Error, the listeners' promises caught when
// captureRejections is on.
EventEmitter.prototype.emit = function emit(type, ...args) {
  let doError = type === 'error';
  const events = this._events;
  if (events !== undefined) {
    if (doError && events[kErrorMonitor] !== undefined) ReflectApply(this.emit, this, [kErrorMonitor, ...new SafeArrayIterator(args)]);
    doError = doError && events.error === undefined;
  } else if (!doError) {
    return false;
  }
  if (doError) {
    let er;
    if (args.length > 0) er = args[0];
    if (er instanceof ErrorCtor) {
      try {
        const capture = {};
        ErrorCaptureStackTrace(capture, EventEmitter.prototype.emit);
        const that = this;
        ObjectDefineProperty(er, kEnhanceStackBeforeInspector, {
          value: () => ReflectApply(enhanceStackTrace, that, [er, capture]),
          configurable: true,
        });
      } catch { /* continue regardless of error */ }
      throw er; // Unhandled 'error' event
    }
    let stringifiedEr;
    try {
      if (utilInspect === undefined) utilInspect = require('util').inspect;
      stringifiedEr = utilInspect(er);
    } catch {
      stringifiedEr = er;
    }
    const err = codeError(ErrorCtor, 'ERR_UNHANDLED_ERROR', stringifiedEr === undefined ? 'Unhandled error.' : `Unhandled error. (${stringifiedEr})`);
    err.context = er;
    throw err; // Unhandled 'error' event
  }
  const handler = events[type];
  if (handler === undefined) return false;
  if (typeof handler === 'function') {
    const result = ReflectApply(handler, this, args);
    if (result !== undefined && result !== null) addCatch(this, result, type, args);
  } else {
    const len = handler.length;
    const listeners = ArrayPrototypeSlice(handler);
    for (let i = 0; i < len; ++i) {
      const result = ReflectApply(listeners[i], this, args);
      if (result !== undefined && result !== null) addCatch(this, result, type, args);
    }
  }
  return true;
};

EventEmitter.errorMonitor = kErrorMonitor;
EventEmitter.captureRejectionSymbol = kRejection;
EventEmitter.getEventListeners = (emitter, name) => (typeof emitter.listeners === 'function' ? emitter.listeners(name) : []);
/** EventTargets' limits (Node keeps one on each; the guest's EventTarget has none of its own). */
const targetMaxListeners = new SafeWeakMap();
const isEventTarget = (t) => typeof globalThis.EventTarget === 'function' && t instanceof globalThis.EventTarget;
EventEmitter.setMaxListeners = (n = 10, ...targets) => {
  if (targets.length === 0) EventEmitter.defaultMaxListeners = n;
  for (const t of new SafeArrayIterator(targets)) {
    if (typeof t.setMaxListeners === 'function') t.setMaxListeners(n);
    else if (isEventTarget(t)) targetMaxListeners.set(t, n);
  }
};
EventEmitter.getMaxListeners = function getMaxListeners(emitterOrTarget) {
  if (typeof emitterOrTarget?.getMaxListeners === 'function') {
    return emitterOrTarget._maxListeners === undefined ? EventEmitter.defaultMaxListeners : emitterOrTarget._maxListeners;
  }
  if (isEventTarget(emitterOrTarget)) return targetMaxListeners.get(emitterOrTarget) ?? EventEmitter.defaultMaxListeners;
  throw invalidArgType('emitter', 'an instance of EventEmitter or EventTarget', emitterOrTarget);
};
EventEmitter.usingDomains = false;
EventEmitter.addAbortListener = (signal, listener) => {
  signal.addEventListener('abort', listener, { once: true });
  return { [Symbol.dispose || SymbolFor('Symbol.dispose')]: () => signal.removeEventListener('abort', listener) };
};

/** events.on: an async iterator over an event's arguments; 'error' rejects it. */
EventEmitter.on = function on(emitter, event, options = {}) {
  const queue = [];
  const waiting = [];
  let error = null;
  let done = false;
  const onEvent = (...args) => (waiting.length ? ArrayPrototypeShift(waiting).resolve({ value: args, done: false }) : ArrayPrototypePush(queue, args));
  const onError = (e) => {
    done = true;
    if (waiting.length) ArrayPrototypeShift(waiting).reject(e);
    else error = e;
    finish();
  };
  const finish = () => {
    emitter.removeListener(event, onEvent);
    emitter.removeListener('error', onError);
  };
  emitter.on(event, onEvent);
  if (event !== 'error') emitter.on('error', onError);
  if (options.signal) options.signal.addEventListener('abort', () => onError(ObjectAssign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' })), { once: true });
  return {
    next() {
      if (queue.length) return PromiseResolve({ value: ArrayPrototypeShift(queue), done: false });
      if (error) {
        const e = error;
        error = null;
        return PromiseReject(e);
      }
      if (done) return PromiseResolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => ArrayPrototypePush(waiting, { resolve, reject }));
    },
    return() {
      done = true;
      finish();
      for (const w of new SafeArrayIterator(ArrayPrototypeSplice(waiting, 0))) w.resolve({ value: undefined, done: true });
      return PromiseResolve({ value: undefined, done: true });
    },
    throw(e) {
      onError(e);
      return PromiseReject(e);
    },
    [SymbolAsyncIterator]() {
      return this;
    },
  };
};

const invalidThis = (type) => codeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type ${type}`);
let EventEmitterAsyncResource;
/** Made when first used: async_hooks requires events. */
function lazyEventEmitterAsyncResource() {
  if (EventEmitterAsyncResource !== undefined) return EventEmitterAsyncResource;
  const { AsyncResource } = require('async_hooks');
  const kEventEmitter = Symbol('kEventEmitter');
  const kAsyncResource = Symbol('kAsyncResource');
  class EventEmitterReferencingAsyncResource extends AsyncResource {
    constructor(ee, type, options) {
      super(type, options);
      this[kEventEmitter] = ee;
    }
    get eventEmitter() {
      if (this[kEventEmitter] === undefined) throw invalidThis('EventEmitterReferencingAsyncResource');
      return this[kEventEmitter];
    }
  }
  EventEmitterAsyncResource = class EventEmitterAsyncResource extends EventEmitter {
    constructor(options = undefined) {
      let name;
      if (typeof options === 'string') {
        name = options;
        options = undefined;
      } else {
        if (new.target === EventEmitterAsyncResource && typeof options?.name !== 'string') throw invalidArgType('options.name', 'of type string', options?.name);
        name = options?.name || new.target.name;
      }
      super(options);
      this[kAsyncResource] = new EventEmitterReferencingAsyncResource(this, name, options);
    }
    emit(event, ...args) {
      if (this[kAsyncResource] === undefined) {
        // Node 24 keeps the resource in a private field.
        if (Number(StringPrototypeSplit(globalThis.process.versions.node, '.')[0]) >= 24) throw new TypeError('Cannot read private member #asyncResource from an object whose class did not declare it');
        throw invalidThis('EventEmitterAsyncResource');
      }
      const { asyncResource } = this;
      return ReflectApply(asyncResource.runInAsyncScope, asyncResource, [super.emit, this, event, ...new SafeArrayIterator(args)]);
    }
    emitDestroy() {
      this.asyncResource.emitDestroy();
    }
    get asyncId() {
      return this.asyncResource.asyncId();
    }
    get triggerAsyncId() {
      return this.asyncResource.triggerAsyncId();
    }
    get asyncResource() {
      if (this[kAsyncResource] === undefined) throw invalidThis('EventEmitterAsyncResource');
      return this[kAsyncResource];
    }
  };
  return EventEmitterAsyncResource;
}
ObjectDefineProperty(EventEmitter, 'EventEmitterAsyncResource', { enumerable: true, configurable: true, get: lazyEventEmitterAsyncResource, set: undefined });

// Node's keys, in Node's order.
for (const key of new SafeArrayIterator(['addAbortListener', 'once', 'on', 'getEventListeners', 'getMaxListeners', 'EventEmitter', 'usingDomains', 'captureRejectionSymbol', 'captureRejections', 'EventEmitterAsyncResource', 'errorMonitor', 'defaultMaxListeners', 'setMaxListeners', 'init', 'listenerCount'])) {
  const d = ObjectGetOwnPropertyDescriptor(key === 'defaultMaxListeners' ? NpmEventEmitter : EventEmitter, key);
  if (d === undefined) continue;
  delete EventEmitter[key];
  ObjectDefineProperty(EventEmitter, key, d);
}
module.exports = EventEmitter;
