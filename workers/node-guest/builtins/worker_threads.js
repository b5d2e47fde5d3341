// `worker_threads`. A guest Worker is a thread of its guest process, run as a guest process is: the kernel
// starts it as a `node` process marked as a thread of its parent (Sys.THREADOF), so it is a worker of the
// pool with its own isolate, booted with the same runtime, its heap limit from `resourceLimits` within the
// process memory limit (the kernel reads `--max-old-space-size`), counted against the VM's process and memory
// limits, and killed when the parent exits. It shows its parent's pid; its environment is a copy.
//
// Messages are V8's wire format written by the guest's own serializer (internal/v8-serializer.js) and carried
// as bytes over a socket pair (internal/worker-channel.js), so no object of either realm crosses; a message
// wakes the other side's event loop through its wake ring. `terminate()` kills the thread, `'exit'` carries
// its exit code and `'error'` the uncaught error rebuilt in the parent's realm; the thread's side is
// internal/worker-thread.js. MessagePorts in a transfer list are relayed (internal/worker-ports.js), and a
// SharedArrayBuffer is shared: its memory goes from one thread's runtime to the other's (the kernel links them,
// Sys.THREADOF), so Atomics between the threads work. Not available, with an error that says so: SHARE_ENV
// (a worker's environment is a copy) and the stdin/stdout/stderr options (it writes to its parent's stdio).
// MessageChannel, MessagePort and BroadcastChannel are the globals' (internal/message-port.js), within a thread;
// a BroadcastChannel does not reach other threads.
'use strict';

const {
  Error,
  MathCeil,
  ObjectKeys,
  Promise,
  PromiseReject,
  PromiseResolve,
  SafeArrayIterator,
  StringPrototypeStartsWith,
  SymbolFor,
  TypeError,
  ArrayIsArray,
  ArrayPrototypeMap,
  ArrayPrototypePush,
  ArrayPrototypeSplice,
} = require('internal/primordials');

const { codeError, invalidArgType, received } = require('internal/errors');
const EventEmitter = require('events');
const { MessageChannel, MessagePort, BroadcastChannel, receiveMessageOnPort } = require('internal/message-port');
const { KIND, openChannel, encodeMessage, decodeMessage, decodeError, portRelay } = require('internal/worker-channel');
const { state } = require('internal/worker-thread');
const sys = internal.sys;

const SHARE_ENV = SymbolFor('nodejs.worker_threads.SHARE_ENV');
const SIGKILL = 9;
/** Node's resourceLimits keys; only maxOldGenerationSizeMb changes anything (the kernel caps it at the process memory limit). */
const LIMIT_KEYS = ['maxYoungGenerationSizeMb', 'maxOldGenerationSizeMb', 'codeRangeSizeMb', 'stackSizeMb'];
let lastThreadId = 0;

/** The script a Worker runs, as an absolute path (a file: URL, or a path absolute or relative to the directory). */
function scriptPath(filename) {
  if (filename !== null && typeof filename === 'object' && typeof filename.href === 'string' && typeof filename.protocol === 'string') {
    if (filename.protocol !== 'file:') {
      throw codeError(TypeError, 'ERR_WORKER_UNSUPPORTED_PATH', `The worker script or module filename must be an absolute path or a relative path starting with './' or '../'. Received protocol '${filename.protocol}'`);
    }
    return require('url').fileURLToPath(filename);
  }
  if (typeof filename !== 'string') throw invalidArgType('filename', 'of type string or an instance of URL', filename);
  const path = require('path');
  if (!path.isAbsolute(filename) && !StringPrototypeStartsWith(filename, './') && !StringPrototypeStartsWith(filename, '../')) {
    throw codeError(TypeError, 'ERR_WORKER_PATH', `The worker script or module filename must be an absolute path or a relative path starting with './' or '../'. Received "${filename}"`);
  }
  return path.resolve(filename);
}

