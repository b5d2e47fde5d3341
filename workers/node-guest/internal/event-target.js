// Event, EventTarget, AbortController and AbortSignal of the guest's realm (the DOM's shapes, as Node has them).
'use strict';

const {
  Error,
  Map,
  ObjectDefineProperty,
  ReflectApply,
  SymbolToStringTag,
  TypeError,
  ArrayPrototypeFindIndex,
  ArrayPrototypePush,
  ArrayPrototypeSlice,
  ArrayPrototypeSplice,
  SafeArrayIterator,
  SafeMap,
  ArrayPrototypeSome,
  ArrayFrom, ArrayIsArray,
} = require('internal/primordials');

const { codeError } = require('internal/errors');

class Event {
  constructor(type, options = {}) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" argument must be specified');
    this.type = `${type}`;
    this.bubbles = !!options.bubbles;
    this.cancelable = !!options.cancelable;
    this.composed = !!options.composed;
    this.defaultPrevented = false;
    this.timeStamp = internal.host('hrtime');
    this.target = null;
    this.currentTarget = null;
    this.isTrusted = false;
    this._stop = false;
  }
  preventDefault() {
    if (this.cancelable) this.defaultPrevented = true;
  }
  stopImmediatePropagation() {
    this._stop = true;
  }
  stopPropagation() {}
  get [SymbolToStringTag]() {
    return 'Event';
  }
}

class EventTarget {
  constructor() {
    ObjectDefineProperty(this, '_listeners', { value: new SafeMap(), enumerable: false });
  }
  addEventListener(type, listener, options = {}) {
    if (listener == null) return;
    const once = typeof options === 'object' && !!options.once;
    const signal = typeof options === 'object' ? options.signal : undefined;
    let list = this._listeners.get(type);
    if (!list) this._listeners.set(type, (list = []));
    if (ArrayPrototypeSome(list, (l) => l.listener === listener)) return;
    const entry = { listener, once };
    ArrayPrototypePush(list, entry);
    if (signal) signal.addEventListener('abort', () => this.removeEventListener(type, listener), { once: true });
  }
  removeEventListener(type, listener) {
    const list = this._listeners.get(type);
    if (!list) return;
    const i = ArrayPrototypeFindIndex(list, (l) => l.listener === listener);
    if (i >= 0) ArrayPrototypeSplice(list, i, 1);
  }
  dispatchEvent(event) {
    event.target = this;
    event.currentTarget = this;
    const list = this._listeners.get(event.type);
    if (list) {
      for (const entry of new SafeArrayIterator(ArrayPrototypeSlice(list))) {
        if (entry.once) this.removeEventListener(event.type, entry.listener);
        const l = entry.listener;
        try {
          if (typeof l === 'function') ReflectApply(l, this, [event]);
          else if (l && typeof l.handleEvent === 'function') l.handleEvent(event);
        } catch (e) {
          internal.nextTick(() => {
            throw e;
          });
        }
        if (event._stop) break;
      }
    }
    const handler = this[`on${event.type}`];
    if (typeof handler === 'function') ReflectApply(handler, this, [event]);
    event.currentTarget = null;
    return !event.defaultPrevented;
  }
  get [SymbolToStringTag]() {
    return 'EventTarget';
  }
}

function abortError(reason) {
  if (reason !== undefined) return reason;
  const e = new (globalThis.DOMException || Error)('This operation was aborted', 'AbortError');
  if (!globalThis.DOMException) {
    e.name = 'AbortError';
    e.code = 20;
  }
  return e;
}

class AbortSignal extends EventTarget {
  constructor() {
    super();
    this.aborted = false;
    this.reason = undefined;
    this.onabort = null;
  }
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
  static abort(reason) {
    const s = new AbortSignal();
    s.aborted = true;
    s.reason = abortError(reason);
    return s;
  }
  static timeout(ms) {
    const c = new AbortController();
    const t = setTimeout(() => {
      const e = new (globalThis.DOMException || Error)('The operation was aborted due to timeout', 'TimeoutError');
      if (!globalThis.DOMException) e.name = 'TimeoutError';
      c.abort(e);
    }, ms);
    t.unref();
    return c.signal;
  }
  static any(signals) {
    const c = new AbortController();
    // An array read by index (Node checks that it is one); any other iterable through its own iterator.
    const list = ArrayIsArray(signals) ? signals : ArrayFrom(signals);
    for (let i = 0; i < list.length; i++) {
      const s = list[i];
      if (s.aborted) {
        c.abort(s.reason);
        break;
      }
      s.addEventListener('abort', () => c.abort(s.reason), { once: true });
    }
    return c.signal;
  }
  get [SymbolToStringTag]() {
    return 'AbortSignal';
  }
}

class AbortController {
  constructor() {
    this.signal = new AbortSignal();
  }
  abort(reason) {
    const s = this.signal;
    if (s.aborted) return;
    s.aborted = true;
    s.reason = abortError(reason);
    s.dispatchEvent(new Event('abort'));
  }
  get [SymbolToStringTag]() {
    return 'AbortController';
  }
}

module.exports = { Event, EventTarget, AbortController, AbortSignal };
