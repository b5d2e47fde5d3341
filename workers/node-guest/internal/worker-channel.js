// The channel between a guest Worker and its parent (builtins/worker_threads.js): frames over a Unix socket
// pair whose ends the two processes hold, each a 4-byte length (little-endian), a kind byte and the bytes
// (V8's wire format, written by internal/v8-serializer.js, for messages and errors). Reads wait on the wake
// ring, so a message wakes the other side's event loop; writes that do not fit wait for room the same way,
// and never block the sender.
'use strict';

const {
  Uint8Array,
  ArrayPrototypePush,
  ArrayPrototypeShift,
  ArrayPrototypeSplice,
  TypedArrayPrototypeSet,
  TypedArrayPrototypeSubarray,
  AggregateError,
  ArrayBuffer,
  ArrayBufferPrototypeTransfer,
  Error,
  EvalError,
  RangeError,
  ReferenceError,
  SyntaxError,
  TypeError,
  URIError,
  SafeMap,
  ArrayPrototypeIncludes,
  ArrayPrototypeIndexOf,
  ObjectDefineProperty,
  ObjectGetPrototypeOf,
  ObjectKeys,
  ObjectPrototypeHasOwnProperty,
  ObjectPrototypeToString,
  SafeArrayIterator,
  SymbolIterator,
  GetLength,
} = require('internal/primordials');

const { waitFd, cancelFd, setRef } = require('internal/event-loop');
const { Serializer, Deserializer, setHostObjectTest, setSharedArrayBufferSource } = require('internal/v8-serializer');
const { codeError } = require('internal/errors');
const { u32, putU32 } = require('internal/worker-ports');
const netSys = require('internal/net-sys');
const sys = internal.sys;

/** Frame kinds. */
const KIND = { __proto__: null, INIT: 1, MESSAGE: 2, ERROR: 3, EXIT: 4, ONLINE: 5, PORT_MESSAGE: 6, PORT_CLOSE: 7 };

/** A frame of `kind` carrying `bytes` (a Uint8Array). */
function frame(kind, bytes) {
  const n = GetLength(bytes);
  const out = new Uint8Array(5 + n);
  out[0] = n & 0xff;
  out[1] = (n >>> 8) & 0xff;
  out[2] = (n >>> 16) & 0xff;
  out[3] = (n >>> 24) & 0xff;
  out[4] = kind;
  TypedArrayPrototypeSet(out, bytes, 5);
  return out;
}

/**
 * Makes `fd` (non-blocking) an end of a channel. `onFrame(kind, bytes)` gets each frame, in order, from a
 * callback of the event loop; `onEnd()` once the other end is closed. `held`: whether waiting for frames
 * keeps the process alive at first (setHeld changes it). Writes in progress always keep it alive, so that
 * what was posted is delivered.
 */
