// `worker_threads`: the guest is its process's only thread; creating a Worker is not available yet. Its
// MessageChannel, MessagePort and BroadcastChannel are the globals' (internal/message-port.js).
//
// The design a Worker is to have (not built yet, so `new Worker` fails with ERR_ACCESS_DENIED rather than half
// work): a guest Worker is a thread of its guest process, run as a guest process is: a worker thread of the
// pool with its own isolate, booted with the same runtime, its heap limit from `resourceLimits` within the
// process's memory limit, and counted by the kernel as a thread of the parent process (its pid, fd table,
// environment copy, memory and process limits). Messages are V8's wire format written by the guest's own
// serializer (internal/v8-serializer.js) and carried as bytes between the two runtimes, so no object of either
// worker's realm crosses; MessagePorts in a transfer list become ports relayed by the two runtimes, and
// SharedArrayBuffers are shared by their backing store (the bytes only), so Atomics between threads work.
// `terminate()` ends the thread's worker, `'exit'` carries its exit code and `'error'` the uncaught error
// rebuilt in the parent's realm. A separate VM process (as child_process.fork) is not enough: it could not
// share a SharedArrayBuffer, which piscina, esbuild-wasm and Atomics-based code need, and a copy would
// silently break them.
'use strict';

const {
  Error,
  SymbolFor,
} = require('internal/primordials');

const { codeError } = require('internal/errors');
const EventEmitter = require('events');
const { MessageChannel, MessagePort, BroadcastChannel, receiveMessageOnPort } = require('internal/message-port');

class Worker extends EventEmitter {
  constructor() {
    super();
    throw codeError(Error, 'ERR_ACCESS_DENIED', 'worker_threads.Worker is not available in this VM');
  }
}

module.exports = {
  isMainThread: true,
  parentPort: null,
  workerData: null,
  threadId: 0,
  resourceLimits: {},
  Worker,
  MessageChannel,
  MessagePort,
  BroadcastChannel,
  receiveMessageOnPort,
  SHARE_ENV: SymbolFor('nodejs.worker_threads.SHARE_ENV'),
  markAsUntransferable() {},
  getEnvironmentData() {},
  setEnvironmentData() {},
};
