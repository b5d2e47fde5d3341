// The guest's `util`. inspect/format come from node-inspect-extracted (Node's own inspect.js with its V8
// bindings emulated in JS); the rest is written here against internal/primordials (the intrinsics as they were
// before any guest code ran), so guest code that replaces globals cannot change how the guest's console prints.
//
// What only V8 knows (a promise's state, a proxy's target and handler, an iterator's entries) the host reads
// with V8's introspection (workers/node-host/inspect-ops.ts). Known difference from Node:
// - the bundle follows a recent Node (22+); it is patched so that, when the guest reports Node 20/21,
//   symbol keys and ArrayBuffer/DataView fields print as Node 20's.
'use strict';

const {
  ObjectDefineProperty,
  ObjectGetPrototypeOf,
  ObjectSetPrototypeOf,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyDescriptors,
  ObjectDefineProperties,
  ObjectKeys,
  ArrayIsArray,
  ReflectApply,
  JSONStringify,
  StringPrototypeReplace,
  StringPrototypeToUpperCase,
  StringPrototypeSlice,
  StringPrototypeStartsWith,
  StringPrototypeIndexOf,
  RegExpPrototypeExec,
  ArrayPrototypePush,
  ArrayPrototypeJoin,
  ArrayPrototypeSlice,
  SetPrototypeHas,
  SetPrototypeAdd,
  PromisePrototypeThen,
  PromiseResolve,
  StringPrototypeSearch,
  StringPrototypeToLowerCase,
  ObjectPrototypeToString,
  ObjectPrototypeHasOwnProperty,
  FunctionPrototypeToString,
  ArrayBuffer,
  DataView,
  Date,
  Error,
  Map,
  Number,
  NumberIsSafeInteger,
  Promise,
  RangeError,
  ReflectConstruct,
  ReflectOwnKeys,
  ReflectDefineProperty,
  RegExp,
  Set,
  String,
  Symbol,
  SymbolFor,
  SymbolIterator,
  SymbolToStringTag,
  TypeError,
  Uint8Array,
  BigIntPrototypeValueOf,
  BooleanPrototypeValueOf,
  DatePrototypeGetTime,
  NumberPrototypeValueOf,
  StringPrototypeValueOf,
  SymbolPrototypeValueOf,
  WeakMapPrototypeHas,
  WeakSetPrototypeHas,
  RegExpPrototypeGetSource,
  MapPrototypeGetSize,
  SetPrototypeGetSize,
  ArrayBufferPrototypeGetByteLength,
  SharedArrayBufferPrototypeGetByteLength,
  DataViewPrototypeGetByteLength,
  TypedArrayPrototypeGetSymbolToStringTag,
  ErrorIsError,
  ArrayPrototypePop,
  SafeMap,
  SafeArrayIterator,
  ArrayPrototypeIncludes, MapPrototypeGet, MapPrototypeSet,
  DatePrototypeGetDate, DatePrototypeGetHours, DatePrototypeGetMinutes, DatePrototypeGetMonth, DatePrototypeGetSeconds,
  hardenRegExp,
} = require('internal/primordials');

// The bundle is compiled with textual patches (workers/node-host/inspect-patches.ts) that make its output Node
// 20's when the guest reports Node 20/21, and ask the hooks below for what V8 alone knows.
function loadInspect() {
  const host = internal.host;
  try {
    const hooks = {
      node20: () => nodeMajor() < 22,
      proxyMarks: () => nodeMajor() >= 25,
      isNativeError: (v) => isNativeError(v),
      plainField: (v) => nodeMajor() < 22 && (isAnyArrayBuffer(v) || isDataView(v)),
      promiseDetails: (p, kPending, kRejected) => {
        const state = host('promiseState', p);
        return state === 1 || state === 2 ? [state === 2 ? kRejected : state, host('promiseResult', p)] : [kPending, undefined];
      },
      proxyDetails: (value, withHandler = true) => {
        if (internal.isIntrinsicWrapper(value)) return undefined;
        const target = host('proxyPart', value, 0);
        if (target === '\0' || internal.isFailure(target)) return undefined;
        return withHandler ? [target, host('proxyPart', value, 1)] : target;
      },
      primordials: require('internal/primordials'),
      /** The bundle's primordials object, before it freezes it: each function the runtime's primordials also have becomes theirs. */
      adoptPrimordials: (own) => {
        const primordials = require('internal/primordials');
        const keys = ReflectOwnKeys(own);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i];
          // (A function copied from a non-writable slot, such as Symbol.hasInstance's, keeps the bundle's.)
          if (typeof key === 'string' && typeof own[key] === 'function' && typeof primordials[key] === 'function') ReflectDefineProperty(own, key, { __proto__: null, value: primordials[key] });
        }
      },
      previewEntries: (value, isIterator) => {
        const entries = [];
        const pairs = host('previewEntries', value, entries);
        return isIterator === true ? [entries, pairs === true] : entries;
      },
    };
    const fn = internal.compileInspect();
    if (typeof fn !== 'function') return require('node-inspect-extracted');
    const mod = { exports: {} };
    ReflectApply(fn, mod.exports, [mod.exports, (name) => internal.builtin(name), mod, hooks]);
    return mod.exports;
  } catch {
    return require('node-inspect-extracted');
  }
}

const G = globalThis;

/** The major version of Node the guest reports: process.versions is set when the process starts, so read it at call time. */
function nodeMajor() {
  const versions = require('process').versions;
  const version = versions !== null && typeof versions === 'object' && typeof versions.node === 'string' ? versions.node : '20.0.0';
  return +StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.'));
}
const PromiseCtor = Promise;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const SetCtor = Set;
const uncurry = (fn) => (self, ...args) => ReflectApply(fn, self, args);

// Brand checks: each calls an intrinsic that throws on a receiver without the internal slot.
/** A brand check by `f`, an uncurried intrinsic that throws on a receiver without its internal slot. */
const brand = (f) => {
  return (v) => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return false;
    try { f(v); return true; } catch { return false; }
  };
};
const getter = (proto, name) => ObjectGetOwnPropertyDescriptor(proto, name).get;
const TypedArrayProto = ObjectGetPrototypeOf(Uint8Array.prototype);
const typedArrayTag = TypedArrayPrototypeGetSymbolToStringTag;
const tagOf = (v) => (v !== null && typeof v === 'object' ? typedArrayTag(v) : undefined);
const typeTag = (name) => (v) => tagOf(v) === name;

