// The guest's module system: CommonJS (`require`, `module`, Module._cache, createRequire) over the VM's
// file system, and the guest's side of ES modules, which the host links as vm modules
// (workers/node-host/esm-loader.ts): resolution, the exports of builtins, CommonJS and JSON, import.meta.
// Resolution itself is Node's algorithm in internal/resolve.js.
'use strict';

const {
  ArrayIsArray, ArrayPrototypeJoin, ArrayPrototypePush, JSONParse, ObjectCreate, ObjectDefineProperty, ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf, ObjectKeys, ObjectPrototype, ObjectPrototypeHasOwnProperty, ObjectSetPrototypeOf, Proxy, ReflectApply, RegExpPrototypeExec,
  SafeMap, SafeSet, String, StringPrototypeCharCodeAt, StringPrototypeEndsWith, StringPrototypeIndexOf, StringPrototypeLastIndexOf,
  StringPrototypeSlice, StringPrototypeSplit, StringPrototypeStartsWith, TypeError, Error,
} = require('internal/primordials');

const { codeError } = require('internal/errors');
const { createResolver } = require('internal/resolve');
const host = internal.host;
const sys = internal.sys;

/** Stats made during one outermost require (as Node's statCache): a module graph probes the same paths. */
let statCache = null;
function fileType(path) {
  if (statCache !== null && statCache.has(path)) return statCache.get(path); // a SafeMap
  const r = host('fileType', path);
  const type = typeof r === 'number' ? r : 0;
  if (statCache !== null) statCache.set(path, type);
  return type;
}
/** Real paths, kept for the process's life as Node keeps them. */
const realpathCache = new SafeMap();
function realpath(path) {
  let real = realpathCache.get(path);
  if (real === undefined) {
    real = sys.realpath(path);
    realpathCache.set(path, real);
  }
  return real;
}
function readText(path) {
  const r = host('readText', path);
  return typeof r === 'string' && !internal.isFailure(r) ? r : undefined;
}

const resolver = createResolver({
  fileType,
  readText,
  realpath,
  isBuiltin: (name) => internal.isBuiltin(name),
  requireEsm: host('requireModule') === true,
  // Node names the code in the stack of its coded errors, but not of MODULE_NOT_FOUND's plain Error.
  makeError: (Ctor, code, message, extra) => {
    const e = code === undefined || code === 'MODULE_NOT_FOUND' ? new Ctor(message) : codeError(Ctor, code, message);
    if (code === 'MODULE_NOT_FOUND') e.code = code;
    if (extra) {
      const keys = ObjectKeys(extra);
      for (let i = 0; i < keys.length; i++) e[keys[i]] = extra[keys[i]];
    }
    return e;
  },
});

const dirname = (p) => {
  const i = StringPrototypeLastIndexOf(p, '/');
  return i <= 0 ? '/' : StringPrototypeSlice(p, 0, i);
};
const extname = (p) => {
  const base = StringPrototypeSlice(p, StringPrototypeLastIndexOf(p, '/') + 1);
  const i = StringPrototypeLastIndexOf(base, '.');
  return i <= 0 ? '' : StringPrototypeSlice(base, i);
};
const fileURL = (path) => require('internal/url').pathToFileURL(path).href;
const filePath = (url) => require('internal/url').fileURLToPath(url);

class Module {
  constructor(id = '', parent) {
    this.id = id;
    this.path = dirname(id);
    this.exports = {};
    this.filename = null;
    this.loaded = false;
    this.children = [];
    this.paths = [];
    ObjectDefineProperty(this, 'parent', { __proto__: null, value: parent, writable: true, configurable: true, enumerable: false });
    if (parent && parent.children) ArrayPrototypePush(parent.children, this);
  }

  require(id) {
    if (typeof id !== 'string') throw require('internal/errors').invalidArgType('id', 'of type string', id);
    if (id === '') throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'id' must be a non-empty string. Received ''");
    return Module._load(id, this, false);
  }

  _compile(content, filename) {
    const source = StringPrototypeStartsWith(content, '#!') ? `//${content}` : content;
    const fn = host('compile', source, filename);
    if (typeof fn !== 'function') throw fn;
    const require = makeRequire(this);
    return ReflectApply(fn, this.exports, [this.exports, require, this, filename, dirname(filename)]);
  }
}

