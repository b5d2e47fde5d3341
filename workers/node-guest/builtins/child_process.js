// child_process over the kernel's processes: spawn starts a VM command (the shell, coreutils, another
// `node`) with pipes as its stdio; the parent's ends are read and written without blocking, waiting on the
// wake ring, and the exit is learnt from a pidfd. The Sync forms block the guest in the kernel (poll, then
// waitpid), as Node's block its thread.
'use strict';

const EventEmitter = require('events');
const { Buffer } = require('buffer');
const { Readable, Writable } = require('stream');
const { codeError, invalidArgType, sysError } = require('internal/errors');
const { NAMES, SIGNALS } = require('internal/signals');
const { waitFd, cancelFd } = require('internal/event-loop');
const process = require('process');
const sys = internal.sys;

const DEFAULT_MAX_BUFFER = 1024 * 1024;

function normalizeSpawnArguments(file, args, options) {
  if (typeof file !== 'string') throw invalidArgType('file', 'of type string', file);
  if (file.length === 0) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'file' cannot be empty. Received ''");
  if (Array.isArray(args)) args = args.slice();
  else if (args == null) args = [];
  else if (typeof args === 'object') {
    options = args;
    args = [];
  } else throw invalidArgType('args', 'an instance of Array', args);
  options = { ...(options || {}) };
  let argv = [file, ...args.map(String)];
  if (options.shell) {
    const command = [file, ...args].join(' ');
    const shell = typeof options.shell === 'string' ? options.shell : '/bin/sh';
    argv = [shell, '-c', command];
    file = shell;
  }
  if (options.argv0 !== undefined) argv[0] = String(options.argv0);
  const envObj = options.env || process.env;
  const env = [];
  for (const key of Object.keys(envObj)) if (envObj[key] !== undefined) env.push(`${key}=${envObj[key]}`);
  let cwd = options.cwd;
  if (cwd !== undefined && typeof cwd === 'object' && cwd !== null && typeof cwd.href === 'string') cwd = require('url').fileURLToPath(cwd);
  cwd = cwd === undefined ? process.cwd() : String(cwd);
  if (!cwd.startsWith('/')) cwd = `${process.cwd()}/${cwd}`;
  return { file, argv, env, cwd, options };
}

function stdioConfig(stdio) {
  const list = typeof stdio === 'string' ? [stdio, stdio, stdio] : Array.isArray(stdio) ? stdio.slice(0, 3) : ['pipe', 'pipe', 'pipe'];
  while (list.length < 3) list.push('pipe');
  return list.map((s) => (s === undefined || s === null ? 'pipe' : s === 'overlapped' ? 'pipe' : s));
}

/** The fds the child gets and what the parent keeps: [childFd, parentFd | -1] per stdio slot. */
function openStdio(config) {
  const child = [];
  const parent = [];
  config.forEach((s, i) => {
    if (s === 'pipe') {
      const [r, w] = sys.pipe();
      if (i === 0) {
        child.push(r);
        parent.push(w);
      } else {
        child.push(w);
        parent.push(r);
      }
    } else if (s === 'inherit' || s === i) {
      child.push(i);
      parent.push(-1);
    } else if (typeof s === 'number') {
      child.push(s);
      parent.push(-1);
    } else if (s && typeof s === 'object' && typeof s.fd === 'number') {
      child.push(s.fd);
      parent.push(-1);
    } else {
      // 'ignore', 'ipc' (unsupported) and anything else: /dev/null.
      child.push(-1);
      parent.push(-1);
    }
  });
  return { child, parent };
}

function spawnError(e, file, argv) {
  const err = sysError(e.code, `spawn ${file}`, file);
  err.message = `spawn ${file} ${e.code}`;
  err.spawnargs = argv.slice(1);
  return err;
}

