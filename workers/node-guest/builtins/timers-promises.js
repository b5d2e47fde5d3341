// timers/promises: the timers as promises, with AbortSignal support as in Node.
'use strict';

const {
  Error,
  Promise,
} = require('internal/primordials');

const t = require('internal/timers');

function abortError(signal) {
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  e.cause = signal.reason;
  return e;
}

function wrap(start, clear) {
  return (delay, value, options = {}) =>
    new Promise((resolve, reject) => {
      const signal = options.signal;
      if (signal && signal.aborted) return reject(abortError(signal));
      const timer = start(() => {
        if (signal) signal.removeEventListener('abort', onAbort);
        resolve(value);
      }, delay);
      if (options.ref === false) timer.unref();
      function onAbort() {
        clear(timer);
        reject(abortError(signal));
      }
      if (signal) signal.addEventListener('abort', onAbort, { once: true });
    });
}

const setTimeout = wrap((fn, ms) => t.setTimeout(fn, ms), t.clearTimeout);
const setImmediate = (value, options) => wrap((fn) => t.setImmediate(fn), t.clearImmediate)(0, value, options);

async function* setInterval(delay, value, options = {}) {
  while (true) {
    await setTimeout(delay, undefined, options);
    yield value;
  }
}

const scheduler = { wait: (ms, options) => setTimeout(ms, undefined, options), yield: () => setImmediate() };
module.exports = { setTimeout, setImmediate, setInterval, scheduler };
