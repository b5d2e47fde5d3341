// `vm` in the guest: scripts in the guest's own context (runInThisContext) and in new contexts of its own
// (createContext, runInContext, runInNewContext, compileFunction with parsingContext), made by the worker's
// node:vm (workers/node-host/vm-contexts.ts says why they are as contained as the guest). Arguments are
// checked here, with Node's errors, and only primitives and the guest's own objects go to the host.
// Not here: vm.SourceTextModule and the other vm modules (Node has them only behind --experimental-vm-modules),
// the code cache (createCachedData gives an empty buffer, and a given cachedData is reported rejected), and
// `importModuleDynamically` (accepted; `import()` in any context is the guest's own loader's).
'use strict';

const {
  ArrayIsArray,
  ArrayPrototypePush,
  Error,
  JSONParse,
  NumberIsInteger,
  NumberParseInt,
  PromiseResolve,
  RangeError,
  RegExpPrototypeExec,
  SafeWeakMap,
  StringPrototypeStartsWith,
  Symbol,
  SyntaxError,
  TypeError,
  GetByteLength,
} = require('internal/primordials');

const { codeError, invalidArgType } = require('internal/errors');

/** The host's answer to a vm operation: its value, or what the script threw, thrown again here. */
function outcome(status) {
  const value = internal.host('vmResult');
  if (status === 'threw') throw value;
  // The host failed: the stack was all but exhausted when it was called (or a bug of the runtime).
  if (status !== 'ok') throw codeError(Error, 'ERR_INTERNAL_ASSERTION', 'vm operation failed (stack exhausted?)');
  return value;
}

const DONT_CONTEXTIFY = Symbol('vm_context_no_contextify');
const USE_MAIN_CONTEXT_DEFAULT_LOADER = Symbol('vm_dynamic_import_main_context_default');

function inspect(v) {
  return require('util').inspect(v);
}
function oneOf(name, value, allowed, shown) {
  for (let i = 0; i < allowed.length; i++) if (value === allowed[i]) return;
  throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property '${name}' must be one of: ${shown}. Received ${inspect(value)}`);
}
function validateObject(value, name) {
  if (value === null || typeof value !== 'object' || ArrayIsArray(value)) throw invalidArgType(name, 'of type object', value);
}
function validateString(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value);
}
function validateBoolean(value, name) {
  if (typeof value !== 'boolean') throw invalidArgType(name, 'of type boolean', value);
}
function validateInt32(value, name) {
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
  if (!NumberIsInteger(value)) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be an integer. Received ${value}`);
  if (value < -2147483648 || value > 2147483647) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be >= -2147483648 && <= 2147483647. Received ${value}`);
}
function validateBytes(value, name) {
  if (!require('util').types.isArrayBufferView(value)) throw invalidArgType(name, 'an instance of Buffer, TypedArray, or DataView', value);
}
function validateImportCallback(value, name) {
  if (value !== undefined && typeof value !== 'function' && typeof value !== 'symbol') throw invalidArgType(name, 'of type function or an instance of vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER', value);
}

/** A context the guest made (the host knows which objects are). */
function isContext(object) {
  if (object === null || (typeof object !== 'object' && typeof object !== 'function')) throw invalidArgType('object', 'of type object', object);
  return known(internal.host('vmIsContext', object));
}
function known(answer) {
  if (answer !== true && answer !== false) throw codeError(Error, 'ERR_INTERNAL_ASSERTION', 'vm operation failed (stack exhausted?)');
  return answer;
}
function validateContext(object, name) {
  if (object === null || (typeof object !== 'object' && typeof object !== 'function') || !known(internal.host('vmIsContext', object))) {
    throw invalidArgType(name, StringPrototypeStartsWith(name, 'options.') ? 'an instance of Context' : 'an vm.Context', object);
  }
}

const nodeMajor = () => NumberParseInt(require('process').versions.node, 10);

let contextNameIndex = 1;
function createContext(contextObject = {}, options = {}) {
  if (contextObject !== DONT_CONTEXTIFY) {
    if (contextObject === null || (typeof contextObject !== 'object' && typeof contextObject !== 'function')) throw invalidArgType('object', 'of type object', contextObject);
    if (isContext(contextObject)) return contextObject;
  }
  validateObject(options, 'options');
  const { name = `VM Context ${contextNameIndex++}`, origin, codeGeneration, microtaskMode, importModuleDynamically } = options;
  validateString(name, 'options.name');
  if (origin !== undefined) validateString(origin, 'options.origin');
  let strings = true;
  let wasm = true;
  if (codeGeneration !== undefined) {
    validateObject(codeGeneration, 'options.codeGeneration');
    ({ strings = true, wasm = true } = codeGeneration);
    validateBoolean(strings, 'options.codeGeneration.strings');
    validateBoolean(wasm, 'options.codeGeneration.wasm');
  }
  oneOf('options.microtaskMode', microtaskMode, ['afterEvaluate', undefined], "'afterEvaluate', undefined");
  validateImportCallback(importModuleDynamically, 'options.importModuleDynamically');
  const sandbox = contextObject === DONT_CONTEXTIFY ? undefined : contextObject;
  return outcome(internal.host('vmCreateContext', sandbox, name, origin, strings, wasm, microtaskMode === 'afterEvaluate'));
}

/**
 * The options of a run (Node's getRunInContextArgs): the timeout (0: none). displayErrors is checked and has no
 * effect: a thrown error's stack never gets Node's source line above it (workers/node-host/vm-contexts.ts).
 */
function runOptions(options) {
  if (options === undefined || typeof options === 'string') return 0;
  validateObject(options, 'options');
  const { displayErrors = true, breakOnSigint = false, timeout } = options;
  validateBoolean(displayErrors, 'options.displayErrors');
  validateBoolean(breakOnSigint, 'options.breakOnSigint');
  if (timeout !== undefined) {
    if (typeof timeout !== 'number') throw invalidArgType('options.timeout', 'of type number', timeout);
    if (!NumberIsInteger(timeout) || timeout < 1 || timeout > 4294967295) {
      throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "options.timeout" is out of range. It must be ${NumberIsInteger(timeout) ? '>= 1 && <= 4294967295' : 'an integer'}. Received ${timeout}`);
    }
  }
  return timeout === undefined ? 0 : timeout;
}

