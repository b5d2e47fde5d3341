// Node's IPC channel (fork, stdio 'ipc'): messages one per line (JSON text, or V8's format in base64 for
// 'advanced': internal/ipc-serialization.js) over a socket pair whose ends the parent and the child hold. The target (the parent's ChildProcess, or the child's process) gets
// send, disconnect, connected and channel, as Node's setupChannel gives them; reads wait on the wake ring.
'use strict';

const {
  Error,
  ObjectDefineProperty,
  Symbol,
  TypeError,
  Uint8Array,
  ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeShift, ArrayPrototypeSplice, StringPrototypeSplit, StringPrototypeStartsWith,
  SafeArrayIterator,
  ReflectApply,
  GetLength,
} = require('internal/primordials');

const EventEmitter = require('events');
const { Buffer } = require('buffer');
const { StringDecoder } = require('string_decoder');
const { codeError, invalidArgType, sysError } = require('internal/errors');
const { waitFd, cancelFd, setRef } = require('internal/event-loop');
const netSys = require('internal/net-sys');
const sys = internal.sys;

const EMPTY = new Uint8Array(0);

/** What send() answers false past (Node's: the peer is more than two reads behind). */
const QUEUE_LOW = 65536 * 2;

const PENDING = Symbol('pendingMessages');

/**
 * `process.channel` / `child.channel`: keeps the process alive while it is ref'd. Node counts the target's
 * 'message' and 'disconnect' listeners and the writes in progress, until ref() or unref() is called.
 */
class Control extends EventEmitter {
  #fd;
  #ref;
  #refs = 0;
  #explicit = false;

  constructor(fd, ref) {
    super();
    this.#fd = fd;
    this.#ref = ref;
    this[PENDING] = [];
  }

