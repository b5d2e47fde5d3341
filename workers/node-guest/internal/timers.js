// Timers of the guest: its objects (Timeout, Immediate) live in its realm; the worker's own timers stand
// behind them, keyed by a number, and fire through the dispatcher. Nothing of the worker's is reachable.
'use strict';

const {
  MathTrunc,
  Number,
  ObjectDefineProperty,
  Symbol,
  SymbolFor,
  SymbolToPrimitive,
  ArrayPrototypePush,
  SafeMap,
  SafeArrayIterator,
} = require('internal/primordials');

const host = internal.host;
const asyncContext = require('internal/async-context');
const active = new SafeMap();
let nextId = 1;

const kRefed = Symbol('refed');
const kId = Symbol('id');
/** The async context where the timer was made, which its callback runs in (every time, for an interval). */
const kFrame = Symbol('frame');

function validateCallback(callback) {
  if (typeof callback !== 'function') throw require('internal/errors').invalidArgType('callback', 'of type function', callback);
}

/** What Timeout and Immediate share: a number the host knows them by, and whether they hold the loop. */
class TimerHandle {
  constructor() {
    this[kId] = nextId++;
    this._destroyed = false;
    this[kRefed] = true;
    this[kFrame] = asyncContext.get();
    active.set(this[kId], this);
  }
  ref() {
    if (!this[kRefed]) host('timerRef', this[kId], true);
    this[kRefed] = true;
    return this;
  }
  unref() {
    if (this[kRefed]) host('timerRef', this[kId], false);
    this[kRefed] = false;
    return this;
  }
  hasRef() {
    return this[kRefed];
  }
}

class Timeout extends TimerHandle {
  constructor(callback, after, args, repeat) {
    super();
    this._onTimeout = callback;
    this._idleTimeout = after;
    this._timerArgs = args;
    this._repeat = repeat ? after : null;
    host('timerStart', this[kId], after, repeat);
  }
  refresh() {
    if (this._destroyed) return this;
    host('timerClear', this[kId]);
    host('timerStart', this[kId], this._idleTimeout, this._repeat !== null);
    if (!this[kRefed]) host('timerRef', this[kId], false);
    return this;
  }
  close() {
    clear(this);
    return this;
  }
  [SymbolToPrimitive]() {
    return this[kId];
  }
}

class Immediate extends TimerHandle {
  constructor(callback, args) {
    super();
    this._onImmediate = callback;
    this._argv = args;
    host('immediate', this[kId]);
  }
}

function clear(timer) {
  if (timer == null) return;
  const id = typeof timer === 'object' ? timer[kId] : typeof timer === 'number' || typeof timer === 'string' ? Number(timer) : undefined;
  const t = active.get(id);
  if (!t) return;
  active.delete(id);
  t._destroyed = true;
  host('timerClear', id);
}

const delay = (ms) => {
  ms = Number(ms);
  return ms >= 1 && ms <= 2147483647 ? MathTrunc(ms) : 1;
};

function setTimeout(callback, after, ...args) {
  validateCallback(callback);
  return new Timeout(callback, delay(after), args, false);
}
function setInterval(callback, repeat, ...args) {
  validateCallback(callback);
  return new Timeout(callback, delay(repeat), args, true);
}
function setImmediate(callback, ...args) {
  validateCallback(callback);
  return new Immediate(callback, args);
}

internal.on('timer', (id) => {
  const t = active.get(id);
  if (!t) return;
  if (t instanceof Immediate) {
    active.delete(id);
    t._destroyed = true;
    asyncContext.runIn(t[kFrame], t._onImmediate, t, t._argv);
    return;
  }
  if (t._repeat === null) {
    active.delete(id);
    t._destroyed = true;
  }
  asyncContext.runIn(t[kFrame], t._onTimeout, t, t._timerArgs);
});

/** Names of the timers that hold the loop, as process.getActiveResourcesInfo() lists them: timeouts, then immediates. */
function activeResources() {
  const timeouts = [];
  const immediates = [];
  for (const t of active.values()) if (t[kRefed]) ArrayPrototypePush(t instanceof Immediate ? immediates : timeouts, t instanceof Immediate ? 'Immediate' : 'Timeout');
  return [...new SafeArrayIterator(timeouts), ...new SafeArrayIterator(immediates)];
}

// util.promisify(setTimeout) and util.promisify(setImmediate) are timers/promises' functions, as in Node.
for (const entry$141 of new SafeArrayIterator([[setTimeout, 'setTimeout'], [setImmediate, 'setImmediate']])) { const fn = entry$141[0], name = entry$141[1];
  ObjectDefineProperty(fn, SymbolFor('nodejs.util.promisify.custom'), { __proto__: null, enumerable: true, get: () => require('timers/promises')[name] });
}

module.exports = { activeResources, Timeout, Immediate, setTimeout, setInterval, setImmediate, clearTimeout: clear, clearInterval: clear, clearImmediate: clear };
