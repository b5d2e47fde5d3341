// A guest `node` process's start: its identity from the kernel, Node's command line, then the main module
// (a file, `-e`/`-p` code, or a script on stdin), CommonJS or ES module as Node decides.
'use strict';

const {
  JSONParse,
  Promise,
  PromisePrototypeThen,
  PromiseResolve,
  RangeError,
  NumberParseInt,
  ObjectAssign,
  ObjectDefineProperty,
  Proxy,
  ReflectDefineProperty,
  RegExpPrototypeExec,
  Set,
  StringPrototypeIndexOf,
  StringPrototypeSlice,
  ArrayPrototypePop, ArrayPrototypePush, StringPrototypeEndsWith, StringPrototypeSplit, StringPrototypeStartsWith,
  SafeSet,
  SafeArrayIterator,
  ArrayPrototypeJoin, ArrayPrototypeSlice, TypedArrayPrototypeSubarray, ArrayPrototypeFilter,
  GetLength,
} = require('internal/primordials');

/** Appends the items of array `items` to `list` by index (no iterator, no replaceable method). */
function pushAll(list, items) {
  for (let k = 0; k < items.length; k++) ArrayPrototypePush(list, items[k]);
}

const process = require('process');
const { Module, makeRequire } = require('internal/modules');
const { parseOptions, splitNodeOptions, UsageError } = require('internal/cli-options');
const stdio = require('internal/stdio');
const signals = require('internal/signals');
const host = internal.host;

/**
 * Valid options that would change what `node` does in a way the guest does not do: an error that says so,
 * rather than a run that silently ignores them.
 */
const UNSUPPORTED = new SafeSet(['--check', '--interactive', '--watch', '--watch-path', '--inspect', '--inspect-brk', '--inspect-wait', '--inspect-brk-node', '--prof', '--prof-process', '--cpu-prof', '--heap-prof', '--build-snapshot', '--snapshot-blob', '--experimental-sea-config', '--run', '--env-file', '--experimental-loader', '--test-name-pattern', '--test-skip-pattern', '--test-only', '--experimental-test-coverage', '--experimental-test-snapshots']);

function usage(message) {
  stdio.writeAll(2, `${process.argv0}: ${message}\n`);
  internal.exit(9);
}

