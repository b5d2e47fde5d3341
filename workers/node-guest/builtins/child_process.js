// child_process over the kernel's processes: spawn starts a VM command (the shell, coreutils, another
// `node`) with pipes as its stdio; the parent's ends are read and written without blocking, waiting on the
// wake ring, and the exit is learnt from a pidfd. The Sync forms block the guest in the kernel (poll, then
// waitpid), as Node's block its thread.
'use strict';

const {
  ArrayBufferIsView,
  ArrayIsArray,
  Error,
  MathMax,
  ObjectAssign,
  ObjectKeys,
  RangeError,
  String,
  SymbolToStringTag,
  TypeError,
  ArrayPrototypeConcat,
  ArrayPrototypeFilter,
  ArrayPrototypeForEach,
  ArrayPrototypeIncludes,
  ArrayPrototypeIndexOf,
  ArrayPrototypeJoin,
  ArrayPrototypeMap,
  ArrayPrototypePush,
  ArrayPrototypeSlice,
  ArrayPrototypeSplice,
  SafeArrayIterator,
  StringPrototypeReplace,
  StringPrototypeStartsWith,
  TypedArrayPrototypeSubarray,
  ArrayPrototypeFindIndex,
  GetLength,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  hardenRegExp,
} = require('internal/primordials');
const { BufferPrototypeToString } = require('internal/buffer-primordials');

const EventEmitter = require('events');
const { Buffer } = require('buffer');
const { Duplex, Readable, Writable } = require('stream');
const { codeError, invalidArgType, sysError } = require('internal/errors');
const { NAMES, SIGNALS } = require('internal/signals');
const { waitFd, cancelFd, setRef } = require('internal/event-loop');
const { setupChannel } = require('internal/ipc-channel');
const process = require('process');
const sys = internal.sys;

const DEFAULT_MAX_BUFFER = 1024 * 1024;

function normalizeSpawnArguments(file, args, options) {
  if (typeof file !== 'string') throw invalidArgType('file', 'of type string', file);
  if (file.length === 0) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'file' cannot be empty. Received ''");
  if (ArrayIsArray(args)) args = ArrayPrototypeSlice(args);
  else if (args == null) args = [];
  else if (typeof args === 'object') {
    options = args;
    args = [];
  } else throw invalidArgType('args', 'an instance of Array', args);
  options = { ...(options || {}) };
  let argv = ArrayPrototypeConcat([file], ArrayPrototypeMap(args, String));
  if (options.shell) {
    const command = ArrayPrototypeJoin(ArrayPrototypeConcat([file], args), ' ');
    const shell = typeof options.shell === 'string' ? options.shell : '/bin/sh';
    argv = [shell, '-c', command];
    file = shell;
  }
  if (options.argv0 !== undefined) argv[0] = String(options.argv0);
  const envObj = options.env || process.env;
  const env = [];
  for (const key of new SafeArrayIterator(ObjectKeys(envObj))) if (envObj[key] !== undefined) ArrayPrototypePush(env, `${key}=${envObj[key]}`);
  let cwd = options.cwd;
  if (cwd !== undefined && typeof cwd === 'object' && cwd !== null && typeof cwd.href === 'string') cwd = require('url').fileURLToPath(cwd);
  cwd = cwd === undefined ? process.cwd() : String(cwd);
  if (!StringPrototypeStartsWith(cwd, '/')) cwd = `${process.cwd()}/${cwd}`;
  return { file, argv, env, cwd, options };
}