function readStream(fd) {
  let waiting = false;
  const stream = new Readable({
    read(size) {
      if (waiting) return;
      for (;;) {
        const buf = Buffer.allocUnsafe(Math.max(size, 64 * 1024));
        let n;
        try {
          n = sys.read(fd, buf, 0, buf.length, -1);
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
        if (!stream.push(buf.subarray(0, n))) return;
      }
    },
    destroy(err, cb) {
      cancelFd(fd, false);
      try {
        sys.close(fd);
      } catch {}
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
    cancelFd(fd, true);
    try {
      sys.close(fd);
    } catch {}
  };
  const stream = new Writable({
    write(chunk, encoding, callback) {
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
    },
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
    const config = stdioConfig(options.stdio);
    const { child, parent } = openStdio(config);
    try {
      this.pid = sys.spawn(file, argv, env, cwd, child);
    } catch (e) {
      for (let i = 0; i < 3; i++) {
        if (config[i] === 'pipe') {
          sys.close(child[i]);
          sys.close(parent[i]);
        }
      }
      const err = spawnError(e, file, argv);
      process.nextTick(() => {
        this.emit('error', err);
        this._finish(-2, null);
      });
      return err;
    }
    for (let i = 0; i < 3; i++) if (config[i] === 'pipe') sys.close(child[i]);
    if (parent[0] >= 0) {
      sys.setNonblocking(parent[0], true);
      this.stdin = writeStream(parent[0]);
    }
    for (const i of [1, 2]) {
      if (parent[i] < 0) continue;
      sys.setNonblocking(parent[i], true);
      const s = readStream(parent[i]);
      this[i === 1 ? 'stdout' : 'stderr'] = s;
      // As Node's pipes, read ahead (up to the high-water mark) even before anyone listens, so that an
      // unread stream still sees its end and 'close' comes.
      s.read(0);
    }
    this.stdio = [this.stdin, this.stdout, this.stderr];
    let open = [this.stdout, this.stderr].filter(Boolean).length + 1;
    const closed = () => {
      if (--open === 0) this.emit('close', this.exitCode, this.signalCode);
    };
    for (const s of [this.stdout, this.stderr]) if (s) s.on('close', closed);
    this._closed = closed;
    const pidfd = sys.pidfd(this.pid);
    sys.setNonblocking(pidfd, true);
    this._pidfd = pidfd;
    waitFd(pidfd, false, () => {
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

  ref() {}
  unref() {}
  disconnect() {}
  send() {
    throw codeError(Error, 'ERR_IPC_CHANNEL_CLOSED', 'Channel closed');
  }
  get [Symbol.toStringTag]() {
    return 'ChildProcess';
  }
}

function spawn(file, args, options) {
  if (!Array.isArray(args) && args !== undefined && args !== null && typeof args === 'object') {
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
    if (!Array.isArray(args)) {
      options = args || {};
      args = [];
    } else options = {};
  }
  options = { encoding: 'utf8', maxBuffer: DEFAULT_MAX_BUFFER, ...(options || {}) };
  const child = spawn(file, args || [], options);
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
      list.push(d);
    });
  };
  collect(out, child.stdout, 'stdout');
  collect(err, child.stderr, 'stderr');
  const decode = (list) => {
    const b = Buffer.concat(list);
    return options.encoding && options.encoding !== 'buffer' ? b.toString(options.encoding) : b;
  };
  let done = false;
  const finish = (code, signal, spawnErr) => {
    if (done) return;
    done = true;
    const stdout = decode(out);
    const stderr = decode(err);
    if (!callback) return;
    if (spawnErr) {
      spawnErr.cmd = [file, ...(args || [])].join(' ');
      return callback(spawnErr, stdout, stderr);
    }
    if (failure || code !== 0 || signal) {
      const cmd = [file, ...(args || [])].join(' ');
      const e = failure || new Error(`Command failed: ${cmd}\n${typeof stderr === 'string' ? stderr : stderr.toString()}`);
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
    if (err && typeof err.message === 'string') err.message = err.message.replace(/^Command failed: .*\n/, `Command failed: ${command}\n`);
    callback(err, stdout, stderr);
  }));
  return child;
}

function spawnSync(file, args, options) {
  if (!Array.isArray(args) && args !== undefined && args !== null && typeof args === 'object') {
    options = args;
    args = [];
  }
  const { argv, env, cwd, options: opts } = normalizeSpawnArguments(file, args, options);
  const maxBuffer = opts.maxBuffer === undefined ? DEFAULT_MAX_BUFFER : opts.maxBuffer;
  const config = stdioConfig(opts.stdio);
  const { child, parent } = openStdio(config);
  let pid;
  try {
    pid = sys.spawn(argv[0] === file ? file : file, argv, env, cwd, child);
  } catch (e) {
    for (let i = 0; i < 3; i++) if (config[i] === 'pipe') (sys.close(child[i]), sys.close(parent[i]));
    const err = spawnError(e, file, argv);
    // Node names the system call `spawnSync <file>` (the error's stack is not formatted yet).
    err.syscall = `spawnSync ${file}`;
    err.message = `spawnSync ${file} ${e.code}`;
    return { error: err, status: null, signal: null, output: null, pid: 0, stdout: null, stderr: null };
  }
  for (let i = 0; i < 3; i++) if (config[i] === 'pipe') sys.close(child[i]);
  if (parent[0] >= 0) {
    const input = opts.input === undefined ? null : typeof opts.input === 'string' ? Buffer.from(opts.input, opts.encoding && opts.encoding !== 'buffer' ? opts.encoding : 'utf8') : Buffer.from(opts.input.buffer, opts.input.byteOffset, opts.input.byteLength);
    try {
      if (input) for (let off = 0; off < input.length; ) off += sys.write(parent[0], input, off, input.length - off, -1);
    } catch (e) {
      if (e.code !== 'EPIPE') throw e;
    }
    sys.close(parent[0]);
  }
  const outputs = [null, [], []];
  const sizes = [0, 0, 0];
  const open = [1, 2].filter((i) => parent[i] >= 0);
  for (const i of open) sys.setNonblocking(parent[i], true);
  let error;
  const buf = Buffer.allocUnsafe(64 * 1024);
  while (open.length > 0) {
    sys.pollRead(open.map((i) => parent[i]));
    for (const i of open.slice()) {
      for (;;) {
        let n;
        try {
          n = sys.read(parent[i], buf, 0, buf.length, -1);
        } catch (e) {
          if (e.code === 'EAGAIN') break;
          throw e;
        }
        if (n === 0) {
          sys.close(parent[i]);
          open.splice(open.indexOf(i), 1);
          break;
        }
        sizes[i] += n;
        outputs[i].push(Buffer.from(buf.subarray(0, n)));
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
    return opts.encoding && opts.encoding !== 'buffer' ? b.toString(opts.encoding) : b;
  };
  const stdout = parent[1] >= 0 ? encode(outputs[1]) : null;
  const stderr = parent[2] >= 0 ? encode(outputs[2]) : null;
  const result = { pid, output: [null, stdout, stderr], stdout, stderr, status: signo === 0 ? (status >> 8) & 0xff : null, signal: signo === 0 ? null : NAMES[signo] };
  if (error) result.error = error;
  return result;
}

function checkExecSyncError(ret, args, cmd) {
  if (ret.error) return ret.error;
  if (ret.status !== 0) {
    let msg = `Command failed: ${cmd || args.join(' ')}`;
    if (ret.stderr && ret.stderr.length > 0) msg += `\n${ret.stderr.toString()}`;
    const err = new Error(msg);
    Object.assign(err, ret);
    return err;
  }
  return undefined;
}

function execFileSync(file, args, options) {
  if (!Array.isArray(args) && args !== undefined && args !== null && typeof args === 'object') {
    options = args;
    args = [];
  }
  options = { stdio: ['pipe', 'pipe', 'inherit'], ...(options || {}) };
  const ret = spawnSync(file, args || [], options);
  const err = checkExecSyncError(ret, [file, ...(args || [])]);
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

function fork() {
  throw codeError(Error, 'ERR_ACCESS_DENIED', 'child_process.fork is not available in this VM');
}

module.exports = { ChildProcess, spawn, exec, execFile, spawnSync, execSync, execFileSync, fork, _forkChild: undefined };
