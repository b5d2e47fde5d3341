// net over the kernel's loopback socket table. A Socket is a Duplex over a non-blocking socket fd: reads
// receive until EAGAIN, which arms the wake ring, and go on when the kernel pushes readiness; writes send
// until all is taken, waiting for write readiness after a short send. A Server accepts until EAGAIN on each
// readiness push, so an idle server makes no system calls.
'use strict';

const {
  ArrayIsArray,
  Boolean,
  Error,
  JSONStringify,
  MathMax,
  Number,
  NumberIsFinite,
  RangeError,
  String,
  TypeError,
  StringPrototypeTrim,
  ArrayPrototypeMap,
  SafeArrayIterator,
  GetBuffer,
  GetByteOffset,
  GetLength,
} = require('internal/primordials');

const EventEmitter = require('events');
const { Duplex } = require('stream');
const { Buffer } = require('buffer');
const { codeError, invalidArgType } = require('internal/errors');
const { waitFd, cancelFd, setRef } = require('internal/event-loop');
const timers = require('internal/timers');
const process = require('process');
const dns = require('dns');
const ns = require('internal/net-sys');

const READ_SIZE = 64 * 1024;

const toNumber = (x) => ((x = Number(x)) >= 0 ? x : false);
const isPipeName = (s) => typeof s === 'string' && toNumber(s) === false;

function normalizeArgs(args) {
  if (args.length === 0) return [{}, null];
  const arg0 = args[0];
  let options = {};
  if (typeof arg0 === 'object' && arg0 !== null) options = arg0;
  else if (isPipeName(arg0)) options.path = arg0;
  else {
    options.port = arg0;
    if (args.length > 1 && typeof args[1] === 'string') options.host = args[1];
  }
  const cb = args[args.length - 1];
  return [options, typeof cb === 'function' ? cb : null];
}

function validatePort(port, name = 'Port', allowZero = true) {
  const bad = (typeof port !== 'number' && typeof port !== 'string') || (typeof port === 'string' && StringPrototypeTrim(port).length === 0) ||
    +port !== +port >>> 0 || port > 0xffff || (port === 0 && !allowZero);
  if (bad) {
    const shown = typeof port === 'string' ? `'${port}'` : String(port);
    throw codeError(RangeError, 'ERR_SOCKET_BAD_PORT', `${name} should be >= 0 and < 65536. Received type ${typeof port} (${shown}).`);
  }
  return port | 0;
}

/** A Node error from a system call's failure. */
const failed = (e, syscall) => (e instanceof ns.Failure ? ns.errnoException(e.code, syscall) : e);

class Socket extends Duplex {
  constructor(options) {
    if (typeof options === 'number') options = { fd: options };
    else options = { ...(options || {}) };
    super({
      allowHalfOpen: Boolean(options.allowHalfOpen),
      emitClose: false,
      autoDestroy: true,
      readableHighWaterMark: options.readableHighWaterMark,
      writableHighWaterMark: options.writableHighWaterMark,
      signal: options.signal,
    });
    if (options.fd !== undefined) throw codeError(Error, 'ERR_ACCESS_DENIED', 'net.Socket over an existing fd is not available in this VM');
    this.connecting = false;
    this._fd = -1;
    this._unix = false;
    this._refed = true;
    this._waitingRead = false;
    this._bytesRead = 0;
    this._sent = 0;
    this._timeoutMs = 0;
    this._timer = null;
    this._peer = undefined;
    this._hadError = false;
    this.server = null;
    this._server = null;
    this._host = null;
    this._noDelay = Boolean(options.noDelay);
    this._keepAlive = Boolean(options.keepAlive);
  }

  /** Takes a connected fd (an accepted connection, or a connect that succeeded). */
  _attach(fd, unix) {
    this._fd = fd;
    this._unix = unix;
    if (!unix) {
      if (this._noDelay) this.setNoDelay(true);
      if (this._keepAlive) this.setKeepAlive(true);
    }
  }