function invalidStdio(value) {
  return codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'stdio' is invalid. Received ${require('util').inspect(value)}`);
}

/**
 * Node's `stdio` option, one entry per child fd (at least 3; an unset entry past the third is 'ignore'): a new
 * pipe, 'ignore', or one of the parent's fds ('inherit': the same number); for the Sync forms also input.
 */
function stdioConfig(stdio, sync) {
  stdio = stdio || 'pipe';
  let list;
  if (typeof stdio === 'string') {
    if (stdio !== 'pipe' && stdio !== 'overlapped' && stdio !== 'ignore' && stdio !== 'inherit') throw invalidStdio(stdio);
    list = [stdio, stdio, stdio];
  } else if (ArrayIsArray(stdio)) list = ArrayPrototypeSlice(stdio);
  else throw invalidStdio(stdio);
  while (list.length < 3) ArrayPrototypePush(list, undefined);
  let ipc = false;
  return ArrayPrototypeMap(list, (s, i) => {
    if (s === undefined || s === null) s = i < 3 ? 'pipe' : 'ignore';
    if (s === 'ignore') return { type: 'ignore' };
    if (s === 'pipe' || s === 'overlapped' || (typeof s === 'number' && s < 0)) return { type: 'pipe' };
    if (s === 'ipc') {
      if (sync) throw codeError(Error, 'ERR_IPC_SYNC_FORK', 'IPC cannot be used with synchronous forks');
      if (ipc) throw codeError(Error, 'ERR_IPC_ONE_PIPE', 'Child process can have only one IPC pipe');
      ipc = true;
      return { type: 'ipc' };
    }
    if (s === 'inherit') return { type: 'fd', fd: i };
    if (typeof s === 'number') return { type: 'fd', fd: s };
    if (typeof s === 'object' && typeof s.fd === 'number') return { type: 'fd', fd: s.fd };
    // A connected net.Socket (Node's 'wrap'): the child gets its fd.
    if (typeof s === 'object' && typeof s._fd === 'number' && s._fd >= 0) return { type: 'fd', fd: s._fd };
    if (sync && (ArrayBufferIsView(s) || typeof s === 'string')) return { type: 'pipe', input: s };
    throw invalidStdio(s);
  });
}

/**
 * Per stdio entry, the fd the child gets (-1: none; /dev/null for 0-2) and the end the parent keeps (-1:
 * none). Past fd 2 Node's pipes are duplex (socket pairs); the Sync forms only collect what the child writes
 * there, so a pipe does.
 */
function openStdio(config, sync) {
  const opened = [];
  try {
    return ArrayPrototypeMap(config, (s, i) => {
      if (s.type === 'fd') return { child: s.fd, parent: -1 };
      if (s.type === 'ignore') return { child: -1, parent: -1 };
      const pair = (i > 2 || s.type === 'ipc') && !sync ? sys.spawnPair() : sys.pipe();
      const a = pair[0];
      const b = pair[1];
      ArrayPrototypePush(opened, a, b);
      if (s.type === 'ipc') return { child: b, parent: a, pipe: true, ipc: true };
      return i === 0 ? { child: a, parent: b, pipe: true } : { child: b, parent: a, pipe: true };
    });
  } catch (e) {
    for (let i = 0; i < opened.length; i++) sys.close(opened[i]);
    throw e;
  }
}

/** sys.spawn's arguments for `ends`: the child's fds 0-2, and [fd, parent's fd] for those above. */
function spawnFds(ends) {
  const more = [];
  for (let i = 3; i < ends.length; i++) if (ends[i].child >= 0) ArrayPrototypePush(more, [i, ends[i].child]);
  return [[ends[0].child, ends[1].child, ends[2].child], more];
}

/** Closes the parent's copies of the child's pipe ends (and, when the spawn failed, its own). */
function closePipes(ends, failed) {
  for (let i = 0; i < ends.length; i++) {
    const e = ends[i];
    if (!e.pipe) continue;
    sys.close(e.child);
    if (failed) sys.close(e.parent);
  }
}

function spawnError(e, file, argv) {
  const err = sysError(e.code, `spawn ${file}`, file);
  err.message = `spawn ${file} ${e.code}`;
  err.spawnargs = ArrayPrototypeSlice(argv, 1);
  return err;
}

/** A stream's _read over `fd` (non-blocking): what is there now, then a wait on the wake ring. */
function reader(fd) {
  let waiting = false;
  return function read(size) {
    const stream = this;
    if (waiting) return;
    for (;;) {
      const buf = Buffer.allocUnsafe(MathMax(size, 64 * 1024));
      let n;
      try {
        n = sys.read(fd, buf, 0, GetLength(buf), -1);
      } catch (e) {
        if (e.code === 'EAGAIN') {
          waiting = true;
          waitFd(fd, false, () => {
            waiting = false;
            stream._read(size);
          });
          return;
        }
        return stream.destroy(e);
      }
      if (n === 0) {
        stream.push(null);
        // As a pipe socket: its end is reached (and the stream closes) even when nobody reads it.
        if (stream.readableLength === 0) internal.nextTick(() => stream.read(0));
        return;
      }
      if (!stream.push(TypedArrayPrototypeSubarray(buf, 0, n))) return;
    }
  };
}

/** A stream's _write over `fd` (non-blocking), waiting on the wake ring while it is full. */
function writer(fd) {
  return function write(chunk, encoding, callback) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    let off = 0;
    const pump = () => {
      try {
        while (off < bytes.length) off += sys.write(fd, bytes, off, bytes.length - off, -1);
      } catch (e) {
        if (e.code === 'EAGAIN') return waitFd(fd, true, pump);
        return callback(e);
      }
      callback();
    };
    pump();
  };
}

/** Stops the waits on `fd` for reading and/or writing, and closes it. */
function release(fd, reading, writing) {
  if (reading) cancelFd(fd, false);
  if (writing) cancelFd(fd, true);
  try {
    sys.close(fd);
  } catch {}
}

function readStream(fd) {
  const stream = new Readable({
    read: reader(fd),
    destroy(err, cb) {
      release(fd, true, false);
      cb(err);
    },
  });
  stream.fd = fd;
  return stream;
}

function writeStream(fd) {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    release(fd, false, true);
  };
  const stream = new Writable({
    write: writer(fd),
    final(callback) {
      close();
      callback();
    },
    destroy(err, callback) {
      close();
      callback(err);
    },
  });
  stream.fd = fd;
  return stream;
}

/** A socket-pair end, as Node's pipes past fd 2: ending it shuts down its writing half only. */
function duplexStream(fd) {
  const stream = new Duplex({
    allowHalfOpen: false,
    read: reader(fd),
    write: writer(fd),
    final(callback) {
      try {
        require('internal/net-sys').shutdown(fd, 1);
      } catch {}
      callback();
    },
    destroy(err, callback) {
      release(fd, true, true);
      callback(err);
    },
  });
  stream.fd = fd;
  return stream;
}

class ChildProcess extends EventEmitter {
  constructor() {
    super();
    this.pid = undefined;
    this.exitCode = null;
    this.signalCode = null;
    this.killed = false;
    this.connected = false;
    this.stdin = null;
    this.stdout = null;
    this.stderr = null;
    this.stdio = [null, null, null];
  }

  spawn(options) {
    const { file, argv, env, cwd } = normalizeSpawnArguments(options.file, options.args, options);
    this.spawnfile = file;
    this.spawnargs = argv;
    const serialization = options.serialization === undefined ? 'json' : options.serialization;
    if (serialization !== 'json' && serialization !== 'advanced') {
      throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.serialization' must be one of: undefined, 'json', 'advanced'. Received ${require('util').inspect(serialization)}`);
    }
    const config = stdioConfig(options.stdio, false);
    const ipcFd = ArrayPrototypeFindIndex(config, (s) => s.type === 'ipc');
    if (ipcFd >= 0) ArrayPrototypePush(env, `NODE_CHANNEL_FD=${ipcFd}`, `NODE_CHANNEL_SERIALIZATION_MODE=${serialization}`);
    const ends = openStdio(config, false);
    try {
      this.pid = sys.spawn(file, argv, env, cwd, ...new SafeArrayIterator(spawnFds(ends)));
    } catch (e) {
      closePipes(ends, true);
      const err = spawnError(e, file, argv);
      process.nextTick(() => {
        this.emit('error', err);
        this._finish(-2, null);
      });
      return err;
    }
    closePipes(ends, false);
    // As Node's: stdin a writable, stdout and stderr readables, the pipes past them duplex; null for the rest.
    this.stdio = ArrayPrototypeMap(ends, (e, i) => {
      if (e.parent < 0 || e.ipc) return null;
      sys.setNonblocking(e.parent, true);
      const s = i === 0 ? writeStream(e.parent) : i < 3 ? readStream(e.parent) : duplexStream(e.parent);
      // As Node's pipes, read ahead (up to the high-water mark) even before anyone listens, so that an
      // unread stream still sees its end and 'close' comes.
      if (i > 0) s.read(0);
      return s;
    });
    this.stdin = this.stdio[0];
    this.stdout = this.stdio[1];
    this.stderr = this.stdio[2];
    const reading = ArrayPrototypeFilter(this.stdio, (s, i) => s && i > 0);
    let open = reading.length + 1;
    const closed = () => {
      if (--open === 0) this.emit('close', this.exitCode, this.signalCode);
    };
    for (let i = 0; i < reading.length; i++) reading[i].on('close', closed);
    this._closed = closed;
    // As Node's, 'close' also waits for the child's end of the channel to close.
    if (ipcFd >= 0) {
      open++;
      setupChannel(this, ends[ipcFd].parent, true, closed, serialization);
    }
    const pidfd = sys.pidfd(this.pid);
    sys.setNonblocking(pidfd, true);
    this._pidfd = pidfd;
    waitFd(pidfd, false, () => {
      this._pidfd = undefined;
      sys.close(pidfd);
      const status = sys.waitpid(this.pid, true);
      const signo = status & 0x7f;
      this._finish(signo === 0 ? (status >> 8) & 0xff : null, signo === 0 ? null : NAMES[signo]);
    });
    process.nextTick(() => this.emit('spawn'));
    return undefined;
  }

  _finish(code, signal) {
    this.exitCode = code;
    this.signalCode = signal;
    if (code !== -2) this.emit('exit', code, signal);
    if (this.stdin) this.stdin.destroy();
    if (this._closed) this._closed();
    else process.nextTick(() => this.emit('close', code, signal));
  }

  kill(signal = 'SIGTERM') {
    const signo = typeof signal === 'number' ? signal : SIGNALS[signal];
    if (signo === undefined) throw codeError(TypeError, 'ERR_UNKNOWN_SIGNAL', `Unknown signal: ${signal}`);
    if (this.pid === undefined || this.exitCode !== null || this.signalCode !== null) return false;
    try {
      sys.kill(this.pid, signo);
    } catch {
      return false;
    }
    this.killed = true;
    return true;
  }

  /** Whether the child keeps this process alive until it exits (its pipes and channel hold it too). */
  ref() {
    if (this._pidfd !== undefined) setRef(this._pidfd, false, true);
  }

  unref() {
    if (this._pidfd !== undefined) setRef(this._pidfd, false, false);
  }

  get [SymbolToStringTag]() {
    return 'ChildProcess';
  }
}

