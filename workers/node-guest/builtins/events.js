// `events`: the npm port of Node's EventEmitter, completed with what it lacks (events.on, errorMonitor,
// getEventListeners, setMaxListeners, addAbortListener).
'use strict';

const EventEmitter = internal.require('npm-events');

EventEmitter.errorMonitor = EventEmitter.errorMonitor || Symbol('events.errorMonitor');
EventEmitter.captureRejectionSymbol = Symbol.for('nodejs.rejection');
EventEmitter.getEventListeners = (emitter, name) => (typeof emitter.listeners === 'function' ? emitter.listeners(name) : []);
EventEmitter.setMaxListeners = (n = 10, ...targets) => {
  if (targets.length === 0) EventEmitter.defaultMaxListeners = n;
  for (const t of targets) if (typeof t.setMaxListeners === 'function') t.setMaxListeners(n);
};
EventEmitter.addAbortListener = (signal, listener) => {
  signal.addEventListener('abort', listener, { once: true });
  return { [Symbol.dispose || Symbol.for('Symbol.dispose')]: () => signal.removeEventListener('abort', listener) };
};

/** events.on: an async iterator over an event's arguments; 'error' rejects it. */
EventEmitter.on = function on(emitter, event, options = {}) {
  const queue = [];
  const waiting = [];
  let error = null;
  let done = false;
  const onEvent = (...args) => (waiting.length ? waiting.shift().resolve({ value: args, done: false }) : queue.push(args));
  const onError = (e) => {
    done = true;
    if (waiting.length) waiting.shift().reject(e);
    else error = e;
    finish();
  };
  const finish = () => {
    emitter.removeListener(event, onEvent);
    emitter.removeListener('error', onError);
  };
  emitter.on(event, onEvent);
  if (event !== 'error') emitter.on('error', onError);
  if (options.signal) options.signal.addEventListener('abort', () => onError(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' })), { once: true });
  return {
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
      if (error) {
        const e = error;
        error = null;
        return Promise.reject(e);
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      done = true;
      finish();
      for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(e) {
      onError(e);
      return Promise.reject(e);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
};

module.exports = EventEmitter;
