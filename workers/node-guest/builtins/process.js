// The guest's `process`: an EventEmitter of its realm. Its identity (argv, env, pid, cwd) is filled in when
// the worker gets its process (internal/main.js); stdio are streams over fds 0–2 (internal/stdio.js).
'use strict';

const EventEmitter = require('events');
const { codeError, invalidArgType } = require('internal/errors');
const host = internal.host;
const asyncContext = require('internal/async-context');
const sys = internal.sys;

const { SIGNALS } = require('internal/signals');

const process = new EventEmitter();
Object.defineProperty(process, Symbol.toStringTag, { value: 'process', configurable: true });
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
    const [fn, args, frame] = ticks.shift();
    try {
      asyncContext.runIn(frame, fn, undefined, args);
    } catch (e) {
      internal.fatal(e);
    }
  }
}
process.nextTick = function nextTick(callback, ...args) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  ticks.push([callback, args, asyncContext.get()]);
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
  let sec = Math.floor(ms / 1000);
  let ns = Math.round((ms - sec * 1000) * 1e6);
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
process.hrtime.bigint = () => BigInt(Math.round(host('hrtime') * 1e6));
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
  const w = typeof warning === 'string' ? Object.assign(new Error(warning), { name }) : warning;
  if (code) w.code = code;
  process.nextTick(() => process.emit('warning', w));
};
// Node prints a warning unless someone listens for them (besides this printer); the hint, after the first only.
let hintShown = false;
process.on('warning', (w) => {
  if (process.listenerCount('warning') > 1 || !process.stderr) return;
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

process.stdout = undefined;
process.stderr = undefined;
process.stdin = undefined;

module.exports = process;