function spawn(file, args, options) {
  if (!ArrayIsArray(args) && args !== undefined && args !== null && typeof args === 'object') {
    options = args;
    args = [];
  }
  options = { ...(options || {}), file, args: args || [] };
  const child = new ChildProcess();
  child.spawn(options);
  if (options.timeout > 0) {
    const t = setTimeout(() => child.kill(options.killSignal || 'SIGTERM'), options.timeout);
    child.once('exit', () => clearTimeout(t));
  }
  if (options.signal) {
    const onAbort = () => child.kill(options.killSignal || 'SIGTERM');
    if (options.signal.aborted) process.nextTick(onAbort);
    else options.signal.addEventListener('abort', onAbort, { once: true });
  }
  return child;
}

function execFile(file, args, options, callback) {
  if (typeof args === 'function') {
    callback = args;
    args = [];
    options = {};
  } else if (typeof options === 'function') {
    callback = options;
    if (!ArrayIsArray(args)) {
      options = args || {};
      args = [];
    } else options = {};
  }
  options = { encoding: 'utf8', maxBuffer: DEFAULT_MAX_BUFFER, ...(options || {}) };
  // As Node's: the child's stdio are pipes, whatever `stdio` says.
  const child = spawn(file, args || [], { ...options, stdio: 'pipe' });
  const out = [];
  const err = [];
  let outLen = 0;
  let errLen = 0;
  let failure = null;
  const collect = (list, stream, which) => {
    if (!stream) return;
    stream.on('data', (d) => {
      const size = which === 'stdout' ? (outLen += d.length) : (errLen += d.length);
      if (size > options.maxBuffer && !failure) {
        failure = codeError(RangeError, 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER', `${which} maxBuffer length exceeded`);
        child.kill();
      }
      ArrayPrototypePush(list, d);
    });
  };
  collect(out, child.stdout, 'stdout');
  collect(err, child.stderr, 'stderr');
  const decode = (list) => {
    const b = Buffer.concat(list);
    return options.encoding && options.encoding !== 'buffer' ? BufferPrototypeToString(b, options.encoding) : b;
  };
  let done = false;
  const finish = (code, signal, spawnErr) => {
    if (done) return;
    done = true;
    const stdout = decode(out);
    const stderr = decode(err);
    if (!callback) return;
    if (spawnErr) {
      spawnErr.cmd = ArrayPrototypeJoin(ArrayPrototypeConcat([file], args || []), ' ');
      return callback(spawnErr, stdout, stderr);
    }
    if (failure || code !== 0 || signal) {
      const cmd = ArrayPrototypeJoin(ArrayPrototypeConcat([file], args || []), ' ');
      const e = failure || new Error(`Command failed: ${cmd}\n${typeof stderr === 'string' ? stderr : BufferPrototypeToString(stderr)}`);
      e.code = failure ? e.code : code;
      e.killed = child.killed;
      e.signal = signal;
      e.cmd = cmd;
      e.stdout = stdout;
      e.stderr = stderr;
      return callback(e, stdout, stderr);
    }
    callback(null, stdout, stderr);
  };
  child.on('close', (code, signal) => finish(code, signal));
  child.on('error', (e) => finish(null, null, e));
  return child;
}

function exec(command, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = {};
  }
  options = { ...(options || {}) };
  const shell = typeof options.shell === 'string' ? options.shell : '/bin/sh';
  delete options.shell;
  const child = execFile(shell, ['-c', command], options, callback && ((err, stdout, stderr) => {
    if (err && err.cmd) err.cmd = command;
    if (err && typeof err.message === 'string') err.message = StringPrototypeReplace(err.message, hardenRegExp(/^Command failed: .*\n/), `Command failed: ${command}\n`);
    callback(err, stdout, stderr);
  }));
  return child;
}