Module._cache = ObjectCreate(null);
Module._pathCache = ObjectCreate(null);
Module.builtinModules = internal.builtinNames();
Module.isBuiltin = (name) => internal.isBuiltin(name);
// As Node's, wrap and wrapper are accessors (not enumerable) over the module's own values.
let wrapper = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];
let wrap = (script) => wrapper[0] + script + wrapper[1];
ObjectDefineProperty(Module, 'wrapper', { __proto__: null, get: () => wrapper, set: (v) => (wrapper = v), enumerable: false, configurable: false });
ObjectDefineProperty(Module, 'wrap', { __proto__: null, get: () => wrap, set: (v) => (wrap = v), enumerable: false, configurable: false });
Module._nodeModulePaths = (dir) => resolver.nodeModulePaths(dir);
Module.globalPaths = [];
Module.Module = Module;

function requireStack(parent) {
  const stack = [];
  for (let m = parent; m && m.filename; m = m.parent) ArrayPrototypePush(stack, m.filename);
  return stack;
}

Module._resolveFilename = function (request, parent) {
  const from = parent && parent.filename ? parent.filename : undefined;
  const dir = from ? dirname(from) : (parent && parent.path) || sys.cwd();
  return resolver.resolveCjs(request, from, dir, requireStack(parent));
};

function requireEsmError(filename, parent) {
  const from = parent && parent.filename;
  const message = from
    ? `require() of ES Module ${filename} from ${from} not supported.\nInstead change the require of ${filename} in ${from} to a dynamic import() which is available in all CommonJS modules.`
    : `require() of ES Module ${filename} not supported.`;
  return codeError(Error, 'ERR_REQUIRE_ESM', message);
}

/** What the host's requireModule last handed over as thrown (a value of this realm). */
let requireError;
internal.on('requireError', (e) => {
  requireError = e;
});

/**
 * `require()` of an ES module, synchronous as in Node ≥ 20.19 / 22.12 where the host's vm can link without
 * waiting (workers/node-host/esm-loader.ts, requireModule); elsewhere ERR_REQUIRE_ESM as before.
 */
function loadEsm(module, filename) {
  const parent = module.parent;
  const r = host('requireModule', fileURL(filename));
  if (r !== null && (typeof r === 'object' || typeof r === 'function')) {
    module.exports = ObjectPrototypeHasOwnProperty(r, 'module.exports') ? r['module.exports'] : r;
    return;
  }
  if (r === '\0THREW') {
    const e = requireError;
    requireError = undefined;
    throw e;
  }
  const from = parent && parent.filename;
  if (r === '\0ASYNC') {
    const message = 'require() cannot be used on an ESM graph with top-level await. Use import() instead. To see where the top-level await comes from, use --experimental-print-required-tla.';
    // Node 20 names the parent and the module; newer Node the module and the require stack.
    if (nodeMajor() < 22) throw codeError(Error, 'ERR_REQUIRE_ASYNC_MODULE', message + (from ? `\n  From ${from} ` : '') + `\n  Requiring ${filename} `);
    const stack = requireStack(parent);
    throw codeError(Error, 'ERR_REQUIRE_ASYNC_MODULE',
      message + `\nRequired module: ${filename}` + (stack.length ? `\nRequire stack:\n- ${ArrayPrototypeJoin(stack, '\n- ')}` : ''));
  }
  if (r === '\0CYCLE') {
    throw codeError(Error, 'ERR_REQUIRE_CYCLE_MODULE',
      `Cannot require() ES Module ${filename} in a cycle.` + (from ? ` (from ${from})` : '') +
      ' A cycle involving require(esm) is not allowed to maintain invariants mandated by the ECMAScript specification. Try making at least part of the dependency in the graph lazily loaded.');
  }
  throw requireEsmError(filename, parent);
}

function nodeMajor() {
  const version = '' + require('process').versions.node;
  return +StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.'));
}

Module._extensions = ObjectCreate(null);
Module._extensions['.js'] = function (module, filename) {
  if (StringPrototypeEndsWith(filename, '.js') && resolver.packageType(filename) === 'module') return loadEsm(module, filename);
  module._compile(readOrThrow(filename), filename);
};
Module._extensions['.cjs'] = (module, filename) => module._compile(readOrThrow(filename), filename);
Module._extensions['.json'] = function (module, filename) {
  const text = readOrThrow(filename);
  try {
    module.exports = JSONParse(StringPrototypeCharCodeAt(text, 0) === 0xfeff ? StringPrototypeSlice(text, 1) : text);
  } catch (e) {
    e.message = `${filename}: ${e.message}`;
    throw e;
  }
};
Module._extensions['.node'] = (module, filename) => {
  throw codeError(Error, 'ERR_DLOPEN_FAILED', `Native addons are not available in this VM: ${filename}`);
};
Module._extensions['.mjs'] = loadEsm;

