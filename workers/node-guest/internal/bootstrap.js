// The first code of a guest `node` process's context, run when its worker boots (workers/node-host/runtime.ts),
// before any guest code. It is compiled as a function of two capabilities, kept in this closure: `host`, the
// host operations, and `load`, the runtime's loader (resolving a polyfill's require, compiling a file of the
// runtime by id), which only this module system calls: no runtime module, and no holder of `host`, reaches it. It captures the intrinsics the runtime relies on, sets up the
// runtime's own module system (internal/ and builtins/ of workers/node-guest, and the npm polyfills), installs
// the globals, and answers the dispatcher the host calls with primitives (timers, fd events, exit, …).
'use strict';

const { apply: ReflectApply, ownKeys: ReflectOwnKeys } = Reflect;
const { defineProperty, freeze, create: ObjectCreate, keys: ObjectKeys, getOwnPropertyDescriptor, setPrototypeOf: ObjectSetPrototypeOf } = Object;
const ArrayPush = Array.prototype.push;
const StringSplit = String.prototype.split;
const JSONParse = JSON.parse;
const UintArray = Uint8Array;
const TypedArraySet = Object.getPrototypeOf(Uint8Array.prototype).set;
const MapCtor = Map;
const MapGet = Map.prototype.get;
const MapSet = Map.prototype.set;
const MapHas = Map.prototype.has;
const MapDelete = Map.prototype.delete;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const RangeErrorCtor = RangeError;
const PromiseResolve = Promise.resolve.bind(Promise);
const PromiseThen = Promise.prototype.then;
const StringStartsWith = String.prototype.startsWith;
const StringCharCodeAt = String.prototype.charCodeAt;
const StringEndsWith = String.prototype.endsWith;
const StringSlice = String.prototype.slice;
const StringLastIndexOf = String.prototype.lastIndexOf;
const ArrayIncludes = Array.prototype.includes;
const ArraySort = Array.prototype.sort;
const WeakSetCtor = WeakSet;
const WeakSetAdd = WeakSet.prototype.add;
const WeakSetHas = WeakSet.prototype.has;

/**
 * The escape battery's oracle (test/node/escape.test.ts), made only when the host process asks for it
 * (`exposeForTests`, never a guest): the objects that carry the runtime's capabilities, so that a hook of the
 * guest can be asked whether it reached one. Without it `privileged` records nothing.
 */
const privilegedSet = exposeForTests === true ? new WeakSetCtor() : undefined;
function privileged(v) {
  if (privilegedSet !== undefined) ReflectApply(WeakSetAdd, privilegedSet, [v]);
  return v;
}
/** The runtime's files whose exports are capabilities: calls of any host operation, the socket calls. */
const PRIVILEGED_EXPORTS = ['internal/sys', 'internal/host-assist', 'internal/net-sys', 'internal/event-loop'];
privileged(host);
privileged(load);
privileged(loadCall);

// Embedder entry points that would reach the worker's realm (Node's own callbacks).
delete WebAssembly.compileStreaming;
delete WebAssembly.instantiateStreaming;

const SCRATCH_BYTES = 256 * 1024;
const scratchBuffer = new ArrayBuffer(SCRATCH_BYTES);
const scratch = new UintArray(scratchBuffer);
const scratchF64 = new Float64Array(scratchBuffer, 0, 16);
host('scratch', scratchBuffer);
privileged(scratchBuffer);
privileged(scratch);
privileged(scratchF64);

/** Calls the host: a failure comes back as "\0E" + errno name and is thrown as `errors.sysError`. */
function rawCall(op, a, b, c, d, e, f, g) {
  let r;
  try {
    r = host(op, a, b, c, d, e, f, g);
  } catch {
    // A stack overflow right before the call: the RangeError was made in the host's realm; never rethrown.
    throw new RangeErrorCtor('Maximum call stack size exceeded');
  }
  return r;
}
/** Calls the loader (answers as rawCall does). */
function loadCall(op, a, b) {
  let r;
  try {
    r = load(op, a, b);
  } catch {
    throw new RangeErrorCtor('Maximum call stack size exceeded');
  }
  return r;
}
const isFailure = (r) => typeof r === 'string' && r.length > 2 && ReflectApply(StringCharCodeAt, r, [0]) === 0 && ReflectApply(StringCharCodeAt, r, [1]) === 69;

// ---- the runtime's module system (not the guest's: that is internal/modules.js) ----

