// OutgoingMessage and IncomingMessage of the guest's `http`, with Node's header rules (the order and
// defaults of _storeHeader, the joining of duplicate incoming headers). Both live in the guest's context:
// http runs over the guest's net.Socket, so nothing here touches the runtime.
'use strict';

const {
  ArrayIsArray,
  Boolean,
  Date,
  Error,
  Map,
  MathFloor,
  Object,
  ObjectEntries,
  ObjectKeys,
  ObjectSetPrototypeOf,
  Set,
  String,
  TypeError,
  Uint8Array,
  ArrayPrototypePush, StringPrototypeToLowerCase,
  SafeMap, SafeSet,
  SafeArrayIterator,
  RegExpPrototypeExec,
  ArrayFrom, ArrayPrototypeConcat, ArrayPrototypeMap, DatePrototypeToUTCString, NumberPrototypeToString,
  GetBuffer,
  GetByteOffset,
  GetLength,
} = require('internal/primordials');

const Stream = require('stream');
const { Readable } = Stream;
const { Buffer } = require('buffer');
const process = require('process');
const { codeError, invalidArgType } = require('internal/errors');
const { TOKEN, BAD_VALUE } = require('internal/http-parser');

const HIGH_WATER_MARK = 16 * 1024;
const CRLF = '\r\n';

function validateHeaderName(name, label = 'Header name') {
  if (typeof name !== 'string' || !name || RegExpPrototypeExec(TOKEN, name) === null) {
    throw codeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `${label} must be a valid HTTP token ["${name}"]`);
  }
}