function readOrThrow(filename) {
  const text = readText(filename);
  if (text === undefined) sys.open(filename, 0); // throws the reason (ENOENT, EISDIR, …)
  return text === undefined ? '' : text;
}

Module._load = function (request, parent, isMain) {
  if (StringPrototypeStartsWith(request, 'node:') || (internal.isBuiltin(request) && !StringPrototypeStartsWith(request, '.'))) return internal.builtin(request);
  const outermost = statCache === null;
  if (outermost) statCache = new SafeMap();
  try {
    return load(request, parent, isMain);
  } finally {
    if (outermost) statCache = null;
  }
};

function load(request, parent, isMain) {
  const filename = Module._resolveFilename(request, parent);
  if (StringPrototypeStartsWith(filename, 'node:')) return internal.builtin(filename);
  const cached = Module._cache[filename];
  if (cached) return cached.loaded ? cached.exports : exportsForCircularRequire(cached);
  const module = new Module(filename, parent);
  if (isMain) {
    module.id = '.';
    mainModule = module;
  }
  module.filename = filename;
  module.paths = resolver.nodeModulePaths(dirname(filename));
  Module._cache[filename] = module;
  let ok = false;
  try {
    const ext = extname(filename);
    const loader = Module._extensions[ext] || Module._extensions['.js'];
    loader(module, filename);
    ok = true;
  } finally {
    if (!ok) delete Module._cache[filename];
  }
  module.loaded = true;
  const exports = module.exports;
  if (exports && ObjectGetPrototypeOf(exports) === CircularRequireWarningProto) ObjectSetPrototypeOf(exports, ObjectPrototype);
  return exports;
}

/**
 * As Node: a module's plain exports object required while it loads gets, until it is loaded, a prototype
 * that warns of each property it does not have (a partial export seen through a cycle).
 */
const warnCircular = (prop) => require('process').emitWarning(`Accessing non-existent property '${String(prop)}' of module exports inside circular dependency`);
const CircularRequireWarningProto = new Proxy({}, {
  __proto__: null,
  get(target, prop) {
    // __esModule is how transpiled code asks whether a module is an ES module: not a regular export.
    if (prop in target || prop === '__esModule') return target[prop];
    warnCircular(prop);
    return undefined;
  },
  getOwnPropertyDescriptor(target, prop) {
    if (ObjectPrototypeHasOwnProperty(target, prop) || prop === '__esModule') return ObjectGetOwnPropertyDescriptor(target, prop);
    warnCircular(prop);
    return undefined;
  },
});
function exportsForCircularRequire(module) {
  const exports = module.exports;
  if (exports && ObjectGetPrototypeOf(exports) === ObjectPrototype && !exports.__esModule) ObjectSetPrototypeOf(exports, CircularRequireWarningProto);
  return exports;
}

let mainModule;

function makeRequire(module) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => {
    if (internal.isBuiltin(request) && !StringPrototypeStartsWith(request, '.')) return request;
    if (options && ArrayIsArray(options.paths)) {
      let lastError;
      const paths = options.paths;
      for (let i = 0; i < paths.length; i++) {
        const base = paths[i];
        try {
          return resolver.resolveCjs(request, undefined, base, requireStack(module));
        } catch (e) {
          lastError = e;
        }
      }
      throw lastError;
    }
    return Module._resolveFilename(request, module);
  };
  require.resolve.paths = (request) => (internal.isBuiltin(request) ? null : resolver.nodeModulePaths(module.path));
  ObjectDefineProperty(require, 'main', { __proto__: null, get: () => mainModule, enumerable: true, configurable: true });
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

