// The guest's `process`: an EventEmitter of its realm. Its identity (argv, env, pid, cwd) is filled in when
// the worker gets its process (internal/main.js); stdio are streams over fds 0–2 (internal/stdio.js).
'use strict';

const {
  ObjectPrototypeHasOwnProperty,
  BigInt,
  Date,
  DateNow,
  Error,
  JSONParse,
  JSONStringify,
  MathFloor,
  MathMax,
  MathRound,
  ObjectAssign,
  ObjectDefineProperty,
  ObjectEntries,
  ObjectKeys,
  Set,
  String,
  SymbolToStringTag,
  TypeError,
  ArrayPrototypePush,
  ArrayPrototypeShift,
  StringPrototypeSplit,
  StringPrototypeStartsWith,
  SafeSet,
  StringPrototypePadStart, StringPrototypeReplace, StringPrototypeTrim,
  SafeArrayIterator,
  RegExpPrototypeExec,
  ArrayPrototypeConcat, ArrayPrototypeFilter, ArrayPrototypeMap, ArrayPrototypeSlice,
  DatePrototypeGetDate, DatePrototypeGetFullYear, DatePrototypeGetHours, DatePrototypeGetMinutes, DatePrototypeGetMonth, DatePrototypeGetSeconds, DatePrototypeToISOString,
  hardenRegExp,
} = require('internal/primordials');

const EventEmitter = require('events');
const { codeError, invalidArgType } = require('internal/errors');
const host = internal.host;
const asyncContext = require('internal/async-context');
const sys = internal.sys;

const { SIGNALS } = require('internal/signals');

const process = new EventEmitter();
ObjectDefineProperty(process, SymbolToStringTag, { value: 'process', configurable: true });
process.title = 'node';
process.argv = [];
process.argv0 = 'node';
process.execArgv = [];
process.execPath = '/usr/bin/node';
process.env = {};
process.pid = 0;
process.ppid = 0;
process.platform = 'linux';
process.arch = 'x64';
process.version = 'v20.0.0';
process.versions = { node: '20.0.0' };
process.release = { name: 'node' };
process.config = { variables: {} };
process.features = { inspector: false, debug: false, uv: true, ipv6: true, tls_alpn: false, tls_sni: false, tls_ocsp: false, tls: false, cached_builtins: true, typescript: false };
process.exitCode = undefined;
process.allowedNodeEnvironmentFlags = new Set();
process.moduleLoadList = [];

// ---- nextTick: before the promise jobs queued after it, after the current operation ----
const ticks = [];
let draining = false;
function runTicks() {
  draining = false;
  while (ticks.length > 0) {
    const tick = ArrayPrototypeShift(ticks);
    try {
      asyncContext.runIn(tick[2], tick[0], undefined, tick[1]);
    } catch (e) {
      internal.fatal(e);
    }
  }
}
process.nextTick = function nextTick(callback, ...args) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  ArrayPrototypePush(ticks, [callback, args, asyncContext.get()]);
  // Inside a callback of the loop the queue runs when it returns (bootstrap.js dispatch); from a promise
  // job, once the job queue is drained (the host's tick, which dispatches 'ticks').
  if (!draining && !internal.inCallback()) {
    draining = true;
    host('tick');
  }
};
internal.nextTick = process.nextTick;
internal.runTicks = runTicks;
internal.on('ticks', runTicks);