const internalCache = new MapCtor();
const resolvedIds = new MapCtor();
const internal = privileged(ObjectCreate(null));

/** Builtin name → where its code is: a file of this folder, or an npm polyfill (resolved by the host). */
const BUILTIN_FILES = {
  __proto__: null,
  assert: 'builtins/assert',
  async_hooks: 'builtins/async_hooks',
  buffer: 'builtins/buffer',
  child_process: 'builtins/child_process',
  console: 'internal/console',
  constants: 'builtins/constants',
  crypto: 'builtins/crypto',
  dgram: 'builtins/dgram',
  diagnostics_channel: 'builtins/diagnostics_channel',
  dns: 'builtins/dns',
  events: 'builtins/events',
  fs: 'builtins/fs',
  cluster: 'builtins/cluster',
  domain: 'builtins/domain',
  http: 'builtins/http',
  http2: 'builtins/http2',
  https: 'builtins/https',
  inspector: 'builtins/inspector',
  repl: 'builtins/repl',
  'stream/consumers': 'builtins/stream-consumers',
  'legacy-http': 'builtins/legacy-http',
  sea: 'builtins/sea',
  test: 'builtins/test',
  tls: 'builtins/tls',
  trace_events: 'builtins/trace_events',
  wasi: 'builtins/wasi',
  'fs/promises': 'builtins/fs-promises',
  module: 'builtins/module',
  net: 'builtins/net',
  os: 'builtins/os',
  path: 'builtins/path',
  perf_hooks: 'builtins/perf_hooks',
  process: 'builtins/process',
  punycode: 'builtins/punycode',
  querystring: 'builtins/querystring',
  readline: 'builtins/readline',
  stream: 'builtins/stream',
  'stream/web': 'builtins/stream-web',
  string_decoder: 'builtins/string_decoder',
  timers: 'builtins/timers',
  'timers/promises': 'builtins/timers-promises',
  tty: 'builtins/tty',
  url: 'builtins/url',
  util: 'builtins/util',
  v8: 'builtins/v8',
  vm: 'builtins/vm',
  worker_threads: 'builtins/worker_threads',
  zlib: 'builtins/zlib',
  'node-inspect-extracted': 'npm',
  'npm-stream': 'npm',
  'npm-path': 'npm',
  'npm-cjs-lexer': 'npm',
  'npm-buffer': 'npm',
  'npm-events': 'npm',
  'npm-web-streams': 'npm',
  'npm-string-decoder': 'npm',
};
/** Builtins that are another's property. */
const BUILTIN_ALIASES = {
  __proto__: null,
  'assert/strict': ['assert', 'strict'],
  'path/posix': ['path', 'posix'],
  'stream/promises': ['stream', 'promises'],
  'util/types': ['util', 'types'],
  'readline/promises': ['readline', 'promises'],
  'dns/promises': ['dns', 'promises'],
  'sys': ['util', null],
  'path/win32': ['path', 'win32'],
  'inspector/promises': ['inspector', null],
  _stream_duplex: ['stream', 'Duplex'],
  _stream_passthrough: ['stream', 'PassThrough'],
  _stream_readable: ['stream', 'Readable'],
  _stream_transform: ['stream', 'Transform'],
  _stream_writable: ['stream', 'Writable'],
  _http_agent: ['legacy-http', '_http_agent'],
  _http_client: ['legacy-http', '_http_client'],
  _http_common: ['legacy-http', '_http_common'],
  _http_incoming: ['legacy-http', '_http_incoming'],
  _http_outgoing: ['legacy-http', '_http_outgoing'],
  _http_server: ['legacy-http', '_http_server'],
  _tls_common: ['legacy-http', '_tls_common'],
  _tls_wrap: ['legacy-http', '_tls_wrap'],
};
/**
 * Modules a guest cannot have in the VM: requiring one is an error that says so. A module whose capability
 * the VM does not give (tls, http2, inspector, cluster, …) is not here: it loads with Node's shape, and only
 * the call that needs the capability fails (internal/denied.js).
 */
const DENIED = freeze(['sqlite']);

/** readable-stream's primordials, where a polyfill's id ends. */
const STREAM_PRIMORDIALS = '/readable-stream/lib/ours/primordials.js';

let polyfillGlobals;
/**
 * The runtime's own files and the polyfills, each compiled once by the worker from an id (never from text of
 * this realm) as a strict function. Only the runtime's own files get `internal`; a polyfill's `require`
 * reaches builtins and its own package's files, never `internal/`.
 */
