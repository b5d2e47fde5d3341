// The guest's globals and its process's life: loaded by the bootstrap when the worker boots, so that a
// process finds them ready. `start` (internal/main.js) then gives the process its identity and runs it.
'use strict';

// Before anything else: what the realm allocates outside its heap is counted from here on.
require('internal/memory-limit');
// The intrinsics the runtime's modules take, captured now (they load lazily, after guest code may have run),
// and after the memory limit's wrappers, which they include.
const {
  ArrayIsArray,
  ObjectPrototypeHasOwnProperty,
  Proxy,
  RegExpPrototypeExec,
  SafeWeakMap,
  Error,
  Function,
  Map,
  Number,
  NumberIsInteger,
  Object,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  Promise,
  PromiseResolve,
  ReflectApply,
  String,
  Symbol,
  SymbolToStringTag,
  TypeError,
  WeakMap,
  ArrayPrototypePush, StringPrototypeCharCodeAt, StringPrototypeEndsWith, StringPrototypeSplit,
  SafeMap,
  SafeArrayIterator,
  PromisePrototypeThen,
  ArrayPrototypeJoin,
  ArrayPrototypeIndexOf, ArrayPrototypeMap, ArrayPrototypeSlice,
} = require('internal/primordials');
internal.sys = require('internal/sys');
const { codeError } = require('internal/errors');
const timers = require('internal/timers');
const asyncContext = require('internal/async-context');
const { TextEncoder, TextDecoder } = require('internal/encoding');
const { Event, EventTarget, AbortController, AbortSignal } = require('internal/event-target');