function spawnSync(file, args, options) {
  if (!ArrayIsArray(args) && args !== undefined && args !== null && typeof args === 'object') {
    options = args;
    args = [];
  }
  const { argv, env, cwd, options: opts } = normalizeSpawnArguments(file, args, options);
  const maxBuffer = opts.maxBuffer === undefined ? DEFAULT_MAX_BUFFER : opts.maxBuffer;
  const config = stdioConfig(opts.stdio, true);
  const ends = openStdio(config, true);
  let pid;
  try {
    pid = sys.spawn(file, argv, env, cwd, ...new SafeArrayIterator(spawnFds(ends)));
  } catch (e) {
    closePipes(ends, true);
    const err = spawnError(e, file, argv);
    // Node names the system call `spawnSync <file>` (the error's stack is not formatted yet).
    err.syscall = `spawnSync ${file}`;
    err.message = `spawnSync ${file} ${e.code}`;
    return { error: err, status: null, signal: null, output: null, pid: 0, stdout: null, stderr: null };
  }
  closePipes(ends, false);
  const parent = ArrayPrototypeMap(ends, (e) => e.parent);
  if (parent[0] >= 0) {
    const given = opts.input === undefined ? config[0].input : opts.input;
    const input = given === undefined ? null : typeof given === 'string' ? Buffer.from(given, opts.encoding && opts.encoding !== 'buffer' ? opts.encoding : 'utf8') : Buffer.from(GetBuffer(given), GetByteOffset(given), GetByteLength(given));
    try {
      if (input) for (let off = 0; off < input.length; ) off += sys.write(parent[0], input, off, input.length - off, -1);
    } catch (e) {
      if (e.code !== 'EPIPE') throw e;
    }
    sys.close(parent[0]);
  }
  const outputs = ArrayPrototypeMap(parent, (fd, i) => (fd >= 0 && i > 0 ? [] : null));
  const sizes = ArrayPrototypeMap(parent, () => 0);
  const open = [];
  ArrayPrototypeForEach(parent, (fd, i) => {
    if (outputs[i]) ArrayPrototypePush(open, i);
  });
  for (let k = 0; k < open.length; k++) sys.setNonblocking(parent[open[k]], true);
  let error;
  const buf = Buffer.allocUnsafe(64 * 1024);
  while (open.length > 0) {
    sys.pollRead(ArrayPrototypeMap(open, (i) => parent[i]));
    for (const i of new SafeArrayIterator(ArrayPrototypeSlice(open))) {
      for (;;) {
        let n;
        try {
          n = sys.read(parent[i], buf, 0, GetLength(buf), -1);
        } catch (e) {
          if (e.code === 'EAGAIN') break;
          throw e;
        }
        if (n === 0) {
          sys.close(parent[i]);
          ArrayPrototypeSplice(open, ArrayPrototypeIndexOf(open, i), 1);
          break;
        }
        sizes[i] += n;
        ArrayPrototypePush(outputs[i], Buffer.from(TypedArrayPrototypeSubarray(buf, 0, n)));
        if (sizes[i] > maxBuffer && !error) {
          error = sysError('ENOBUFS', `spawnSync ${file}`, file);
          error.message = `spawnSync ${file} ENOBUFS`;
          try {
            sys.kill(pid, 15);
          } catch {}
        }
      }
    }
  }
  const status = sys.waitpid(pid, true);
  const signo = status & 0x7f;
  const encode = (list) => {
    if (list === null) return null;
    const b = Buffer.concat(list);
    return opts.encoding && opts.encoding !== 'buffer' ? BufferPrototypeToString(b, opts.encoding) : b;
  };
  const output = ArrayPrototypeMap(outputs, encode);
  const result = { pid, output, stdout: output[1], stderr: output[2], status: signo === 0 ? (status >> 8) & 0xff : null, signal: signo === 0 ? null : NAMES[signo] };
  if (error) result.error = error;
  return result;
}

