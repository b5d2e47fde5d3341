// MessageChannel, MessagePort, BroadcastChannel and MessageEvent of the guest's process (its only thread).
// A message is a structured clone, delivered as Node delivers it: one callback per message in the poll phase
// of the loop (internal.postTask). As in Node, a started port with a message listener, and an open
// BroadcastChannel, keep the process alive unless unref'd; a closed port drops what it had queued.
'use strict';

const {
  ReflectApply,
  ArrayIsArray,
  ObjectGetPrototypeOf,
  ArrayBuffer,
  Error,
  Map,
  Object,
  ObjectAssign,
  ObjectDefineProperty,
  ObjectKeys,
  Set,
  Symbol,
  SymbolFor,
  SymbolIterator,
  SymbolToStringTag,
  TypeError,
  ArrayPrototypePush, ArrayPrototypeShift,
  SafeMap, SafeSet,
  SafeArrayIterator,
  ArrayPrototypeIncludes, StringPrototypeIndexOf, StringPrototypeSlice,
  ArrayFrom, ArrayPrototypeFilter, MapPrototypeForEach, MapPrototypeSet,
} = require('internal/primordials');

const { codeError, invalidArgType } = require('internal/errors');
const { Event, EventTarget } = require('internal/event-target');
const structuredCloneBase = require('internal/structured-clone');
const timers = require('internal/timers');

const customInspect = SymbolFor('nodejs.util.inspect.custom');

/**
 * The structured clone of `value`, transferring what `transfer` lists: an ArrayBuffer's bytes go to the clone
 * (the original is detached where the engine can detach: ArrayBuffer.prototype.transfer), a MessagePort is
 * replaced in the clone by a new port entangled with its peer (the original is left detached).
 */
function cloneWithTransfer(value, transfer, api = 'structuredClone') {
  const modern = nodeMajor() >= 24;
  let list = [];
  if (transfer !== undefined && transfer !== null) {
    if (typeof transfer !== 'object' || typeof transfer[SymbolIterator] !== 'function') {
      if (modern) throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `Failed to execute '${api}': transfer in Options cannot be converted to sequence.`);
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Optional transferList argument must be an iterable');
    }
    list = [...transfer];
  }
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (item instanceof ArrayBuffer || item instanceof MessagePort) continue;
    if (!modern) throw codeError(TypeError, 'ERR_INVALID_TRANSFER_OBJECT', 'Found invalid object in transferList');
    if (item === null || (typeof item !== 'object' && typeof item !== 'function')) {
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `Failed to execute '${api}': transfer in Options[${i}] is not an object.`);
    }
    throw dataCloneError('Found invalid value in transferList.');
  }
  let out = structuredCloneBase(value);
  if (portsMade) out = replacePorts(value, out, list, modern);
  if (typeof ArrayBufferPrototypeTransfer === 'function') for (const item of new SafeArrayIterator(list)) if (item instanceof ArrayBuffer) ArrayBufferPrototypeTransfer(item);
  return out;
}

function dataCloneError(message) {
  const e = new (globalThis.DOMException || Error)(message, 'DataCloneError');
  if (!globalThis.DOMException) {
    e.name = 'DataCloneError';
    e.code = 25;
  }
  return e;
}

const ObjectPrototype = Object.prototype;
/**
 * Puts the transferred ports in the clone where `original` has them (in objects, arrays and Map values; the
 * base clone copied them as empty objects), and refuses a port that is not transferred, as Node does.
 */