process.cwd = () => sys.cwd();
process.chdir = (directory) => {
  if (typeof directory !== 'string') throw invalidArgType('directory', 'of type string', directory);
  try {
    sys.chdir(directory);
  } catch (e) {
    // Node's message: "ENOENT: no such file or directory, chdir '/w' -> 'nope'"
    e.message = `${e.code}: ${require('internal/errors').ERRNO[e.code][1]}, chdir '${sys.cwd()}' -> '${directory}'`;
    e.syscall = 'chdir';
    e.path = sys.cwd();
    e.dest = directory;
    throw e;
  }
};
process.umask = (mask) => 0o022;
process.getuid = process.geteuid = () => 0;
process.getgid = process.getegid = () => 0;
process.getgroups = () => [0];
process.setuid = process.setgid = process.seteuid = process.setegid = process.setgroups = () => {};
process.hrtime = function hrtime(previous) {
  const ms = host('hrtime');
  let sec = MathFloor(ms / 1000);
  let ns = MathRound((ms - sec * 1000) * 1e6);
  if (previous) {
    sec -= previous[0];
    ns -= previous[1];
    if (ns < 0) {
      sec--;
      ns += 1e9;
    }
  }
  return [sec, ns];
};
process.hrtime.bigint = () => BigInt(MathRound(host('hrtime') * 1e6));
const started = host('hrtime');
process.uptime = () => (host('hrtime') - started) / 1000;
// The guest's isolate is a worker of its own: its heap is the process's memory (outside it, its ArrayBuffers).
process.memoryUsage = () => {
  const s = require('v8').getHeapStatistics();
  return { rss: s.total_physical_size + s.external_memory, heapTotal: s.total_heap_size, heapUsed: s.used_heap_size, external: s.external_memory, arrayBuffers: s.external_memory };
};
process.memoryUsage.rss = () => process.memoryUsage().rss;
process.cpuUsage = () => ({ user: 0, system: 0 });
process.resourceUsage = () => ({ userCPUTime: 0, systemCPUTime: 0, maxRSS: 0 });
process.emitWarning = function emitWarning(warning, type, code) {
  const name = typeof type === 'string' ? type : (type && type.type) || 'Warning';
  const w = typeof warning === 'string' ? ObjectAssign(new Error(warning), { name }) : warning;
  if (code) w.code = code;
  process.nextTick(() => process.emit('warning', w));
};
// Node prints every warning, whoever else listens; the hint, after the first only.
let hintShown = false;
process.on('warning', (w) => {
  if (!process.stderr) return;
  const deprecation = w && w.name === 'DeprecationWarning';
  const text = w && w.name ? `${w.code ? `[${w.code}] ` : ''}${w.name}: ${w.message}` : String(w);
  const hint = hintShown ? '' : `(Use \`node ${deprecation ? '--trace-deprecation' : '--trace-warnings'} ...\` to show where the warning was created)\n`;
  hintShown = true;
  process.stderr.write(`(node:${process.pid}) ${text}\n${hint}`);
});

process.dlopen = () => {
  throw codeError(Error, 'ERR_ACCESS_DENIED', 'Native addons are not available in this VM');
};

process.kill = function kill(pid, signal = 'SIGTERM') {
  if (typeof pid !== 'number' || pid !== pid) throw invalidArgType('pid', 'of type number', pid);
  const signo = typeof signal === 'number' ? signal : SIGNALS[signal];
  if (signo === undefined) throw codeError(TypeError, 'ERR_UNKNOWN_SIGNAL', `Unknown signal: ${signal}`);
  try {
    sys.kill(pid, signo);
  } catch (e) {
    e.message = `kill ${e.code}`;
    e.syscall = 'kill';
    throw e;
  }
  return true;
};

process.exit = function exit(code) {
  if (code !== undefined) process.exitCode = code;
  internal.exit();
};
process.abort = () => internal.exit(134);
process.reallyExit = (code) => host('exit', code | 0);

// ---- what Node has besides: introspection, diagnostics, and the hooks of its internals ----
process._exiting = false;
process.domain = null;
process.debugPort = 9229;
process._preload_modules = [];

/** Node's builtins by id, `node:` or not (those only reachable with the scheme need it); undefined if none. */
const SCHEME_ONLY = new SafeSet(['test', 'test/reporters', 'sea', 'sqlite']);
process.getBuiltinModule = function getBuiltinModule(id) {
  if (typeof id !== 'string') throw invalidArgType('id', 'of type string', id);
  if (!internal.isBuiltin(id) || (!StringPrototypeStartsWith(id, 'node:') && SCHEME_ONLY.has(id))) return undefined;
  return internal.builtin(id);
};

// The capture callback takes uncaught exceptions instead of 'uncaughtException' and the exit (internal/globals.js).
internal.uncaughtCapture = null;
process.setUncaughtExceptionCaptureCallback = function setUncaughtExceptionCaptureCallback(fn) {
  if (fn === null) {
    internal.uncaughtCapture = null;
    return;
  }
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function or null', fn);
  if (internal.uncaughtCapture !== null) {
    throw codeError(Error, 'ERR_UNCAUGHT_EXCEPTION_CAPTURE_ALREADY_SET', '`process.setupUncaughtExceptionCapture()` was called while a capture callback was already active');
  }
  internal.uncaughtCapture = fn;
};
process.hasUncaughtExceptionCaptureCallback = () => internal.uncaughtCapture !== null;
process._fatalException = (error) => {
  internal.fatal(error);
  return true;
};