internal.on('start', (argv, env, cwd, pid, ppid, version, versions) => {
  const args = StringPrototypeSplit(argv, '\0');
  process.pid = pid;
  process.ppid = ppid;
  process.version = version;
  process.versions = JSONParse(versions);
  // Node 23 removed process.assert (DEP0100).
  if (+StringPrototypeSplit(process.versions.node, '.')[0] >= 23) delete process.assert;
  process.argv0 = args[0];
  const environment = {};
  for (const entry of new SafeArrayIterator(env === '' ? [] : StringPrototypeSplit(env, '\0'))) {
    const i = StringPrototypeIndexOf(entry, '=');
    if (i > 0) environment[StringPrototypeSlice(entry, 0, i)] = StringPrototypeSlice(entry, i + 1);
  }
  process.env = envProxy(environment);
  // A forked child: its channel to the parent, which its own children do not inherit.
  if (environment.NODE_CHANNEL_FD !== undefined) {
    const fd = NumberParseInt(environment.NODE_CHANNEL_FD, 10);
    const serialization = environment.NODE_CHANNEL_SERIALIZATION_MODE || 'json';
    delete process.env.NODE_CHANNEL_FD;
    delete process.env.NODE_CHANNEL_SERIALIZATION_MODE;
    if (fd >= 0) require('child_process')._forkChild(fd, serialization === 'advanced' ? serialization : 'json');
  }
  // A Worker's thread (builtins/worker_threads.js): its channel to the parent, which says what to run.
  let workerFd;
  if (environment.NODE_WORKER_FD !== undefined) {
    workerFd = NumberParseInt(environment.NODE_WORKER_FD, 10);
    delete process.env.NODE_WORKER_FD;
  }
  for (const entry$57 of new SafeArrayIterator([[1, 'stdout'], [2, 'stderr']])) { const fd = entry$57[0], name = entry$57[1];
    let stream;
    ObjectDefineProperty(process, name, { get: () => (stream ??= stdio.createWritable(fd)), configurable: true, enumerable: true });
  }
  let stdin;
  ObjectDefineProperty(process, 'stdin', { get: () => (stdin ??= stdio.createReadable(0)), configurable: true, enumerable: true });
  signals.watch(process);

  let parsed;
  let fromEnv;
  try {
    // NODE_OPTIONS first, then the command line, as Node reads them.
    fromEnv = environment.NODE_OPTIONS ? parseOptions(splitNodeOptions(environment.NODE_OPTIONS), true).options : [];
    parsed = parseOptions(ArrayPrototypeSlice(args, 1), false);
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message);
    throw e;
  }
  const execArgv = [];
  let evalCode;
  let print = false;
  let inputType = 'commonjs';
  let testMode = false;
  const preload = [];
  const imports = [];
  const all = ArrayPrototypeSlice(fromEnv);
  pushAll(all, parsed.options);
  for (let k = 0; k < all.length; k++) {
    const { name, value } = all[k];
    if (k >= fromEnv.length) pushAll(execArgv, all[k].given);
    if (UNSUPPORTED.has(name)) return usage(`${name} is not supported in this VM`);
    if (name === '--eval') evalCode = value;
    else if (name === '--print') print = true;
    else if (name === '--input-type') inputType = value;
    else if (name === '--require') ArrayPrototypePush(preload, value);
    else if (name === '--import') ArrayPrototypePush(imports, value);
    else if (name === '--test') testMode = true;
    else if (name === '--test-reporter') {
      // Node's built-in tap and spec reporters (dot, junit, lcov and custom ones are not there).
      if (value !== 'tap' && value !== 'spec') return usage(`--test-reporter=${value} is not supported in this VM (tap and spec are)`);
      internal.testReporter = value;
    } else if (name === '--test-reporter-destination' && value !== 'stdout') return usage(`--test-reporter-destination=${value} is not supported in this VM (stdout is)`);
    else if (name === '--version') {
      stdio.writeAll(1, `${process.version}\n`);
      return internal.exit(0);
    } else if (name === '--help') {
      stdio.writeAll(1, 'Usage: node [options] [ script.js ] [arguments]\n       node [options] -e "script" [arguments]\n');
      return internal.exit(0);
    }
  }
  const i = parsed.index + 1;
  process.execArgv = execArgv;
  process._preload_modules = ArrayPrototypeSlice(preload);
  const rest = ArrayPrototypeSlice(args, i);
  process.argv = [process.execPath];
  Module._preloadModules(preload);
  // --import: each ES module is imported, in order, before the main one runs (as Node's).
  if (imports.length > 0) {
    let chain = PromiseResolve();
    for (let k = 0; k < imports.length; k++) {
      const specifier = imports[k];
      chain = PromisePrototypeThen(chain, () => importPreload(specifier, cwd));
    }
    return void PromisePrototypeThen(chain, () => runEntry(), (e) => internal.fatal(e));
  }
  if (workerFd >= 0) return require('internal/worker-thread').startWorker(workerFd, runWorker);
  runEntry();

  /** A Worker's script: a file as the main module, or `eval` code as Node's `[worker eval]`. */
  function runWorker(init) {
    ArrayPrototypePush(process.argv, init.eval ? '[worker eval]' : init.filename);
    pushAll(process.argv, init.argv);
    if (init.eval) return runEval(init.code, false, 'commonjs', cwd, '[worker eval]');
    runMain(init.filename, init.filename);
  }

  function runEntry() {
  if (testMode) {
    pushAll(process.argv, rest);
    return require('internal/test-runner').runTests(rest, ArrayPrototypeFilter(execArgv, (a) => a !== '--test'));
  }

  if (evalCode !== undefined) {
    pushAll(process.argv, rest);
    return runEval(evalCode, print, inputType, cwd, '[eval]');
  }
  if (rest.length === 0 || rest[0] === '-') {
    pushAll(process.argv, rest);
    const chunks = [];
    const { Buffer } = require('buffer');
    const buf = Buffer.alloc(64 * 1024);
    for (let n; (n = internal.sys.read(0, buf, 0, GetLength(buf), -1)) > 0; ) ArrayPrototypePush(chunks, Buffer.from(TypedArrayPrototypeSubarray(buf, 0, n)));
    return runEval(Buffer.concat(chunks).toString(), false, inputType, cwd, '[stdin]');
  }
  const script = rest[0];
  const filename = StringPrototypeStartsWith(script, '/') ? script : `${cwd}/${script}`;
  ArrayPrototypePush(process.argv, normalize(filename));
  pushAll(process.argv, ArrayPrototypeSlice(rest, 1));
  runMain(normalize(filename), script);
  }
});