function checkExecSyncError(ret, args, cmd) {
  if (ret.error) return ret.error;
  if (ret.status !== 0) {
    let msg = `Command failed: ${cmd || ArrayPrototypeJoin(args, ' ')}`;
    if (ret.stderr && ret.stderr.length > 0) msg += `\n${typeof ret.stderr === 'string' ? ret.stderr : BufferPrototypeToString(ret.stderr)}`;
    const err = new Error(msg);
    ObjectAssign(err, ret);
    return err;
  }
  return undefined;
}

function execFileSync(file, args, options) {
  if (!ArrayIsArray(args) && args !== undefined && args !== null && typeof args === 'object') {
    options = args;
    args = [];
  }
  options = { stdio: ['pipe', 'pipe', 'inherit'], ...(options || {}) };
  const ret = spawnSync(file, args || [], options);
  const err = checkExecSyncError(ret, [file, ...new SafeArrayIterator(args || [])]);
  if (err) throw err;
  return ret.stdout;
}

function execSync(command, options) {
  options = { stdio: ['pipe', 'pipe', 'inherit'], ...(options || {}) };
  const shell = typeof options.shell === 'string' ? options.shell : '/bin/sh';
  const ret = spawnSync(shell, ['-c', command], { ...options, shell: undefined });
  if (ret.stderr && options.stdio[2] === 'pipe') {
    // as Node: the child's stderr is shown unless the caller takes it
  }
  const err = checkExecSyncError(ret, [], command);
  if (err) throw err;
  return ret.stdout;
}