function internalLoad(id) {
  const cached = ReflectApply(MapGet, internalCache, [id]);
  if (cached) return cached.exports;
  const polyfill = ReflectApply(StringStartsWith, id, ['npm:']);
  const fn = loadCall('compile', id);
  if (typeof fn !== 'function') throw new ErrorCtor(`internal module ${id} is missing`);
  const module = ObjectCreate(null);
  module.exports = {};
  module.id = id;
  module.loaded = false;
  ReflectApply(MapSet, internalCache, [id, module]);
  const require = polyfill ? (request) => polyfillRequire(request, id) : (request) => internalRequire(request, id);
  privileged(require);
  const file = polyfill ? ReflectApply(StringSlice, id, [4]) : `/${id}.js`;
  const dir = ReflectApply(StringSlice, file, [0, ReflectApply(StringLastIndexOf, file, ['/'])]);
  if (polyfill) {
    // Object, Math, Reflect and JSON as they were at boot (internal/polyfill-globals.js), and the runtime's
    // primordials (no capability), which the worker's rewrites of the polyfills call (polyfill-patches.ts).
    // Then the built-in constructors as they were at boot (runtime.ts POLYFILL_CONSTRUCTORS). One array literal:
    // appending to an array would run a guest's setter on Array.prototype's indices with the polyfill's require.
    const g = (polyfillGlobals ??= internalLoad('internal/polyfill-globals'));
    ReflectApply(fn, module.exports, [module.exports, require, module, file, dir,
      g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13],
      g[14], g[15], g[16], g[17], g[18], g[19], g[20], g[21], g[22], g[23], g[24], g[25], g[26], g[27],
      g[28], g[29], g[30], g[31], g[32], g[33], g[34], g[35], g[36], g[37], g[38], g[39], g[40], g[41]]);
  } else ReflectApply(fn, module.exports, [module.exports, require, module, internal, file, dir]);
  module.loaded = true;
  // readable-stream's stand-in for Node's primordials calls methods on its arguments (`self.push(el)`): it is
  // given the runtime's own (internal/primordials.js, no capability), as Node's streams have Node's.
  if (polyfill && ReflectApply(StringEndsWith, id, [STREAM_PRIMORDIALS])) {
    const primordials = internalLoad('internal/primordials');
    const keys = ObjectKeys(module.exports);
    for (let i = 0; i < keys.length; i++) if (keys[i] in primordials) module.exports[keys[i]] = primordials[keys[i]];
  }
  // A capability's exports are looked up on nothing a guest can change: no prototype, no later assignment.
  if (ReflectApply(ArrayIncludes, PRIVILEGED_EXPORTS, [id])) freeze(ObjectSetPrototypeOf(privileged(module.exports), null));
  return module.exports;
}

/** `require` inside the runtime's own modules: builtins, the runtime's files, and the polyfills. */
function internalRequire(request, from) {
  if (typeof request !== 'string') throw new TypeErrorCtor('request must be a string');
  let name = ReflectApply(StringStartsWith, request, ['node:']) ? ReflectApply(StringSlice, request, [5]) : request;
  if (ReflectApply(StringEndsWith, name, ['/']) && !ReflectApply(StringStartsWith, name, ['.'])) name = ReflectApply(StringSlice, name, [0, -1]);
  if (ReflectApply(StringStartsWith, name, ['internal/'])) return internalLoad(name);
  return polyfillRequire(request, from);
}

/** `require` inside a polyfill: builtins first, then files beside `from` (the worker resolves them). */
function polyfillRequire(request, from) {
  if (typeof request !== 'string') throw new TypeErrorCtor('request must be a string');
  let name = ReflectApply(StringStartsWith, request, ['node:']) ? ReflectApply(StringSlice, request, [5]) : request;
  if (ReflectApply(StringEndsWith, name, ['/']) && !ReflectApply(StringStartsWith, name, ['.'])) name = ReflectApply(StringSlice, name, [0, -1]);
  if (name === 'abort-controller') return { AbortController: globalThis.AbortController, AbortSignal: globalThis.AbortSignal };
  if (name in BUILTIN_FILES || name in BUILTIN_ALIASES) return builtin(name);
  // Polyfills require inside hot paths (readable-stream's Readable constructor requires './duplex'): the
  // resolution is remembered, so that only the first costs a call to the host.
  const key = `${from}\0${request}`;
  let id = ReflectApply(MapGet, resolvedIds, [key]);
  if (id === undefined) {
    id = loadCall('resolve', request, ReflectApply(StringStartsWith, from, ['npm:']) ? from : undefined);
    if (typeof id !== 'string' || id === '' || isFailure(id)) throw new ErrorCtor(`Cannot find module '${request}' (from ${from})`);
    ReflectApply(MapSet, resolvedIds, [key, id]);
  }
  return internalLoad(id);
}