  refCounted() {
    if (++this.#refs === 1 && !this.#explicit) this.#ref(true);
  }

  unrefCounted() {
    if (--this.#refs === 0 && !this.#explicit) {
      this.#ref(false);
      this.emit('unref');
    }
  }

  ref() {
    this.#explicit = true;
    this.#ref(true);
  }

  unref() {
    this.#explicit = true;
    this.#ref(false);
  }

  get fd() {
    return this.#fd;
  }
}

/** Node's errnoException(code, 'write'): the message is "write EPIPE". */
function writeError(code) {
  const e = sysError(code, 'write');
  e.message = `write ${code}`;
  return e;
}

function isInternal(message) {
  return message !== null && typeof message === 'object' && typeof message.cmd === 'string' && message.cmd.length > 5 && StringPrototypeStartsWith(message.cmd, 'NODE_');
}

/**
 * Makes `target` an end of the channel on `fd` (non-blocking). `ref`: whether the channel holds the process
 * at first (the parent's does; the child's only while it has listeners). `onClose` runs when the peer's end
 * closes (end of file).
 */
function setupChannel(target, fd, ref, onClose, serialization = 'json') {
  const { encode, decode } = require('internal/ipc-serialization')[serialization];
  sys.setNonblocking(fd, true);
  let refd = ref;
  let open = true;
  const decoder = new StringDecoder('utf8');
  let partial = '';
  /** Bytes not yet written, each with the callback of the send that they end, in order. */
  const queue = [];
  let queued = 0;

  const setRefd = (on) => {
    refd = on;
    setRef(fd, false, on);
  };
  const control = new Control(fd, setRefd);
  target.channel = control;
  target.connected = true;
  ObjectDefineProperty(target, '_channel', {
    get: () => target.channel,
    set: (v) => (target.channel = v),
    configurable: true,
    enumerable: false,
  });

  const close = () => {
    if (!open) return;
    open = false;
    cancelFd(fd, false);
    cancelFd(fd, true);
    try {
      sys.close(fd);
    } catch {}
    // As Node's: a send that had to wait reports completion whatever became of its bytes.
    for (const item of new SafeArrayIterator(ArrayPrototypeSplice(queue, 0))) if (item.callback) internal.nextTick(item.callback, null);
    queued = 0;
  };

  const emit = (event, message) => {
    if (event === 'internalMessage' || target.listenerCount('message')) target.emit(event, message);
    else ArrayPrototypePush(control[PENDING], [event, message]);
  };

  const onReadable = () => {
    if (!open) return;
    for (;;) {
      let bytes;
      try {
        bytes = netSys.recv(fd, 64 * 1024);
      } catch (e) {
        // The call that would wait armed the wake ring already.
        if (e.code === 'EAGAIN') return waitFd(fd, false, onReadable, refd, true);
        bytes = EMPTY;
      }
      if (GetLength(bytes) === 0) {
        if (target.connected) target.disconnect();
        target.channel = null;
        close();
        // Only the peer's end counts: as Node's, a channel this side disconnected never does.
        if (onClose) onClose();
        return;
      }
      const lines = StringPrototypeSplit((partial + decoder.write(bytes)), '\n');
      partial = ArrayPrototypePop(lines);
      for (const line of new SafeArrayIterator(lines)) {
        const message = decode(line);
        if (target.channel) internal.nextTick(emit, isInternal(message) ? 'internalMessage' : 'message', message);
      }
    }
  };

  const pump = () => {
    while (queue.length > 0) {
      const item = queue[0];
      let n;
      try {
        n = netSys.send(fd, item.bytes, item.off, GetLength(item.bytes) - item.off);
      } catch (e) {
        if (e.code === 'EAGAIN') return waitFd(fd, true, pump, true, true);
        // The peer is gone: its end of file disconnects this side.
        n = GetLength(item.bytes) - item.off;
      }
      item.off += n;
      queued -= n;
      if (item.off < GetLength(item.bytes)) continue;
      ArrayPrototypeShift(queue);
      control.unrefCounted();
      if (item.callback) item.callback(null);
    }
  };

  // Messages that came before any 'message' listener are given to the first one.
  target.on('newListener', () => {
    internal.nextTick(() => {
      if (!target.channel || !target.listenerCount('message')) return;
      const messages = control[PENDING];
      control[PENDING] = [];
      for (const args of new SafeArrayIterator(messages)) ReflectApply(target.emit, target, args);
    });
  });

  target.send = function send(message, handle, options, callback) {
    if (typeof handle === 'function') {
      callback = handle;
      handle = undefined;
      options = undefined;
    } else if (typeof options === 'function') {
      callback = options;
      options = undefined;
    } else if (options !== undefined && (options === null || typeof options !== 'object')) {
      throw invalidArgType('options', 'of type object', options);
    }
    options = { swallowErrors: false, ...options };
    if (this.connected) return this._send(message, handle, options, callback);
    const ex = codeError(Error, 'ERR_IPC_CHANNEL_CLOSED', 'Channel closed');
    if (typeof callback === 'function') internal.nextTick(callback, ex);
    else internal.nextTick(() => this.emit('error', ex));
    return false;
  };

  target._send = function _send(message, handle, options, callback) {
    if (message === undefined) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "message" argument must be specified');
    if (typeof message !== 'string' && typeof message !== 'object' && typeof message !== 'number' && typeof message !== 'boolean') {
      throw invalidArgType('message', 'one of type string, object, number, or boolean', message);
    }
    // Sockets and servers live in this process's kernel tables; passing them is not supported.
    if (handle) throw codeError(Error, 'ERR_ACCESS_DENIED', 'sending a handle over the IPC channel is not available in this VM');
    const bytes = Buffer.from(`${encode(message)}\n`);
    const item = { bytes, off: 0, callback: typeof callback === 'function' ? callback : null };
    if (queue.length === 0) {
      try {
        item.off = netSys.send(fd, bytes, 0, GetLength(bytes));
      } catch (e) {
        if (e.code !== 'EAGAIN') {
          if (!options.swallowErrors) {
            const ex = writeError(e.code);
            if (item.callback) internal.nextTick(item.callback, ex);
            else internal.nextTick(() => this.emit('error', ex));
          }
          return queued < QUEUE_LOW;
        }
      }
      if (item.off === GetLength(bytes)) {
        if (item.callback) internal.nextTick(item.callback, null);
        return queued < QUEUE_LOW;
      }
      // A short send did not arm the ring; a send now either moves bytes or arms it.
      internal.nextTick(pump);
    }
    ArrayPrototypePush(queue, item);
    queued += GetLength(bytes) - item.off;
    control.refCounted();
    return queued < QUEUE_LOW;
  };

  target.disconnect = function disconnect() {
    if (!this.connected) {
      this.emit('error', codeError(Error, 'ERR_IPC_DISCONNECTED', 'IPC channel is already disconnected'));
      return;
    }
    this.connected = false;
    this._disconnect();
  };

  target._disconnect = function _disconnect() {
    if (!this.channel) return;
    this.channel = null;
    internal.nextTick(() => {
      close();
      target.emit('disconnect');
    });
  };

  waitFd(fd, false, onReadable, refd);
  return control;
}

module.exports = { setupChannel };