/** A `node` child running `modulePath`, with an IPC channel to this process as its fd 3 (by default). */
function fork(modulePath, args, options) {
  if (typeof modulePath === 'object' && modulePath !== null && typeof modulePath.href === 'string') modulePath = require('url').fileURLToPath(modulePath);
  if (typeof modulePath !== 'string') throw invalidArgType('modulePath', 'of type string or an instance of Buffer or URL', modulePath);
  if (args == null) args = [];
  else if (typeof args === 'object' && !ArrayIsArray(args)) {
    options = args;
    args = [];
  } else if (!ArrayIsArray(args)) throw invalidArgType('args', 'an instance of Array', args);
  options = { ...(options || {}), shell: false };
  args = [...new SafeArrayIterator(options.execArgv || process.execArgv), modulePath, ...new SafeArrayIterator(args)];
  if (typeof options.stdio === 'string') options.stdio = [options.stdio, options.stdio, options.stdio, 'ipc'];
  else if (!ArrayIsArray(options.stdio)) options.stdio = options.silent ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['inherit', 'inherit', 'inherit', 'ipc'];
  else if (!ArrayPrototypeIncludes(options.stdio, 'ipc')) throw codeError(Error, 'ERR_CHILD_PROCESS_IPC_REQUIRED', "Forked processes must have an IPC channel, missing value 'ipc' in options.stdio");
  return spawn(options.execPath || process.execPath, args, options);
}

/** The forked child's side (internal/main.js, when NODE_CHANNEL_FD is set): held only while it listens. */
function _forkChild(fd, serialization) {
  const control = setupChannel(process, fd, false, null, serialization);
  process.on('newListener', (name) => {
    if (name === 'message' || name === 'disconnect') control.refCounted();
  });
  process.on('removeListener', (name) => {
    if (name === 'message' || name === 'disconnect') control.unrefCounted();
  });
}

module.exports = { ChildProcess, spawn, exec, execFile, spawnSync, execSync, execFileSync, fork, _forkChild };