function openChannel(fd, onFrame, onEnd, held) {
  sys.setNonblocking(fd, true);
  let open = true;
  let reading = held;
  /** Received bytes not yet a whole frame. */
  let pending = new Uint8Array(0);
  /** Frames not yet written, the first maybe in part. */
  const queue = [];
  let offset = 0;

  const append = (bytes) => {
    const joined = new Uint8Array(GetLength(pending) + GetLength(bytes));
    TypedArrayPrototypeSet(joined, pending, 0);
    TypedArrayPrototypeSet(joined, bytes, GetLength(pending));
    pending = joined;
  };

  /** Frames read by `pull` that it does not deliver: delivered before any later one, from the loop. */
  const deferred = [];
  let flushScheduled = false;
  const flushDeferred = () => {
    flushScheduled = false;
    while (open && deferred.length > 0) {
      const f = ArrayPrototypeShift(deferred);
      onFrame(f[0], f[1]);
    }
  };

  /** Hands each whole frame received to onFrame (or, with `now`, those `now` accepts; the rest wait). */
  const deliver = (now) => {
    if (now === undefined) flushDeferred();
    let at = 0;
    const total = GetLength(pending);
    while (open && total - at >= 5) {
      const n = pending[at] + pending[at + 1] * 0x100 + pending[at + 2] * 0x10000 + pending[at + 3] * 0x1000000;
      if (total - at - 5 < n) break;
      const kind = pending[at + 4];
      const bytes = new Uint8Array(n);
      TypedArrayPrototypeSet(bytes, TypedArrayPrototypeSubarray(pending, at + 5, at + 5 + n), 0);
      at += 5 + n;
      if (now === undefined || (deferred.length === 0 && now(kind))) onFrame(kind, bytes);
      else ArrayPrototypePush(deferred, [kind, bytes]);
    }
    if (at > 0) {
      const rest = new Uint8Array(total - at);
      TypedArrayPrototypeSet(rest, TypedArrayPrototypeSubarray(pending, at, total), 0);
      pending = rest;
    }
  };

  const onReadable = () => {
    if (!open) return;
    for (;;) {
      let bytes;
      try {
        bytes = netSys.recv(fd, 64 * 1024);
      } catch (e) {
        // The call that would wait armed the wake ring already.
        if (e.code === 'EAGAIN') {
          deliver();
          if (open) waitFd(fd, false, onReadable, reading, true);
          return;
        }
        bytes = new Uint8Array(0);
      }
      if (GetLength(bytes) === 0) {
        deliver();
        close();
        onEnd();
        return;
      }
      append(bytes);
    }
  };

  const pump = () => {
    while (open && queue.length > 0) {
      const bytes = queue[0];
      let n;
      try {
        n = netSys.send(fd, bytes, offset, GetLength(bytes) - offset);
      } catch (e) {
        if (e.code === 'EAGAIN') return waitFd(fd, true, pump, true, true);
        // The other end is gone: its end of file tells this side.
        ArrayPrototypeSplice(queue, 0);
        return;
      }
      offset += n;
      if (offset < GetLength(bytes)) continue;
      ArrayPrototypeShift(queue);
      offset = 0;
    }
  };

  function close() {
    if (!open) return;
    open = false;
    cancelFd(fd, false);
    cancelFd(fd, true);
    ArrayPrototypeSplice(queue, 0);
    try {
      sys.close(fd);
    } catch {}
  }

  waitFd(fd, false, onReadable, reading);
  return {
    __proto__: null,
    send(kind, bytes) {
      if (!open) return;
      ArrayPrototypePush(queue, frame(kind, bytes));
      if (queue.length === 1) pump();
    },
    /** Writes what is queued now, waiting for room (at exit: nothing posted is lost). */
    flush() {
      if (!open || queue.length === 0) return;
      cancelFd(fd, true);
      sys.setNonblocking(fd, false);
      try {
        pump();
      } finally {
        if (open) sys.setNonblocking(fd, true);
      }
    },
    /**
     * Reads what has come, without waiting, and delivers at once the frames `now(kind)` accepts (ahead of them
     * nothing is held back); the others wait for the loop. For receiveMessageOnPort on a relayed port, which
     * Atomics-based code calls right after another thread's Atomics.notify, with its loop blocked.
     */
    pull(now) {
      for (;;) {
        let bytes;
        try {
          bytes = netSys.recv(fd, 64 * 1024);
        } catch {
          break; // nothing more now (the ring is armed already by the wait on the fd)
        }
        if (GetLength(bytes) === 0) break; // end of file: the loop's read sees it too
        append(bytes);
      }
      deliver(now);
      if (deferred.length > 0 && !flushScheduled) {
        flushScheduled = true;
        require('internal/timers').setImmediate(flushDeferred);
      }
    },
    setHeld(on) {
      reading = on;
      setRef(fd, false, on);
    },
    close,
    get open() {
      return open;
    },
  };
}

// ---- what crosses: values as the structured clone carries them, in V8's wire format ----

/** A DataCloneError (DOMException), Node's error for what a message cannot carry. */
function dataCloneError(message) {
  const DOMException = require('internal/dom-exception');
  return new DOMException(message, 'DataCloneError');
}

/**
 * V8's serializer as Node's MessagePort uses it: typed arrays as views (a Buffer arrives as a Uint8Array).
 * A SharedArrayBuffer is refused: the two guest threads share no memory (each is its own worker's heap), and a
 * copy would silently break code that waits on it with Atomics.
 */
class MessageSerializer extends Serializer {
  #relay;
  #listed;
  #anyPort;
  /** The ports written, in order: their index is what the host object holds. */
  ports = [];

  constructor(relay, listed, anyPort) {
    super();
    this.#relay = relay;
    this.#listed = listed;
    this.#anyPort = anyPort;
    setHostObjectTest(this, isMessagePort);
  }

  _getDataCloneError(message) {
    return dataCloneError(message);
  }

  /** SharedArrayBuffers met, in order, and the id the runtime will give the first (shareShared). */
  shared = [];
  #firstId = -1;