/** The worker's environment: a copy of `env` (process.env by default), as NAME=value entries. */
function environment(env) {
  const process = require('process');
  if (env === SHARE_ENV) {
    throw codeError(Error, 'ERR_ACCESS_DENIED', 'worker_threads.SHARE_ENV is not available in this VM: a Worker gets a copy of the environment');
  }
  if (env !== undefined && env !== null && typeof env !== 'object') {
    throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options.env" property must be of type object or one of undefined, null, or worker_threads.SHARE_ENV.${received(env)}`);
  }
  const from = env === undefined || env === null ? process.env : env;
  const entries = [];
  for (const key of new SafeArrayIterator(ObjectKeys(from))) ArrayPrototypePush(entries, `${key}=${from[key]}`);
  return entries;
}

/** Node's resourceLimits: each given number, the rest -1 (the parent's view; the thread's shows them as given). */
function limits(given) {
  const out = {};
  for (const key of new SafeArrayIterator(LIMIT_KEYS)) {
    const v = given !== null && typeof given === 'object' ? given[key] : undefined;
    out[key] = typeof v === 'number' && v > 0 ? v : key === 'stackSizeMb' ? 4 : -1;
  }
  return out;
}

class Worker extends EventEmitter {
  #pid = 0;
  #channel = null;
  #relay;
  #ended = false;
  #terminated = false;
  #exitCode = undefined;
  #limits;
  #waiters = [];

