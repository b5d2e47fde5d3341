// `domain` (deprecated in Node): `run`, `enter` and `exit` set `domain.active` and `process.domain`; an error
// thrown while a domain with an 'error' listener is entered (by `run`, a `bind`-bound function, …) is taken
// from the uncaught-exception path to that listener, through process.setUncaughtExceptionCaptureCallback as
// Node's domain does; `intercept` routes a callback's error argument there. Unlike Node's, a domain does not
// follow asynchronous work started inside it (timers, emitters): an error thrown there later stays uncaught.
'use strict';

const {
  ArrayPrototypeIndexOf,
  ArrayPrototypePop,
  ArrayPrototypePush,
  ArrayPrototypeSplice,
  ObjectDefineProperty,
  ReflectApply,
} = require('internal/primordials');

const EventEmitter = require('events');
const process = require('process');

const stack = [];
const exported = {};

function setActive(d) {
  exported.active = d;
  process.domain = d;
}

/** The capture callback is set while some entered domain listens for 'error' (Node's updateExceptionCapture). */
function updateExceptionCapture() {
  let listening = false;
  for (let i = 0; i < stack.length; i++) if (stack[i].listenerCount('error') > 0) listening = true;
  process.setUncaughtExceptionCaptureCallback(null);
  if (listening) process.setUncaughtExceptionCaptureCallback((er) => process.domain._errorHandler(er));
}

class Domain extends EventEmitter {
  constructor() {
    super();
    this.members = [];
    this.on('removeListener', updateExceptionCapture);
    this.on('newListener', updateExceptionCapture);
  }

  enter() {
    ArrayPrototypePush(stack, this);
    setActive(this);
    updateExceptionCapture();
  }

  exit() {
    const i = ArrayPrototypeIndexOf(stack, this);
    if (i === -1) return;
    ArrayPrototypeSplice(stack, i);
    setActive(stack[stack.length - 1]);
    updateExceptionCapture();
  }

  run(fn, ...args) {
    this.enter();
    const ret = ReflectApply(fn, this, args);
    this.exit();
    return ret;
  }

  add(ee) {
    if (ee.domain === this) return;
    if (ee.domain) ee.domain.remove(ee);
    ee.domain = this;
    ArrayPrototypePush(this.members, ee);
  }

  remove(ee) {
    ee.domain = null;
    const i = ArrayPrototypeIndexOf(this.members, ee);
    if (i !== -1) ArrayPrototypeSplice(this.members, i, 1);
  }

  bind(cb) {
    const d = this;
    const bound = function (...args) {
      d.enter();
      const ret = ReflectApply(cb, this, args);
      d.exit();
      return ret;
    };
    ObjectDefineProperty(bound, 'domain', { value: d, configurable: true, enumerable: false, writable: true });
    return bound;
  }

  intercept(cb) {
    const d = this;
    return function (err, ...args) {
      if (err) {
        if (typeof err === 'object') {
          ObjectDefineProperty(err, 'domain', { value: d, configurable: true, enumerable: false, writable: true });
          err.domainThrown = false;
          err.domainBound = cb;
        }
        d.emit('error', err);
        return undefined;
      }
      d.enter();
      const ret = ReflectApply(cb, this, args);
      d.exit();
      return ret;
    };
  }

  /** An uncaught error while this domain was entered: its 'error' listeners get it, and every domain is left. */
  _errorHandler(er) {
    let caught = false;
    if ((typeof er === 'object' && er !== null) || typeof er === 'function') {
      ObjectDefineProperty(er, 'domain', { value: this, configurable: true, enumerable: false, writable: true });
      er.domainThrown = true;
    }
    if (this.listenerCount('error') > 0) {
      process.setUncaughtExceptionCaptureCallback(null);
      try {
        caught = this.emit('error', er);
      } finally {
        updateExceptionCapture();
      }
    }
    stack.length = 0;
    setActive(null);
    updateExceptionCapture();
    return caught;
  }

  dispose() {
    this.exit();
    this.removeAllListeners();
    while (this.members.length > 0) this.remove(ArrayPrototypePop(this.members));
  }
}

exported.Domain = Domain;
exported._stack = stack;
exported.active = null;
exported.create = exported.createDomain = () => new Domain();
module.exports = exported;