/** A script's code and where it is: kept off the Script object, whose own properties are Node's. */
const sources = new SafeWeakMap();

/** A script's code, where it is and its options, checked as Node's vm.Script does. */
function scriptSource(code, options = {}) {
  code = `${code}`;
  if (typeof options === 'string') options = { filename: options };
  else validateObject(options, 'options');
  const { filename = 'evalmachine.<anonymous>', lineOffset = 0, columnOffset = 0, cachedData, produceCachedData = false, importModuleDynamically } = options;
  validateString(filename, 'options.filename');
  validateInt32(lineOffset, 'options.lineOffset');
  validateInt32(columnOffset, 'options.columnOffset');
  if (cachedData !== undefined) validateBytes(cachedData, 'options.cachedData');
  validateBoolean(produceCachedData, 'options.produceCachedData');
  validateImportCallback(importModuleDynamically, 'options.importModuleDynamically');
  return { code, filename, lineOffset, columnOffset, cachedData, produceCachedData };
}

class Script {
  constructor(code, options) {
    const s = scriptSource(code, options);
    // A syntax error is reported at construction, as Node does (an error of the guest's realm, where it compiles).
    outcome(internal.host('vmCheck', s.code, s.filename, s.lineOffset, s.columnOffset));
    sources.set(this, s);
    // No code cache here: one given is not used (rejected, unless empty, as V8 answers), one asked for is not made.
    if (s.cachedData !== undefined) this.cachedDataRejected = GetByteLength(s.cachedData) > 0;
    if (s.produceCachedData) {
      this.cachedData = require('buffer').Buffer.alloc(0);
      this.cachedDataProduced = false;
    }
    // Node ≥ 22 also names the script's `//# sourceURL=`; neither comment is read here.
    if (nodeMajor() >= 22) this.sourceURL = undefined;
    this.sourceMapURL = undefined;
  }
  runInThisContext(options) {
    return run(this, undefined, options);
  }
  runInContext(contextifiedObject, options) {
    validateContext(contextifiedObject, 'contextifiedObject');
    return run(this, contextifiedObject, options);
  }
  runInNewContext(contextObject, options) {
    const context = createContext(contextObject, newContextOptions(options));
    return run(this, context, options);
  }
  createCachedData() {
    return require('buffer').Buffer.alloc(0);
  }
}

function run(script, context, options) {
  const s = sources.get(script);
  if (s === undefined) throw invalidArgType('this', 'an instance of vm.Script', script);
  return runSource(s, context, options);
}

/** Runs code in `context` (undefined: the guest's own); code not compiled yet fails with the context's SyntaxError, as Node's. */
function runSource(s, context, options) {
  return outcome(internal.host('vmRun', s.code, s.filename, s.lineOffset, s.columnOffset, context, runOptions(options)));
}