/** What holds the loop that the guest can name: its ref'd timers and immediates (Node lists them last). */
process.getActiveResourcesInfo = () => require('internal/timers').activeResources();
// Handles and requests are objects of Node's native layer, which the guest has none of.
process._getActiveHandles = () => [];
process._getActiveRequests = () => [];

process.loadEnvFile = function loadEnvFile(path = undefined) {
  const fs = require('fs');
  if (path == null) path = '.env';
  else if (typeof path !== 'string' && !(path instanceof URL) && !require('buffer').Buffer.isBuffer(path)) {
    throw invalidArgType('path', 'of type string or an instance of Buffer or URL', path);
  }
  let content;
  try {
    content = fs.readFileSync(path, 'utf8');
  } catch (e) {
    if (e.code !== 'EISDIR') throw e;
    throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `Contents of '${path}' should be a valid string.`);
  }
  // util.parseEnv reads it as the reported Node's parser does.
  const parsed = require('util').parseEnv(content);
  for (const key of new SafeArrayIterator(ObjectKeys(parsed))) if (!ObjectPrototypeHasOwnProperty(process.env, key)) process.env[key] = parsed[key];
};

let sourceMapsEnabled = false;
ObjectDefineProperty(process, 'sourceMapsEnabled', { get: () => sourceMapsEnabled, enumerable: true, configurable: true });
process.setSourceMapsEnabled = function setSourceMapsEnabled(val) {
  // Node 24 names the argument "enabled".
  if (typeof val !== 'boolean') throw invalidArgType(+StringPrototypeSplit(process.versions.node, '.')[0] >= 24 ? 'enabled' : 'val', 'of type boolean', val);
  sourceMapsEnabled = val;
};

// The process's memory is its isolate's heap, bounded by the heap's limit.
process.constrainedMemory = () => require('v8').getHeapStatistics().heap_size_limit;
process.availableMemory = () => {
  const s = require('v8').getHeapStatistics();
  return MathMax(0, s.heap_size_limit - s.used_heap_size);
};

process.openStdin = () => {
  process.stdin.resume();
  return process.stdin;
};
process._rawDebug = (...args) => require('internal/stdio').writeAll(2, `${require('util').format(...new SafeArrayIterator(args))}\n`);
process._tickCallback = () => runTicks();
let assertWarned = false;
process.assert = function deprecated(x, msg) {
  if (!assertWarned) {
    assertWarned = true;
    process.emitWarning('process.assert() is deprecated. Please use the `assert` module instead.', 'DeprecationWarning', 'DEP0100');
  }
  if (!x) throw codeError(Error, 'ERR_ASSERTION', msg || 'assertion error');
};
/** Node's raw kill: an errno (negative) instead of an exception. */
process._kill = (pid, signal) => {
  try {
    sys.kill(pid, signal);
    return 0;
  } catch (e) {
    return typeof e.errno === 'number' ? e.errno : -1;
  }
};
// The guest is root with group 0 only: there are no groups to join.
process.initgroups = function initgroups(user, extraGroup) {
  for (const entry$273 of new SafeArrayIterator([['user', user], ['extraGroup', extraGroup]])) { const name = entry$273[0], value = entry$273[1];
    if (typeof value !== 'number' && typeof value !== 'string') {
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" argument must be one of type number or string.${require('internal/errors').received(value)}`);
    }
  }
};
// There is no inspector nor profiler in the VM: a process to debug must exist, nothing else happens.
process._debugProcess = (pid) => {
  process.kill(pid, 0);
};
process._debugEnd = () => {};
process._startProfilerIdleNotifier = () => {};
process._stopProfilerIdleNotifier = () => {};
process._linkedBinding = (name) => {
  throw codeError(Error, 'ERR_INVALID_MODULE', `No such binding was linked: ${name}`);
};