  connect(...args) {
    const pair$105 = normalizeArgs(ArrayIsArray(args[0]) && args.length === 1 ? args[0] : args);
    const options = pair$105[0], cb = pair$105[1];
    if (this.destroyed) throw codeError(Error, 'ERR_SOCKET_CLOSED', 'Socket is closed');
    if (cb) this.once('connect', cb);
    if (options.timeout) this.setTimeout(options.timeout);
    if (this._fd >= 0 || this.connecting) throw codeError(Error, 'ERR_SOCKET_CONNECTING', 'Socket is already connecting');
    this.connecting = true;
    const path = options.path;
    if (path !== undefined && path !== null) {
      if (typeof path !== 'string') throw invalidArgType('options.path', 'of type string', path);
      this._connectTo([{ address: path, family: 0 }], 0, options);
      return this;
    }
    if (options.port === undefined || options.port === null) {
      throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "options" or "port" or "path" argument must be specified');
    }
    const port = validatePort(options.port, 'options.port');
    const host = options.host === undefined || options.host === null ? 'localhost' : String(options.host);
    this._host = host;
    const family = options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : Number(options.family) || 0;
    process.nextTick(() => {
      if (!this.connecting) return;
      if (ns.isIP(host)) return this._connectTo([{ address: host, family: ns.isIP(host) }], port, options);
      const found = ns.lookupAddresses(host, family, dns.getDefaultResultOrder());
      const list = found.list;
      const err = list.length ? null : ns.dnsException(found.code || 'ENOTFOUND', 'getaddrinfo', host);
      this.emit('lookup', err, list.length ? list[0].address : undefined, list.length ? list[0].family : undefined, host);
      if (err) return this.destroy(err);
      this._connectTo(list, port, options);
    });
    return this;
  }

  /**
   * Connects to the first address that takes the connection (loopback connects complete at once; an outbound
   * one is refused at once by the policy, or completes or fails later).
   */
  _connectTo(addresses, port, options) {
    let error;
    let pending = false;
    for (const { address, family } of new SafeArrayIterator(addresses)) {
      const unix = family === 0;
      let fd = -1;
      try {
        fd = ns.socket(unix ? ns.AF_UNIX : family === 6 ? ns.AF_INET6 : ns.AF_INET, false);
        if (!unix && (options.localAddress || options.localPort)) ns.bind(fd, options.localAddress || (family === 6 ? '::' : '0.0.0.0'), options.localPort | 0);
        pending = ns.connect(fd, address, port);
      } catch (e) {
        if (fd >= 0) ns.close(fd);
        error = e instanceof ns.Failure ? ns.exceptionWithHostPort(e.code, 'connect', address, port) : e;
        continue;
      }
      this._attach(fd, unix);
      // Completes on write readiness, as libuv's connect does: the ring is in order, so a listener of this
      // process sees its 'connection' before this 'connect'.
      waitFd(fd, true, () => {
        if (this.destroyed) return;
        // An outbound connection was on its way: SO_ERROR says how it ended (ECONNREFUSED: refused, or denied by the policy).
        const failed = pending ? ns.connectError(fd) : '';
        if (failed) return this.destroy(ns.exceptionWithHostPort(failed, 'connect', address, port));
        this.connecting = false;
        this._active();
        this.emit('connect');
        this.emit('ready');
        // Node reads at once (so 'end' comes without a 'data' listener) unless paused.
        if (this.readable && !this.isPaused()) this.read(0);
      }, this._refed);
      return;
    }
    this.destroy(error);
  }

  _read() {
    if (this.connecting || this._fd < 0) {
      this.once('connect', () => this._read());
      return;
    }
    if (!this._waitingRead) this._pump();
  }

  _pump() {
    for (;;) {
      let bytes;
      try {
        bytes = ns.recv(this._fd, READ_SIZE);
      } catch (e) {
        if (e.code === 'EAGAIN') {
          this._waitingRead = true;
          waitFd(this._fd, false, () => {
            this._waitingRead = false;
            if (!this.destroyed) this._pump();
          }, this._refed, true);
          return;
        }
        this.destroy(failed(e, 'read'));
        return;
      }
      if (GetLength(bytes) === 0) {
        // read(0) as Node's does: 'end' comes even when nobody consumes the data.
        this.push(null);
        this.read(0);
        return;
      }
      this._bytesRead += GetLength(bytes);
      this._active();
      if (!this.push(Buffer.from(GetBuffer(bytes), GetByteOffset(bytes), GetLength(bytes)))) return;
    }
  }

  _write(chunk, encoding, cb) {
    this._send(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk, cb);
  }