const define = (name, value) => ObjectDefineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
/** A lazy global's value, keeping the enumerability it was given. */
const redefine = (name, value) => ObjectDefineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: ObjectGetOwnPropertyDescriptor(globalThis, name).enumerable });
const lazy = (name, get) =>
  ObjectDefineProperty(globalThis, name, {
    get() {
      const value = get();
      redefine(name, value);
      return value;
    },
    set(value) {
      redefine(name, value);
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
  PromisePrototypeThen(PromiseResolve(), () => {
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
require('internal/buffer-primordials');
const DOMException = require('internal/dom-exception');
define('DOMException', DOMException);
const missingInput = () => codeError(TypeError, 'ERR_MISSING_ARGS', 'The "input" argument must be specified');
/** Forgiving base64 (infra.spec.whatwg.org), as Node checks it: ASCII whitespace first, then the alphabet, `=` last. */
const BASE64_CHARS = [0x09, 0x0a, 0x0c, 0x0d, 0x20];
{
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';
  for (let i = 0; i < alphabet.length; i++) ArrayPrototypePush(BASE64_CHARS, StringPrototypeCharCodeAt(alphabet, i));
}
const EQUAL_SIGN = BASE64_CHARS.length - 1;
define('atob', function atob(input) {
  if (arguments.length === 0) throw missingInput();
  input = `${input}`;
  let significant = 0;
  let equals = 0;
  for (let n = 0; n < input.length; n++) {
    const index = ArrayPrototypeIndexOf(BASE64_CHARS, StringPrototypeCharCodeAt(input, n));
    if (index === -1 || (index > 4 && ((index !== EQUAL_SIGN && equals > 0) || (index === EQUAL_SIGN && ++equals > 2)))) throw new DOMException('Invalid character', 'InvalidCharacterError');
    if (index > 4) significant++;
  }
  let remainder = significant % 4;
  if (remainder === 0) remainder = (significant - equals) % 4;
  else if (equals > 0) throw new DOMException('Invalid character', 'InvalidCharacterError');
  if (remainder === 1) throw new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  return Buffer.from(input, 'base64').toString('latin1');
});
define('btoa', function btoa(input) {
  if (arguments.length === 0) throw missingInput();
  input = `${input}`;
  for (let n = 0; n < input.length; n++) if (StringPrototypeCharCodeAt(input, n) > 0xff) throw new DOMException('Invalid character', 'InvalidCharacterError');
  return Buffer.from(input, 'latin1').toString('base64');
});
define('Blob', require('buffer').Blob);
define('File', require('buffer').File);
lazy('URL', () => require('internal/url').URL);
lazy('URLSearchParams', () => require('internal/url').URLSearchParams);
lazy('performance', () => require('perf_hooks').performance);
for (const name of new SafeArrayIterator(['Performance', 'PerformanceEntry', 'PerformanceMark', 'PerformanceMeasure', 'PerformanceObserver', 'PerformanceObserverEntryList', 'PerformanceResourceTiming'])) lazy(name, () => require('perf_hooks')[name]);
/**
 * An fs callback's completion, delivered in the poll phase of the loop's next turn (runtime.ts ioDone), as
 * Node's thread pool delivers it: after the immediates already set, before the timers.
 */
const ioCallbacks = new SafeMap();
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
  else ReflectApply(entry[0], undefined, entry[1]);
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
for (const name of new SafeArrayIterator(['ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest', 'ReadableByteStreamController', 'ReadableStreamDefaultController', 'TransformStream', 'TransformStreamDefaultController', 'WritableStream', 'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy', 'TextEncoderStream', 'TextDecoderStream', 'CompressionStream', 'DecompressionStream'])) {
  lazy(name, () => require('stream/web')[name]);
}
for (const name of new SafeArrayIterator(['MessageChannel', 'MessagePort', 'MessageEvent', 'BroadcastChannel'])) lazy(name, () => require('internal/message-port')[name]);
lazy('crypto', () => require('crypto').webcrypto);
for (const name of new SafeArrayIterator(['Crypto', 'CryptoKey', 'SubtleCrypto'])) lazy(name, () => require('internal/webcrypto')[name]);
for (const name of new SafeArrayIterator(['fetch', 'Headers', 'Request', 'Response', 'FormData'])) lazy(name, () => require('internal/fetch')[name]);
delete globalThis.console;
// `require('console')` is the global console as it was made (internal/console.js), with its Console class.
const consoleModule = internal.loadFile('builtins/console');
internal.console = consoleModule.createGlobalConsole({ write: (s) => process.stdout.write(s) }, { write: (s) => process.stderr.write(s) });
if (!internal.console.Console) ObjectDefineProperty(internal.console, 'Console', { value: consoleModule.Console, writable: true, configurable: true });
define('console', internal.console);

// ---- stack traces ----

/**
 * Frames of the worker's own code (which calls into the guest) are not the guest's to see, nor those of the
 * memory limit's wrappers of built-ins (which stand for the built-ins): the default stack format (V8's:
 * `Name: message` then `    at frame` lines) leaves them out. Node reads the guest
 * realm's Error.prepareStackTrace for the guest's errors; one the guest sets replaces this one.
 */
const RUNTIME_FRAME = /\/workers\/node-host\/|^node:internal\/(event_target|per_context|bootstrap|memory-limit)/;
const ErrorToString = Error.prototype.toString;
const StringOf = String;
function formatStack(error, trace) {
  let text;
  try {
    text = ReflectApply(ErrorToString, error, []);
  } catch {
    text = '<error>';
  }
  for (let i = 0; i < trace.length; i++) {
    const site = trace[i];
    const file = callSiteFileName(site);
    if (typeof file === 'string' && RegExpPrototypeExec(RUNTIME_FRAME, file) !== null) continue;
    text += `\n    at ${StringOf(site)}`;
  }
  return text;
}
/** A CallSite's file name, by the method captured now (a guest may replace the prototype's). */
const callSiteFileName = (() => {
  let sites;
  ObjectDefineProperty(Error, 'prepareStackTrace', { __proto__: null, value: (e, trace) => trace, writable: true, configurable: true });
  try {
    sites = new Error().stack;
  } finally {
    delete Error.prepareStackTrace;
  }
  const getFileName = ArrayIsArray(sites) && sites.length > 0 ? ObjectGetPrototypeOf(sites[0]).getFileName : undefined;
  return typeof getFileName === 'function' ? (site) => ReflectApply(getFileName, site, []) : (site) => site.getFileName();
})();
/** The CallSites of `trace` the guest is to see: none of the runtime's frames listed above. */
function guestFrames(trace) {
  const out = [];
  for (let i = 0; i < trace.length; i++) {
    const file = callSiteFileName(trace[i]);
    if (typeof file !== 'string' || RegExpPrototypeExec(RUNTIME_FRAME, file) === null) out[out.length] = trace[i];
  }
  return out;
}
/**
 * A guest's Error.prepareStackTrace is given the CallSites without the runtime's frames, as Node's own frames
 * would not be there (a built-in the memory limit wraps is native code in Node): it is called through a Proxy
 * of it (same name, length and source), which the getter answers and the setter takes back as the guest's.
 */
let guestPrepareStackTrace;
let guestPrepareProxy;
const preparers = new SafeWeakMap();
ObjectDefineProperty(Error, 'prepareStackTrace', {
  __proto__: null,
  get: () => guestPrepareProxy ?? formatStack,
  set: (fn) => {
    const own = preparers.get(fn);
    if (own !== undefined) fn = own;
    if (fn === formatStack || fn === undefined) {
      guestPrepareStackTrace = guestPrepareProxy = undefined;
    } else if (typeof fn === 'function') {
      guestPrepareStackTrace = fn;
      guestPrepareProxy = new Proxy(fn, { __proto__: null, apply: (target, self, args) => ReflectApply(target, self, [args[0], ArrayIsArray(args[1]) ? guestFrames(args[1]) : args[1]]) });
      preparers.set(guestPrepareProxy, fn);
    } else {
      // Not a function: V8 then formats the stack itself, as Node does.
      guestPrepareStackTrace = guestPrepareProxy = fn;
    }
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
  if (internal.onExit) internal.onExit(exitCode());
  internal.host('exit', exitCode());
};

function exitCode() {
  const c = process.exitCode;
  if (c === undefined || c === null) return 0;
  const n = typeof c === 'number' ? c : Number(c);
  return NumberIsInteger(n) ? n & 0xff : 1;
}

/** Frames of the worker's own code (which calls into the guest) say nothing to the guest's user. */
const HOST_FRAME = /^ {4}at .*(\/workers\/node-host\/|node:internal\/(event_target|per_context|bootstrap)|\[nodejs\.internal)/;

/** Source lines Node prints above an error of its own (the UnhandledPromiseRejection it throws). */
const sourceLines = new SafeWeakMap();
const isNativeError = (v) => require('util').types.isNativeError(v) || v instanceof Error;

function printError(error) {
  let text;
  // An 'error' event nobody listened for: Node shows where it was emitted (builtins/events.js).
  try {
    const enhance = error !== null && typeof error === 'object' ? error[internal.kEnhanceStackBeforeInspector] : undefined;
    if (typeof enhance === 'function') error.stack = enhance();
  } catch {
    // the stack as it is
  }
  // Node prints a thrown value that is no Error after a blank line (then the throw's source line, which the
  // guest cannot know); a primitive as a string, with a hint as it has no stack.
  try {
    if (isNativeError(error)) text = `${sourceLines.get(error) ?? ''}${require('util').inspect(error)}`;
    else if (error !== null && (typeof error === 'object' || typeof error === 'function')) text = `\n${require('util').inspect(error)}`;
    else text = `\n${typeof error === 'symbol' ? '' : StringOf(error)}\n(Use \`node --trace-uncaught ...\` to show where the exception was thrown)`;
  } catch {
    text = '<toString() threw exception>';
  }
  const lines = [];
  for (const line of new SafeArrayIterator(StringPrototypeSplit(text, '\n'))) {
    if (!(RegExpPrototypeExec(HOST_FRAME, line) !== null)) ArrayPrototypePush(lines, line);
    // The frame that ends the stack carries the opening of the error's properties.
    else if (StringPrototypeEndsWith(line, ' {') && lines.length > 0) lines[lines.length - 1] += ' {';
  }
  text = ArrayPrototypeJoin(lines, '\n');
  try {
    require('internal/stdio').writeAll(2, `${text}\n\nNode.js ${process.version}\n`);
  } catch {
    // stderr is gone: nothing left to tell
  }
}

/** An error nothing caught: `uncaughtException` listeners, or the message and exit status 1. */
internal.fatal = (error, origin = 'uncaughtException') => {
  // process.setUncaughtExceptionCaptureCallback's callback takes the error instead (builtins/process.js).
  if (internal.uncaughtCapture !== null && !exiting) return void internal.uncaughtCapture(error);
  if (process.listenerCount('uncaughtException') > 0 && !exiting) {
    process.emit('uncaughtException', error, origin);
    return;
  }
  // A Worker's thread gives it to its parent's 'error' event instead (internal/worker-thread.js).
  if (internal.onFatal) internal.onFatal(error);
  else printError(error);
  process.exitCode = 1;
  internal.exit();
};

internal.on('fatal', (error) => internal.fatal(error));
// ---- rejections nobody handled ----

/**
 * Where Node's own UnhandledPromiseRejection is made and thrown, by major (the line it prints above it, then
 * its stack); majors between take the older one's.
 */
const REJECTION_SITES = {
  20: [389, 'throwUnhandledRejectionsMode (node:internal/process/promises:389:7)', 'processPromiseRejections (node:internal/process/promises:470:17)', 'process.processTicksAndRejections (node:internal/process/task_queues:96:32)'],
  24: [392, 'throwUnhandledRejectionsMode (node:internal/process/promises:392:7)', 'processPromiseRejections (node:internal/process/promises:475:17)', 'process.processTicksAndRejections (node:internal/process/task_queues:106:37)'],
};

const FunctionToString = Function.prototype.toString;
const ObjectToString = Object.prototype.toString;
/** A data property of `o` or its prototypes (an accessor's value is not read). */
function dataProperty(o, key) {
  for (let p = o; p !== null; p = ObjectGetPrototypeOf(p)) {
    const d = ObjectGetOwnPropertyDescriptor(p, key);
    if (d) return 'value' in d ? d.value : undefined;
  }
  return undefined;
}
/** V8's NoSideEffectsToString, as Node quotes a rejection's reason: `#<Ctor>` for a plain object, … */
function reasonText(reason) {
  try {
    if (typeof reason === 'string') return reason;
    if (typeof reason === 'symbol') return `Symbol(${reason.description ?? ''})`;
    if (typeof reason === 'function') return ReflectApply(FunctionToString, reason, []);
    if (reason === null || typeof reason !== 'object') return StringOf(reason);
    const toString = dataProperty(reason, 'toString');
    if (isNativeError(reason) || toString === ErrorToString) return `${dataProperty(reason, 'name') ?? 'Error'}: ${dataProperty(reason, 'message') ?? ''}`;
    if (toString === ObjectToString) {
      const ctor = dataProperty(reason, 'constructor');
      const name = typeof ctor === 'function' ? dataProperty(ctor, 'name') : undefined;
      if (typeof name === 'string' && name !== '') return `#<${name}>`;
    }
    const tag = dataProperty(reason, SymbolToStringTag);
    return typeof tag === 'string' ? `[object ${tag}]` : ReflectApply(ObjectToString, reason, []);
  } catch {
    return '[object Object]';
  }
}

/** The error Node throws for a rejection with a reason that has no stack. */
function unhandledPromiseRejection(reason) {
  const e = new Error(`This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "${reasonText(reason)}".`);
  ObjectDefineProperty(e, 'name', { value: 'UnhandledPromiseRejection', enumerable: false, writable: true, configurable: true });
  e.code = 'ERR_UNHANDLED_REJECTION';
  const major = Number(StringPrototypeSplit(process.versions.node, '.')[0]);
  const site = REJECTION_SITES[major >= 24 ? 24 : 20];
  e.stack = `${e.name}: ${e.message}${ArrayPrototypeJoin(ArrayPrototypeMap(ArrayPrototypeSlice(site, 1), (frame) => `\n    at ${frame}`), '')}`;
  sourceLines.set(e, `node:internal/process/promises:${site[0]}\n      new UnhandledPromiseRejection(reason);\n      ^\n\n`);
  return e;
}

class PromiseRejectionHandledWarning extends Error {
  constructor(uid) {
    super(`Promise rejection was handled asynchronously (rejection id: ${uid})`);
    this.name = 'PromiseRejectionHandledWarning';
    this.id = uid;
  }
}

/** The ids of the rejections reported to the guest, for the warning of one handled later. */
const rejectionIds = new SafeWeakMap();
let lastRejectionId = 0;
// A reported rejection whose promise gets a handler later (the worker's Node sees it: runtime.ts).
internal.on('rejectionHandled', (promise) => {
  if (!process.emit('rejectionHandled', promise)) process.emitWarning(new PromiseRejectionHandledWarning(rejectionIds.get(promise) ?? ++lastRejectionId));
});

internal.on('unhandledRejection', (reason, promise) => {
  if (promise !== null && typeof promise === 'object') rejectionIds.set(promise, ++lastRejectionId);
  if (process.listenerCount('unhandledRejection') > 0) return void process.emit('unhandledRejection', reason, promise);
  // Node's test: a reason with its own stack is thrown as it is.
  const errorLike = reason !== null && typeof reason === 'object' && ObjectPrototypeHasOwnProperty(reason, 'stack');
  internal.fatal(errorLike ? reason : unhandledPromiseRejection(reason), 'unhandledRejection');
});
internal.on('beforeExit', () => {
  if (!exiting) process.emit('beforeExit', exitCode());
});
internal.on('exit', () => {
  emitExit();
  if (internal.onExit) internal.onExit(exitCode());
  return exitCode();
});
internal.on('makeError', (ctor, code, message, stack) => {
  const Ctor = globalThis[ctor] || Error;
  const e = code === undefined ? new Ctor(message) : codeError(Ctor, code, message);
  if (typeof stack === 'string') e.stack = stack;
  return e;
});

// Node's own globals are enumerable, in this order (the web platform's are not).
for (const name of new SafeArrayIterator(['global', 'clearImmediate', 'setImmediate', 'clearInterval', 'clearTimeout', 'setInterval', 'setTimeout', 'queueMicrotask', 'structuredClone', 'atob', 'btoa', 'performance', 'fetch', 'crypto'])) {
  const d = ObjectGetOwnPropertyDescriptor(globalThis, name);
  delete globalThis[name];
  ObjectDefineProperty(globalThis, name, { ...d, enumerable: true });
}

require('internal/main');