  constructor(filename, options) {
    super();
    // As Node's, options that are no object are as none.
    if (options === undefined || options === null || typeof options !== 'object') options = {};
    const isEval = !!options.eval;
    let file;
    if (isEval) {
      if (typeof filename !== 'string') {
        throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.eval' must be false when 'filename' is not a string. Received ${require('util').inspect(options.eval)}`);
      }
    } else file = scriptPath(filename);
    if (options.argv !== undefined && !ArrayIsArray(options.argv)) throw invalidArgType('options.argv', 'an instance of Array', options.argv);
    for (const name of new SafeArrayIterator(['stdin', 'stdout', 'stderr'])) {
      if (options[name]) throw codeError(Error, 'ERR_ACCESS_DENIED', `Worker option ${name}: true is not available in this VM: a Worker writes to its parent's stdout and stderr`);
    }
    const env = environment(options.env);
    this.#limits = limits(options.resourceLimits);
    const heapMb = this.#limits.maxOldGenerationSizeMb;
    const process = require('process');
    const threadId = ++lastThreadId;
    const init = {
      filename: file,
      code: isEval ? filename : undefined,
      eval: isEval,
      workerData: options.workerData,
      threadId,
      argv: options.argv === undefined ? [] : ArrayPrototypeMap(options.argv, (a) => `${a}`),
      resourceLimits: { ...this.#limits },
      pid: process.pid,
      ppid: process.ppid,
    };
    this.threadId = threadId;
    this.stdin = null;
    this.stdout = null;
    this.stderr = null;
    const argv = [process.execPath];
    if (heapMb > 0) ArrayPrototypePush(argv, `--max-old-space-size=${MathCeil(heapMb)}`);
    ArrayPrototypePush(env, 'NODE_WORKER_FD=3');
    let pair;
    try {
      pair = sys.spawnPair();
      try {
        this.#pid = sys.spawn(process.execPath, argv, env, process.cwd(), [-1, 1, 2], [[3, pair[1]]]);
        sys.threadOf(this.#pid);
      } finally {
        sys.close(pair[1]);
      }
    } catch (e) {
      if (pair) sys.close(pair[0]);
      // As Node when a thread cannot start: 'error' then 'exit'. EAGAIN is the VM's process limit.
      const err = codeError(Error, 'ERR_WORKER_INIT_FAILED', `Worker initialization failure: ${e.code === 'EAGAIN' ? 'EAGAIN: the VM runs as many processes as it may' : e.message}`);
      err.errno = e.errno;
      err.syscall = 'spawn';
      this.#ended = true;
      internal.nextTick(() => {
        this.emit('error', err);
        this.#end(1);
      });
      return;
    }
    this.#relay = portRelay((kind, bytes) => {
      if (this.#channel !== null) this.#channel.send(kind, bytes);
    }, () => this.#channel, this.#pid);
    let bytes;
    try {
      // Once the thread exists: its SharedArrayBuffers go to its runtime. What cannot be cloned throws, as Node's.
      bytes = encodeMessage(init, options.transferList, this.#relay);
    } catch (e) {
      sys.close(pair[0]);
      sys.kill(this.#pid, SIGKILL);
      sys.waitpid(this.#pid, true);
      throw e;
    }
    this.#channel = openChannel(pair[0], (kind, bytes) => this.#frame(kind, bytes), () => this.#closed(), true);
    this.#channel.send(KIND.INIT, bytes);
  }

  #frame(kind, bytes) {
    if (this.#terminated) return;
    if (kind === KIND.PORT_MESSAGE || kind === KIND.PORT_CLOSE) this.#relay.receive(kind, bytes);
    else if (kind === KIND.MESSAGE) this.emit('message', decodeMessage(bytes, this.#relay).value);
    else if (kind === KIND.ONLINE) this.emit('online');
    else if (kind === KIND.ERROR) this.emit('error', decodeError(bytes));
    else if (kind === KIND.EXIT) this.#exitCode = bytes[0];
  }

  /** The thread's end of the channel closed: it has exited (its fds close with it). */
  #closed() {
    let status = 0x100;
    try {
      status = sys.waitpid(this.#pid, true);
    } catch {
      // collected already: as an exit with 1
    }
    let code = this.#exitCode;
    if (code === undefined) {
      code = 1;
      // The kernel ends a thread whose heap ran out with Node's status for it (134) and tells nobody else.
      if (!this.#terminated && (status & 0x7f) === 0 && ((status >> 8) & 0xff) === 134) {
        this.emit('error', codeError(Error, 'ERR_WORKER_OUT_OF_MEMORY', 'Worker terminated due to reaching memory limit: JS heap out of memory'));
      }
    }
    this.#end(code);
  }

  #end(code) {
    this.#ended = true;
    if (this.#relay !== undefined) this.#relay.closeAll();
    this.#channel = null;
    this.threadId = -1;
    this.emit('exit', code);
    for (const resolve of new SafeArrayIterator(ArrayPrototypeSplice(this.#waiters, 0))) resolve(code);
  }

  postMessage(value, transferList) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "value" argument must be specified');
    if (this.#channel === null || this.#terminated) return;
    this.#channel.send(KIND.MESSAGE, encodeMessage(value, transferList, this.#relay));
  }

  terminate(callback) {
    if (typeof callback === 'function') {
      require('process').emitWarning('Passing a callback to worker.terminate() is deprecated. It returns a Promise instead.', 'DeprecationWarning', 'DEP0132');
      this.once('exit', (code) => callback(null, code));
    }
    if (this.#ended) return PromiseResolve(undefined);
    const done = new Promise((resolve) => ArrayPrototypePush(this.#waiters, resolve));
    if (!this.#terminated) {
      this.#terminated = true;
      try {
        sys.kill(this.#pid, SIGKILL);
      } catch {
        // it has exited already: its end of the channel is closing
      }
    }
    return done;
  }

  ref() {
    if (this.#channel !== null) this.#channel.setHeld(true);
  }

  unref() {
    if (this.#channel !== null) this.#channel.setHeld(false);
  }

  get resourceLimits() {
    return this.#ended ? {} : { ...this.#limits };
  }

  getHeapSnapshot() {
    return PromiseReject(codeError(Error, 'ERR_ACCESS_DENIED', 'worker.getHeapSnapshot() is not available in this VM'));
  }
}

module.exports = {
  isMainThread: state.isMainThread,
  parentPort: state.parentPort,
  workerData: state.workerData,
  threadId: state.threadId,
  resourceLimits: state.resourceLimits,
  Worker,
  MessageChannel,
  MessagePort,
  BroadcastChannel,
  receiveMessageOnPort,
  SHARE_ENV,
  markAsUntransferable() {},
  isMarkedAsUntransferable: () => false,
  getEnvironmentData() {},
  setEnvironmentData() {},
};