  _writev(chunks, cb) {
    this._send(Buffer.concat(ArrayPrototypeMap(chunks, ({ chunk, encoding }) => (typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk))), cb);
  }

  _send(bytes, cb) {
    if (this.connecting || this._fd < 0) {
      if (!this.connecting) return cb(codeError(Error, 'ERR_SOCKET_CLOSED', 'Socket is closed'));
      this.once('connect', () => this._send(bytes, cb));
      return;
    }
    let off = 0;
    const step = () => {
      if (this._fd < 0) return;
      for (;;) {
        let n;
        try {
          n = ns.send(this._fd, bytes, off, GetLength(bytes) - off);
        } catch (e) {
          if (e.code === 'EAGAIN') {
            waitFd(this._fd, true, step, this._refed, true);
            return;
          }
          cb(failed(e, 'write'));
          return;
        }
        off += n;
        this._sent += n;
        if (off >= GetLength(bytes)) {
          this._active();
          cb();
          return;
        }
      }
    };
    step();
  }

  _final(cb) {
    if (this.connecting) {
      this.once('connect', () => this._final(cb));
      return;
    }
    if (this._fd >= 0) {
      try {
        ns.shutdown(this._fd, 1);
      } catch {
        // Not connected any more: there is nothing to end.
      }
    }
    cb();
  }

  _destroy(err, cb) {
    this._clearTimer();
    this.connecting = false;
    if (this._fd >= 0) {
      cancelFd(this._fd, false);
      cancelFd(this._fd, true);
      ns.close(this._fd);
      this._fd = -1;
    }
    if (this._server) {
      this._server._connections--;
      this._server._emitCloseIfDrained();
      this._server = null;
    }
    cb(err);
    process.nextTick(() => this.emit('close', Boolean(err)));
  }

  destroySoon() {
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', this.destroy);
  }

  resetAndDestroy() {
    return this.destroy();
  }

