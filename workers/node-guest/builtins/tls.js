// `tls`: a TLS client. The engine is this worker's own node:tls over an in-memory pipe
// (workers/node-host/tls-ops.ts); this TLSSocket carries its ciphertext over a guest socket (net.connect, or the
// `socket` given), which the VM's network policy allowed, so TLS never dials anything itself. Verification is on
// by default against tls.rootCertificates plus NODE_EXTRA_CA_CERTS (read once, as Node reads it at start);
// NODE_TLS_REJECT_UNAUTHORIZED=0 turns it off, with Node's warning. Serving and secure contexts fail with
// ERR_ACCESS_DENIED (internal/denied.js). The module's defaults and tables are this Node's
// (workers/node-host/node-tables-ops.ts).
'use strict';

const {
  ArrayIsArray,
  ArrayPrototypePush,
  ArrayPrototypeSlice,
  Error,
  JSONParse,
  JSONStringify,
  MathMin,
  NumberParseInt,
  ObjectFreeze,
  RangeError,
  SafeMap,
  String,
  StringFromCharCode,
  StringPrototypeSlice,
  Uint8Array,
  GetLength,
} = require('internal/primordials');

const net = require('net');
const process = require('process');
const { Buffer } = require('buffer');
const { Duplex } = require('stream');
const { deniedError, deniedFunction } = require('internal/denied');
const { codeError, invalidArgType } = require('internal/errors');
const { hostError } = require('internal/host-assist');
const ns = require('internal/net-sys');

const NODE_MAJOR = NumberParseInt(process.versions.node, 10);
const defaults = JSONParse(internal.host('nodeTable', 'tlsDefaults'));
const host = internal.host;
const isFailure = internal.isFailure;

/** The engine ids of open TLSSockets → the socket, for the worker's notices. */
const live = new SafeMap();
internal.on('tls', (id) => {
  const t = live.get(id);
  if (t) t._drain();
});