const isDate = brand(DatePrototypeGetTime);
const isRegExp = brand(RegExpPrototypeGetSource);
const isMap = brand(MapPrototypeGetSize);
const isSet = brand(SetPrototypeGetSize);
const isWeakMap = brand(WeakMapPrototypeHas);
const isWeakSet = brand(WeakSetPrototypeHas);
const isArrayBuffer = brand(ArrayBufferPrototypeGetByteLength);
const isSharedArrayBuffer = typeof SharedArrayBufferPrototypeGetByteLength === 'function' ? brand(SharedArrayBufferPrototypeGetByteLength) : () => false;
const isDataView = brand(DataViewPrototypeGetByteLength);
const isNumberObject = (v) => typeof v === 'object' && brand(NumberPrototypeValueOf)(v);
const isStringObject = (v) => typeof v === 'object' && brand(StringPrototypeValueOf)(v);
const isBooleanObject = (v) => typeof v === 'object' && brand(BooleanPrototypeValueOf)(v);
const isBigIntObject = (v) => typeof v === 'object' && brand(BigIntPrototypeValueOf)(v);
const isSymbolObject = (v) => typeof v === 'object' && brand(SymbolPrototypeValueOf)(v);
// A promise's `then` is observable; the constructor check below uses the spec's
// Promise.resolve identity (a real promise of this realm is returned as is) instead.
const isPromise = (v) => {
  if (v === null || typeof v !== 'object') return false;
  try { return PromiseResolve(v) === v || ObjectPrototypeToString(v) === '[object Promise]'; } catch { return false; }
};
const isNativeError = (v) => {
  if (v === null || typeof v !== 'object') return false;
  if (typeof ErrorIsError === 'function') return ErrorIsError(v);
  return v instanceof ErrorCtor || ObjectPrototypeToString(v) === '[object Error]';
};
const fnSource = (v) => { try { return FunctionPrototypeToString(v); } catch { return ''; } };
const AsyncFunctionProto = ObjectGetPrototypeOf(async function () {});
const GeneratorFunctionProto = ObjectGetPrototypeOf(function* () {});
const AsyncGeneratorFunctionProto = ObjectGetPrototypeOf(async function* () {});
const protoChainHas = (v, p) => {
  for (let o = v; o !== null; o = ObjectGetPrototypeOf(o)) if (o === p) return true;
  return false;
};
const isAsyncFunction = (v) => typeof v === 'function' &&
  (protoChainHas(v, AsyncFunctionProto) || protoChainHas(v, AsyncGeneratorFunctionProto) ||
   RegExpPrototypeExec(/^async\b/, fnSource(v)) !== null);
const isGeneratorFunction = (v) => typeof v === 'function' &&
  (protoChainHas(v, GeneratorFunctionProto) || protoChainHas(v, AsyncGeneratorFunctionProto));
const isMapIterator = (v) => v !== null && typeof v === 'object' && ObjectPrototypeToString(v) === '[object Map Iterator]';
const isSetIterator = (v) => v !== null && typeof v === 'object' && ObjectPrototypeToString(v) === '[object Set Iterator]';
const isGeneratorObject = (v) => v !== null && typeof v === 'object' && ObjectPrototypeToString(v) === '[object Generator]';
const isArgumentsObject = (v) => v !== null && typeof v === 'object' && ObjectPrototypeToString(v) === '[object Arguments]';
const isModuleNamespaceObject = (v) => v !== null && typeof v === 'object' && ObjectGetPrototypeOf(v) === null &&
  ObjectGetOwnPropertyDescriptor(v, SymbolToStringTag)?.value === 'Module';

/** V8 alone knows (inspect-ops.ts); the runtime's wrappers of built-ins (internal/memory-limit.js) are the built-ins. */
const isProxy = (v) => {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function') || internal.isIntrinsicWrapper(v)) return false;
  const target = internal.host('proxyPart', v, 0);
  return target !== '\0' && !internal.isFailure(target);
};

const types = {
  isExternal: () => false,
  isDate, isArgumentsObject, isBigIntObject, isBooleanObject, isNumberObject, isStringObject, isSymbolObject,
  isBoxedPrimitive: (v) => isNumberObject(v) || isStringObject(v) || isBooleanObject(v) || isBigIntObject(v) || isSymbolObject(v),
  isNativeError, isRegExp, isAsyncFunction, isGeneratorFunction, isGeneratorObject, isPromise, isMap, isSet,
  isMapIterator, isSetIterator, isWeakMap, isWeakSet, isArrayBuffer, isDataView, isSharedArrayBuffer,
  isProxy,
  isModuleNamespaceObject,
  isAnyArrayBuffer: (v) => isArrayBuffer(v) || isSharedArrayBuffer(v),
  isCryptoKey: () => false, isKeyObject: () => false,
  isArrayBufferView: (v) => tagOf(v) !== undefined || isDataView(v),
  isTypedArray: (v) => tagOf(v) !== undefined,
  isUint8Array: typeTag('Uint8Array'), isUint8ClampedArray: typeTag('Uint8ClampedArray'),
  isUint16Array: typeTag('Uint16Array'), isUint32Array: typeTag('Uint32Array'),
  isInt8Array: typeTag('Int8Array'), isInt16Array: typeTag('Int16Array'), isInt32Array: typeTag('Int32Array'),
  isFloat16Array: typeTag('Float16Array'), isFloat32Array: typeTag('Float32Array'), isFloat64Array: typeTag('Float64Array'),
  isBigInt64Array: typeTag('BigInt64Array'), isBigUint64Array: typeTag('BigUint64Array'),
};

