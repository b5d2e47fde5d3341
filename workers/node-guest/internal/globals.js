// The guest's globals and its process's life: loaded by the bootstrap when the worker boots, so that a
// process finds them ready. `start` (internal/main.js) then gives the process its identity and runs it.
'use strict';

internal.sys = require('internal/sys');
const { codeError } = require('internal/errors');
const timers = require('internal/timers');
const asyncContext = require('internal/async-context');
const { TextEncoder, TextDecoder } = require('internal/encoding');
const { Event, EventTarget, AbortController, AbortSignal } = require('internal/event-target');

const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
const lazy = (name, get) =>
  Object.defineProperty(globalThis, name, {
    get() {
      const value = get();
      define(name, value);
      return value;
    },
    set(value) {
      define(name, value);
    },
    configurable: true,
    enumerable: false,
  });

define('global', globalThis);
define('setTimeout', timers.setTimeout);
define('setInterval', timers.setInterval);
define('setImmediate', timers.setImmediate);
define('clearTimeout', timers.clearTimeout);
define('clearInterval', timers.clearInterval);
define('clearImmediate', timers.clearImmediate);
define('queueMicrotask', function queueMicrotask(callback) {
  if (typeof callback !== 'function') throw require('internal/errors').invalidArgType('callback', 'of type function', callback);
  // In the async context it was queued in, as Node's (an AsyncResource) on any host.
  const frame = asyncContext.get();
  Promise.resolve().then(() => {
    try {
      asyncContext.runIn(frame, callback, undefined, []);
    } catch (e) {
      internal.fatal(e);
    }
  });
});
define('TextEncoder', TextEncoder);
define('TextDecoder', TextDecoder);
define('Event', Event);
define('EventTarget', EventTarget);
define('AbortController', AbortController);
define('AbortSignal', AbortSignal);

const process = require('process');
define('process', process);
const { Buffer } = require('buffer');
define('Buffer', Buffer);
define('atob', (data) => Buffer.from(`${data}`, 'base64').toString('latin1'));
define('btoa', (data) => Buffer.from(`${data}`, 'latin1').toString('base64'));
define('Blob', require('buffer').Blob);
define('File', require('buffer').File);
lazy('URL', () => require('internal/url').URL);
lazy('URLSearchParams', () => require('internal/url').URLSearchParams);
define('performance', {
  now: () => internal.host('hrtime'),
  timeOrigin: internal.host('now') - internal.host('hrtime'),
  mark() {},
  measure() {},
  toJSON() {
    return { timeOrigin: this.timeOrigin };
  },
});
/**
 * An fs callback's completion, delivered in the poll phase of the loop's next turn (runtime.ts ioDone), as
 * Node's thread pool delivers it: after the immediates already set, before the timers.
 */
const ioCallbacks = new Map();
let nextIo = 1;
internal.deferIO = (fn, ...args) => {
  const id = nextIo++;
  // In the async context of the call, as Node's request objects.
  ioCallbacks.set(id, [fn, args, asyncContext.get()]);
  timers.setImmediate(() => internal.host('ioDone', id));
};
/**
 * A macrotask in the poll phase of the loop's next turn, as Node delivers a MessagePort's message (the same
 * host channel as ioDone, without the immediate first); the loop is held until it runs.
 */
internal.postTask = (fn) => {
  const id = nextIo++;
  ioCallbacks.set(id, [fn, []]);
  internal.host('ioDone', id);
};
internal.on('io', (id) => {
  const entry = ioCallbacks.get(id);
  if (!entry) return;
  ioCallbacks.delete(id);
  if (entry.length === 3) asyncContext.runIn(entry[2], entry[0], undefined, entry[1]);
  else Reflect.apply(entry[0], undefined, entry[1]);
});
define('CustomEvent', class CustomEvent extends Event {
  constructor(type, options = {}) {
    super(type, options);
    this.detail = options.detail === undefined ? null : options.detail;
  }
});
define('structuredClone', function structuredClone(value, options) {
  if (arguments.length === 0) throw require('internal/errors').codeError(TypeError, 'ERR_MISSING_ARGS', 'The "value" argument must be specified');
  return require('internal/message-port').cloneWithTransfer(value, options == null ? undefined : options.transfer);
});
// The web platform's classes Node has as globals, made when first used.
for (const name of ['ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest', 'ReadableByteStreamController', 'ReadableStreamDefaultController', 'TransformStream', 'TransformStreamDefaultController', 'WritableStream', 'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy', 'TextEncoderStream', 'TextDecoderStream']) {
  lazy(name, () => require('stream/web')[name]);
}
for (const name of ['MessageChannel', 'MessagePort', 'MessageEvent', 'BroadcastChannel']) lazy(name, () => require('internal/message-port')[name]);
lazy('crypto', () => require('crypto').webcrypto);
for (const name of ['fetch', 'Headers', 'Request', 'Response', 'FormData']) lazy(name, () => require('internal/fetch')[name]);
delete globalThis.console;
// `require('console')` is the global console as it was made (internal/console.js), with its Console class.
const consoleModule = internal.loadFile('builtins/console');
internal.console = consoleModule.createGlobalConsole({ write: (s) => process.stdout.write(s) }, { write: (s) => process.stderr.write(s) });
if (!internal.console.Console) Object.defineProperty(internal.console, 'Console', { value: consoleModule.Console, writable: true, configurable: true });
define('console', internal.console);