/** runInNewContext's options for the context (Node's getContextOptions). */
function newContextOptions(options) {
  if (options === undefined || typeof options === 'string') return {};
  validateObject(options, 'options');
  const { contextName, contextOrigin, contextCodeGeneration, microtaskMode } = options;
  return { name: contextName, origin: contextOrigin, codeGeneration: contextCodeGeneration, microtaskMode };
}

function compileFunction(code, params = [], options = {}) {
  validateString(code, 'code');
  if (!ArrayIsArray(params)) throw invalidArgType('params', 'an instance of Array', params);
  let names = '';
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    validateString(p, `params[${i}]`);
    names += (i === 0 ? '' : '\0') + p;
  }
  validateObject(options, 'options');
  const { filename = '', lineOffset = 0, columnOffset = 0, cachedData, produceCachedData = false, parsingContext, contextExtensions = [], importModuleDynamically } = options;
  validateString(filename, 'options.filename');
  validateInt32(lineOffset, 'options.lineOffset');
  validateInt32(columnOffset, 'options.columnOffset');
  if (cachedData !== undefined) validateBytes(cachedData, 'options.cachedData');
  validateBoolean(produceCachedData, 'options.produceCachedData');
  if (parsingContext !== undefined) validateContext(parsingContext, 'options.parsingContext');
  if (!ArrayIsArray(contextExtensions)) throw invalidArgType('options.contextExtensions', 'an instance of Array', contextExtensions);
  // A fresh dense array of the extensions: the host reads its own data properties only.
  const extensions = [];
  for (let i = 0; i < contextExtensions.length; i++) {
    const e = contextExtensions[i];
    if (e === null || typeof e !== 'object') throw invalidArgType(`options.contextExtensions[${i}]`, 'of type object', e);
    ArrayPrototypePush(extensions, e);
  }
  validateImportCallback(importModuleDynamically, 'options.importModuleDynamically');
  for (let i = 0; i < params.length; i++) {
    // Not an identifier: V8 would take the parameter list apart (Node 20 crashes); the guest gets V8's error.
    if (!isIdentifier(params[i])) throw new SyntaxError(`Unexpected token in parameter name '${params[i]}'`);
  }
  const fn = outcome(internal.host('vmCompileFunction', code, names, filename, lineOffset, columnOffset, parsingContext, extensions));
  if (cachedData !== undefined) fn.cachedDataRejected = GetByteLength(cachedData) > 0;
  if (produceCachedData) {
    fn.cachedData = require('buffer').Buffer.alloc(0);
    fn.cachedDataProduced = false;
  }
  return fn;
}

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;
const isIdentifier = (name) => RegExpPrototypeExec(IDENTIFIER, name) !== null;

let measureWarned = false;
/** The guest's heap as V8 measures it (the worker's isolate is the guest's alone). */
function measureMemory(options = {}) {
  if (!measureWarned) {
    measureWarned = true;
    require('process').emitWarning('vm.measureMemory is an experimental feature and might change at any time', 'ExperimentalWarning');
  }
  validateObject(options, 'options');
  const { mode = 'summary', execution = 'default' } = options;
  oneOf('options.mode', mode, ['summary', 'detailed'], "'summary', 'detailed'");
  oneOf('options.execution', execution, ['default', 'eager'], "'default', 'eager'");
  const used = JSONParse(internal.host('heapStatistics')).used_heap_size;
  const total = { jsMemoryEstimate: used, jsMemoryRange: [used, used] };
  return PromiseResolve(mode === 'summary' ? { total } : { total, current: { jsMemoryEstimate: used, jsMemoryRange: [used, used] }, other: [] });
}

module.exports = {
  Script,
  createContext,
  createScript: (code, options) => new Script(code, options),
  runInContext(code, contextifiedObject, options) {
    validateContext(contextifiedObject, 'contextifiedObject');
    return runSource(scriptSource(code, options), contextifiedObject, options);
  },
  runInNewContext(code, contextObject, options) {
    const s = scriptSource(code, options);
    return runSource(s, createContext(contextObject, newContextOptions(options)), options);
  },
  runInThisContext: (code, options) => new Script(code, options).runInThisContext(options),
  isContext,
  compileFunction,
  measureMemory,
  constants: { __proto__: null, USE_MAIN_CONTEXT_DEFAULT_LOADER, DONT_CONTEXTIFY },
};