// Node-style errors: `TypeError [ERR_X]: msg` in the stack, `code` as an own property.
function nodeError(Ctor, code, message) {
  const err = new Ctor(message);
  ObjectDefineProperty(err, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  const stack = err.stack;
  if (typeof stack === 'string') {
    err.stack = `${err.name} [${code}]: ${message}${StringPrototypeSlice(stack, StringPrototypeIndexOf(stack, '\n') === -1 ? stack.length : StringPrototypeIndexOf(stack, '\n'))}`;
  }
  return err;
}
const describe = (v) => {
  if (v == null) return ` Received ${v}`;
  if (typeof v === 'function') return ` Received function ${v.name}`;
  if (typeof v === 'object') {
    if (v.constructor?.name) return ` Received an instance of ${v.constructor.name}`;
    return ` Received ${ie.inspect(v, { depth: -1 })}`;
  }
  let shown = ie.inspect(v, { colors: false });
  if (shown.length > 28) shown = `${StringPrototypeSlice(shown, 0, 25)}...`;
  return ` Received type ${typeof v} (${shown})`;
};
function invalidArgType(name, expected, actual) {
  return nodeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', `The "${name}" argument must be ${expected}.${describe(actual)}`);
}

const isAnyArrayBuffer = (v) => isArrayBuffer(v) || isSharedArrayBuffer(v);
const ie = loadInspect();

// node-inspect-extracted resolves `URL` lazily, on the first object it prints, and caches what it found.
// Resolve it now, while the runtime's globals are intact; with no URL at all, a stand-in no value is an
// instance of keeps every later call working.
(function warmUp() {
  const had = ObjectPrototypeHasOwnProperty(G, 'URL');
  if (!had || typeof G.URL !== 'function') {
    const prev = ObjectGetOwnPropertyDescriptor(G, 'URL');
    ObjectDefineProperty(G, 'URL', { value: class URL {}, configurable: true, writable: true });
    try { ie.inspect({}); } finally {
      if (prev) ObjectDefineProperty(G, 'URL', prev); else delete G.URL;
    }
  } else {
    ie.inspect({});
  }
})();

const inspect = ie.inspect;
const format = ie.format;
const formatWithOptions = ie.formatWithOptions;

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw invalidArgType('ctor', 'of type function', ctor);
  if (superCtor === undefined || superCtor === null) throw invalidArgType('superCtor', 'of type function', superCtor);
  if (superCtor.prototype === undefined) {
    throw invalidArgType('superCtor.prototype', 'of type object', superCtor.prototype);
  }
  ObjectDefineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  ObjectSetPrototypeOf(ctor.prototype, superCtor.prototype);
}

const kCustomPromisified = SymbolFor('nodejs.util.promisify.custom');
const kCustomPromisifyArgs = Symbol('customPromisifyArgs');
function promisify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'of type function', original);
  if (original[kCustomPromisified]) {
    const fn = original[kCustomPromisified];
    if (typeof fn !== 'function') throw invalidArgType('util.promisify.custom', 'of type function', fn);
    return ObjectDefineProperty(fn, kCustomPromisified, { value: fn, configurable: true });
  }
  const argumentNames = original[kCustomPromisifyArgs];
  function fn(...args) {
    return new PromiseCtor((resolve, reject) => {
      ArrayPrototypePush(args, (err, ...values) => {
        if (err) return reject(err);
        if (argumentNames !== undefined && values.length > 1) {
          const obj = {};
          for (let i = 0; i < argumentNames.length; i++) obj[argumentNames[i]] = values[i];
          resolve(obj);
        } else {
          resolve(values[0]);
        }
      });
      ReflectApply(original, this, args);
    });
  }
  ObjectSetPrototypeOf(fn, ObjectGetPrototypeOf(original));
  ObjectDefineProperty(fn, kCustomPromisified, { value: fn, configurable: true });
  const descriptors = ObjectGetOwnPropertyDescriptors(original);
  const propertiesValues = [];
  for (const key of new SafeArrayIterator(ReflectOwnKeys(descriptors))) {
    if (key === 'length' || key === 'name' || key === 'prototype' || key === kCustomPromisified) continue;
    propertiesValues[propertiesValues.length] = key;
  }
  for (const key of new SafeArrayIterator(propertiesValues)) ObjectDefineProperty(fn, key, descriptors[key]);
  return fn;
}
promisify.custom = kCustomPromisified;

const queue = typeof queueMicrotask === 'function' ? queueMicrotask : (f) => PromisePrototypeThen(PromiseResolve(), f);
function callbackifyOnRejected(reason, cb) {
  if (!reason) {
    const err = nodeError(ErrorCtor, 'ERR_FALSY_VALUE_REJECTION', 'Promise was rejected with falsy value');
    err.reason = reason;
    reason = err;
  }
  return cb(reason);
}
function callbackify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'of type function', original);
  function callbackified(...args) {
    const maybeCb = ArrayPrototypePop(args);
    if (typeof maybeCb !== 'function') throw invalidArgType('last argument', 'of type function', maybeCb);
    const cb = (...a) => ReflectApply(maybeCb, this, a);
    // Called outside the promise chain, so a throwing callback is an uncaught exception as in Node.
    PromisePrototypeThen(ReflectApply(original, this, args),
      (ret) => queue(() => cb(null, ret)),
      (rej) => queue(() => callbackifyOnRejected(rej, cb)));
  }
  const descriptors = ObjectGetOwnPropertyDescriptors(original);
  if (typeof descriptors.length.value === 'number') descriptors.length.value++;
  if (typeof descriptors.name.value === 'string') descriptors.name.value += 'Callbackified';
  const propertiesValues = {};
  for (const key of new SafeArrayIterator(ReflectOwnKeys(descriptors))) if (key === 'length' || key === 'name') propertiesValues[key] = descriptors[key];
  ObjectDefineProperties(callbackified, propertiesValues);
  return callbackified;
}

// Warnings go through process.emitWarning, as Node's, unless the runtime installs another writer.
let warningWriter = (message, type, code) => {
  const { emitWarning: processEmitWarning } = require('process');
  if (typeof processEmitWarning === 'function') processEmitWarning(message, type, code);
};
// Node 22 makes the deprecation of util.isArray (DEP0044) a runtime one.
function isArray(arg) {
  if (nodeMajor() >= 22 && !SetPrototypeHas(codesWarned, 'DEP0044')) {
    SetPrototypeAdd(codesWarned, 'DEP0044');
    // Through the process, as Node's deprecate does (this module's warning writer is not installed).
    const { emitWarning: processEmitWarning } = require('process');
    if (typeof processEmitWarning === 'function') {
      processEmitWarning('The `util.isArray` API is deprecated. Please use `Array.isArray()` instead.', 'DeprecationWarning', 'DEP0044');
    }
  }
  return ArrayIsArray(arg);
}
function _setWarningWriter(fn) { warningWriter = fn; }
function emitWarning(message, type, code) {
  try { warningWriter(message, type || 'Warning', code); } catch { /* a broken writer must not break callers */ }
}
const codesWarned = new SetCtor();
function deprecate(fn, msg, code) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  if (code !== undefined && typeof code !== 'string') throw invalidArgType('code', 'of type string', code);
  let warned = false;
  function deprecated(...args) {
    if (!warned) {
      warned = true;
      if (code !== undefined) {
        if (!SetPrototypeHas(codesWarned, code)) {
          SetPrototypeAdd(codesWarned, code);
          emitWarning(msg, 'DeprecationWarning', code);
        }
      } else {
        emitWarning(msg, 'DeprecationWarning', code);
      }
    }
    if (new.target) return ReflectConstruct(fn, args, new.target);
    return ReflectApply(fn, this, args);
  }
  ObjectSetPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

