// A guest Worker's own side (builtins/worker_threads.js starts it): the process its parent started with
// NODE_WORKER_FD, the fd of its channel (internal/worker-channel.js). It waits for the parent's first frame
// (what to run, workerData, its threadId), then runs the script as its main module. `parentPort` carries
// messages; an uncaught error goes to the parent's 'error' event instead of stderr, and the exit code to its
// 'exit'.
'use strict';

const {
  TypeError,
  Uint8Array,
  SafeArrayIterator,
  SafeWeakMap,
  ArrayPrototypePush,
  ArrayPrototypeSplice,
} = require('internal/primordials');

const EventEmitter = require('events');
const { codeError } = require('internal/errors');
const { KIND, openChannel, encodeMessage, decodeMessage, encodeError, portRelay } = require('internal/worker-channel');

/** What worker_threads shows in a worker thread: set once the parent's first frame has come. */
const state = { __proto__: null, isMainThread: true, parentPort: null, workerData: undefined, threadId: 0, resourceLimits: {} };

/**
 * `parentPort`: the worker's end of its channel, as Node's MessagePort reads to it: 'message' events with the
 * value, postMessage, and keeping the thread alive while it has a 'message' listener (until unref or close).
 */
class ParentPort extends EventEmitter {
  #channel;
  #relay;
  #refd = true;
  #closed = false;

  constructor(channel, relay) {
    super();
    this.#channel = channel;
    this.#relay = relay;
    this.on('newListener', (name) => {
      if (name === 'message') internal.nextTick(() => this.#update());
    });
    this.on('removeListener', (name) => {
      if (name === 'message') this.#update();
    });
  }

  #update() {
    this.#channel.setHeld(!this.#closed && this.#refd && this.listenerCount('message') > 0);
  }

  postMessage(value, transferList) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "value" argument must be specified');
    if (this.#closed) return;
    this.#channel.send(KIND.MESSAGE, encodeMessage(value, transferList, this.#relay));
  }

  ref() {
    this.#refd = true;
    this.#update();
  }

  unref() {
    this.#refd = false;
    this.#update();
  }

  hasRef() {
    return !this.#closed && this.#refd && this.listenerCount('message') > 0;
  }

  start() {}

  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#update();
    internal.nextTick(() => this.emit('close'));
  }

  addEventListener(name, listener) {
    this.on(name, name === 'message' ? wrapped(listener) : listener);
  }

  removeEventListener(name, listener) {
    const w = wrappers.get(listener);
    this.off(name, w === undefined ? listener : w);
  }

  set onmessage(fn) {
    if (this.#onmessage) this.off('message', this.#onmessage);
    this.#onmessage = typeof fn === 'function' ? wrapped(fn) : null;
    if (this.#onmessage) this.on('message', this.#onmessage);
  }

  get onmessage() {
    return this.#onmessage === null ? null : this.#onmessage.listener;
  }

  #onmessage = null;
}

/** A listener of 'message' events (EventTarget style: an event with `data`). */
const wrappers = new SafeWeakMap();
function wrapped(listener) {
  let w = wrappers.get(listener);
  if (w === undefined) {
    w = (data) => listener({ data, type: 'message' });
    w.listener = listener;
    wrappers.set(listener, w);
  }
  return w;
}

/**
 * Runs this process as a Worker's thread over the channel on `fd`: `run(init)` runs its script once the
 * parent's first frame (`{ filename, eval, workerData, threadId, argv, resourceLimits, pid, ppid }`) is here.
 */
function startWorker(fd, run) {
  const process = require('process');
  let port = null;
  let exited = false;
  /** Messages that came before the script added a listener: given to the first one, as a port queues them. */
  const early = [];
  const flushEarly = () => {
    while (early.length > 0 && port.listenerCount('message') > 0) port.emit('message', ArrayPrototypeSplice(early, 0, 1)[0]);
  };
  const relay = portRelay((kind, bytes) => channel.send(kind, bytes), () => channel, 0);
  const channel = openChannel(
    fd,
    (kind, bytes) => {
      if (kind === KIND.PORT_MESSAGE || kind === KIND.PORT_CLOSE) return relay.receive(kind, bytes);
      if (kind === KIND.INIT) {
        const init = decodeMessage(bytes, relay).value;
        port = new ParentPort(channel, relay);
        port.on('newListener', (name) => {
          if (name !== 'message' || early.length === 0) return;
          internal.nextTick(flushEarly);
        });
        state.isMainThread = false;
        state.parentPort = port;
        state.workerData = init.workerData;
        state.threadId = init.threadId;
        state.resourceLimits = init.resourceLimits;
        // A thread of its parent's process: the same pid (its kernel process is the thread's).
        process.pid = init.pid;
        process.ppid = init.ppid;
        channel.setHeld(false);
        channel.send(KIND.ONLINE, new Uint8Array(0));
        run(init);
        return;
      }
      if (kind !== KIND.MESSAGE || port === null) return;
      ArrayPrototypePush(early, decodeMessage(bytes, relay).value);
      flushEarly();
    },
    // The parent is gone: its threads end with it.
    () => {
      relay.closeAll();
      internal.exit(1);
    },
    true,
  );
  internal.onFatal = (error) => {
    channel.send(KIND.ERROR, encodeError(error));
  };
  internal.onExit = (code) => {
    if (exited) return;
    exited = true;
    const bytes = new Uint8Array(1);
    bytes[0] = code & 0xff;
    channel.send(KIND.EXIT, bytes);
    channel.flush();
  };
}

module.exports = { state, startWorker };