// ---- diagnostic reports ----
const reportSettings = { directory: '', filename: '', compact: false, excludeNetwork: false, signal: 'SIGUSR2', reportOnFatalError: false, reportOnSignal: false, reportOnUncaughtException: false };
process.report = {
  writeReport(file, err) {
    if (typeof file === 'object' && file !== null) {
      err = file;
      file = undefined;
    } else if (file !== undefined && typeof file !== 'string') throw invalidArgType('file', 'of type string', file);
    if (err === undefined) err = syntheticError();
    else if (err === null || typeof err !== 'object') throw invalidArgType('err', 'of type object', err);
    const report = makeReport(err, 'API', 'WriteReport');
    const text = `${JSONStringify(report, null, reportSettings.compact ? 0 : 2)}\n`;
    if (file === 'stdout' || file === 'stderr') {
      require('internal/stdio').writeAll(file === 'stdout' ? 1 : 2, text);
      return file;
    }
    if (!file) file = reportSettings.filename || reportName();
    const dir = reportSettings.directory;
    const path = StringPrototypeStartsWith(file, '/') || dir === '' ? file : `${dir}/${file}`;
    report.header.filename = path;
    require('fs').writeFileSync(path, `${JSONStringify(report, null, reportSettings.compact ? 0 : 2)}\n`);
    return path;
  },
  getReport(err) {
    if (err === undefined) err = syntheticError();
    else if (err === null || typeof err !== 'object') throw invalidArgType('err', 'of type object', err);
    return JSONParse(JSONStringify(makeReport(err, 'JavaScript API', 'GetReport')));
  },
};
for (const entry$319 of new SafeArrayIterator([['directory', 'string'], ['filename', 'string'], ['compact', 'boolean'], ['excludeNetwork', 'boolean'], ['signal', 'string'], ['reportOnFatalError', 'trigger'], ['reportOnSignal', 'trigger'], ['reportOnUncaughtException', 'trigger']])) { const key = entry$319[0], check = entry$319[1];
  ObjectDefineProperty(process.report, key, {
    get: () => reportSettings[key],
    set(value) {
      const type = check === 'trigger' ? 'boolean' : check;
      if (typeof value !== type) throw invalidArgType(check === 'trigger' ? 'trigger' : key, `of type ${type}`, value);
      if (key === 'signal' && SIGNALS[value] === undefined) throw codeError(TypeError, 'ERR_UNKNOWN_SIGNAL', `Unknown signal: ${value}`);
      reportSettings[key] = value;
    },
    enumerable: true,
    configurable: true,
  });
}
/** Without an error, a report's stack is where it was asked for, as Node's. */
const syntheticError = () => codeError(Error, 'ERR_SYNTHETIC', 'JavaScript Callstack');
let reportSeq = 0;
function reportName() {
  const d = new Date();
  const p = (n) => StringPrototypePadStart(String(n), 2, '0');
  return `report.${DatePrototypeGetFullYear(d)}${p(DatePrototypeGetMonth(d) + 1)}${p(DatePrototypeGetDate(d))}.${p(DatePrototypeGetHours(d))}${p(DatePrototypeGetMinutes(d))}${p(DatePrototypeGetSeconds(d))}.${process.pid}.0.${StringPrototypePadStart(String(++reportSeq), 3, '0')}.json`;
}
/**
 * Node's report, of what the VM has. The header names no glibc (glibcVersionRuntime/Compiler): the guest
 * runs no native code, so it has no C library to report, as Node on a musl system has none either;
 * native stacks, libuv handles and shared objects are empty for the same reason.
 */