// ---- stack traces ----

/**
 * Frames of the worker's own code (which calls into the guest) are not the guest's to see: the default
 * stack format (V8's: `Name: message` then `    at frame` lines) leaves them out. Node reads the guest
 * realm's Error.prepareStackTrace for the guest's errors; one the guest sets replaces this one.
 */
const RUNTIME_FRAME = /\/workers\/node-host\/|^node:internal\/(event_target|per_context|bootstrap)/;
const ErrorToString = Error.prototype.toString;
const StringOf = String;
function formatStack(error, trace) {
  let text;
  try {
    text = Reflect.apply(ErrorToString, error, []);
  } catch {
    text = '<error>';
  }
  for (let i = 0; i < trace.length; i++) {
    const site = trace[i];
    const file = site.getFileName();
    if (typeof file === 'string' && RUNTIME_FRAME.test(file)) continue;
    text += `\n    at ${StringOf(site)}`;
  }
  return text;
}
let guestPrepareStackTrace;
Object.defineProperty(Error, 'prepareStackTrace', {
  get: () => guestPrepareStackTrace ?? formatStack,
  set: (fn) => {
    guestPrepareStackTrace = fn === formatStack ? undefined : fn;
  },
  enumerable: false,
  configurable: true,
});

// ---- the process's life ----

let exiting = false;
/** Runs the `exit` listeners, once; an error in one is printed and the status is 1, as Node's. */
function emitExit() {
  if (exiting) return;
  exiting = true;
  process._exiting = true;
  try {
    process.emit('exit', exitCode());
  } catch (e) {
    printError(e);
    process.exitCode = 1;
  }
}

/** Ends the process: `exit` listeners run once, then the worker ends with the code. */
internal.exit = (code) => {
  if (code !== undefined) process.exitCode = code;
  emitExit();
  internal.host('exit', exitCode());
};

function exitCode() {
  const c = process.exitCode;
  if (c === undefined || c === null) return 0;
  const n = typeof c === 'number' ? c : Number(c);
  return Number.isInteger(n) ? n & 0xff : 1;
}

/** Frames of the worker's own code (which calls into the guest) say nothing to the guest's user. */
const HOST_FRAME = /^ {4}at .*(\/workers\/node-host\/|node:internal\/(event_target|per_context|bootstrap|main:)|\[nodejs\.internal)/;

function printError(error) {
  let text;
  // An 'error' event nobody listened for: Node shows where it was emitted (builtins/events.js).
  try {
    const enhance = error !== null && typeof error === 'object' ? error[internal.kEnhanceStackBeforeInspector] : undefined;
    if (typeof enhance === 'function') error.stack = enhance();
  } catch {
    // the stack as it is
  }
  try {
    text = error instanceof Error ? require('util').inspect(error) : `${require('util').inspect(error)}\n(Use \`node --trace-uncaught ...\` to show where the exception was thrown)`;
  } catch {
    text = String(error);
  }
  const lines = [];
  for (const line of text.split('\n')) {
    if (!HOST_FRAME.test(line)) lines.push(line);
    // The frame that ends the stack carries the opening of the error's properties.
    else if (line.endsWith(' {') && lines.length > 0) lines[lines.length - 1] += ' {';
  }
  text = lines.join('\n');
  try {
    require('internal/stdio').writeAll(2, `${text}\n\nNode.js ${process.version}\n`);
  } catch {
    // stderr is gone: nothing left to tell
  }
}

/** An error nothing caught: `uncaughtException` listeners, or the message and exit status 1. */
internal.fatal = (error, origin = 'uncaughtException') => {
  if (process.listenerCount('uncaughtException') > 0 && !exiting) {
    process.emit('uncaughtException', error, origin);
    return;
  }
  printError(error);
  process.exitCode = origin === 'unhandledRejection' && !(error instanceof Error) ? 1 : 1;
  internal.exit();
};

internal.on('fatal', (error) => internal.fatal(error));
internal.on('unhandledRejection', (reason, promise) => {
  if (process.listenerCount('unhandledRejection') > 0) return void process.emit('unhandledRejection', reason, promise);
  if (reason instanceof Error) return internal.fatal(reason, 'unhandledRejection');
  const text = typeof reason === 'string' ? reason : require('util').inspect(reason);
  const e = new Error(`This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "${text}".`);
  Object.defineProperty(e, 'name', { value: 'UnhandledPromiseRejection', enumerable: false, writable: true, configurable: true });
  e.stack = `${e.name}: ${e.message}`;
  e.code = 'ERR_UNHANDLED_REJECTION';
  internal.fatal(e, 'unhandledRejection');
});
internal.on('beforeExit', () => {
  if (!exiting) process.emit('beforeExit', exitCode());
});
internal.on('exit', () => {
  emitExit();
  return exitCode();
});
internal.on('makeError', (ctor, code, message, stack) => {
  const Ctor = globalThis[ctor] || Error;
  const e = code === undefined ? new Ctor(message) : codeError(Ctor, code, message);
  if (typeof stack === 'string') e.stack = stack;
  return e;
});

require('internal/main');