/** `import(specifier)` from the working directory, as Node's --import. */
function importPreload(specifier, cwd) {
  return new Promise((resolve, reject) => {
    if (host('import', specifier, `${cwd === '/' ? '' : cwd}/[preload]`, '', resolve, reject) !== true) reject(new RangeError('Maximum call stack size exceeded'));
  });
}

function normalize(path) {
  const out = [];
  for (const seg of new SafeArrayIterator(StringPrototypeSplit(path, '/'))) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') ArrayPrototypePop(out);
    else ArrayPrototypePush(out, seg);
  }
  return `/${ArrayPrototypeJoin(out, '/')}`;
}

function runEval(code, print, inputType, cwd, name) {
  if (inputType === 'module') {
    if (print) return usage('--print cannot be used with ESM input');
    return void host('evalModule', code, `file://${cwd === '/' ? '' : cwd}/${name}`);
  }
  const module = new Module(name, null);
  module.filename = `${cwd}/${name}`;
  module.paths = Module._nodeModulePaths(cwd);
  // As Node's -e: a script of the global scope, with require and friends as globals.
  ObjectAssign(globalThis, { module, exports: module.exports, require: makeRequire(module), __filename: name, __dirname: '.' });
  const outcome = host('runScript', code, name);
  const result = host('scriptResult');
  if (outcome !== 'ok') return internal.fatal(withoutRuntimeSource(result));
  if (print) console.log(result);
}

/**
 * An error thrown out of a script has its stack headed by the throw's place, `file:line`, its source line and
 * a caret (vm's decoration, as Node's own -e). Thrown inside the runtime (a builtin's check, a system call's
 * error), that place is the runtime's, whose source is none of the guest's business: the header goes, and the
 * error prints as one thrown by a main module does.
 */
function withoutRuntimeSource(error) {
  try {
    const stack = error !== null && typeof error === 'object' ? error.stack : undefined;
    if (typeof stack === 'string' && RegExpPrototypeExec(/^node:[^\n]*:\d+\n/, stack) !== null) {
      const end = StringPrototypeIndexOf(stack, '\n\n');
      if (end !== -1) error.stack = StringPrototypeSlice(stack, end + 2);
    }
  } catch {
    // a stack that cannot be read or written stays as it is
  }
  return error;
}

function runMain(filename, given) {
  let resolved;
  try {
    resolved = Module._resolveFilename(filename, null);
  } catch (e) {
    if (e && e.code === 'MODULE_NOT_FOUND') {
      e.message = `Cannot find module '${filename}'`;
      e.requireStack = [];
    }
    return internal.fatal(e);
  }
  const { resolver } = require('internal/modules');
  const isModule = StringPrototypeEndsWith(resolved, '.mjs') || (!StringPrototypeEndsWith(resolved, '.cjs') && resolver.packageType(resolved) === 'module' && !StringPrototypeEndsWith(resolved, '.json'));
  if (isModule) return void host('importMain', require('internal/url').pathToFileURL(resolved).href);
  // The main CommonJS module, as require.main knows it once loading begins (Node sets it there too).
  const main = makeRequire(new Module(resolved, null));
  let assigned;
  let isAssigned = false;
  ObjectDefineProperty(process, 'mainModule', {
    get: () => (isAssigned ? assigned : main.main),
    set: (value) => {
      assigned = value;
      isAssigned = true;
    },
    enumerable: true,
    configurable: true,
  });
  try {
    Module._load(resolved, null, true);
  } catch (e) {
    internal.fatal(e);
  }
}

/** process.env: values are strings, as Node's are. */
function envProxy(target) {
  return new Proxy(target, {
    set(t, key, value) {
      t[key] = typeof key === 'symbol' ? value : `${value}`;
      return true;
    },
    defineProperty(t, key, desc) {
      if ('value' in desc) desc = { ...desc, value: `${desc.value}` };
      return ReflectDefineProperty(t, key, desc);
    },
  });
}
