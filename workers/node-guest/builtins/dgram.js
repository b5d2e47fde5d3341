// dgram over the kernel's loopback datagram sockets. A bound socket receives until EAGAIN, which arms the
// wake ring, and goes on when the kernel pushes readiness; that wait keeps the process alive unless unref'd.
// Broadcast and multicast have no meaning on the VM's loopback: they fail with ENOSYS.
'use strict';

const {
  ArrayBufferIsView,
  ArrayIsArray,
  Error,
  Number,
  RangeError,
  String,
  TypeError,
  ArrayPrototypePush,
  SafeArrayIterator,
  TypedArrayPrototypeSubarray,
  ArrayPrototypeMap,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  GetLength,
} = require('internal/primordials');

const EventEmitter = require('events');
const { Buffer } = require('buffer');
const { codeError, invalidArgType } = require('internal/errors');
const { waitFd, cancelFd, setRef } = require('internal/event-loop');
const process = require('process');
const dns = require('dns');
const ns = require('internal/net-sys');

const UNBOUND = 0;
const BINDING = 1;
const BOUND = 2;

const notRunning = () => codeError(Error, 'ERR_SOCKET_DGRAM_NOT_RUNNING', 'Not running');

function badPort(port) {
  const shown = typeof port === 'string' ? `'${port}'` : String(port);
  return codeError(RangeError, 'ERR_SOCKET_BAD_PORT', `Port should be > 0 and < 65536. Received type ${typeof port} (${shown}).`);
}

function toBuffer(msg) {
  if (typeof msg === 'string') return Buffer.from(msg);
  if (Buffer.isBuffer(msg)) return msg;
  if (ArrayBufferIsView(msg)) return Buffer.from(GetBuffer(msg), GetByteOffset(msg), GetByteLength(msg));
  throw invalidArgType('buffer', 'of type string or an instance of Buffer, TypedArray, or DataView', msg);
}

class Socket extends EventEmitter {
  constructor(type, listener) {
    super();
    const options = typeof type === 'object' && type !== null ? type : { type };
    if (options.type !== 'udp4' && options.type !== 'udp6') {
      throw codeError(TypeError, 'ERR_SOCKET_BAD_TYPE', 'Bad socket type specified. Valid types are: udp4, udp6');
    }
    this.type = options.type;
    this._family = options.type === 'udp6' ? 6 : 4;
    try {
      this._fd = ns.socket(this._family === 6 ? ns.AF_INET6 : ns.AF_INET, true);
    } catch (e) {
      throw e instanceof ns.Failure ? ns.errnoException(e.code, 'socket') : e;
    }
    this._state = UNBOUND;
    this._connected = null;
    this._refed = true;
    this._queue = null;
    this._recvBufferSize = options.recvBufferSize;
    this._sendBufferSize = options.sendBufferSize;
    if (typeof listener === 'function') this.on('message', listener);
    if (options.signal) {
      if (options.signal.aborted) process.nextTick(() => this.close());
      else options.signal.addEventListener('abort', () => this.close(), { once: true });
    }
  }

  _healthCheck() {
    if (this._fd < 0) throw notRunning();
  }

  bind(port, address, callback) {
    this._healthCheck();
    if (this._state !== UNBOUND) throw codeError(Error, 'ERR_SOCKET_ALREADY_BOUND', 'Socket is already bound');
    if (typeof port === 'object' && port !== null) {
      callback = address;
      address = port.address;
      port = port.port;
    } else if (typeof port === 'function') {
      callback = port;
      port = 0;
      address = undefined;
    }
    if (typeof address === 'function') {
      callback = address;
      address = undefined;
    }
    if (typeof callback === 'function') this.once('listening', callback);
    port = port === undefined || port === null ? 0 : port;
    if (typeof port !== 'number' && typeof port !== 'string') throw badPort(port);
    if (!address) address = this._family === 6 ? '::' : '0.0.0.0';
    this._state = BINDING;
    process.nextTick(() => {
      if (this._fd < 0) return;
      const ip = this._resolve(String(address));
      if (ip instanceof Error) {
        this._state = UNBOUND;
        return this.emit('error', ip);
      }
      try {
        ns.bind(this._fd, ip, Number(port) | 0);
      } catch (e) {
        this._state = UNBOUND;
        return this.emit('error', e instanceof ns.Failure ? ns.exceptionWithHostPort(e.code, 'bind', ip, Number(port) | 0) : e);
      }
      this._bound();
    });
    return this;
  }