let extraCa;
/** NODE_EXTRA_CA_CERTS's certificates, read once (Node reads them at start; a later change is ignored). */
function extraCertificates() {
  if (extraCa !== undefined) return extraCa;
  extraCa = '';
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (file) {
    try {
      extraCa = require('fs').readFileSync(file, 'latin1');
    } catch (e) {
      process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${e.message}`);
    }
  }
  return extraCa;
}

let warnedInsecure = false;
/** rejectUnauthorized's default: NODE_TLS_REJECT_UNAUTHORIZED=0 turns verification off, with Node's warning. */
function rejectByDefault() {
  if (process.env.NODE_TLS_REJECT_UNAUTHORIZED !== '0') return true;
  if (!warnedInsecure) {
    warnedInsecure = true;
    process.emitWarning("Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable to '0' makes TLS connections and HTTPS requests insecure by disabling certificate verification.");
  }
  return false;
}

/** Bytes as a latin1 string (PEM and ALPN names are ASCII). */
function latin1(u8, start = 0, end = u8.length) {
  let out = '';
  for (let i = start; i < end && i < u8.length; i++) out += StringFromCharCode(u8[i]);
  return out;
}

/** A CA option (string, Buffer or an array of them) as PEM strings. */
function pemList(ca) {
  const list = ArrayIsArray(ca) ? ca : [ca];
  const out = [];
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (typeof c === 'string') ArrayPrototypePush(out, c);
    else if (c instanceof Uint8Array) ArrayPrototypePush(out, latin1(c));
    else throw invalidArgType('options.ca', 'of type string or an instance of Buffer, TypedArray, or DataView', c);
  }
  return out;
}

/** ALPN protocols as names (an array of strings or Buffers, or Node's length-prefixed Buffer). */
function alpnList(protocols) {
  if (protocols === undefined || protocols === null) return undefined;
  const out = [];
  if (ArrayIsArray(protocols)) {
    for (let i = 0; i < protocols.length; i++) ArrayPrototypePush(out, protocols[i] instanceof Uint8Array ? latin1(protocols[i]) : String(protocols[i]));
    return out;
  }
  if (protocols instanceof Uint8Array) {
    for (let i = 0; i < protocols.length; ) {
      const n = protocols[i];
      ArrayPrototypePush(out, latin1(protocols, i + 1, i + 1 + n));
      i += 1 + n;
    }
    return out;
  }
  throw invalidArgType('options.ALPNProtocols', 'Array, Buffer, TypedArray, or DataView', protocols);
}

/** The engine's options as tls-ops.ts takes them: JSON of known fields. */
function engineOptions(options, servername) {
  const o = { __proto__: null, rejectUnauthorized: options.rejectUnauthorized === undefined ? rejectByDefault() : options.rejectUnauthorized !== false };
  // The guest's own checkServerIdentity replaces the engine's name check (it runs here, after the handshake).
  if (typeof options.checkServerIdentity === 'function') o.skipIdentity = true;
  if (servername) o.servername = servername;
  if (options.ca !== undefined && options.ca !== null) o.ca = pemList(options.ca);
  else {
    const extra = extraCertificates();
    if (extra) o.extraCa = extra;
  }
  const alpn = alpnList(options.ALPNProtocols);
  if (alpn) o.ALPNProtocols = alpn;
  if (typeof options.minVersion === 'string') o.minVersion = options.minVersion;
  if (typeof options.maxVersion === 'string') o.maxVersion = options.maxVersion;
  if (typeof options.ciphers === 'string') o.ciphers = options.ciphers;
  if (typeof options.ecdhCurve === 'string') o.ecdhCurve = options.ecdhCurve;
  return JSONStringify(o);
}

/**
 * A TLS client connection over `socket` (a guest net.Socket or any Duplex): a net.Socket, as Node's, whose
 * stream methods are its own. Ciphertext the socket reads is fed
 * to the engine, what the engine makes is taken when the worker says so: ciphertext written to the socket,
 * plaintext pushed here. The socket is paused while this stream's reader is full.
 */
class TLSSocket extends net.Socket {
  constructor(socket, options = {}) {
    super({ allowHalfOpen: options.allowHalfOpen === true });
    if (!(socket instanceof Duplex) && !(socket && typeof socket.write === 'function' && typeof socket.on === 'function')) throw deniedError('tls.TLSSocket without a socket');
    this.encrypted = true;
    this.authorized = false;
    this.authorizationError = null;
    this.alpnProtocol = false;
    this.servername = options.servername || null;
    this._socket = socket;
    this._info = null;
    this._secure = false;
    this._writeDone = null;
    // Until the handshake is done, as Node's TLSSocket: http's client then waits for it.
    this.connecting = true;
    this._checkIdentity = typeof options.checkServerIdentity === 'function' ? options.checkServerIdentity : null;
    const engine = engineOptions(options, this.servername);
    this._rejectUnauthorized = JSONParse(engine).rejectUnauthorized;
    this._hostname = options.host || 'localhost';
    const r = host('tlsOpen', engine);
    if (isFailure(r)) throw hostError(r, TLSSocket);
    this._id = r;
    live.set(r, this);
    socket.on('data', (b) => this._feed(b));
    socket.on('end', () => this._feed(null));
    socket.on('error', (e) => this.destroy(e));
    // The socket's end reaches the engine, which then ends this stream (or fails) on its notice, after the
    // plaintext it still holds: the socket's 'close' alone ends nothing here.
    socket.on('timeout', () => this.emit('timeout'));
    if (socket.connecting) socket.once('connect', () => this.emit('connect'));
  }

  _feed(bytes) {
    if (this.destroyed) return;
    if (bytes === null) return this._op('tlsFeed', 0);
    // A socket given by the guest may hand strings (setEncoding): the bytes it read.
    if (typeof bytes === 'string') bytes = Buffer.from(bytes, 'latin1');
    for (let off = 0; off < GetLength(bytes); ) {
      const n = MathMin(GetLength(bytes) - off, internal.scratchBytes);
      internal.toScratch(bytes, off, off + n);
      this._op('tlsFeed', n);
      off += n;
    }
  }

  _op(name, a) {
    const r = host(name, this._id, a);
    if (isFailure(r)) {
      this.destroy(hostError(r, TLSSocket));
      return undefined;
    }
    return r;
  }

  /** Takes what the engine made, in order. */
  _drain() {
    while (!this.destroyed) {
      const r = host('tlsTake', this._id);
      if (isFailure(r)) return void this.destroy(hostError(r, TLSSocket));
      if (r === '') return void this._written();
      const kind = r[0];
      if (kind === 's') this._onSecure();
      else if (kind === 'x') this.push(null);
      else if (kind === 'w') this._socket.end();
      else {
        const bytes = Buffer.from(internal.scratchCopy(NumberParseInt(StringPrototypeSlice(r, 1), 10)));
        if (kind === 'c') this._socket.write(bytes);
        else if (!this.push(bytes) && typeof this._socket.pause === 'function') this._socket.pause();
      }
    }
  }

  _onSecure() {
    const r = host('tlsInfo', this._id);
    if (isFailure(r)) return void this.destroy(hostError(r, TLSSocket));
    this._info = JSONParse(r);
    this.authorized = this._info.authorized;
    this.authorizationError = this._info.authorizationError;
    this.alpnProtocol = this._info.alpnProtocol;
    if (this._checkIdentity && this.authorized) {
      // As Node's onConnectSecure: the guest's check decides, and a failure either ends the connection or is
      // only reported (rejectUnauthorized false).
      const err = this._checkIdentity(this.servername || this._hostname, this.getPeerCertificate(true));
      if (err) {
        this.authorized = false;
        this.authorizationError = err.code || err.message;
        if (this._rejectUnauthorized) return void this.destroy(err);
      }
    }
    this._secure = true;
    this.connecting = false;
    this.emit('secure');
    this.emit('secureConnect');
  }

  _read() {
    if (typeof this._socket.resume === 'function' && this._socket.isPaused && this._socket.isPaused()) this._socket.resume();
  }

  _write(chunk, encoding, cb) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    if (GetLength(bytes) === 0) return cb();
    for (let off = 0; off < GetLength(bytes); ) {
      const n = MathMin(GetLength(bytes) - off, internal.scratchBytes);
      internal.toScratch(bytes, off, off + n);
      if (this._op('tlsWrite', n) === undefined) return cb();
      off += n;
    }
    // Done once the engine's ciphertext for it went to the socket (on the worker's next notice) and the socket
    // has room: so a writer is paced by the connection, and the worker queues no more than one write's worth.
    this._writeDone = cb;
  }

  /** The engine's queue is empty: the pending write is done once the socket takes more. */
  _written() {
    const cb = this._writeDone;
    if (!cb) return;
    this._writeDone = null;
    if (this._socket.writableNeedDrain) this._socket.once('drain', () => cb());
    else cb();
  }

  _final(cb) {
    this._op('tlsEnd');
    cb();
  }

  _destroy(err, cb) {
    if (live.get(this._id) === this) {
      live.delete(this._id);
      host('tlsClose', this._id);
    }
    this.connecting = false;
    if (!this._socket.destroyed) this._socket.destroy();
    cb(err);
    // net.Socket emits its 'close' itself (emitClose is off), with whether it had an error.
    process.nextTick(() => this.emit('close', Boolean(err)));
  }
  get remoteAddress() {
    return this._socket.remoteAddress;
  }
  get remotePort() {
    return this._socket.remotePort;
  }
  get remoteFamily() {
    return this._socket.remoteFamily;
  }
  get localAddress() {
    return this._socket.localAddress;
  }
  get localPort() {
    return this._socket.localPort;
  }
  address() {
    return this._socket.address();
  }
  setNoDelay(v) {
    if (typeof this._socket.setNoDelay === 'function') this._socket.setNoDelay(v);
    return this;
  }
  setKeepAlive(a, b) {
    if (typeof this._socket.setKeepAlive === 'function') this._socket.setKeepAlive(a, b);
    return this;
  }
  setTimeout(ms, cb) {
    if (typeof this._socket.setTimeout === 'function') this._socket.setTimeout(ms);
    if (cb) this.once('timeout', cb);
    return this;
  }
  ref() {
    if (typeof this._socket.ref === 'function') this._socket.ref();
    return this;
  }
  unref() {
    if (typeof this._socket.unref === 'function') this._socket.unref();
    return this;
  }
  getPeerCertificate() {
    return this._info ? this._info.peer : {};
  }
  getProtocol() {
    return this._info ? this._info.protocol : null;
  }
  getCipher() {
    return this._info ? this._info.cipher : undefined;
  }
  getSession() {
    return undefined;
  }
  isSessionReused() {
    return false;
  }
}

/** tls.connect(options[, cb]) / (port[, host][, options][, cb]). */
function connect(...args) {
  let options = {};
  let cb;
  let i = 0;
  if (args[i] !== null && typeof args[i] === 'object') options = args[i++];
  else {
    if (args[i] !== undefined && typeof args[i] !== 'function') options = { port: args[i++] };
    if (typeof args[i] === 'string') options.host = args[i++];
    if (args[i] !== null && typeof args[i] === 'object') options = { ...args[i++], ...options };
  }
  if (typeof args[i] === 'function') cb = args[i];
  const hostname = options.host || 'localhost';
  const servername = options.servername !== undefined ? options.servername : ns.isIP(hostname) ? undefined : hostname;
  let socket = options.socket;
  if (!socket) {
    const o = { host: hostname, port: options.port };
    if (options.family !== undefined) o.family = options.family;
    if (options.localAddress !== undefined) o.localAddress = options.localAddress;
    if (options.timeout !== undefined) o.timeout = options.timeout;
    socket = net.connect(o);
    socket.on('lookup', (e, address, family, name) => t.emit('lookup', e, address, family, name));
  }
  const t = new TLSSocket(socket, { ...options, servername, host: hostname });
  if (cb) t.once('secureConnect', cb);
  return t;
}

class SecureContext {
  constructor() {
    throw deniedError('tls.SecureContext');
  }
}

class Server extends net.Server {
  constructor() {
    super();
    throw deniedError('tls.Server');
  }
}

/** As Node's: the protocol names, each prefixed by its length, in one buffer. */
function convertALPNProtocols(protocols, out) {
  if (ArrayIsArray(protocols)) {
    const parts = [];
    for (let i = 0; i < protocols.length; i++) {
      const bytes = Buffer.from(protocols[i]);
      if (GetLength(bytes) > 255) throw codeRange(protocols[i], i);
      ArrayPrototypePush(parts, Buffer.from([GetLength(bytes)]), bytes);
    }
    out.ALPNProtocols = Buffer.concat(parts);
  } else if (protocols instanceof Uint8Array) {
    out.ALPNProtocols = Buffer.from(protocols);
  } else if (protocols !== undefined && protocols !== null) {
    throw invalidArgType('protocols', 'Array, Buffer, TypedArray, or DataView', protocols);
  }
}
function codeRange(p, i) {
  const e = { message: `The byte length of the protocol at index ${i} exceeds the maximum length. It must be <= 255. Received ${Buffer.byteLength(p)}` };
  return codeError(RangeError, 'ERR_OUT_OF_RANGE', e.message);
}

const tls = {
  CLIENT_RENEG_LIMIT: defaults.CLIENT_RENEG_LIMIT,
  CLIENT_RENEG_WINDOW: defaults.CLIENT_RENEG_WINDOW,
  DEFAULT_CIPHERS: defaults.DEFAULT_CIPHERS,
  DEFAULT_ECDH_CURVE: defaults.DEFAULT_ECDH_CURVE,
  DEFAULT_MAX_VERSION: defaults.DEFAULT_MAX_VERSION,
  DEFAULT_MIN_VERSION: defaults.DEFAULT_MIN_VERSION,
  SecureContext,
  Server,
  TLSSocket,
  checkServerIdentity: deniedFunction('checkServerIdentity', 'tls.checkServerIdentity()'),
  connect,
  convertALPNProtocols,
  createSecureContext: deniedFunction('createSecureContext', 'tls.createSecureContext()'),
  createServer: deniedFunction('createServer', 'tls.createServer()'),
  getCiphers: () => ArrayPrototypeSlice(defaults.ciphers),
  rootCertificates: ObjectFreeze(defaults.rootCertificates),
};
// Node 20 still has the long-deprecated createSecurePair; Node 24 has the CA certificate functions instead.
if (NODE_MAJOR < 24) tls.createSecurePair = deniedFunction('createSecurePair', 'tls.createSecurePair()');
else {
  tls.getCACertificates = deniedFunction('getCACertificates', 'tls.getCACertificates()');
  tls.getCertificateCompressionAlgorithms = deniedFunction('getCertificateCompressionAlgorithms', 'tls.getCertificateCompressionAlgorithms()');
  tls.setDefaultCACertificates = deniedFunction('setDefaultCACertificates', 'tls.setDefaultCACertificates()');
}
module.exports = tls;