function replacePorts(original, copy, list, modern) {
  const moved = new SafeMap();
  const portFor = (port) => {
    if (!ArrayPrototypeIncludes(list, port)) {
      if (modern) throw dataCloneError('Object that needs transfer was found in message but not listed in transferList');
      throw codeError(TypeError, 'ERR_MISSING_TRANSFERABLE_IN_TRANSFER_LIST', 'Object that needs transfer was found in message but not listed in transferList');
    }
    let p = moved.get(port);
    if (p === undefined) moved.set(port, (p = transferPort(port)));
    return p;
  };
  const walked = new SafeSet();
  const walk = (o, c) => {
    if (walked.has(o)) return;
    walked.add(o);
    if (o instanceof Map) {
      // Both read with forEach, which runs no iterator a guest can replace (c is the clone of o: same order).
      const values = [];
      MapPrototypeForEach(o, (v) => ArrayPrototypePush(values, v));
      let i = 0;
      MapPrototypeForEach(c, (v, k) => {
        const ov = values[i++];
        if (ov instanceof MessagePort) MapPrototypeSet(c, k, portFor(ov));
        else if (ov !== null && typeof ov === 'object') walk(ov, v);
      });
      return;
    }
    if (!ArrayIsArray(o)) {
      const proto = ObjectGetPrototypeOf(o);
      if (proto !== ObjectPrototype && proto !== null) return;
    }
    for (const key of new SafeArrayIterator(ObjectKeys(o))) {
      const ov = o[key];
      if (ov instanceof MessagePort) c[key] = portFor(ov);
      else if (ov !== null && typeof ov === 'object') walk(ov, c[key]);
    }
  };
  if (original instanceof MessagePort) return portFor(original);
  if (original !== null && typeof original === 'object') walk(original, copy);
  return copy;
}

function nodeMajor() {
  const version = `${require('process').versions.node}`;
  return +StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.'));
}

// ---- keeping the process alive ----

/** A port or channel that keeps the process alive holds the loop while it does (event-loop.js). */
const { holdLoop: hold } = require('internal/event-loop');

/**
 * Whether the loop has turned since this module loaded. The guest's main script runs inside a callback of
 * the worker's loop, where Node runs it before its loop: an unref'd immediate set then would still run.
 */
let turned = false;
timers.setImmediate(() => {
  turned = true;
}).unref();

/**
 * Runs `deliver` as a macrotask: in the poll phase when `refed` (it holds the loop until then), else in an
 * unref'd immediate, which runs only if something else keeps the loop going (from the main script: one turn
 * later, so that a process with nothing else to do ends first, as Node's).
 */
function schedule(deliver, refed) {
  if (refed) internal.postTask(deliver);
  else if (turned) timers.setImmediate(deliver).unref();
  else timers.setImmediate(() => timers.setImmediate(deliver).unref()).unref();
}

// ---- MessageEvent ----