  /** A name's address of this socket's family, or Node's lookup error. */
  _resolve(host) {
    if (ns.isIP(host)) return host;
    const list = ns.addressesOf(host, this._family, dns.getDefaultResultOrder());
    return list.length ? list[0].address : ns.dnsException('ENOTFOUND', 'getaddrinfo', host);
  }

  _bound() {
    this._state = BOUND;
    if (this._recvBufferSize) this.setRecvBufferSize(this._recvBufferSize);
    if (this._sendBufferSize) this.setSendBufferSize(this._sendBufferSize);
    this._receive();
    this.emit('listening');
    const queue = this._queue;
    this._queue = null;
    if (queue) for (const run of new SafeArrayIterator(queue)) run();
  }

  /** Sends once bound: an unbound socket binds to a port of its own first, as Node's does. */
  _whenBound(run) {
    if (this._state === BOUND) return run();
    if (!this._queue) this._queue = [];
    ArrayPrototypePush(this._queue, run);
    if (this._state === UNBOUND) this.bind({ port: 0 });
  }

  _receive() {
    for (;;) {
      if (this._fd < 0) return;
      let d;
      try {
        d = ns.recvfrom(this._fd);
      } catch (e) {
        if (e.code === 'EAGAIN') {
          waitFd(this._fd, false, () => this._receive(), this._refed, true);
          return;
        }
        this.emit('error', e instanceof ns.Failure ? ns.errnoException(e.code, 'recvmsg') : e);
        return;
      }
      const buf = Buffer.from(GetBuffer(d.bytes), GetByteOffset(d.bytes), GetLength(d.bytes));
      this.emit('message', buf, { address: d.address, family: d.family, port: d.port, size: GetLength(buf) });
    }
  }