/** The report's userLimits: each limit unlimited, as the VM sets none a guest could read. */
function unlimited(names) {
  const out = {};
  for (let i = 0; i < names.length; i++) ObjectDefineProperty(out, names[i], { __proto__: null, value: { soft: 'unlimited', hard: 'unlimited' }, writable: true, enumerable: true, configurable: true });
  return out;
}
function makeReport(err, event, trigger) {
  const os = require('os');
  const v8 = require('v8');
  const now = DateNow();
  const header = {
    reportVersion: 4,
    event,
    trigger,
    filename: null,
    dumpEventTime: StringPrototypeReplace(DatePrototypeToISOString(new Date(now)), hardenRegExp(/\.\d+Z$/), 'Z'),
    dumpEventTimeStamp: String(now),
    processId: process.pid,
    threadId: 0,
    cwd: process.cwd(),
    commandLine: ArrayPrototypeConcat([process.argv0], process.execArgv, ArrayPrototypeSlice(process.argv, 1)),
    nodejsVersion: process.version,
    wordSize: 64,
    arch: process.arch,
    platform: process.platform,
    componentVersions: { ...process.versions },
    release: { ...process.release },
    osName: os.type(),
    osRelease: os.release(),
    osVersion: os.version(),
    osMachine: os.machine(),
    cpus: ArrayPrototypeMap(os.cpus(), ({ model, speed, times }) => ({ model, speed, user: times.user, nice: times.nice, sys: times.sys, idle: times.idle, irq: times.irq })),
  };
  if (!reportSettings.excludeNetwork) {
    header.networkInterfaces = [];
    for (const entry$374 of new SafeArrayIterator(ObjectEntries(os.networkInterfaces()))) { const name = entry$374[0], list = entry$374[1];
      for (const i of new SafeArrayIterator(list)) ArrayPrototypePush(header.networkInterfaces, { name, internal: i.internal, mac: i.mac, address: i.address, netmask: i.netmask, family: i.family, ...(i.family === 'IPv6' ? { scopeid: i.scopeid } : {}) });
    }
  }
  header.host = os.hostname();
  const stack = typeof err.stack === 'string' ? StringPrototypeSplit(err.stack, '\n') : [];
  const frames = ArrayPrototypeMap(ArrayPrototypeFilter(stack, (l) => RegExpPrototypeExec(/^\s+at /, l) !== null), (l) => StringPrototypeTrim(l));
  const errorProperties = {};
  for (const key of new SafeArrayIterator(ObjectKeys(err))) errorProperties[key] = String(err[key]);
  const heap = v8.getHeapStatistics();
  const heapSpaces = {};
  for (const s of new SafeArrayIterator(v8.getHeapSpaceStatistics())) {
    heapSpaces[s.space_name] = { memorySize: s.space_size, committedMemory: s.physical_space_size, capacity: s.space_size, used: s.space_used_size, available: s.space_available_size };
  }
  const usage = process.resourceUsage();
  const mem = process.memoryUsage();
  return {
    header,
    javascriptStack: {
      message: stack.length > 0 ? stack[0] : String(err.message),
      stack: frames.length > 0 ? frames : ['Unavailable.'],
      errorProperties,
    },
    javascriptHeap: {
      totalMemory: heap.total_heap_size,
      executableMemory: heap.total_heap_size_executable,
      totalCommittedMemory: heap.total_physical_size,
      availableMemory: heap.total_available_size,
      totalGlobalHandlesMemory: heap.total_global_handles_size,
      usedGlobalHandlesMemory: heap.used_global_handles_size,
      usedMemory: heap.used_heap_size,
      memoryLimit: heap.heap_size_limit,
      mallocedMemory: heap.malloced_memory,
      externalMemory: heap.external_memory,
      peakMallocedMemory: heap.peak_malloced_memory,
      nativeContextCount: heap.number_of_native_contexts,
      detachedContextCount: heap.number_of_detached_contexts,
      doesZapGarbage: heap.does_zap_garbage,
      heapSpaces,
    },
    nativeStack: [],
    resourceUsage: {
      free_memory: os.freemem(),
      total_memory: os.totalmem(),
      rss: mem.rss,
      constrained_memory: process.constrainedMemory(),
      available_memory: process.availableMemory(),
      userCpuSeconds: usage.userCPUTime / 1e6,
      kernelCpuSeconds: usage.systemCPUTime / 1e6,
      cpuConsumptionPercent: 0,
      userCpuConsumptionPercent: 0,
      kernelCpuConsumptionPercent: 0,
      maxRss: usage.maxRSS * 1024,
      pageFaults: { IORequired: 0, IONotRequired: 0 },
      fsActivity: { reads: 0, writes: 0 },
    },
    uvthreadResourceUsage: {
      userCpuSeconds: usage.userCPUTime / 1e6,
      kernelCpuSeconds: usage.systemCPUTime / 1e6,
      cpuConsumptionPercent: 0,
      userCpuConsumptionPercent: 0,
      kernelCpuConsumptionPercent: 0,
      fsActivity: { reads: 0, writes: 0 },
    },
    libuv: [],
    workers: [],
    environmentVariables: { ...process.env },
    userLimits: unlimited(['core_file_size_blocks', 'data_seg_size_kbytes', 'file_size_blocks', 'max_locked_memory_bytes', 'max_memory_size_kbytes', 'open_files', 'stack_size_bytes', 'cpu_time_seconds', 'max_user_processes', 'virtual_memory_kbytes']),
    sharedObjects: [],
  };
}

process.stdout = undefined;
process.stderr = undefined;
process.stdin = undefined;

module.exports = process;
