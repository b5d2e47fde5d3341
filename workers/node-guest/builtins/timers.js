'use strict';

const {
  Number,
  NumberIsFinite,
  ObjectDefineProperty,
  RangeError,
  WeakMap,
  StringPrototypeSplit,
  SafeWeakMap,
  SafeArrayIterator,
} = require('internal/primordials');

const t = require('internal/timers');
const { codeError, invalidArgType } = require('internal/errors');

const TIMEOUT_MAX = 2 ** 31 - 1;

// ---- the deprecated API that makes any object a timer (its `_onTimeout` runs after `_idleTimeout` ms) ----

/** The Timeout that stands behind each such object while it is scheduled. */
const scheduled = new SafeWeakMap();

function getTimerDuration(msecs, name) {
  if (typeof msecs !== 'number') throw invalidArgType(name, 'of type number', msecs);
  if (msecs < 0 || !NumberIsFinite(msecs)) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be a non-negative finite number. Received ${require('util').inspect(msecs)}`);
  if (msecs > TIMEOUT_MAX) {
    process.emitWarning(`${msecs} does not fit into a 32-bit signed integer.\nTimer duration was truncated to ${TIMEOUT_MAX}.`, 'TimeoutOverflowWarning');
    return TIMEOUT_MAX;
  }
  return msecs;
}

function stop(item) {
  const timeout = scheduled.get(item);
  if (timeout === undefined) return;
  scheduled.delete(item);
  t.clearTimeout(timeout);
}

function unenroll(item) {
  if (item._destroyed) return;
  item._destroyed = true;
  stop(item);
  item._idleNext = null;
  item._idlePrev = null;
  // `active` later does nothing.
  item._idleTimeout = -1;
}

function enroll(item, msecs) {
  msecs = getTimerDuration(msecs, 'msecs');
  if (item._idleNext) unenroll(item);
  // Node's timer lists are linked through the items: a lone item links to itself.
  item._idleNext = item;
  item._idlePrev = item;
  item._idleTimeout = msecs;
}

/** (Re)starts the item's timer, holding the loop or not. */
function insertGuarded(item, refed) {
  const msecs = item._idleTimeout;
  if (msecs < 0 || msecs === undefined) return;
  stop(item);
  const timeout = t.setTimeout(() => {
    scheduled.delete(item);
    item._onTimeout();
  }, msecs);
  if (!refed) timeout.unref();
  scheduled.set(item, timeout);
  item._destroyed = false;
}

const { deprecate } = require('util');

module.exports = {
  setTimeout: t.setTimeout,
  clearTimeout: t.clearTimeout,
  setImmediate: t.setImmediate,
  clearImmediate: t.clearImmediate,
  setInterval: t.setInterval,
  clearInterval: t.clearInterval,
  _unrefActive: deprecate(function _unrefActive(item) { insertGuarded(item, false); }, 'timers._unrefActive() is deprecated. Please use timeout.refresh() instead.', 'DEP0127'),
  active: deprecate(function active(item) { insertGuarded(item, true); }, 'timers.active() is deprecated. Please use timeout.refresh() instead.', 'DEP0126'),
  unenroll: deprecate(unenroll, 'timers.unenroll() is deprecated. Please use clearTimeout instead.', 'DEP0096'),
  enroll: deprecate(enroll, 'timers.enroll() is deprecated. Please use setTimeout instead.', 'DEP0095'),
  promises: undefined,
};
// Node 23 removed them.
if (Number(StringPrototypeSplit(process.versions.node, '.')[0]) >= 23) for (const name of new SafeArrayIterator(['_unrefActive', 'active', 'unenroll', 'enroll'])) delete module.exports[name];
ObjectDefineProperty(module.exports, 'promises', { get: () => require('timers/promises'), enumerable: true });