class MessageEvent extends Event {
  #data;
  #origin;
  #lastEventId;
  #source;
  #ports;
  constructor(type, options = {}) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" argument must be specified');
    super(type, options);
    this.#data = options?.data === undefined ? null : options.data;
    this.#origin = options?.origin === undefined ? '' : `${options.origin}`;
    this.#lastEventId = options?.lastEventId === undefined ? '' : `${options.lastEventId}`;
    this.#source = options?.source ?? null;
    this.#ports = options?.ports === undefined ? [] : [...options.ports];
  }
  get data() { return this.#data; }
  get origin() { return this.#origin; }
  get lastEventId() { return this.#lastEventId; }
  get source() { return this.#source; }
  get ports() { return this.#ports; }
  get [SymbolToStringTag]() { return 'MessageEvent'; }
}

// ---- EventEmitter-like methods of Node's MessagePort (a NodeEventTarget) ----

const kWrappers = Symbol('wrappers');
/** Listeners added with `on` get the message's data, not the event, as in Node. */
function wrapperOf(target, type, listener, once) {
  let map = target[kWrappers].get(type);
  if (!map) target[kWrappers].set(type, (map = new SafeMap()));
  let w = map.get(listener);
  if (!w) {
    w = function (event) {
      if (once) target.removeListener(type, listener);
      return ReflectApply(listener, target, [type === 'message' || type === 'messageerror' ? event.data : event]);
    };
    map.set(listener, w);
  }
  return w;
}
const emitterMethods = {
  on(type, listener) {
    this.addEventListener(type, wrapperOf(this, type, listener, false));
    return this;
  },
  addListener(type, listener) {
    return this.on(type, listener);
  },
  once(type, listener) {
    this.addEventListener(type, wrapperOf(this, type, listener, true));
    return this;
  },
  off(type, listener) {
    const map = this[kWrappers].get(type);
    const w = map?.get(listener);
    if (w) {
      map.delete(listener);
      this.removeEventListener(type, w);
    }
    return this;
  },
  removeListener(type, listener) {
    return this.off(type, listener);
  },
  removeAllListeners(type) {
    const types = type === undefined ? ArrayFrom(this[kWrappers].keys()) : [type];
    for (const t of new SafeArrayIterator(types)) {
      const map = this[kWrappers].get(t);
      if (map) for (const listener of new SafeArrayIterator(ArrayFrom(map.keys()))) this.off(t, listener);
    }
    return this;
  },
  emit(type, arg) {
    const event = type === 'message' || type === 'messageerror' ? new MessageEvent(type, { data: arg }) : new Event(type);
    const had = listenerTotal(this, type) > 0;
    this.dispatchEvent(event);
    return had;
  },
  listenerCount(type) {
    return (this._listeners.get(type) || []).length;
  },
  eventNames() {
    return ArrayPrototypeFilter(ArrayFrom(this._listeners.keys()), (t) => this._listeners.get(t).length > 0);
  },
};
function listenerTotal(target, type) {
  return (target._listeners.get(type) || []).length + (typeof target[`on${type}`] === 'function' ? 1 : 0);
}

// ---- MessagePort ----

let constructing = false;
/** Whether any MessagePort exists: only then do clones look for ports to transfer. */
let portsMade = false;

class MessagePort extends EventTarget {
  #peer = null;
  #queue = [];
  /** Delivery tasks scheduled and not yet run. */
  #scheduled = 0;
  #started = false;
  #refed = false;
  #holding = false;
  #closed = false;
  #closing = false;
  #onmessage = null;
  #onmessageerror = null;
  /** Takes what reaches the port at once instead of queueing it (MessagePort.sink). */
  #sink = null;
  /** Fetches what another thread sent to the port (MessagePort.sink's `pull`). */
  #pull = null;
  constructor() {
    if (!constructing) throw codeError(TypeError, 'ERR_CONSTRUCT_CALL_INVALID', 'Constructor cannot be called');
    super();
    portsMade = true;
    ObjectDefineProperty(this, kWrappers, { value: new SafeMap() });
  }
  /** A new port in place of `old`, which is left detached: entangled with its peer, with its queued messages. */
  static transfer(old) {
    constructing = true;
    let port;
    try {
      port = new MessagePort();
    } finally {
      constructing = false;
    }
    port.#peer = old.#peer;
    if (old.#peer !== null) old.#peer.#peer = port;
    port.#queue = old.#queue;
    port.#closing = old.#closing;
    port.#closed = old.#closed;
    old.#queue = [];
    old.#peer = null;
    old.#closed = true;
    old.#update();
    return port;
  }
  /**
   * Hands every message that reaches `port` (`{ data }`), and then its close (`{ close: true }`), to `sink`
   * as it comes, beginning with those queued: a port relayed to another thread (internal/worker-ports.js),
   * whose messages must be on their way before the thread that posted them can end. `pull()` fetches at once
   * what the other thread sent, for a receiveMessageOnPort of the peer that finds nothing queued.
   */
  static sink(port, sink, pull) {
    port.#sink = sink;
    port.#pull = pull;
    const queued = port.#queue;
    port.#queue = [];
    for (const item of new SafeArrayIterator(queued)) sink(item);
  }
  /** The port `port` is entangled with (null once either is closed or moved), when it has not started; else null. */
  static idlePeer(port) {
    const peer = port.#peer;
    return peer !== null && !peer.#started ? peer : null;
  }
  static entangle(a, b) {
    a.#peer = b;
    b.#peer = a;
  }

  /** Whether this port keeps the process alive now. */
  #update() {
    const should = this.#refed && this.#started && !this.#closed;
    if (should !== this.#holding) {
      this.#holding = should;
      hold(should ? 1 : -1);
    }
  }
  #deliverySteps() {
    while (this.#scheduled < this.#queue.length) {
      this.#scheduled++;
      schedule(() => this.#deliverOne(), this.#holding);
    }
  }
  #deliverOne() {
    this.#scheduled--;
    if (this.#closed || !this.#started || this.#queue.length === 0) return;
    const item = ArrayPrototypeShift(this.#queue);
    if (item.close) return void this.#finishClose();
    this.dispatchEvent(new MessageEvent('message', { data: item.data }));
  }
  #enqueue(item) {
    if (this.#closed) return;
    if (this.#sink !== null) return void this.#sink(item);
    ArrayPrototypePush(this.#queue, item);
    if (this.#started) this.#deliverySteps();
  }
  #finishClose() {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#update();
    // Node emits it when the port's handle has closed, after the immediates already due; it holds the loop.
    timers.setImmediate(() => timers.setImmediate(() => this.dispatchEvent(new Event('close'))));
  }
  /** Takes the next queued message now (worker_threads.receiveMessageOnPort). */
  static receive(port) {
    if (port.#closed) return undefined;
    const peer = port.#peer;
    if (port.#queue.length === 0 && peer !== null && peer.#pull !== null) peer.#pull();
    const item = port.#queue[0];
    if (item === undefined || item.close) return undefined;
    ArrayPrototypeShift(port.#queue);
    return { message: item.data };
  }

  postMessage(value, transfer) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "message" argument must be specified');
    const list = transfer !== null && typeof transfer === 'object' && !ArrayIsArray(transfer) && typeof transfer[SymbolIterator] !== 'function' ? transfer.transfer : transfer;
    const data = cloneWithTransfer(value, list, 'postMessage');
    if (this.#closed || this.#closing || this.#peer === null) return;
    this.#peer.#enqueue({ data });
  }
  start() {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#update();
    this.#deliverySteps();
  }
  close() {
    if (this.#closed || this.#closing) return;
    this.#closing = true;
    const peer = this.#peer;
    this.#finishClose();
    // The peer delivers what was sent to it before this, then closes (one not started, once it starts).
    if (peer !== null && !peer.#closed && !peer.#closing) {
      peer.#closing = true;
      if (peer.#sink !== null) return void peer.#sink({ close: true });
      ArrayPrototypePush(peer.#queue, { close: true });
      if (peer.#started) peer.#deliverySteps();
    }
  }
  ref() {
    if (this.#closed) return;
    this.#refed = true;
    this.#update();
  }
  unref() {
    this.#refed = false;
    this.#update();
  }
  hasRef() {
    return this.#holding;
  }
  addEventListener(type, listener, options) {
    const before = listenerTotal(this, type);
    super.addEventListener(type, listener, options);
    if (type === 'message' && before === 0 && listenerTotal(this, type) > 0) {
      this.ref();
      this.start();
    }
  }
  removeEventListener(type, listener, options) {
    const before = listenerTotal(this, type);
    super.removeEventListener(type, listener, options);
    if (type === 'message' && before > 0 && listenerTotal(this, type) === 0) this.unref();
  }
  get onmessage() { return this.#onmessage; }
  set onmessage(fn) {
    const before = listenerTotal(this, 'message');
    this.#onmessage = typeof fn === 'function' ? fn : null;
    const after = listenerTotal(this, 'message');
    if (before === 0 && after > 0) {
      this.ref();
      this.start();
    } else if (before > 0 && after === 0) this.unref();
  }
  get onmessageerror() { return this.#onmessageerror; }
  set onmessageerror(fn) { this.#onmessageerror = typeof fn === 'function' ? fn : null; }
  get [SymbolToStringTag]() { return 'MessagePort'; }
  [customInspect](depth, options, inspect) {
    if (depth < 0) return options.stylize('[MessagePort]', 'special');
    return `MessagePort [EventTarget] ${inspect({ active: !this.#closed, refed: this.#holding }, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}
ObjectAssign(MessagePort.prototype, emitterMethods);
const { entangle, receive, transfer: transferPort, idlePeer, sink: sinkPort } = MessagePort;
delete MessagePort.idlePeer;
delete MessagePort.sink;
delete MessagePort.entangle;
delete MessagePort.receive;
delete MessagePort.transfer;

class MessageChannel {
  constructor() {
    constructing = true;
    try {
      ObjectDefineProperty(this, 'port1', { value: new MessagePort(), enumerable: true, configurable: false, writable: false });
      ObjectDefineProperty(this, 'port2', { value: new MessagePort(), enumerable: true, configurable: false, writable: false });
    } finally {
      constructing = false;
    }
    entangle(this.port1, this.port2);
  }
  get [SymbolToStringTag]() { return 'MessageChannel'; }
}

function receiveMessageOnPort(port) {
  if (!(port instanceof MessagePort)) throw invalidArgType('port', 'an instance of MessagePort', port);
  return receive(port);
}

// ---- BroadcastChannel ----

/** name → the open channels of that name */
const channels = new SafeMap();

class BroadcastChannel extends EventTarget {
  #name;
  #closed = false;
  #refed = true;
  #onmessage = null;
  #onmessageerror = null;
  constructor(name) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    super();
    this.#name = `${name}`;
    let set = channels.get(this.#name);
    if (!set) channels.set(this.#name, (set = new SafeSet()));
    set.add(this);
    hold(1);
  }
  get name() { return this.#name; }
  postMessage(message) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "message" argument must be specified');
    if (this.#closed) {
      const e = new (globalThis.DOMException || Error)('BroadcastChannel is closed.', 'InvalidStateError');
      if (!globalThis.DOMException) e.name = 'InvalidStateError';
      throw e;
    }
    const data = cloneWithTransfer(message);
    const set = channels.get(this.#name);
    if (set !== undefined) for (const other of set) {
      if (other === this) continue;
      schedule(() => {
        if (!other.#closed) other.dispatchEvent(new MessageEvent('message', { data }));
      }, other.#refed);
    }
  }
  close() {
    if (this.#closed) return;
    this.#closed = true;
    const set = channels.get(this.#name);
    set.delete(this);
    if (set.size === 0) channels.delete(this.#name);
    if (this.#refed) hold(-1);
  }
  ref() {
    if (!this.#closed && !this.#refed) hold(1);
    this.#refed = true;
    return this;
  }
  unref() {
    if (!this.#closed && this.#refed) hold(-1);
    this.#refed = false;
    return this;
  }
  get onmessage() { return this.#onmessage; }
  set onmessage(fn) { this.#onmessage = typeof fn === 'function' ? fn : null; }
  get onmessageerror() { return this.#onmessageerror; }
  set onmessageerror(fn) { this.#onmessageerror = typeof fn === 'function' ? fn : null; }
  get [SymbolToStringTag]() { return 'BroadcastChannel'; }
  [customInspect](depth, options, inspect) {
    if (depth < 0) return options.stylize('[BroadcastChannel]', 'special');
    return `BroadcastChannel ${inspect({ name: this.#name, active: !this.#closed }, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}

module.exports = { MessageChannel, MessagePort, MessageEvent, BroadcastChannel, receiveMessageOnPort, cloneWithTransfer, transferPort, idlePeer, sinkPort, dataCloneError, nodeMajor };