function builtin(name) {
  const alias = BUILTIN_ALIASES[name];
  if (alias) {
    const parent = builtin(alias[0]);
    return alias[1] === null ? parent : parent[alias[1]];
  }
  const file = BUILTIN_FILES[name];
  if (file === undefined) {
    const e = new ErrorCtor(`No such built-in module: node:${name}`);
    defineProperty(e, 'code', { value: 'ERR_UNKNOWN_BUILTIN_MODULE', writable: true, enumerable: true, configurable: true });
    throw e;
  }
  if (file === 'npm') return internalLoad(loadCall('resolve', name, undefined));
  return internalLoad(file);
}

/** Names in BUILTIN_FILES only the runtime's own modules may require. */
const INTERNAL_ONLY = freeze(['legacy-http', 'node-inspect-extracted', 'npm-stream', 'npm-path', 'npm-cjs-lexer', 'npm-buffer', 'npm-events', 'npm-web-streams', 'npm-string-decoder']);
// The lists are the runtime's own: read with the intrinsics captured above, never with a method a guest can
// replace (which would be handed the list as `this`, to change).
const has = (list, n) => ReflectApply(ArrayIncludes, list, [n]);
const withoutScheme = (name) => (ReflectApply(StringStartsWith, name, ['node:']) ? ReflectApply(StringSlice, name, [5]) : name);
/** This Node's builtinModules and its scheme-only builtins (workers/node-host/node-tables-ops.ts), read once. */
let hostBuiltins;
const hostBuiltinList = () => {
  if (hostBuiltins === undefined) {
    const JSONParse = internalLoad('internal/primordials').JSONParse;
    hostBuiltins = freeze(JSONParse(rawCall('nodeTable', 'builtins')));
    freeze(hostBuiltins.list);
    freeze(hostBuiltins.schemeOnly);
  }
  return hostBuiltins;
};
/** As Node's isBuiltin: a name of this Node's builtinModules, or `node:` and such a name or a scheme-only one. */
const isBuiltin = (name) => {
  if (typeof name !== 'string') return false;
  const n = withoutScheme(name);
  const { list, schemeOnly } = hostBuiltinList();
  return has(list, name) || (n !== name && (has(list, n) || has(schemeOnly, n)));
};

internal.host = privileged(rawCall);
internal.loadFile = internalLoad;
internal.isFailure = isFailure;
// The scratch buffer is handed to nothing but the intrinsics captured above: a method looked up on it (set,
// subarray, length, …) is the %TypedArray%.prototype's, which the guest can replace, and would see it as
// `this` or as an argument. Views of it are made with the constructor, never with species-created methods.
internal.scratchBytes = SCRATCH_BYTES;
/** Copies `bytes` (a typed array), or its part [start, end), to the scratch's start. */
// primordials' subarray: the native one would look the species up on `bytes` (a guest's getter would see it).
let Subarray;
internal.toScratch = (bytes, start, end) => {
  Subarray ??= internalLoad('internal/primordials').TypedArrayPrototypeSubarray;
  ReflectApply(TypedArraySet, scratch, [start === undefined ? bytes : Subarray(bytes, start, end)]);
};
/** Copies the scratch's first `n` bytes into `target` (a typed array) at `offset`. */
internal.fromScratch = (target, offset, n) => {
  ReflectApply(TypedArraySet, target, [new UintArray(scratchBuffer, 0, n), offset]);
};
/** The scratch's first `n` bytes, as a new Uint8Array. */
internal.scratchCopy = (n) => {
  const out = new UintArray(n);
  ReflectApply(TypedArraySet, out, [new UintArray(scratchBuffer, 0, n)]);
  return out;
};
/** The scratch's first 16 doubles (stat results and other numbers the host writes there), read by index. */
internal.scratchF64 = scratchF64;
internal.builtin = (name) => {
  const n = withoutScheme(name);
  if (has(DENIED, n) || has(INTERNAL_ONLY, n)) {
    const e = new ErrorCtor(`The module 'node:${n}' is not available in this VM`);
    defineProperty(e, 'code', { value: 'ERR_ACCESS_DENIED', writable: true, enumerable: true, configurable: true });
    throw e;
  }
  // Node warns when the deprecated alias of util is first loaded.
  if (n === 'sys' && !sysWarned) {
    sysWarned = true;
    internalRequire('process', 'internal/bootstrap').emitWarning('sys is deprecated. Use util instead.', 'DeprecationWarning', 'DEP0025');
  }
  return builtin(n);
};
let sysWarned = false;
internal.isBuiltin = isBuiltin;
/** node-inspect-extracted compiled with the guest's patches (workers/node-host/inspect-patches.ts), for builtins/util.js. */
internal.compileInspect = () => {
  const id = loadCall('resolve', 'node-inspect-extracted', undefined);
  return typeof id === 'string' && id !== '' && !isFailure(id) ? loadCall('compile', id, 'inspect-patched') : undefined;
};
/** Module.builtinModules: this Node's list (a builtin the guest lacks fails to load, with an error that says so). */
internal.builtinNames = () => {
  const list = hostBuiltinList().list;
  const names = [];
  for (let i = 0; i < list.length; i++) ReflectApply(ArrayPush, names, [list[i]]);
  return names;
};
internal.require = (name) => internalRequire(name, 'internal/bootstrap');