// NODE_DEBUG is read when a section is first used, like Node, through the runtime's env getter.
let envGetter = () => undefined;
function _setEnv(getter) { envGetter = getter; }
let stderrWriter = null;
function _setStderrWriter(fn) { stderrWriter = fn; }
let debugRe;
function debugEnabled(set) {
  if (debugRe === undefined) {
    let env = '';
    try { env = envGetter('NODE_DEBUG') || ''; } catch { env = ''; }
    env = StringPrototypeReplace(String(env), hardenRegExp(/[|\\{}()[\]^$+?.]/g), '\\$&');
    env = StringPrototypeReplace(env, hardenRegExp(/\*/g), '.*');
    env = StringPrototypeReplace(env, hardenRegExp(/,/g), '$|^');
    debugRe = env ? new RegExp(`^${env}$`, 'i') : null;
  }
  return debugRe !== null && RegExpPrototypeExec(debugRe, set) !== null;
}
function debuglog(set, cb) {
  set = StringPrototypeToUpperCase(`${set}`);
  let impl;
  const init = () => {
    if (debugEnabled(set)) {
      impl = (...args) => {
        const msg = ReflectApply(formatWithOptions, undefined, [{ colors: false }, ...new SafeArrayIterator(args)]);
        const line = `${set} ${getPid()}: ${msg}\n`;
        if (stderrWriter !== null) stderrWriter(line);
        else if (G.process?.stderr?.write) G.process.stderr.write(line);
      };
    } else {
      impl = () => {};
    }
    if (typeof cb === 'function') cb(impl);
  };
  const logger = (...args) => {
    if (impl === undefined) init();
    ReflectApply(impl, undefined, args);
  };
  ObjectDefineProperty(logger, 'enabled', {
    get() { if (impl === undefined) init(); return debugEnabled(set); },
    configurable: true, enumerable: true,
  });
  return logger;
}
const getPid = () => { try { return G.process?.pid ?? 1; } catch { return 1; } };

// Deep equality lives with assert (Node shares internal/util/comparisons between the two).
function isDeepStrictEqual(a, b) {
  try { require('assert').deepStrictEqual(a, b); return true; } catch (e) {
    if (e && e.code === 'ERR_ASSERTION') return false;
    throw e;
  }
}

// Node's ansi pattern (lib/internal/util/inspect.js).
const ansi = new RegExp('[\\u001B\\u009B][[\\]()#;?]*' +
  '(?:(?:(?:(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]+)*' +
  '|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]*)*)?' +
  '(?:\\u0007|\\u001B\\u005C|\\u009C))' +
  '|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TZcf-nq-uy=><~]))', 'g');
function stripVTControlCharacters(str) {
  if (typeof str !== 'string') throw invalidArgType('str', 'of type string', str);
  return StringPrototypeReplace(str, ansi, '');
}
function toUSVString(input) {
  return StringPrototypeReplace(`${input}`, hardenRegExp(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g), '\ufffd');
}

function styleText(format, text, options) {
  if (typeof text !== 'string') throw invalidArgType('text', 'of type string', text);
  const formats = ArrayIsArray(format) ? format : [format];
  let left = '';
  let right = '';
  for (const key of new SafeArrayIterator(formats)) {
    if (key === 'none') continue;
    const code = typeof key === 'string' && ObjectPrototypeHasOwnProperty(inspect.colors, key) ? inspect.colors[key] : undefined;
    if (code === undefined) {
      throw nodeError(TypeErrorCtor, 'ERR_INVALID_ARG_VALUE',
        `The argument 'format' must be one of: ${ArrayPrototypeJoin(ObjectKeys(inspect.colors), ', ')}. Received ${inspect(key)}`);
    }
    left += `\u001b[${code[0]}m`;
    right = `\u001b[${code[1]}m${right}`;
  }
  void options; // stream/validateStream: the guest has no TTY detection here; always styles
  return `${left}${text}${right}`;
}