Module.createRequire = function createRequire(filename) {
  let path = filename;
  if (typeof filename === 'object' && filename !== null && typeof filename.href === 'string') path = filePath(filename.href);
  else if (typeof filename === 'string' && StringPrototypeStartsWith(filename, 'file:')) path = filePath(filename);
  if (typeof path !== 'string' || !StringPrototypeStartsWith(path, '/'))
    throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received ${require('util').inspect(filename)}`);
  const m = new Module(path, null);
  m.filename = path;
  m.paths = resolver.nodeModulePaths(m.path);
  return makeRequire(m);
};
Module.syncBuiltinESMExports = () => {};
Module.register = () => {};
// Source maps are not read in the VM (as Node without --enable-source-maps): no module has one.
Module.findSourceMap = () => undefined;
Module._initPaths = () => {};
Module._debug = () => {};

/** The first of `paths` where `request` resolves to a file (as a file, with an extension, or as a directory), or false. */
Module._findPath = function (request, paths) {
  const dirs = StringPrototypeStartsWith(request, '/') ? [''] : paths;
  for (let i = 0; i < dirs.length; i++) {
    const dir = dirs[i];
    try {
      return resolver.resolveCjs(dir === '' ? request : `${dir}/${request}`, undefined, '/', []);
    } catch {}
  }
  return false;
};

/** Where a `require(request)` from `parent` looks: null for a builtin, its directory for a relative path, else node_modules folders. */
Module._resolveLookupPaths = function (request, parent) {
  if (internal.isBuiltin(request)) return null;
  const relative = request === '.' || request === '..' || StringPrototypeStartsWith(request, './') || StringPrototypeStartsWith(request, '../');
  if (!relative) {
    const out = [];
    const lists = [(parent && parent.paths) || [], Module.globalPaths];
    for (let l = 0; l < 2; l++) for (let i = 0; i < lists[l].length; i++) ArrayPrototypePush(out, lists[l][i]);
    return out;
  }
  if (!parent || !parent.id || !parent.filename) return ['.'];
  return [dirname(parent.filename)];
};

Module._preloadModules = function (requests) {
  if (!ArrayIsArray(requests)) return;
  const cwd = sys.cwd();
  const parent = new Module(`${cwd}/[preload]`, null);
  parent.filename = null;
  parent.paths = resolver.nodeModulePaths(cwd);
  for (let i = 0; i < requests.length; i++) Module._load(requests[i], parent, false);
};

/** Runs process.argv[1] as the main module, as `node file` does. */
Module.runMain = function (main = require('process').argv[1]) {
  Module._load(main, null, true);
};

// ---- the guest's side of ES modules ----

/**
 * "format\0url", or the error (of this realm) the host throws as it is. `attributes` are the request's import
 * attributes as "key\0value" pairs joined by "\0" (the host hands over only primitives).
 */
internal.on('resolveEsm', (specifier, parentURL, attributes) => {
  try {
    const r = resolver.resolveEsm(specifier, parentURL);
    validateAttributes(r.url, r.format, typeof attributes === 'string' && attributes !== '' ? StringPrototypeSplit(attributes, '\0') : []);
    return `${r.format}\0${r.url}`;
  } catch (e) {
    return e;
  }
});

/** Node's check of a request's import attributes against the format loaded (internal/modules/esm/assert.js). */
function validateAttributes(url, format, pairs) {
  const modern = nodeMajor() >= 21;
  let type;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    if (pairs[i] === 'type') {
      type = pairs[i + 1];
      continue;
    }
    throw codeError(TypeError, 'ERR_IMPORT_ATTRIBUTE_UNSUPPORTED',
      `Import attribute "${pairs[i]}" with value "${pairs[i + 1]}" is not supported` + (modern ? ` in ${url}` : ''));
  }
  const valid = format === 'json' ? 'json' : undefined;
  if (type === valid) return;
  if (type === undefined) {
    throw codeError(TypeError, modern ? 'ERR_IMPORT_ATTRIBUTE_MISSING' : 'ERR_IMPORT_ASSERTION_TYPE_MISSING',
      modern ? `Module "${url}" needs an import attribute of "type: ${valid}"` : `Module "${url}" needs an import attribute of type "${valid}"`);
  }
  if (type !== 'json') {
    throw modern
      ? codeError(TypeError, 'ERR_IMPORT_ATTRIBUTE_UNSUPPORTED', `Import attribute "type" with value "${type}" is not supported in ${url}`)
      : codeError(TypeError, 'ERR_IMPORT_ASSERTION_TYPE_UNSUPPORTED', `Import attribute type "${type}" is unsupported`);
  }
  throw codeError(TypeError, modern ? 'ERR_IMPORT_ATTRIBUTE_TYPE_INCOMPATIBLE' : 'ERR_IMPORT_ASSERTION_TYPE_FAILED', `Module "${url}" is not of type "${type}"`);
}

const esmValues = new SafeMap();
function esmExports(format, url) {
  if (esmValues.has(url)) return esmValues.get(url);
  let value;
  if (format === 'builtin') value = internal.builtin(url);
  else if (format === 'json') {
    const text = readOrThrow(filePath(url));
    value = JSONParse(text);
  } else value = Module._load(filePath(url), null, false);
  esmValues.set(url, value);
  return value;
}

/**
 * The names a CommonJS module exports to ES modules, found as Node finds them: by cjs-module-lexer's
 * reading of its source (and of the modules it re-exports), without running it. It runs when the importing
 * graph is evaluated, in order (exportValue).
 */
function cjsExportNames(filename, seen) {
  if (seen.has(filename)) return [];
  seen.add(filename);
  const source = readText(filename);
  if (source === undefined) return [];
  let parsed;
  try {
    parsed = internal.require('npm-cjs-lexer').parse(source);
  } catch {
    return [];
  }
  const names = [];
  const exported = parsed.exports;
  for (let i = 0; i < exported.length; i++) ArrayPrototypePush(names, exported[i]);
  const reexports = parsed.reexports;
  for (let r = 0; r < reexports.length; r++) {
    const request = reexports[r];
    let resolved;
    try {
      resolved = resolver.resolveCjs(request, filename, dirname(filename), [filename]);
    } catch {
      continue;
    }
    if (!StringPrototypeStartsWith(resolved, 'node:') && RegExpPrototypeExec(/\.c?js$/, resolved) !== null) {
      const more = cjsExportNames(resolved, seen);
      for (let i = 0; i < more.length; i++) ArrayPrototypePush(names, more[i]);
    }
  }
  return names;
}

internal.on('exportNames', (format, url) => {
  try {
    const names = new SafeSet();
    names.add('default');
    if (format === 'commonjs') {
      const found = cjsExportNames(filePath(url), new SafeSet());
      for (let i = 0; i < found.length; i++) names.add(found[i]);
      // Since Node 23 a CommonJS module also exports its module.exports as 'module.exports' (the reported
      // version, process.versions.node, is set when the process starts: read it now).
      const version = String(require('process').versions.node);
      if (+StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.')) >= 23) names.add('module.exports');
    } else if (format === 'builtin') {
      const value = esmExports(format, url);
      const keys = ObjectKeys(value);
      for (let i = 0; i < keys.length; i++) names.add(keys[i]);
    }
    let joined = '';
    for (const name of names) joined += (joined === '' ? '' : '\0') + name;
    return joined;
  } catch (e) {
    return e;
  }
});
/** What made the last exportValue fail (a CommonJS module that threw), for the host to throw. */
let exportError;
internal.on('takeExportError', () => {
  const e = exportError;
  exportError = undefined;
  return e;
});
internal.on('exportValue', (format, url, name) => {
  let value;
  try {
    value = esmExports(format, url);
  } catch (e) {
    exportError = e;
    return '\0EXPORT_FAILED';
  }
  if (name === 'default' || (format === 'commonjs' && name === 'module.exports')) return value;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  if (format === 'commonjs' && !ObjectPrototypeHasOwnProperty(value, name)) return undefined;
  try {
    return value[name];
  } catch {
    return undefined;
  }
});
internal.on('initMeta', (meta, url) => {
  ObjectDefineProperty(meta, 'url', { __proto__: null, value: url, writable: true, enumerable: true, configurable: true });
  if (StringPrototypeStartsWith(url, 'file:')) {
    const filename = filePath(url);
    meta.filename = filename;
    meta.dirname = dirname(filename);
  }
  // As Node's: a relative specifier resolves to its URL whether or not the file exists.
  meta.resolve = (specifier) => {
    try {
      return resolver.resolveEsm(String(specifier), url).url;
    } catch (e) {
      if (e && e.code === 'ERR_MODULE_NOT_FOUND' && RegExpPrototypeExec(/^\.{0,2}\//, String(specifier)) !== null) return new (require('internal/url').URL)(String(specifier), url).href;
      throw e;
    }
  };
});

module.exports = { Module, resolver, makeRequire, fileURL, dirname };