  setTimeout(msecs, callback) {
    if (typeof msecs !== 'number' || msecs < 0 || !NumberIsFinite(msecs)) {
      throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "msecs" is out of range. It must be a non-negative finite number. Received ${msecs}`);
    }
    this._timeoutMs = msecs;
    this._clearTimer();
    if (msecs > 0) this._active();
    if (typeof callback === 'function') {
      if (msecs === 0) this.removeListener('timeout', callback);
      else this.once('timeout', callback);
    }
    return this;
  }

  get timeout() {
    return this._timeoutMs;
  }

  /** Restarts the idle timer (Node's socket timeouts do not keep the process alive). */
  _active() {
    if (this._timeoutMs <= 0 || this.destroyed) return;
    if (this._timer) return void this._timer.refresh();
    this._timer = timers.setTimeout(() => {
      this._timer = null;
      this.emit('timeout');
    }, this._timeoutMs);
    this._timer.unref();
  }

  _clearTimer() {
    if (this._timer) timers.clearTimeout(this._timer);
    this._timer = null;
  }

  setNoDelay(noDelay = true) {
    this._noDelay = Boolean(noDelay);
    if (this._fd >= 0 && !this._unix) {
      try {
        ns.setopt(this._fd, ns.IPPROTO_TCP, ns.TCP_NODELAY, this._noDelay ? 1 : 0);
      } catch {
        // Stored only: the loopback has no delays to turn off.
      }
    }
    return this;
  }

  setKeepAlive(enable = false) {
    this._keepAlive = Boolean(enable);
    if (this._fd >= 0 && !this._unix) {
      try {
        ns.setopt(this._fd, ns.SOL_SOCKET, ns.SO_KEEPALIVE, this._keepAlive ? 1 : 0);
      } catch {
        // As above.
      }
    }
    return this;
  }

  ref() {
    this._refed = true;
    if (this._fd >= 0) {
      setRef(this._fd, false, true);
      setRef(this._fd, true, true);
    }
    return this;
  }

  unref() {
    this._refed = false;
    if (this._fd >= 0) {
      setRef(this._fd, false, false);
      setRef(this._fd, true, false);
    }
    return this;
  }

  address() {
    if (this._fd < 0) return {};
    try {
      const a = ns.sockname(this._fd);
      return a.family === 'unix' ? a.address : a;
    } catch {
      return {};
    }
  }

  _peername() {
    if (this._peer === undefined && this._fd >= 0 && !this.connecting) {
      try {
        this._peer = ns.peername(this._fd);
      } catch {
        return null;
      }
    }
    return this._peer || null;
  }

  get remoteAddress() {
    const p = this._peername();
    return p && p.address !== '' && p.family !== 'unix' ? p.address : undefined;
  }

  get remoteFamily() {
    const p = this._peername();
    return p && p.family !== 'unix' ? p.family : undefined;
  }

  get remotePort() {
    const p = this._peername();
    return p && p.family !== 'unix' ? p.port : undefined;
  }

  get localAddress() {
    const a = this.address();
    return typeof a === 'object' ? a.address : undefined;
  }

  get localPort() {
    const a = this.address();
    return typeof a === 'object' ? a.port : undefined;
  }

  get localFamily() {
    const a = this.address();
    return typeof a === 'object' ? a.family : undefined;
  }

  get bytesRead() {
    return this._bytesRead;
  }

  get bytesWritten() {
    return this._sent + this.writableLength;
  }

  get bufferSize() {
    return this.writableLength;
  }

  get pending() {
    return this._fd < 0 || this.connecting;
  }

  get readyState() {
    if (this.connecting) return 'opening';
    if (this.readable && this.writable) return 'open';
    if (this.readable && !this.writable) return 'readOnly';
    if (!this.readable && this.writable) return 'writeOnly';
    return 'closed';
  }

  get _handle() {
    return this._fd >= 0 ? { fd: this._fd } : null;
  }
}

class Server extends EventEmitter {
  constructor(options, connectionListener) {
    super();
    if (typeof options === 'function') {
      connectionListener = options;
      options = {};
    } else if (options == null || typeof options === 'object') {
      options = { ...(options || {}) };
    } else throw invalidArgType('options', 'of type object', options);
    if (connectionListener) this.on('connection', connectionListener);
    this._fd = -1;
    this._path = null;
    this._connections = 0;
    this._refed = true;
    this.allowHalfOpen = options.allowHalfOpen || false;
    this.pauseOnConnect = Boolean(options.pauseOnConnect);
    this.noDelay = Boolean(options.noDelay);
    this.keepAlive = Boolean(options.keepAlive);
    this.maxConnections = undefined;
  }

  get listening() {
    return this._fd >= 0;
  }

  get _handle() {
    return this._fd >= 0 ? { fd: this._fd } : null;
  }

  listen(...args) {
    const pair$475 = normalizeArgs(args);
    let options = pair$475[0], cb = pair$475[1];
    if (typeof args[0] === 'function') cb = args[0];
    if (cb) this.once('listening', cb);
    if (this._fd >= 0) throw codeError(Error, 'ERR_SERVER_ALREADY_LISTEN', 'Listen method has been called more than once without closing.');
    const backlog = toNumber(options.backlog) || toNumber(args.length > 1 && args[1]) || toNumber(args.length > 2 && args[2]) || 511;
    if (typeof options.path === 'string') {
      this._listenOn(options.path, -1, ns.AF_UNIX, backlog);
      return this;
    }
    if (args.length === 0 || typeof args[0] === 'function' || args[0] === null || args[0] === undefined) options = { ...options, port: 0 };
    else if (typeof args[0] === 'object' && !('port' in options)) {
      throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'options' must have the property "port" or "path". Received ${JSONStringify(options)}`);
    }
    const port = options.port === undefined || options.port === null ? 0 : validatePort(options.port, 'options.port');
    const host = options.host;
    if (host === undefined || host === null || host === '') {
      this._listenOn('::', port, ns.AF_INET6, backlog);
      return this;
    }
    const list = ns.addressesOf(String(host), 0, dns.getDefaultResultOrder());
    if (list.length === 0) {
      // Node looks the name up first: its failure is the server's error.
      const e = ns.dnsException('ENOTFOUND', 'getaddrinfo', String(host));
      process.nextTick(() => this.emit('error', e));
      return this;
    }
    this._listenOn(list[0].address, port, list[0].family === 6 ? ns.AF_INET6 : ns.AF_INET, backlog);
    return this;
  }

  _listenOn(address, port, domain, backlog) {
    let fd = -1;
    try {
      fd = ns.socket(domain, false);
      ns.bind(fd, address, domain === ns.AF_UNIX ? 0 : port);
      ns.listen(fd, backlog);
    } catch (e) {
      if (fd >= 0) ns.close(fd);
      const err = e instanceof ns.Failure ? ns.uvExceptionWithHostPort(e.code, 'listen', address, port) : e;
      process.nextTick(() => this.emit('error', err));
      return;
    }
    this._fd = fd;
    this._path = domain === ns.AF_UNIX ? address : null;
    waitFd(fd, false, () => this._acceptAll(), this._refed);
    process.nextTick(() => {
      if (this._fd === fd) this.emit('listening');
    });
  }

  /** Takes every queued connection, then waits for the next (the EAGAIN armed the ring). */
  _acceptAll() {
    const fd = this._fd;
    while (fd >= 0 && this._fd === fd) {
      let peer;
      try {
        peer = ns.accept(fd);
      } catch (e) {
        if (e.code === 'EAGAIN') {
          waitFd(fd, false, () => this._acceptAll(), this._refed, true);
          return;
        }
        this.emit('error', failed(e, 'accept'));
        return;
      }
      if (this.maxConnections !== undefined && this._connections >= this.maxConnections) {
        ns.close(peer.fd);
        this.emit('drop', { localAddress: undefined, localPort: undefined, localFamily: undefined, remoteAddress: peer.address || undefined, remotePort: peer.port, remoteFamily: peer.family });
        continue;
      }
      const socket = new Socket({ allowHalfOpen: this.allowHalfOpen, noDelay: this.noDelay, keepAlive: this.keepAlive });
      socket._attach(peer.fd, this._path !== null);
      socket._peer = peer;
      socket.server = this;
      socket._server = this;
      this._connections++;
      this.emit('connection', socket);
      if (this.pauseOnConnect) socket.pause();
      else if (socket.readable && !socket.isPaused()) socket.read(0);
    }
  }

  close(cb) {
    if (typeof cb === 'function') {
      if (this._fd < 0) this.once('close', () => cb(codeError(Error, 'ERR_SERVER_NOT_RUNNING', 'Server is not running.')));
      else this.once('close', cb);
    }
    if (this._fd >= 0) {
      cancelFd(this._fd, false);
      ns.close(this._fd);
      this._fd = -1;
      // libuv removes a Unix listener's path when it closes it.
      if (this._path !== null) ns.unlink(this._path);
    }
    this._emitCloseIfDrained();
    return this;
  }

  _emitCloseIfDrained() {
    if (this._fd >= 0 || this._connections > 0) return;
    process.nextTick(() => this.emit('close'));
  }

  address() {
    if (this._fd < 0) return null;
    if (this._path !== null) return this._path;
    try {
      const a = ns.sockname(this._fd);
      return { address: a.address, family: a.family, port: a.port };
    } catch {
      return null;
    }
  }

  getConnections(cb) {
    process.nextTick(cb, null, this._connections);
    return this;
  }

  ref() {
    this._refed = true;
    if (this._fd >= 0) setRef(this._fd, false, true);
    return this;
  }

  unref() {
    this._refed = false;
    if (this._fd >= 0) setRef(this._fd, false, false);
    return this;
  }
}

function createServer(options, connectionListener) {
  return new Server(options, connectionListener);
}

function connect(...args) {
  const pair$612 = normalizeArgs(args);
  const options = pair$612[0];
  return new Socket(options).connect(args);
}

let autoSelectFamily = true;
let autoSelectFamilyAttemptTimeout = 250;

module.exports = {
  Socket,
  Stream: Socket,
  Server,
  createServer,
  connect,
  createConnection: connect,
  isIP: ns.isIP,
  isIPv4: ns.isIPv4,
  isIPv6: ns.isIPv6,
  getDefaultAutoSelectFamily: () => autoSelectFamily,
  setDefaultAutoSelectFamily: (v) => void (autoSelectFamily = Boolean(v)),
  getDefaultAutoSelectFamilyAttemptTimeout: () => autoSelectFamilyAttemptTimeout,
  setDefaultAutoSelectFamilyAttemptTimeout: (v) => void (autoSelectFamilyAttemptTimeout = MathMax(10, Number(v) | 0)),
};