function validateHeaderValue(name, value) {
  if (value === undefined) throw codeError(TypeError, 'ERR_HTTP_INVALID_HEADER_VALUE', `Invalid value "${value}" for header "${name}"`);
  if (RegExpPrototypeExec(/[^\t\x20-\x7e\x80-\xff]/, String(value)) !== null) throw codeError(TypeError, 'ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
}

const headersSentError = (what) => codeError(Error, 'ERR_HTTP_HEADERS_SENT', `Cannot ${what} headers after they are sent to the client`);

// Duplicates of these are dropped by Node; cookie joins with '; ', set-cookie is an array, the rest join with ', '.
const SINGLE = new SafeSet(['content-type', 'content-length', 'user-agent', 'referer', 'host', 'authorization', 'proxy-authorization', 'if-modified-since', 'if-unmodified-since', 'from', 'location', 'max-forwards', 'retry-after', 'etag', 'last-modified', 'server', 'age', 'expires']);

function headersObject(raw) {
  const dest = { __proto__: null };
  for (let i = 0; i < raw.length; i += 2) {
    const name = StringPrototypeToLowerCase(raw[i]);
    const value = raw[i + 1];
    if (name === 'set-cookie') {
      if (dest[name] === undefined) dest[name] = [value];
      else ArrayPrototypePush(dest[name], value);
    } else if (dest[name] === undefined) dest[name] = value;
    else if (SINGLE.has(name)) continue;
    else dest[name] += (name === 'cookie' ? '; ' : ', ') + value;
  }
  return ObjectSetPrototypeOf(dest, Object.prototype);
}

function headersDistinct(raw) {
  const dest = { __proto__: null };
  for (let i = 0; i < raw.length; i += 2) {
    const name = StringPrototypeToLowerCase(raw[i]);
    ArrayPrototypePush((dest[name] ??= []), raw[i + 1]);
  }
  return ObjectSetPrototypeOf(dest, Object.prototype);
}

class IncomingMessage extends Readable {
  constructor(socket) {
    super({ highWaterMark: socket ? socket.readableHighWaterMark : undefined, autoDestroy: false });
    this.socket = socket;
    this.httpVersionMajor = null;
    this.httpVersionMinor = null;
    this.httpVersion = null;
    this.complete = false;
    this.rawHeaders = [];
    this.rawTrailers = [];
    this.joinDuplicateHeaders = null;
    this.aborted = false;
    this.upgrade = null;
    this.url = '';
    this.method = null;
    this.statusCode = null;
    this.statusMessage = null;
    this.client = socket;
    this._consuming = false;
    this._dumped = false;
    this._headersCache = undefined;
    this._trailersCache = undefined;
    this._resume = null;
  }

  get connection() {
    return this.socket;
  }
  set connection(v) {
    this.socket = v;
  }

  get headers() {
    return (this._headersCache ??= headersObject(this.rawHeaders));
  }
  set headers(v) {
    this._headersCache = v;
  }

  get headersDistinct() {
    return headersDistinct(this.rawHeaders);
  }

  get trailers() {
    return (this._trailersCache ??= headersObject(this.rawTrailers));
  }
  set trailers(v) {
    this._trailersCache = v;
  }

  get trailersDistinct() {
    return headersDistinct(this.rawTrailers);
  }

  setTimeout(msecs, callback) {
    if (callback) this.on('timeout', callback);
    if (this.socket) this.socket.setTimeout(msecs);
    return this;
  }

  _read() {
    this._consuming = true;
    if (this._resume) this._resume();
  }

  /** Discards the body (nobody will read it), so that the connection can go on. */
  _dump() {
    if (this._dumped) return;
    this._dumped = true;
    this.removeAllListeners('data');
    this.resume();
  }

  _destroy(err, cb) {
    if (!this.readableEnded || !this.complete) this.aborted = true;
    // An unfinished message on its connection: the connection cannot carry on.
    if (this.socket && !this.complete && !this._detached && !this.socket.destroyed) this.socket.destroy(err);
    // As Node's: the error is emitted only if someone listens for it (a server's aborted request has none).
    cb(this.listenerCount('error') > 0 ? err : undefined);
  }
}

class OutgoingMessage extends Stream {
  constructor() {
    super();
    this.outputData = [];
    this.outputSize = 0;
    this.writable = true;
    this.destroyed = false;
    this._last = false;
    this.chunkedEncoding = false;
    this.shouldKeepAlive = true;
    this.maxRequestsOnConnectionReached = false;
    this._defaultKeepAlive = true;
    this.useChunkedEncodingByDefault = true;
    this.sendDate = false;
    this._removedConnection = false;
    this._removedContLen = false;
    this._removedTE = false;
    this.strictContentLength = false;
    this._contentLength = null;
    this._hasBody = true;
    this._trailer = '';
    this.finished = false;
    this._headerSent = false;
    this._header = null;
    this._headers = null; // Map lower-case name → [name, value]
    this.socket = null;
    this._keepAliveTimeout = 0;
    this._onPendingData = null;
    this._writableFinished = false;
    this._needDrain = false;
  }

  get connection() {
    return this.socket;
  }
  get headersSent() {
    return Boolean(this._header);
  }
  get writableEnded() {
    return this.finished;
  }
  get writableFinished() {
    return this._writableFinished;
  }
  get writableLength() {
    return this.outputSize + (this.socket ? this.socket.writableLength : 0);
  }
  get writableHighWaterMark() {
    return this.socket ? this.socket.writableHighWaterMark : HIGH_WATER_MARK;
  }
  get writableCorked() {
    return this.socket ? this.socket.writableCorked : 0;
  }
  get writableObjectMode() {
    return false;
  }
  get writableNeedDrain() {
    return this._needDrain;
  }

  setHeader(name, value) {
    if (this._header) throw headersSentError('set');
    validateHeaderName(name);
    validateHeaderValue(name, value);
    (this._headers ??= new SafeMap()).set(StringPrototypeToLowerCase(name), [name, value]);
    return this;
  }

  setHeaders(headers) {
    if (this._header) throw headersSentError('set');
    if (typeof headers.entries === 'function') {
      for (const e of headers.entries()) this.setHeader(e[0], e[1]);
    } else {
      const entries = ObjectEntries(headers);
      for (let i = 0; i < entries.length; i++) this.setHeader(entries[i][0], entries[i][1]);
    }
    return this;
  }

  appendHeader(name, value) {
    if (this._header) throw headersSentError('append');
    validateHeaderName(name);
    validateHeaderValue(name, value);
    const key = StringPrototypeToLowerCase(name);
    const old = this._headers && this._headers.get(key);
    if (!old) return this.setHeader(name, value);
    const list = ArrayIsArray(old[1]) ? old[1] : [old[1]];
    old[1] = ArrayPrototypeConcat(list, value);
    return this;
  }

  getHeader(name) {
    if (typeof name !== 'string') throw invalidArgType('name', 'of type string', name);
    const e = this._headers && this._headers.get(StringPrototypeToLowerCase(name));
    return e ? e[1] : undefined;
  }

  getHeaders() {
    const out = { __proto__: null };
    if (this._headers) for (const e of this._headers) out[e[0]] = e[1][1];
    return out;
  }

  getHeaderNames() {
    return this._headers ? [...this._headers.keys()] : [];
  }

  getRawHeaderNames() {
    return this._headers ? ArrayPrototypeMap(ArrayFrom(this._headers.values()), (e) => e[0]) : [];
  }

  hasHeader(name) {
    if (typeof name !== 'string') throw invalidArgType('name', 'of type string', name);
    return Boolean(this._headers && this._headers.has(StringPrototypeToLowerCase(name)));
  }

  removeHeader(name) {
    if (typeof name !== 'string') throw invalidArgType('name', 'of type string', name);
    if (this._header) throw headersSentError('remove');
    const key = StringPrototypeToLowerCase(name);
    if (key === 'connection') this._removedConnection = true;
    else if (key === 'content-length') this._removedContLen = true;
    else if (key === 'transfer-encoding') this._removedTE = true;
    else if (key === 'date') this.sendDate = false;
    if (this._headers) this._headers.delete(key);
  }

  /** The head as Node writes it: the caller's headers in order, then Date, Connection, and the body's framing. */
  _storeHeader(firstLine, headers) {
    const state = { connection: false, contLen: false, te: false, date: false, trailer: false };
    let header = firstLine;
    const add = (name, value) => {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      const values = ArrayIsArray(value) ? value : [value];
      for (let i = 0; i < values.length; i++) header += `${name}: ${values[i]}${CRLF}`;
      const key = StringPrototypeToLowerCase(name);
      const text = String(value);
      if (key === 'connection') {
        state.connection = true;
        if (RegExpPrototypeExec(/(^|\W)close(\W|$)/i, text) !== null) this._last = true;
        else this.shouldKeepAlive = true;
      } else if (key === 'content-length') state.contLen = true;
      else if (key === 'transfer-encoding') {
        state.te = true;
        if (RegExpPrototypeExec(/chunked\s*$/i, text) !== null) this.chunkedEncoding = true;
      } else if (key === 'date') state.date = true;
      else if (key === 'trailer') state.trailer = true;
    };
    if (ArrayIsArray(headers)) {
      if (headers.length && ArrayIsArray(headers[0])) for (let i = 0; i < headers.length; i++) add(headers[i][0], headers[i][1]);
      else for (let i = 0; i < headers.length; i += 2) add(headers[i], headers[i + 1]);
    } else if (headers instanceof Map && headers === this._headers) for (const e of this._headers.values()) add(e[0], e[1]);
    else if (headers) for (const k of new SafeArrayIterator(ObjectKeys(headers))) add(k, headers[k]);
    if (!state.date && this.sendDate) header += `Date: ${DatePrototypeToUTCString(new Date())}${CRLF}`;
    if (!state.connection && !this._removedConnection) {
      const keepAlive = this.shouldKeepAlive && (state.contLen || this.useChunkedEncodingByDefault || this.agent);
      if (keepAlive && this.maxRequestsOnConnectionReached) header += `Connection: close${CRLF}`;
      else if (keepAlive) {
        header += `Connection: keep-alive${CRLF}`;
        if (this._keepAliveTimeout && this._defaultKeepAlive) header += `Keep-Alive: timeout=${MathFloor(this._keepAliveTimeout / 1000)}${CRLF}`;
      } else {
        this._last = true;
        header += `Connection: close${CRLF}`;
      }
    }
    if (!state.contLen && !state.te) {
      if (!this._hasBody) this.chunkedEncoding = false;
      else if (!this.useChunkedEncodingByDefault) this._last = true;
      else if (!state.trailer && !this._removedContLen && typeof this._contentLength === 'number') header += `Content-Length: ${this._contentLength}${CRLF}`;
      else if (!this._removedTE) {
        header += `Transfer-Encoding: chunked${CRLF}`;
        this.chunkedEncoding = true;
      } else this._last = true;
    }
    this._header = header + CRLF;
    this._headerSent = false;
  }

  /** Bytes to the socket (or kept until there is one), the head in front of the first. */
  _send(data, cb) {
    if (!this._headerSent && this._header) {
      const head = Buffer.from(this._header, 'latin1');
      data = data.length ? Buffer.concat([head, data]) : head;
      this._headerSent = true;
    }
    const socket = this.socket;
    if (socket && socket._httpMessage === this && socket.writable && !socket.destroyed) {
      if (this.outputData.length) this._flushOutput(socket);
      return socket.write(data, cb);
    }
    ArrayPrototypePush(this.outputData, { data, cb });
    this.outputSize += data.length;
    if (this._onPendingData) this._onPendingData(data.length);
    return this.outputSize < HIGH_WATER_MARK;
  }

  _flushOutput(socket) {
    const queue = this.outputData;
    this.outputData = [];
    this.outputSize = 0;
    if (this._onPendingData) this._onPendingData(-Infinity);
    let ret = true;
    socket.cork();
    for (const { data, cb } of new SafeArrayIterator(queue)) ret = socket.write(data, cb);
    process.nextTick(() => socket.uncork());
    return ret;
  }

  write(chunk, encoding, cb) {
    if (typeof encoding === 'function') {
      cb = encoding;
      encoding = null;
    }
    const ok = this._write_(chunk, encoding, cb, false);
    if (!ok) this._needDrain = true;
    return ok;
  }

  _write_(chunk, encoding, cb, fromEnd) {
    if (this.finished) {
      const err = codeError(Error, 'ERR_STREAM_WRITE_AFTER_END', 'write after end');
      process.nextTick(() => {
        if (typeof cb === 'function') cb(err);
        if (this.socket) this.emit('error', err);
      });
      return true;
    }
    if (this.destroyed) {
      const err = codeError(Error, 'ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed');
      if (typeof cb === 'function') process.nextTick(cb, err);
      return false;
    }
    if (chunk === null) throw codeError(TypeError, 'ERR_STREAM_NULL_VALUES', 'May not write null values to stream');
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) {
      throw invalidArgType('chunk', 'of type string or an instance of Buffer or Uint8Array', chunk);
    }
    if (!this._header) {
      if (fromEnd) this._contentLength = typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding || 'utf8') : GetLength(chunk);
      this._implicitHeader();
    }
    if (!this._hasBody) {
      if (typeof cb === 'function') process.nextTick(cb);
      return true;
    }
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding || 'utf8') : Buffer.from(GetBuffer(chunk), GetByteOffset(chunk), GetLength(chunk));
    if (bytes.length === 0) {
      if (typeof cb === 'function') process.nextTick(cb);
      return true;
    }
    if (this.chunkedEncoding) return this._send(Buffer.concat([Buffer.from(`${NumberPrototypeToString(bytes.length, 16)}${CRLF}`, 'latin1'), bytes, Buffer.from(CRLF, 'latin1')]), cb);
    return this._send(bytes, cb);
  }

  end(chunk, encoding, cb) {
    if (typeof chunk === 'function') {
      cb = chunk;
      chunk = null;
    } else if (typeof encoding === 'function') {
      cb = encoding;
      encoding = null;
    }
    if (chunk !== null && chunk !== undefined) {
      if (this.finished) {
        this._write_(chunk, encoding, cb, true);
        return this;
      }
      this._write_(chunk, encoding, null, true);
    } else if (this.finished) {
      if (typeof cb === 'function') {
        if (this._writableFinished) process.nextTick(cb);
        else this.once('finish', cb);
      }
      return this;
    } else if (!this._header) {
      this._contentLength = 0;
      this._implicitHeader();
    }
    if (typeof cb === 'function') this.once('finish', cb);
    const finish = () => this._finish();
    if (this._hasBody && this.chunkedEncoding) this._send(Buffer.from(`0${CRLF}${this._trailer}${CRLF}`, 'latin1'), finish);
    else this._send(Buffer.alloc(0), finish);
    this.finished = true;
    return this;
  }

  _finish() {
    if (this._writableFinished) return;
    this._writableFinished = true;
    this.emit('prefinish');
    this.emit('finish');
  }

  addTrailers(headers) {
    this._trailer = '';
    const entries = ArrayIsArray(headers) ? headers : ObjectEntries(headers);
    for (let i = 0; i < entries.length; i++) {
      const name = entries[i][0];
      const value = entries[i][1];
      validateHeaderName(name, 'Trailer name');
      validateHeaderValue(name, value);
      this._trailer += `${name}: ${value}${CRLF}`;
    }
  }

  flushHeaders() {
    if (!this._header) this._implicitHeader();
    this._send(Buffer.alloc(0));
  }

  cork() {
    if (this.socket) this.socket.cork();
  }

  uncork() {
    if (this.socket) this.socket.uncork();
  }

  setTimeout(msecs, callback) {
    if (callback) this.on('timeout', callback);
    if (this.socket) this.socket.setTimeout(msecs);
    else this.once('socket', (s) => s.setTimeout(msecs));
    return this;
  }

  destroy(error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (this.socket) this.socket.destroy(error);
    else this.once('socket', (s) => s.destroy(error));
    return this;
  }
}

module.exports = { IncomingMessage, OutgoingMessage, validateHeaderName, validateHeaderValue, headersObject };