// util.parseArgs (Node's lib/internal/util/parse_args), without `tokens` output details beyond the basics.
function parseArgs(config = {}) {
  const args = config.args !== undefined ? config.args : defaultArgs();
  const strict = config.strict !== undefined ? config.strict : true;
  const allowPositionals = config.allowPositionals !== undefined ? config.allowPositionals : !strict;
  const allowNegative = config.allowNegative !== undefined ? config.allowNegative : false;
  const returnTokens = config.tokens !== undefined ? config.tokens : false;
  const options = config.options !== undefined ? config.options : { __proto__: null };
  if (!ArrayIsArray(args)) throw invalidArgType('args', 'an instance of Array', args);
  if (typeof options !== 'object' || options === null) throw invalidArgType('options', 'of type object', options);
  const shortToLong = { __proto__: null };
  for (const longOption of new SafeArrayIterator(ObjectKeys(options))) {
    const opt = options[longOption];
    if (typeof opt !== 'object' || opt === null) throw invalidArgType(`options.${longOption}`, 'of type object', opt);
    if (opt.type !== 'string' && opt.type !== 'boolean') {
      throw nodeError(TypeErrorCtor, 'ERR_INVALID_ARG_VALUE',
        `The property 'options.${longOption}.type' must be one of: 'string', 'boolean'. Received ${inspect(opt.type)}`);
    }
    if (opt.short !== undefined) {
      if (typeof opt.short !== 'string') throw invalidArgType(`options.${longOption}.short`, 'of type string', opt.short);
      if (opt.short.length !== 1) {
        throw nodeError(TypeErrorCtor, 'ERR_INVALID_ARG_VALUE',
          `The property 'options.${longOption}.short' must be a single character. Received ${inspect(opt.short)}`);
      }
      shortToLong[opt.short] = longOption;
    }
  }
  const values = { __proto__: null };
  const positionals = [];
  const tokens = [];
  const unknown = (token) => {
    const rawName = token.rawName;
    const hint = allowPositionals ? `. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${JSONStringify(rawName)}` : '';
    throw nodeError(TypeErrorCtor, 'ERR_PARSE_ARGS_UNKNOWN_OPTION', `Unknown option '${rawName}'${hint}`);
  };
  const store = (name, value, token) => {
    const opt = options[name];
    if (strict) {
      if (opt === undefined) unknown(token);
      if (opt.type === 'string' && typeof value !== 'string') {
        throw nodeError(TypeErrorCtor, 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
          `Option '${opt.short ? `-${opt.short}, ` : ''}--${name} <value>' argument missing`);
      }
      if (opt.type === 'boolean' && value !== undefined) {
        throw nodeError(TypeErrorCtor, 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '--${name}' does not take an argument`);
      }
    }
    if (name === '__proto__') return;
    const newValue = value === undefined ? (token.negative ? false : true) : value;
    if (opt?.multiple) {
      if (values[name] === undefined) values[name] = [newValue];
      else ArrayPrototypePush(values[name], newValue);
    } else {
      values[name] = newValue;
    }
  };
  const isOptionValue = (v) => v !== undefined && (!strict || !StringPrototypeStartsWith(v, '-'));
  let i = 0;
  while (i < args.length) {
    const arg = args[i];
    const index = i++;
    if (arg === '--') {
      ArrayPrototypePush(tokens, { kind: 'option-terminator', index });
      for (; i < args.length; i++) {
        ArrayPrototypePush(positionals, args[i]);
        ArrayPrototypePush(tokens, { kind: 'positional', index: i, value: args[i] });
      }
      break;
    }
    if (arg.length === 2 && arg[0] === '-' && arg[1] !== '-') {
      // -f or -f value
      const name = shortToLong[arg[1]] ?? arg[1];
      let value;
      let inlineValue;
      if (options[name]?.type === 'string' && isOptionValue(args[i])) { value = args[i++]; inlineValue = false; }
      const token = { kind: 'option', name, rawName: arg, index, value, inlineValue };
      ArrayPrototypePush(tokens, token);
      store(name, value, token);
      continue;
    }
    if (arg.length > 2 && arg[0] === '-' && arg[1] !== '-') {
      // -abc (group of booleans) or -fVALUE
      const first = shortToLong[arg[1]] ?? arg[1];
      if (options[first]?.type === 'string') {
        const token = { kind: 'option', name: first, rawName: `-${arg[1]}`, index, value: StringPrototypeSlice(arg, 2), inlineValue: true };
        ArrayPrototypePush(tokens, token);
        store(first, token.value, token);
        continue;
      }
      for (let j = 1; j < arg.length; j++) {
        const ch = arg[j];
        const name = shortToLong[ch] ?? ch;
        if (options[name]?.type !== 'string' || j === arg.length - 1) {
          let value;
          let inlineValue;
          if (options[name]?.type === 'string' && isOptionValue(args[i])) { value = args[i++]; inlineValue = false; }
          const token = { kind: 'option', name, rawName: `-${ch}`, index, value, inlineValue };
          ArrayPrototypePush(tokens, token);
          store(name, value, token);
        } else {
          const token = { kind: 'option', name, rawName: `-${ch}`, index, value: StringPrototypeSlice(arg, j + 1), inlineValue: true };
          ArrayPrototypePush(tokens, token);
          store(name, token.value, token);
          break;
        }
      }
      continue;
    }
    if (arg.length > 2 && arg[0] === '-' && arg[1] === '-') {
      const eq = StringPrototypeIndexOf(arg, '=');
      if (eq !== -1) {
        const name = StringPrototypeSlice(arg, 2, eq);
        const token = { kind: 'option', name, rawName: `--${name}`, index, value: StringPrototypeSlice(arg, eq + 1), inlineValue: true };
        ArrayPrototypePush(tokens, token);
        store(name, token.value, token);
        continue;
      }
      let name = StringPrototypeSlice(arg, 2);
      let negative = false;
      if (allowNegative && StringPrototypeStartsWith(name, 'no-') && options[StringPrototypeSlice(name, 3)]?.type === 'boolean') {
        name = StringPrototypeSlice(name, 3);
        negative = true;
      }
      let value;
      let inlineValue;
      if (options[name]?.type === 'string' && isOptionValue(args[i])) { value = args[i++]; inlineValue = false; }
      const token = { kind: 'option', name, rawName: arg, index, value, inlineValue, negative };
      ArrayPrototypePush(tokens, token);
      store(name, value, token);
      continue;
    }
    if (strict && !allowPositionals) {
      throw nodeError(TypeErrorCtor, 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL',
        `Unexpected argument '${arg}'. This command does not take positional arguments`);
    }
    ArrayPrototypePush(positionals, arg);
    ArrayPrototypePush(tokens, { kind: 'positional', index, value: arg });
  }
  for (const name of new SafeArrayIterator(ObjectKeys(options))) {
    const def = options[name].default;
    if (def !== undefined && values[name] === undefined) values[name] = def;
  }
  for (const token of new SafeArrayIterator(tokens)) {
    if (token.kind === 'option') { delete token.negative; if (token.inlineValue === undefined) token.inlineValue = undefined; }
  }
  const result = { values, positionals };
  if (returnTokens) result.tokens = tokens;
  return result;
}
function defaultArgs() {
  const argv = G.process?.argv;
  if (!ArrayIsArray(argv)) return [];
  return ArrayPrototypeSlice(argv, 2);
}

function _extend(target, source) {
  if (source === null || typeof source !== 'object') return target;
  const keys = ObjectKeys(source);
  let i = keys.length;
  while (i--) target[keys[i]] = source[keys[i]];
  return target;
}

const isPrimitive = (v) => v === null || (typeof v !== 'object' && typeof v !== 'function');
const pad = (n) => (n < 10 ? `0${n}` : `${n}`);
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function log(...args) {
  const d = new Date();
  const time = `${pad(DatePrototypeGetHours(d))}:${pad(DatePrototypeGetMinutes(d))}:${pad(DatePrototypeGetSeconds(d))}`;
  const line = `${DatePrototypeGetDate(d)} ${months[DatePrototypeGetMonth(d)]} ${time} - ${ReflectApply(format, undefined, args)}\n`;
  if (G.process?.stdout?.write) G.process.stdout.write(line);
}

// ---- system errors ----

const nodeMajorOf = () => Number(StringPrototypeSlice(require('process').versions.node, 0, StringPrototypeIndexOf(require('process').versions.node, '.')));
/** Node's map of libuv's errors on Linux (internal/errors.js lists them in libuv's order; ENOEXEC came with Node 22's). */
function getSystemErrorMap() {
  const { ERRNO, UNLISTED } = require('internal/errors');
  const map = new Map();
  for (const name of new SafeArrayIterator(ObjectKeys(ERRNO))) {
    if (ArrayPrototypeIncludes(UNLISTED, name) || (name === 'ENOEXEC' && nodeMajorOf() < 22)) continue;
    MapPrototypeSet(map, -ERRNO[name][0], [name, ERRNO[name][1]]);
  }
  return map;
}
function getSystemErrorName(err) {
  if (typeof err !== 'number') throw invalidArgType('err', 'of type number', err);
  if (err >= 0 || !NumberIsSafeInteger(err)) {
    throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "err" is out of range. It must be a negative integer. Received ${ie.inspect(err)}`);
  }
  const entry = MapPrototypeGet(getSystemErrorMap(), err);
  return entry ? entry[0] : `Unknown system error ${err}`;
}
// Node's classes for these errors: their `constructor` reads as Error, their stack starts at the caller.
class ErrnoException extends ErrorCtor {
  constructor(err, syscall, original) {
    const code = getSystemErrorName(err);
    super(original ? `${syscall} ${code} ${original}` : `${syscall} ${code}`);
    this.errno = err;
    this.code = code;
    this.syscall = syscall;
  }
  get ['constructor']() { return ErrorCtor; }
}
class ExceptionWithHostPort extends ErrorCtor {
  constructor(err, syscall, address, port, additional) {
    const code = getSystemErrorName(err);
    let details = '';
    if (port && port > 0) details = ` ${address}:${port}`;
    else if (address) details = ` ${address}`;
    if (additional) details += ` - Local (${additional})`;
    super(`${syscall} ${code}${details}`);
    this.errno = err;
    this.code = code;
    this.syscall = syscall;
    this.address = address;
    if (port) this.port = port;
  }
  get ['constructor']() { return ErrorCtor; }
}
function _errnoException(...args) {
  const e = new ErrnoException(...new SafeArrayIterator(args));
  ErrorCtor.captureStackTrace(e, _exceptionWithHostPort);
  return e;
}
function _exceptionWithHostPort(...args) {
  const e = new ExceptionWithHostPort(...new SafeArrayIterator(args));
  ErrorCtor.captureStackTrace(e, _exceptionWithHostPort);
  return e;
}

// ---- AbortSignal helpers ----

function validateAbortSignal(signal) {
  if (signal === null || typeof signal !== 'object' || !('aborted' in signal)) {
    // Node 24 words it as its WebIDL check does.
    if (nodeMajorOf() >= 24) throw nodeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', 'signal is not of type AbortSignal.');
    throw invalidArgType('signal', 'an instance of AbortSignal', signal);
  }
}
/** Settles when `signal` aborts; Node holds `resource` weakly, and so nothing of it is kept here. */
async function aborted(signal, resource) {
  validateAbortSignal(signal);
  if (resource === null || (typeof resource !== 'object' && typeof resource !== 'function')) throw invalidArgType('resource', 'of type object', resource);
  if (signal.aborted) return;
  await new PromiseCtor((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
// Signals cross the guest's ports by structured clone; one made transferable is the same signal.
function transferableAbortSignal(signal) {
  if (signal === null || typeof signal !== 'object' || !(signal instanceof G.AbortSignal)) throw invalidArgType('signal', 'an instance of AbortSignal', signal);
  return signal;
}
function transferableAbortController() {
  return new G.AbortController();
}

// ---- .env files (Node's src/node_dotenv.cc) ----

const trimSpaces = (s) => { let a = 0; let b = s.length; while (a < b && s[a] === ' ') a++; while (b > a && s[b - 1] === ' ') b--; return StringPrototypeSlice(s, a, b); };
const stripComment = (v) => { const hash = StringPrototypeIndexOf(v, '#'); return hash === -1 ? v : StringPrototypeSlice(v, 0, hash); };
const expandNewlines = (v) => StringPrototypeReplace(v, hardenRegExp(/\\n/g), '\n');
/** A double-quoted value (its \n escapes expanded) is stored; answers what follows its line, or undefined when it is not closed. */
function takeDoubleQuoted(content, key, store) {
  const closing = StringPrototypeIndexOf(content, '"', 1);
  if (closing === -1) return undefined;
  store[key] = expandNewlines(StringPrototypeSlice(content, 1, closing));
  const newline = StringPrototypeIndexOf(content, '\n', closing + 1);
  return newline === -1 ? '' : StringPrototypeSlice(content, newline + 1);
}
/** Node 20's parser: a line with no key ends the parse. */
function parseEnv20(content, store) {
  while (content.length > 0) {
    if (content[0] === '\n' || content[0] === '#') {
      const newline = StringPrototypeIndexOf(content, '\n');
      if (newline !== -1) { content = StringPrototypeSlice(content, newline + 1); continue; }
    }
    const equal = StringPrototypeIndexOf(content, '=');
    if (equal === -1) break;
    let key = trimSpaces(StringPrototypeSlice(content, 0, equal));
    content = StringPrototypeSlice(content, equal + 1);
    if (content.length === 0 || content[0] === '\n') { store[key] = ''; continue; }
    content = trimSpaces(content);
    if (key.length === 0) break;
    if (StringPrototypeStartsWith(key, 'export ')) key = StringPrototypeSlice(key, 7);
    if (content.length === 0) { store[key] = ''; break; }
    const quote = content[0];
    if (quote === '"') {
      const rest = takeDoubleQuoted(content, key, store);
      if (rest !== undefined) {
        content = rest;
        continue;
      }
    }
    if (quote === "'" || quote === '"' || quote === '`') {
      const closing = StringPrototypeIndexOf(content, quote, 1);
      if (closing === -1) {
        const newline = StringPrototypeIndexOf(content, '\n');
        if (newline !== -1) { store[key] = StringPrototypeSlice(content, 0, newline); content = StringPrototypeSlice(content, newline); }
      } else {
        store[key] = StringPrototypeSlice(content, 1, closing);
        const newline = StringPrototypeIndexOf(content, '\n', closing + 1);
        if (newline !== -1) content = StringPrototypeSlice(content, newline + 1);
      }
    } else {
      const newline = StringPrototypeIndexOf(content, '\n');
      store[key] = trimSpaces(stripComment(newline === -1 ? content : StringPrototypeSlice(content, 0, newline)));
      content = newline === -1 ? '' : StringPrototypeSlice(content, newline + 1);
    }
  }
}
/** Node 22's: lines without a key are skipped. */
function parseEnv22(content, store) {
  const skipLine = () => {
    const newline = StringPrototypeIndexOf(content, '\n');
    if (newline === -1) return false;
    content = trimSpaces(StringPrototypeSlice(content, newline + 1));
    return true;
  };
  while (content.length > 0) {
    if (content[0] === '\n' || content[0] === '#') {
      const newline = StringPrototypeIndexOf(content, '\n');
      content = newline === -1 ? '' : StringPrototypeSlice(content, newline + 1);
      continue;
    }
    const end = RegExpPrototypeExec(/[=\n]/, content);
    if (end === null || end[0] === '\n') { if (skipLine()) continue; break; }
    let key = trimSpaces(StringPrototypeSlice(content, 0, end.index));
    content = StringPrototypeSlice(content, end.index + 1);
    if (content.length === 0 || content[0] === '\n') { store[key] = ''; continue; }
    content = trimSpaces(content);
    if (key.length === 0) { if (skipLine()) continue; break; }
    if (StringPrototypeStartsWith(key, 'export ')) key = trimSpaces(StringPrototypeSlice(key, 7));
    if (content.length === 0 || content[0] === '\n') { store[key] = ''; continue; }
    const quote = content[0];
    if (quote === '"') {
      const rest = takeDoubleQuoted(content, key, store);
      if (rest !== undefined) {
        content = rest;
        continue;
      }
    }
    if (quote === "'" || quote === '"' || quote === '`') {
      const closing = StringPrototypeIndexOf(content, quote, 1);
      if (closing === -1) {
        const newline = StringPrototypeIndexOf(content, '\n');
        if (newline === -1) { store[key] = content; break; }
        store[key] = StringPrototypeSlice(content, 0, newline);
        content = StringPrototypeSlice(content, newline);
      } else {
        store[key] = StringPrototypeSlice(content, 1, closing);
        const newline = StringPrototypeIndexOf(content, '\n', closing + 1);
        content = newline === -1 ? '' : StringPrototypeSlice(content, newline + 1);
      }
    } else {
      const newline = StringPrototypeIndexOf(content, '\n');
      store[key] = trimSpaces(stripComment(newline === -1 ? content : StringPrototypeSlice(content, 0, newline)));
      content = newline === -1 ? '' : StringPrototypeSlice(content, newline + 1);
    }
    content = trimSpaces(content);
  }
}
function parseEnv(content) {
  if (typeof content !== 'string') throw invalidArgType('content', 'of type string', content);
  const store = {};
  // Carriage returns are dropped first.
  content = trimSpaces(StringPrototypeReplace(content, hardenRegExp(/\r/g), ''));
  if (nodeMajorOf() >= 22) parseEnv22(content, store);
  else parseEnv20(content, store);
  return store;
}

// ---- MIME types (Node's lib/internal/mime.js) ----

const NOT_HTTP_TOKEN_CODE_POINT = /[^!#$%&'*+\-.^_`|~A-Za-z0-9]/g;
const NOT_HTTP_QUOTED_STRING_CODE_POINT = /[^\t\u0020-~\u0080-\u00FF]/g;
const END_BEGINNING_WHITESPACE = /[^\r\n\t ]|$/;
const START_ENDING_WHITESPACE = /[\r\n\t ]*$/;
const EQUALS_SEMICOLON_OR_END = /[;=]|$/;
const QUOTED_VALUE_PATTERN = /^(?:([\\]$)|[\\][\s\S]|[^"])*(?:(")|$)/u;
const search = (s, re) => StringPrototypeSearch(s, re);
const toASCIILower = (s) => StringPrototypeReplace(s, hardenRegExp(/[A-Z]+/g), (c) => StringPrototypeToLowerCase(c));
const mimeSyntax = (production, str, index) => nodeError(TypeErrorCtor, 'ERR_INVALID_MIME_SYNTAX', `The MIME syntax for a ${production} in "${str}" is invalid${index !== -1 ? ` at ${index}` : ''}`);
function validToken(production, v) {
  const invalid = search(v, NOT_HTTP_TOKEN_CODE_POINT);
  if (v.length === 0 || invalid !== -1) throw mimeSyntax(production, v, invalid);
  return toASCIILower(v);
}

function parseTypeAndSubtype(str) {
  let position = search(str, END_BEGINNING_WHITESPACE);
  const typeEnd = StringPrototypeIndexOf(str, '/', position);
  const trimmedType = typeEnd === -1 ? StringPrototypeSlice(str, position) : StringPrototypeSlice(str, position, typeEnd);
  const invalidTypeIndex = search(trimmedType, NOT_HTTP_TOKEN_CODE_POINT);
  if (trimmedType === '' || invalidTypeIndex !== -1 || typeEnd === -1) throw mimeSyntax('type', str, invalidTypeIndex);
  position = typeEnd + 1;
  const subtypeEnd = StringPrototypeIndexOf(str, ';', position);
  const rawSubtype = subtypeEnd === -1 ? StringPrototypeSlice(str, position) : StringPrototypeSlice(str, position, subtypeEnd);
  position += rawSubtype.length + (subtypeEnd !== -1 ? 1 : 0);
  const trimmedSubtype = StringPrototypeSlice(rawSubtype, 0, search(rawSubtype, START_ENDING_WHITESPACE));
  const invalidSubtypeIndex = search(trimmedSubtype, NOT_HTTP_TOKEN_CODE_POINT);
  if (trimmedSubtype === '' || invalidSubtypeIndex !== -1) throw mimeSyntax('subtype', str, invalidSubtypeIndex);
  return [toASCIILower(trimmedType), toASCIILower(trimmedSubtype), position];
}

function removeBackslashes(str) {
  let ret = '';
  let i;
  for (i = 0; i < str.length - 1; i++) ret += str[i] === '\\' ? str[++i] : str[i];
  if (i === str.length - 1) ret += str[i];
  return ret;
}
function encodeParamValue(value) {
  if (value.length === 0) return '""';
  if (search(value, NOT_HTTP_TOKEN_CODE_POINT) === -1) return value;
  return `"${StringPrototypeReplace(value, hardenRegExp(/["\\]/g), '\\$&')}"`;
}

class MIMEParams {
  #data = new SafeMap();
  // Parsed when first read: the string may be long.
  #string = null;

  static instantiateMimeParams(str) {
    const instance = new MIMEParams();
    instance.#string = str;
    return instance;
  }

  delete(name) { this.#parse(); this.#data.delete(name); }
  get(name) { this.#parse(); return this.#data.has(name) ? this.#data.get(name) : null; }
  has(name) { this.#parse(); return this.#data.has(name); }
  set(name, value) {
    this.#parse();
    name = `${name}`;
    value = `${value}`;
    const invalidNameIndex = search(name, NOT_HTTP_TOKEN_CODE_POINT);
    if (name.length === 0 || invalidNameIndex !== -1) throw mimeSyntax('parameter name', name, invalidNameIndex);
    const invalidValueIndex = search(value, NOT_HTTP_QUOTED_STRING_CODE_POINT);
    if (invalidValueIndex !== -1) throw mimeSyntax('parameter value', value, invalidValueIndex);
    this.#data.set(name, value);
  }
  *entries() { this.#parse(); yield* this.#data.entries(); }
  *keys() { this.#parse(); yield* this.#data.keys(); }
  *values() { this.#parse(); yield* this.#data.values(); }
  toString() {
    this.#parse();
    let ret = '';
    for (const entry$920 of this.#data) { const key = entry$920[0], value = entry$920[1]; ret += `${ret.length ? ';' : ''}${key}=${encodeParamValue(value)}`; }
    return ret;
  }

  #parse() {
    const str = this.#string;
    if (str === null) return;
    this.#string = null;
    let position = 0;
    const endOfSource = search(str, START_ENDING_WHITESPACE);
    while (position < endOfSource) {
      position += search(StringPrototypeSlice(str, position), END_BEGINNING_WHITESPACE);
      const afterName = search(StringPrototypeSlice(str, position), EQUALS_SEMICOLON_OR_END) + position;
      const name = toASCIILower(StringPrototypeSlice(str, position, afterName));
      position = afterName;
      if (position < endOfSource) {
        const char = str[position];
        position += 1;
        if (char === ';') continue;
      }
      if (position >= endOfSource) break;
      let value;
      if (str[position] === '"') {
        position += 1;
        const inside = RegExpPrototypeExec(QUOTED_VALUE_PATTERN, StringPrototypeSlice(str, position));
        position += inside[0].length;
        value = removeBackslashes(inside[1] || inside[2] ? StringPrototypeSlice(inside[0], 0, -1) : inside[0]);
        if (inside[1]) value += '\\';
      } else {
        const valueEnd = StringPrototypeIndexOf(str, ';', position);
        const raw = valueEnd === -1 ? StringPrototypeSlice(str, position) : StringPrototypeSlice(str, position, valueEnd);
        position += raw.length;
        value = StringPrototypeSlice(raw, 0, search(raw, START_ENDING_WHITESPACE));
        if (value === '') continue;
      }
      if (name !== '' && search(name, NOT_HTTP_TOKEN_CODE_POINT) === -1 && search(value, NOT_HTTP_QUOTED_STRING_CODE_POINT) === -1 && !this.#data.has(name)) {
        this.#data.set(name, value);
      }
      position++;
    }
  }
}
const MIMEParamsStringify = MIMEParams.prototype.toString;
ObjectDefineProperty(MIMEParams.prototype, SymbolIterator, { configurable: true, value: MIMEParams.prototype.entries, writable: true });
ObjectDefineProperty(MIMEParams.prototype, 'toJSON', { configurable: true, value: MIMEParamsStringify, writable: true });
const { instantiateMimeParams } = MIMEParams;
delete MIMEParams.instantiateMimeParams;

class MIMEType {
  #type;
  #subtype;
  #parameters;
  constructor(string) {
    string = `${string}`;
    const data = parseTypeAndSubtype(string);
    this.#type = data[0];
    this.#subtype = data[1];
    this.#parameters = instantiateMimeParams(StringPrototypeSlice(string, data[2]));
  }
  get type() { return this.#type; }
  set type(v) { this.#type = validToken('type', `${v}`); }
  get subtype() { return this.#subtype; }
  set subtype(v) { this.#subtype = validToken('subtype', `${v}`); }
  get essence() { return `${this.#type}/${this.#subtype}`; }
  get params() { return this.#parameters; }
  toString() {
    const params = ReflectApply(MIMEParamsStringify, this.#parameters, []);
    return `${this.#type}/${this.#subtype}${params.length ? `;${params}` : ''}`;
  }
}
ObjectDefineProperty(MIMEType.prototype, 'toJSON', { configurable: true, value: MIMEType.prototype.toString, writable: true });

module.exports = {
  _errnoException,
  _exceptionWithHostPort,
  _extend,
  callbackify,
  debug: debuglog,
  debuglog,
  deprecate,
  format,
  styleText,
  formatWithOptions,
  getSystemErrorMap,
  getSystemErrorName,
  inherits,
  inspect,
  isArray,
  isBoolean: (v) => typeof v === 'boolean',
  isBuffer: (v) => { const B = G.Buffer; return typeof B === 'function' && typeof B.isBuffer === 'function' ? B.isBuffer(v) : false; },
  isDeepStrictEqual,
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v === null || v === undefined,
  isNumber: (v) => typeof v === 'number',
  isString: (v) => typeof v === 'string',
  isSymbol: (v) => typeof v === 'symbol',
  isUndefined: (v) => v === undefined,
  isRegExp,
  isObject: (v) => v !== null && typeof v === 'object',
  isDate,
  isError: (v) => isNativeError(v) || v instanceof ErrorCtor,
  isFunction: (v) => typeof v === 'function',
  isPrimitive,
  log,
  promisify,
  stripVTControlCharacters,
  toUSVString,
  transferableAbortSignal,
  transferableAbortController,
  aborted,
  types,
  parseEnv,
  parseArgs,
};
// Read through getters: the runtime installs the encoding globals before builtins load, but a guest
// may replace them and Node's util exports the originals; capture on first read.
let textEncoder;
let textDecoder;
ObjectDefineProperty(module.exports, 'TextDecoder', {
  get() { if (textDecoder === undefined) textDecoder = G.TextDecoder; return textDecoder; },
  enumerable: true, configurable: true,
});
ObjectDefineProperty(module.exports, 'TextEncoder', {
  get() { if (textEncoder === undefined) textEncoder = G.TextEncoder; return textEncoder; },
  enumerable: true, configurable: true,
});
module.exports.MIMEType = MIMEType;
module.exports.MIMEParams = MIMEParams;
// Private hooks for the runtime, non-enumerable so they do not show in `inspect(util)`.
for (const entry$1049 of new SafeArrayIterator([['_setWarningWriter', _setWarningWriter], ['_setEnv', _setEnv],
  ['_setStderrWriter', _setStderrWriter], ['_emitWarning', emitWarning], ['_nodeError', nodeError]])) { const name = entry$1049[0], value = entry$1049[1];
  ObjectDefineProperty(module.exports, name, { value, enumerable: false, configurable: true, writable: true });
}