  /**
   * The id the memory will have on the link to the other thread (workers/node-host/runtime.ts shareMemory): the
   * runtime numbers what goes on a link in order, so the ids are known before anything is shared, and only a
   * message that serialized whole shares its memory (shareShared).
   */
  _getSharedArrayBufferId(sab) {
    if (this.#firstId === -1) {
      const next = this.#relay === undefined ? undefined : internal.host('memoryNext', this.#relay.link);
      if (typeof next !== 'number') throw dataCloneError('#<SharedArrayBuffer> could not be cloned.');
      this.#firstId = next;
    }
    return this.#firstId + ArrayPrototypePush(this.shared, sab) - 1;
  }

  /** Shares the memory met, once the message is whole. */
  shareShared() {
    for (let i = 0; i < this.shared.length; i++) {
      if (internal.host('shareMemory', this.shared[i], this.#relay.link) !== this.#firstId + i) throw dataCloneError('#<SharedArrayBuffer> could not be shared.');
    }
  }

  _writeHostObject(port) {
    if (!this.#anyPort && !ArrayPrototypeIncludes(this.#listed, port)) {
      const { dataCloneError: portCloneError, nodeMajor } = require('internal/message-port');
      if (nodeMajor() >= 24) throw portCloneError('Object that needs transfer was found in message but not listed in transferList');
      throw codeError(TypeError, 'ERR_MISSING_TRANSFERABLE_IN_TRANSFER_LIST', 'Object that needs transfer was found in message but not listed in transferList');
    }
    if (this.#relay === undefined) throw dataCloneError('A MessagePort cannot be carried here');
    let i = ArrayPrototypeIndexOf(this.ports, port);
    if (i === -1) i = ArrayPrototypePush(this.ports, port) - 1;
    this.writeUint32(i);
  }
}

function isMessagePort(v) {
  return v instanceof require('internal/message-port').MessagePort;
}

class MessageDeserializer extends Deserializer {
  #ports;

  constructor(bytes, ports, link) {
    super(bytes);
    this.#ports = ports;
    setSharedArrayBufferSource(this, (id) => {
      const sab = internal.host('takeMemory', link, id);
      if (internal.isFailure(sab)) throw dataCloneError('A SharedArrayBuffer of the message is missing');
      return sab;
    });
  }

  _readHostObject() {
    return this.#ports[this.readUint32()];
  }
}

/**
 * The bytes of `value`: the ids of the MessagePorts it carries (a u32 count, then each id), then V8's wire
 * format, where each port is a host object naming its place in that list. `transferList` as postMessage's:
 * ArrayBuffers are copied, then detached; MessagePorts go to `relay` (internal/worker-ports.js), which gives
 * them ids. `anyPort`: every port met is transferred (a relayed message, whose ports were transferred to its
 * hidden port already). Without a relay (an uncaught error) no port is carried.
 */
function encodeMessage(value, transferList, relay, anyPort = false) {
  const { MessagePort } = require('internal/message-port');
  let list = [];
  if (transferList !== undefined && transferList !== null) {
    if (typeof transferList !== 'object' || typeof transferList[SymbolIterator] !== 'function') {
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Optional transferList argument must be an iterable');
    }
    list = [...transferList];
  }
  const listed = [];
  for (const item of new SafeArrayIterator(list)) {
    if (item instanceof MessagePort) {
      if (relay === undefined) throw dataCloneError('A MessagePort cannot be carried here');
      ArrayPrototypePush(listed, item);
    } else if (!(item instanceof ArrayBuffer)) throw codeError(TypeError, 'ERR_INVALID_TRANSFER_OBJECT', 'Found invalid object in transferList');
  }
  const ser = new MessageSerializer(relay, listed, anyPort);
  const ports = ser.ports;
  ser.writeHeader();
  ser.writeValue(value);
  const body = ser.releaseBuffer();
  ser.shareShared();
  // The ports listed but not in the value move too (the other side cannot reach them, as in Node).
  for (const port of new SafeArrayIterator(listed)) if (ArrayPrototypeIndexOf(ports, port) === -1) ArrayPrototypePush(ports, port);
  const out = new Uint8Array(4 + 4 * ports.length + GetLength(body));
  putU32(out, 0, ports.length);
  for (let i = 0; i < ports.length; i++) putU32(out, 4 + 4 * i, relay.export(ports[i]));
  TypedArrayPrototypeSet(out, body, 4 + 4 * ports.length);
  for (const item of new SafeArrayIterator(list)) {
    if (!(item instanceof ArrayBuffer)) continue;
    if (typeof ArrayBufferPrototypeTransfer === 'function') ArrayBufferPrototypeTransfer(item);
    else internal.host('detachArrayBuffer', item);
  }
  return out;
}

/** What encodeMessage wrote: `{ value, ports }`, the ports new ones of this thread relayed by `relay`. */
function decodeMessage(bytes, relay) {
  const count = u32(bytes, 0);
  const ports = [];
  for (let i = 0; i < count; i++) ArrayPrototypePush(ports, relay.import(u32(bytes, 4 + 4 * i)));
  const der = new MessageDeserializer(TypedArrayPrototypeSubarray(bytes, 4 + 4 * count, GetLength(bytes)), ports, relay === undefined ? undefined : relay.link);
  der.readHeader();
  return { value: der.readValue(), ports };
}

/** The built-in error classes by name, and their names by prototype. */
const ERROR_CTORS = new SafeMap([['Error', Error], ['EvalError', EvalError], ['RangeError', RangeError], ['ReferenceError', ReferenceError], ['SyntaxError', SyntaxError], ['TypeError', TypeError], ['URIError', URIError], ['AggregateError', AggregateError]]);
const ERROR_NAMES = new SafeMap();
// The prototypes as they were at boot (a class's `prototype` is not writable).
for (const entry of new SafeArrayIterator([[Error, 'Error'], [EvalError, 'EvalError'], [RangeError, 'RangeError'], [ReferenceError, 'ReferenceError'], [SyntaxError, 'SyntaxError'], [TypeError, 'TypeError'], [URIError, 'URIError'], [AggregateError, 'AggregateError']])) ERROR_NAMES.set(entry[0].prototype, entry[1]);

/**
 * An uncaught error, as Node's worker sends it to its parent (lib/internal/error_serdes.js): an Error goes as
 * its nearest built-in class, message, stack, cause and own enumerable properties (`code`, …) and rebuilt in the
 * parent's realm; any other value as the structured clone carries it.
 */
function encodeError(error) {
  let record;
  try {
    if (ObjectPrototypeToString(error) === '[object Error]') {
      let ctor = 'Error';
      for (let p = ObjectGetPrototypeOf(error); p !== null; p = ObjectGetPrototypeOf(p)) {
        const name = ERROR_NAMES.get(p);
        if (name !== undefined) {
          ctor = name;
          break;
        }
      }
      const props = { __proto__: null };
      for (const key of new SafeArrayIterator(ObjectKeys(error))) props[key] = error[key];
      if (ObjectPrototypeHasOwnProperty(error, 'name')) props.name = error.name;
      record = { error: true, ctor, message: `${error.message}`, stack: `${error.stack}`, props: { ...props } };
      if (ObjectPrototypeHasOwnProperty(error, 'cause')) record.cause = error.cause;
      try {
        return encodeMessage(record);
      } catch {
        // Properties that cannot be cloned are left out, as Node leaves them.
        record.props = {};
        delete record.cause;
      }
    } else {
      record = { error: false, value: error };
    }
    return encodeMessage(record);
  } catch {
    return encodeMessage({ error: false, value: `${require('util').inspect(error)}` });
  }
}

function decodeError(bytes) {
  const record = decodeMessage(bytes).value;
  if (!record.error) return record.value;
  const Ctor = record.ctor !== 'AggregateError' ? ERROR_CTORS.get(record.ctor) ?? Error : Error;
  const e = new Ctor(record.message);
  ObjectDefineProperty(e, 'stack', { value: record.stack, writable: true, configurable: true, enumerable: false });
  if ('cause' in record) ObjectDefineProperty(e, 'cause', { value: record.cause, writable: true, configurable: true, enumerable: false });
  for (const key of new SafeArrayIterator(ObjectKeys(record.props))) {
    ObjectDefineProperty(e, key, { value: record.props[key], writable: true, configurable: true, enumerable: true });
  }
  return e;
}

/**
 * The relay of MessagePorts for a channel whose frames `send(kind, bytes)` writes (`channel()`: the channel,
 * null while there is none), and of its shared memory: `link` names the other thread to the runtime (0: the
 * parent; else the Worker's pid).
 */
function portRelay(send, channel, link) {
  const { PortRelay } = require('internal/worker-ports');
  const pull = () => {
    const c = channel();
    if (c !== null) c.pull((kind) => kind === KIND.PORT_MESSAGE || kind === KIND.PORT_CLOSE);
  };
  return new PortRelay(send, pull, link, { __proto__: null, message: KIND.PORT_MESSAGE, close: KIND.PORT_CLOSE }, (value, relay) => encodeMessage(value, undefined, relay, true), decodeMessage);
}

module.exports = { KIND, openChannel, encodeMessage, decodeMessage, encodeError, decodeError, dataCloneError, portRelay };