  send(buffer, offset, length, port, address, callback) {
    let list;
    if (typeof buffer === 'string' || ArrayBufferIsView(buffer)) {
      if (typeof offset === 'number' && typeof length === 'number') {
        const b = toBuffer(buffer);
        if (offset < 0 || offset > GetLength(b)) throw codeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '"offset" is outside of buffer bounds');
        if (length < 0 || offset + length > GetLength(b)) throw codeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '"length" is outside of buffer bounds');
        list = [TypedArrayPrototypeSubarray(b, offset, offset + length)];
      } else {
        callback = port;
        address = length;
        port = offset;
        list = [toBuffer(buffer)];
      }
    } else if (ArrayIsArray(buffer)) {
      callback = port;
      address = length;
      port = offset;
      list = ArrayPrototypeMap(buffer, toBuffer);
    } else throw invalidArgType('buffer', 'of type string or an instance of Buffer, TypedArray, or DataView', buffer);
    if (typeof address === 'function') {
      callback = address;
      address = undefined;
    }
    if (typeof port === 'function') {
      callback = port;
      port = undefined;
    }
    this._healthCheck();
    if (this._connected) {
      if (port !== undefined && port !== null) throw codeError(Error, 'ERR_SOCKET_DGRAM_IS_CONNECTED', 'Already connected');
    } else {
      if (port === undefined || port === null) throw codeError(Error, 'ERR_SOCKET_BAD_PORT', 'Port should be > 0 and < 65536. Received undefined.');
      if (!(+port > 0 && +port < 65536)) throw badPort(port);
      if (address !== undefined && address !== null && typeof address !== 'string') throw invalidArgType('address', 'of type string', address);
    }
    const bytes = list.length === 1 ? list[0] : Buffer.concat(list);
    const cb = typeof callback === 'function' ? callback : null;
    this._whenBound(() => {
      if (this._fd < 0) return;
      let ip = '';
      let to = 0;
      if (!this._connected) {
        ip = this._resolve(address || (this._family === 6 ? '::1' : '127.0.0.1'));
        if (ip instanceof Error) {
          if (cb) cb(ip);
          else this.emit('error', ip);
          return;
        }
        to = +port;
      }
      let err = null;
      try {
        ns.sendto(this._fd, bytes, ip, to);
      } catch (e) {
        const where = this._connected || { address: ip, port: to };
        err = e instanceof ns.Failure ? ns.exceptionWithHostPort(e.code, 'send', where.address, where.port) : e;
      }
      // Node reports a send's failure only to its callback.
      if (cb) process.nextTick(cb, err, err ? undefined : GetLength(bytes));
    });
  }

  connect(port, address, callback) {
    if (typeof address === 'function') {
      callback = address;
      address = undefined;
    }
    if (!(+port > 0 && +port < 65536)) throw badPort(port);
    this._healthCheck();
    if (this._connected || this._connecting) throw codeError(Error, 'ERR_SOCKET_DGRAM_IS_CONNECTED', 'Already connected');
    this._connecting = true;
    if (typeof callback === 'function') this.once('connect', callback);
    this._whenBound(() => {
      this._connecting = false;
      if (this._fd < 0) return;
      const ip = this._resolve(address || (this._family === 6 ? '::1' : '127.0.0.1'));
      if (ip instanceof Error) return this.emit('error', ip);
      try {
        ns.connect(this._fd, ip, +port);
      } catch (e) {
        return this.emit('error', e instanceof ns.Failure ? ns.exceptionWithHostPort(e.code, 'connect', ip, +port) : e);
      }
      this._connected = { address: ip, family: this._family === 6 ? 'IPv6' : 'IPv4', port: +port };
      this.emit('connect');
    });
  }

  disconnect() {
    this._healthCheck();
    if (!this._connected) throw codeError(Error, 'ERR_SOCKET_DGRAM_NOT_CONNECTED', 'Not connected');
    // The kernel has no AF_UNSPEC connect: sends name their destination from now on.
    this._connected = null;
  }

  remoteAddress() {
    this._healthCheck();
    if (!this._connected) throw codeError(Error, 'ERR_SOCKET_DGRAM_NOT_CONNECTED', 'Not connected');
    return { ...this._connected };
  }

  address() {
    this._healthCheck();
    if (this._state !== BOUND) throw ns.errnoException('EBADF', 'getsockname');
    const a = ns.sockname(this._fd);
    return { address: a.address, family: a.family, port: a.port };
  }

  close(callback) {
    if (this._fd < 0) throw notRunning();
    if (typeof callback === 'function') this.on('close', callback);
    cancelFd(this._fd, false);
    ns.close(this._fd);
    this._fd = -1;
    this._queue = null;
    process.nextTick(() => this.emit('close'));
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

  _option(name, size, syscall) {
    this._healthCheck();
    if (size === undefined) return ns.getopt(this._fd, ns.SOL_SOCKET, name);
    if (typeof size !== 'number' || size <= 0) throw codeError(TypeError, 'ERR_SOCKET_BAD_BUFFER_SIZE', 'Buffer size must be a positive integer');
    try {
      ns.setopt(this._fd, ns.SOL_SOCKET, name, size);
    } catch (e) {
      throw e instanceof ns.Failure ? ns.errnoException(e.code, syscall) : e;
    }
  }

  setRecvBufferSize(size) {
    this._option(ns.SO_RCVBUF, size, 'uv_recv_buffer_size');
  }

  setSendBufferSize(size) {
    this._option(ns.SO_SNDBUF, size, 'uv_send_buffer_size');
  }

  getRecvBufferSize() {
    return this._option(ns.SO_RCVBUF);
  }

  getSendBufferSize() {
    return this._option(ns.SO_SNDBUF);
  }

  getSendQueueSize() {
    return 0;
  }

  getSendQueueCount() {
    return 0;
  }
}

// No broadcast or multicast on the VM's loopback.
for (const name of new SafeArrayIterator(['setBroadcast', 'setTTL', 'setMulticastTTL', 'setMulticastLoopback', 'setMulticastInterface', 'addMembership', 'dropMembership', 'addSourceSpecificMembership', 'dropSourceSpecificMembership'])) {
  Socket.prototype[name] = function () {
    this._healthCheck();
    throw ns.errnoException('ENOSYS', name);
  };
}

function createSocket(type, listener) {
  return new Socket(type, listener);
}

module.exports = { Socket, createSocket };
