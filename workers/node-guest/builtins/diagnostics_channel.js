// `diagnostics_channel`: channels with subscribers, published to synchronously, as Node's.
'use strict';

const {
  Map,
  ReflectApply,
  ArrayPrototypePush, ArrayPrototypeSplice,
  SafeMap,
  ArrayPrototypeIndexOf, ArrayPrototypeSlice,
  SafeArrayIterator,
} = require('internal/primordials');

const channels = new SafeMap();

class Channel {
  constructor(name) {
    this.name = name;
    this._subscribers = [];
  }
  get hasSubscribers() {
    return this._subscribers.length > 0;
  }
  subscribe(fn) {
    ArrayPrototypePush(this._subscribers, fn);
  }
  unsubscribe(fn) {
    const i = ArrayPrototypeIndexOf(this._subscribers, fn);
    if (i < 0) return false;
    ArrayPrototypeSplice(this._subscribers, i, 1);
    return true;
  }
  publish(message) {
    for (const fn of new SafeArrayIterator(ArrayPrototypeSlice(this._subscribers))) fn(message, this.name);
  }
  bindStore() {}
  unbindStore() {}
  runStores(data, fn, thisArg, ...args) {
    this.publish(data);
    return ReflectApply(fn, thisArg, args);
  }
}

const channel = (name) => {
  if (!channels.has(name)) channels.set(name, new Channel(name));
  return channels.get(name);
};

module.exports = {
  channel,
  hasSubscribers: (name) => channels.has(name) && channels.get(name).hasSubscribers,
  subscribe: (name, fn) => channel(name).subscribe(fn),
  unsubscribe: (name, fn) => channel(name).unsubscribe(fn),
  tracingChannel: (name) => ({
    start: channel(`tracing:${name}:start`),
    end: channel(`tracing:${name}:end`),
    asyncStart: channel(`tracing:${name}:asyncStart`),
    asyncEnd: channel(`tracing:${name}:asyncEnd`),
    error: channel(`tracing:${name}:error`),
    traceSync: (fn, ctx, thisArg, ...args) => ReflectApply(fn, thisArg, args),
    tracePromise: (fn, ctx, thisArg, ...args) => ReflectApply(fn, thisArg, args),
    traceCallback: (fn, pos, ctx, thisArg, ...args) => ReflectApply(fn, thisArg, args),
    subscribe() {},
    unsubscribe() {},
    hasSubscribers: false,
  }),
  Channel,
};