// ---- events from the host, by kind ----

const handlers = ObjectCreate(null);
internal.on = (kind, fn) => {
  handlers[kind] = fn;
};

/** The host's entry into the context: primitives in, primitives (or values of this realm) out; never throws. */
let depth = 0;
function dispatch(kind, a, b, c, d, e, f, g) {
  const fn = handlers[kind];
  if (typeof fn !== 'function') return undefined;
  depth++;
  try {
    return fn(a, b, c, d, e, f, g);
  } catch (error) {
    // A guest error escaping a callback: the guest's uncaught-exception path (internal/globals.js).
    try {
      return handlers.fatal(error);
    } catch {
      return 1;
    }
  } finally {
    // As Node after each callback from its loop: process.nextTick's queue, then (when this returns) the promise jobs.
    if (--depth === 0 && typeof internal.runTicks === 'function') internal.runTicks();
  }
}
internal.inCallback = () => depth > 0;

// ---- import() ----

const PromiseCtor = Promise;
/**
 * What V8 calls for every `import()` in the guest's code, in place of Node's own callback (a function of the
 * worker's realm): the first frame entered is this realm's, and so is every error, however little stack is
 * left. Node gives (id, specifier, [phase,] attributes, referrer's name); the name is the file or URL the
 * importing code was compiled as.
 */
function onImport(id, specifier) {
  const name = arguments[arguments.length - 1];
  const attributes = arguments[arguments.length - 2];
  let resolve, reject;
  const promise = new PromiseCtor((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // No stack left for the executor: the promise is rejected with the RangeError it threw.
  if (reject === undefined) return promise;
  try {
    // The attributes as "key\0value" pairs: only primitives go to the host.
    let pairs = '';
    if (attributes !== null && typeof attributes === 'object') {
      const keys = ObjectKeys(attributes);
      for (let i = 0; i < keys.length; i++) pairs += (i === 0 ? '' : '\0') + keys[i] + '\0' + attributes[keys[i]];
    }
    if (rawCall('import', specifier, typeof name === 'string' ? name : undefined, pairs, resolve, reject) !== true) throw new RangeErrorCtor('Maximum call stack size exceeded');
  } catch (e) {
    reject(e);
  }
  return promise;
}
handlers.importCallback = () => onImport;
privileged(handlers);
privileged(dispatch);
privileged(internal.require);
privileged(internal.loadFile);
privileged(internal.compileInspect);

if (privilegedSet !== undefined) {
  // Test runs only (see privilegedSet): the battery calls host operations with hostile arguments itself.
  const opNames = () => {
    const names = rawCall('opNames');
    return typeof names === 'string' ? ReflectApply(StringSplit, names, ['\0']) : [];
  };
  defineProperty(globalThis, '__agentosRuntime', { value: freeze({ host: rawCall, load: loadCall, opNames, isPrivileged: (v) => ReflectApply(WeakSetHas, privilegedSet, [v]) }), configurable: true });
}

// Globals and the process object, before any guest code: internal/globals.js.
internalLoad('internal/globals');
return dispatch;
