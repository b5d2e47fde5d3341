// `http` implemented in the guest's context over its net.Socket (internal/http-parser.js parses, internal/
// http-outgoing.js writes), so every object a guest sees is its own and Express's prototype swapping finds
// the prototypes the server really uses. A connection parses one message at a time: while a response is
// unfinished, pipelined bytes wait in the (paused) socket, which bounds what is buffered.
'use strict';

const {
  ArrayFrom,
  ArrayIsArray,
  Boolean,
  Error,
  JSONParse,
  Map,
  Number,
  NumberIsFinite,
  ObjectAssign,
  ObjectDefineProperty,
  ObjectEntries,
  ObjectKeys,
  RangeError,
  Set,
  String,
  TypeError,
  decodeURIComponent,
  ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeShift, ArrayPrototypeSplice, StringPrototypeStartsWith, StringPrototypeToLowerCase, StringPrototypeToUpperCase,
  SafeMap, SafeSet,
  ReflectApply, SafeArrayIterator,
  RegExpPrototypeExec,
  ArrayPrototypeIncludes, ArrayPrototypeIndexOf, ArrayPrototypeSlice, StringPrototypeIncludes, StringPrototypeSlice, TypedArrayPrototypeSubarray,
  GetLength,
} = require('internal/primordials');

const EventEmitter = require('events');
const net = require('net');
const { Buffer } = require('buffer');
const process = require('process');
const { codeError, invalidArgType } = require('internal/errors');
const { HTTPParser } = require('internal/http-parser');
const { IncomingMessage, OutgoingMessage, validateHeaderName, validateHeaderValue } = require('internal/http-outgoing');

// This Node's own tables (workers/node-host/node-tables-ops.ts): the guest reports its version, and Node's
// tables change within a major (Node 20.20 added QUERY).
const STATUS_CODES = JSONParse(internal.host('nodeTable', 'httpStatusCodes'));
const METHODS = JSONParse(internal.host('nodeTable', 'httpMethods'));

let maxHeaderSize = 16384;

/** A full socket that drains again: its current message's 'drain', as Node's ondrain. */
function onSocketDrain() {
  const msg = this._httpMessage;
  if (msg && msg._needDrain) {
    msg._needDrain = false;
    msg.emit('drain');
  }
}
function hookDrain(socket) {
  if (socket._httpDrainHooked) return;
  socket._httpDrainHooked = true;
  socket.on('drain', onSocketDrain);
}

function connResetException(message) {
  return codeError(Error, 'ECONNRESET', message);
}

/** Fills an IncomingMessage from a parsed head. */
function fill(msg, info) {
  msg.httpVersionMajor = info.versionMajor;
  msg.httpVersionMinor = info.versionMinor;
  msg.httpVersion = `${info.versionMajor}.${info.versionMinor}`;
  msg.rawHeaders = info.rawHeaders;
  msg.upgrade = info.upgrade;
  if (info.method !== null) {
    msg.method = info.method;
    msg.url = info.url;
  } else {
    msg.statusCode = info.statusCode;
    msg.statusMessage = info.statusMessage;
  }
}

// ---- server ----

class ServerResponse extends OutgoingMessage {
  constructor(req, options) {
    super();
    this.req = req;
    this.statusCode = 200;
    this.statusMessage = undefined;
    this.sendDate = true;
    this._sent100 = false;
    this._expect_continue = false;
    if (req.method === 'HEAD') this._hasBody = false;
    if (req.httpVersionMajor < 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor === 0)) {
      this.useChunkedEncodingByDefault = (RegExpPrototypeExec(/(^|,)\s*chunked\s*(,|$)/i, String(req.headers.te || '')) !== null);
      this.shouldKeepAlive = false;
    }
  }

  assignSocket(socket) {
    hookDrain(socket);
    socket._httpMessage = this;
    this.socket = socket;
    this.emit('socket', socket);
    if (this.outputData.length) this._flushOutput(socket);
  }

  detachSocket(socket) {
    if (socket._httpMessage === this) socket._httpMessage = null;
    this.socket = null;
  }

  writeContinue(cb) {
    this.socket.write('HTTP/1.1 100 Continue\r\n\r\n', 'latin1', cb);
    this._sent100 = true;
  }

  writeProcessing(cb) {
    this.socket.write('HTTP/1.1 102 Processing\r\n\r\n', 'latin1', cb);
  }

  _implicitHeader() {
    this.writeHead(this.statusCode);
  }

  writeHead(statusCode, reason, obj) {
    if (this._header) throw codeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot write headers after they are sent to the client');
    const original = statusCode;
    statusCode |= 0;
    if (statusCode < 100 || statusCode > 999) throw codeError(RangeError, 'ERR_HTTP_INVALID_STATUS_CODE', `Invalid status code: ${original}`);
    if (typeof reason === 'string') this.statusMessage = reason;
    else {
      this.statusMessage ||= STATUS_CODES[statusCode] || 'unknown';
      obj ??= reason;
    }
    this.statusCode = statusCode;
    let headers = this._headers;
    if (obj) {
      if (ArrayIsArray(obj) && !this._headers) headers = obj;
      else {
        const pairs = ArrayIsArray(obj) ? (ArrayIsArray(obj[0]) ? obj : ArrayFrom({ length: obj.length / 2 }, (_, i) => [obj[2 * i], obj[2 * i + 1]])) : ObjectEntries(obj);
        for (let i = 0; i < pairs.length; i++) {
          const k = pairs[i][0];
          const v = pairs[i][1];
          if (v === undefined) continue;
          validateHeaderName(k);
          validateHeaderValue(k, v);
          (this._headers ??= new SafeMap()).set(StringPrototypeToLowerCase(k), [k, v]);
        }
        headers = this._headers;
      }
    }
    if (RegExpPrototypeExec(/[\r\n]/, this.statusMessage) !== null) throw codeError(TypeError, 'ERR_INVALID_CHAR', 'Invalid character in statusMessage');
    if (statusCode === 204 || statusCode === 304 || (statusCode >= 100 && statusCode <= 199)) this._hasBody = false;
    if (this._expect_continue && !this._sent100) this.shouldKeepAlive = false;
    this._storeHeader(`HTTP/1.1 ${statusCode} ${this.statusMessage}\r\n`, headers);
    return this;
  }
}

/** One accepted connection of an http.Server. */
function connectionListener(socket) {
  const server = this;
  const state = { socket, req: null, res: null, waiting: false, pending: null, requests: 0, upgraded: false };
  server._httpConnections.add(state);
  if (server.timeout) socket.setTimeout(server.timeout);
  socket.on('timeout', () => {
    const res = state.res;
    const reqOwned = state.req && state.req.emit('timeout', socket);
    const resOwned = res && res.emit('timeout', socket);
    const serverOwned = server.emit('timeout', socket);
    if (!reqOwned && !resOwned && !serverOwned) socket.destroy();
  });

  const parser = new HTTPParser('request', {
    onHeaders(info) {
      const req = new IncomingMessage(socket);
      fill(req, info);
      state.requests++;
      req._resume = () => {
        if (!state.waiting) socket.resume();
      };
      if (info.upgrade && server.listenerCount(info.method === 'CONNECT' ? 'connect' : 'upgrade') > 0) {
        state.upgraded = req;
        return true;
      }
      const res = new ServerResponse(req, {});
      res.shouldKeepAlive = res.shouldKeepAlive && info.shouldKeepAlive && server.keepAliveTimeout !== null;
      res._keepAliveTimeout = server.keepAliveTimeout;
      if (server.maxRequestsPerSocket > 0 && state.requests >= server.maxRequestsPerSocket) res.maxRequestsOnConnectionReached = true;
      state.req = req;
      state.res = res;
      res.assignSocket(socket);
      res.on('finish', () => responseFinished(req, res));
      if (socket._keepAliveIdle) {
        socket._keepAliveIdle = false;
        socket.setTimeout(server.timeout || 0);
      }
      if (server.requireHostHeader && info.versionMajor === 1 && info.versionMinor === 1 && req.headers.host === undefined) {
        res.writeHead(400, ['Connection', 'close']);
        res.end();
        return false;
      }
      const expect = req.headers.expect;
      if (expect !== undefined && info.versionMajor === 1 && info.versionMinor === 1) {
        if (RegExpPrototypeExec(/^100-continue$/i, expect) !== null) {
          res._expect_continue = true;
          if (server.listenerCount('checkContinue') > 0) server.emit('checkContinue', req, res);
          else {
            res.writeContinue();
            server.emit('request', req, res);
          }
        } else if (server.listenerCount('checkExpectation') > 0) server.emit('checkExpectation', req, res);
        else {
          res.writeHead(417);
          res.end();
        }
      } else server.emit('request', req, res);
      return false;
    },
    onBody(chunk) {
      const req = state.req;
      if (!req || req._dumped) return;
      if (!req.push(chunk)) socket.pause();
    },
    onComplete(trailers) {
      const req = state.req || state.upgraded;
      if (!req) return;
      req.rawTrailers = trailers;
      req.complete = true;
      req.push(null);
      if (req._responded) {
        req._detached = true;
        process.nextTick(() => req.destroyed || req.destroy());
      }
      state.waiting = Boolean(state.res && !state.res._writableFinished);
    },
  }, server.maxHeaderSize || maxHeaderSize);

  function onData(buf) {
    if (state.waiting) {
      state.pending = state.pending ? Buffer.concat([state.pending, buf]) : buf;
      socket.pause();
      return;
    }
    while (GetLength(buf)) {
      let used;
      try {
        used = parser.execute(buf);
      } catch (err) {
        return clientError(err);
      }
      buf = TypedArrayPrototypeSubarray(buf, used);
      if (state.upgraded) {
        const req = state.upgraded;
        socket.removeListener('data', onData);
        socket.removeListener('end', onEnd);
        server._httpConnections.delete(state);
        server.emit(req.method === 'CONNECT' ? 'connect' : 'upgrade', req, socket, Buffer.from(buf));
        return;
      }
      if (state.waiting && GetLength(buf)) {
        state.pending = Buffer.from(buf);
        socket.pause();
        return;
      }
    }
  }

  function clientError(err) {
    socket.removeListener('data', onData);
    if (server.listenerCount('clientError') > 0) server.emit('clientError', err, socket);
    else if (socket.writable && (!state.res || !state.res.headersSent)) {
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
      socket.destroySoon();
    } else socket.destroy(err);
  }

  function onEnd() {
    const err = parser.finish();
    if (err && state.req && !state.req.complete) return clientError(err);
    if (!server.httpAllowHalfOpen) {
      // As Node (httpAllowHalfOpen false): the socket ends with the client's side; its close then aborts the
      // request being answered and closes its response (how a client that gives up is seen).
      if (socket.writable) socket.end();
      return;
    }
    if (!state.res || state.res._writableFinished) socket.end();
    else state.endAfterResponse = true;
  }

  function responseFinished(req, res) {
    if (!req._consuming && !req.readableEnded) req._dump();
    req._responded = true;
    if (req.complete) req._detached = true;
    res.detachSocket(socket);
    process.nextTick(() => {
      res.emit('close');
      // As Node: the request's 'close' comes with its response's, once its body has been read or dropped.
      if (req.complete && !req.destroyed) req.destroy();
    });
    state.res = null;
    state.req = null;
    if (res._last) {
      if (socket.writable) socket.end();
      socket.destroySoon();
      return;
    }
    state.waiting = false;
    const pending = state.pending;
    state.pending = null;
    if (pending) onData(pending);
    if (!state.waiting) socket.resume();
    if (state.res) return;
    if (state.endAfterResponse) {
      if (socket.writable) socket.end();
      return;
    }
    // Idle between requests: the keep-alive timeout closes the connection (Node's default 5 s).
    if (server.keepAliveTimeout > 0) {
      socket._keepAliveIdle = true;
      socket.setTimeout(server.keepAliveTimeout);
    }
  }

  socket.on('data', onData);
  socket.on('end', onEnd);
  socket.on('error', (err) => {
    if (server.listenerCount('clientError') > 0) server.emit('clientError', err, socket);
    else socket.destroy();
  });
  socket.on('close', () => {
    server._httpConnections.delete(state);
    const req = state.req;
    // As Node's abortIncoming: a request whose body was not read to its end (a GET's too) is aborted.
    if (req && !req.destroyed && (!req.complete || !req.readableEnded)) {
      req.aborted = true;
      req.emit('aborted');
      req.destroy(connResetException('aborted'));
    } else if (req && !req.destroyed) req.destroy();
    if (state.res && !state.res._writableFinished) {
      state.res.destroyed = true;
      state.res.emit('close');
    }
  });
  socket.on('timeout', () => {
    if (socket._keepAliveIdle) socket.destroy();
  });
}

class Server extends net.Server {
  constructor(options, requestListener) {
    if (typeof options === 'function') {
      requestListener = options;
      options = {};
    } else if (options == null) options = {};
    else if (typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
    super({ allowHalfOpen: true, noDelay: options.noDelay ?? true, keepAlive: options.keepAlive });
    if (options.maxHeaderSize !== undefined) this.maxHeaderSize = options.maxHeaderSize;
    if (requestListener) this.on('request', requestListener);
    this.IncomingMessage = options.IncomingMessage || IncomingMessage;
    this.ServerResponse = options.ServerResponse || ServerResponse;
    this.timeout = 0;
    this.keepAliveTimeout = 5000;
    this.maxHeadersCount = null;
    this.maxRequestsPerSocket = 0;
    this.headersTimeout = 60000;
    this.requestTimeout = 300000;
    this.httpAllowHalfOpen = false;
    this.requireHostHeader = options.requireHostHeader ?? true;
    this._httpConnections = new SafeSet();
    this.on('connection', connectionListener);
  }

  setTimeout(msecs, callback) {
    this.timeout = msecs;
    if (callback) this.on('timeout', callback);
    return this;
  }

  closeAllConnections() {
    for (const s of new SafeArrayIterator(ArrayFrom(this._httpConnections))) s.socket.destroy();
  }

  closeIdleConnections() {
    for (const s of new SafeArrayIterator(ArrayFrom(this._httpConnections))) if (!s.req && !s.res) s.socket.destroy();
  }

  close(cb) {
    // As Node ≥ 19: closing also ends the idle keep-alive connections, so 'close' can come.
    super.close(cb);
    this.closeIdleConnections();
    return this;
  }
}

function createServer(options, requestListener) {
  return new Server(options, requestListener);
}

// ---- client ----

class Agent extends EventEmitter {
  constructor(options) {
    super();
    this.defaultPort = 80;
    this.protocol = 'http:';
    this.options = { __proto__: null, ...options };
    if (this.options.noDelay === undefined) this.options.noDelay = true;
    this.options.path = null;
    this.requests = { __proto__: null };
    this.sockets = { __proto__: null };
    this.freeSockets = { __proto__: null };
    this.keepAliveMsecs = this.options.keepAliveMsecs || 1000;
    this.keepAlive = this.options.keepAlive || false;
    this.maxSockets = this.options.maxSockets || Agent.defaultMaxSockets;
    this.maxFreeSockets = this.options.maxFreeSockets || 256;
    this.maxTotalSockets = this.options.maxTotalSockets || Infinity;
    this.totalSocketCount = 0;
    this.scheduling = this.options.scheduling || 'lifo';
    this.on('free', (socket, options) => this._onFree(socket, options));
  }

  getName(options = {}) {
    let name = options.host || 'localhost';
    name += ':';
    if (options.port) name += options.port;
    name += ':';
    if (options.localAddress) name += options.localAddress;
    if (options.family === 4 || options.family === 6) name += `:${options.family}`;
    if (options.socketPath) name += `:${options.socketPath}`;
    return name;
  }

  createConnection(...args) {
    return ReflectApply(net.createConnection, net, args);
  }

  addRequest(req, options, port, localAddress) {
    if (typeof options === 'string') options = { __proto__: null, host: options, port, localAddress };
    options = { __proto__: null, ...options, ...this.options };
    if (options.socketPath) options.path = options.socketPath;
    options.servername ??= options.host;
    const name = this.getName(options);
    const free = this.freeSockets[name];
    // As Node's: a free socket destroyed since it was pooled (its 'close' may still be pending) is not reused.
    while (free && free.length && free[0].destroyed) ArrayPrototypeShift(free);
    if (free && !free.length) delete this.freeSockets[name];
    if (free && free.length) {
      const socket = this.scheduling === 'fifo' ? ArrayPrototypeShift(free) : ArrayPrototypePop(free);
      if (!free.length) delete this.freeSockets[name];
      this.reuseSocket(socket, req);
      ArrayPrototypePush((this.sockets[name] ??= []), socket);
      setRequestSocket(this, req, socket);
      return;
    }
    const count = (this.sockets[name] || []).length;
    if (count < this.maxSockets && this.totalSocketCount < this.maxTotalSockets) {
      this.createSocket(req, options, (err, socket) => (err ? req.onSocket(socket, err) : setRequestSocket(this, req, socket)));
    } else ArrayPrototypePush((this.requests[name] ??= []), req);
  }

  createSocket(req, options, cb) {
    options = { __proto__: null, ...options, ...this.options };
    const name = this.getName(options);
    options._agentKey = name;
    options.encoding = null;
    const socket = this.createConnection(options);
    if (!socket) return cb(new Error('no socket'));
    ArrayPrototypePush((this.sockets[name] ??= []), socket);
    this.totalSocketCount++;
    const onFree = () => this.emit('free', socket, options);
    socket._agentOnFree = onFree;
    const onClose = () => this.removeSocket(socket, options);
    socket.on('close', onClose);
    socket.on('timeout', () => {
      const free = this.freeSockets[name];
      if (free && ArrayPrototypeIncludes(free, socket)) socket.destroy();
    });
    cb(null, socket);
  }

  _onFree(socket, options) {
    const name = this.getName(options);
    if (socket.destroyed) return;
    const queue = this.requests[name];
    if (queue && queue.length) {
      const req = ArrayPrototypeShift(queue);
      if (!queue.length) delete this.requests[name];
      this.reuseSocket(socket, req);
      setRequestSocket(this, req, socket);
      return;
    }
    const req = socket._httpMessage;
    if (!req || !req.shouldKeepAlive || !this.keepAlive) return void socket.destroy();
    const free = (this.freeSockets[name] ??= []);
    if (free.length >= this.maxFreeSockets || !this.keepSocketAlive(socket)) return void socket.destroy();
    socket._httpMessage = null;
    const active = this.sockets[name];
    if (active) {
      const i = ArrayPrototypeIndexOf(active, socket);
      if (i !== -1) ArrayPrototypeSplice(active, i, 1);
      if (!active.length) delete this.sockets[name];
    }
    ArrayPrototypePush(free, socket);
    socket.once('error', freeSocketErrorListener);
  }

  removeSocket(socket, options) {
    const name = this.getName(options);
    let found = false;
    for (const table of new SafeArrayIterator([this.sockets, this.freeSockets])) {
      const list = table[name];
      if (!list) continue;
      const i = ArrayPrototypeIndexOf(list, socket);
      if (i === -1) continue;
      found = true;
      ArrayPrototypeSplice(list, i, 1);
      if (!list.length) delete table[name];
    }
    if (found) this.totalSocketCount--;
    const queue = this.requests[name];
    if (queue && queue.length && (this.sockets[name] || []).length < this.maxSockets) {
      const req = ArrayPrototypeShift(queue);
      if (!queue.length) delete this.requests[name];
      this.createSocket(req, options, (err, s) => (err ? req.onSocket(s, err) : setRequestSocket(this, req, s)));
    }
  }

  keepSocketAlive(socket) {
    socket.setKeepAlive(true, this.keepAliveMsecs);
    socket.unref();
    const timeout = this.options.timeout || 0;
    if (socket.timeout !== timeout) socket.setTimeout(timeout);
    return true;
  }

  reuseSocket(socket, req) {
    socket.removeListener('error', freeSocketErrorListener);
    req.reusedSocket = true;
    socket.ref();
  }

  destroy() {
    for (const table of new SafeArrayIterator([this.freeSockets, this.sockets])) for (const name of new SafeArrayIterator(ObjectKeys(table))) for (const s of new SafeArrayIterator(ArrayPrototypeSlice(table[name]))) s.destroy();
  }
}
Agent.defaultMaxSockets = Infinity;

function freeSocketErrorListener(err) {
  this.destroy();
  this.emit('agentRemove', err);
}

function setRequestSocket(agent, req, socket) {
  req.onSocket(socket);
  const timeout = req.timeout ?? agent.options.timeout;
  if (timeout !== undefined) socket.setTimeout(timeout);
}

const globalAgent = new Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 });

function urlToHttpOptions(url) {
  const options = {
    protocol: url.protocol,
    hostname: typeof url.hostname === 'string' && StringPrototypeStartsWith(url.hostname, '[') ? StringPrototypeSlice(url.hostname, 1, -1) : url.hostname,
    hash: url.hash,
    search: url.search,
    pathname: url.pathname,
    path: `${url.pathname || ''}${url.search || ''}`,
    href: url.href,
  };
  if (url.port !== '') options.port = Number(url.port);
  if (url.username || url.password) options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return options;
}

const isURL = (v) => v != null && typeof v === 'object' && typeof v.href === 'string' && typeof v.protocol === 'string' && typeof v.origin === 'string';
const NO_BODY_METHODS = ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'];

class ClientRequest extends OutgoingMessage {
  constructor(input, options, cb) {
    super();
    if (typeof input === 'string') {
      const { URL } = require('internal/url');
      let url;
      try {
        url = new URL(input);
      } catch {
        throw codeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
      }
      input = urlToHttpOptions(url);
    } else if (isURL(input)) input = urlToHttpOptions(input);
    else {
      cb = options;
      options = input;
      input = null;
    }
    if (typeof options === 'function') {
      cb = options;
      options = input || {};
    } else options = ObjectAssign(input || {}, options);

    let agent = options.agent;
    const defaultAgent = options._defaultAgent || globalAgent;
    if (agent === false) agent = new defaultAgent.constructor();
    else if (agent === null || agent === undefined) {
      if (typeof options.createConnection !== 'function') agent = defaultAgent;
    } else if (typeof agent.addRequest !== 'function') {
      throw invalidArgType('options.agent', 'of type Agent-like Object, undefined, or false', agent);
    }
    this.agent = agent;
    const protocol = options.protocol || defaultAgent.protocol;
    const expected = agent && agent.protocol ? agent.protocol : defaultAgent.protocol;
    if (protocol !== expected) throw codeError(TypeError, 'ERR_INVALID_PROTOCOL', `Protocol "${protocol}" not supported. Expected "${expected}"`);
    const defaultPort = options.defaultPort || (agent && agent.defaultPort) || 80;
    this.timeout = options.timeout;
    const port = (options.port = options.port || defaultPort || 80);
    const host = (options.host = options.hostname || options.host || 'localhost');
    const setHost = options.setHost === undefined || Boolean(options.setHost);
    this.socketPath = options.socketPath;
    if (options.method != null && typeof options.method !== 'string') throw invalidArgType('options.method', 'of type string', options.method);
    const method = options.method ? StringPrototypeToUpperCase(options.method) : 'GET';
    validateHeaderName(method, 'Method');
    this.method = method;
    this.path = options.path || '/';
    if (RegExpPrototypeExec(/[\u0000-\u0020]/, this.path) !== null) throw codeError(TypeError, 'ERR_UNESCAPED_CHARACTERS', 'Request path contains unescaped characters');
    this.host = host;
    this.protocol = protocol;
    this.maxHeaderSize = options.maxHeaderSize || maxHeaderSize;
    this.useChunkedEncodingByDefault = !ArrayPrototypeIncludes(NO_BODY_METHODS, method);
    this.res = null;
    this.aborted = false;
    this.reusedSocket = false;
    this._ended = false;
    this._errorEmitted = false;
    if (cb) this.once('response', cb);

    if (agent) {
      if (!agent.keepAlive && !NumberIsFinite(agent.maxSockets)) {
        this._last = true;
        this.shouldKeepAlive = false;
      } else {
        this._last = false;
        this.shouldKeepAlive = true;
      }
    } else this.shouldKeepAlive = false;

    const headers = options.headers;
    if (!ArrayIsArray(headers)) {
      if (headers) for (const key of new SafeArrayIterator(ObjectKeys(headers))) this.setHeader(key, headers[key]);
      if (host && !this.getHeader('host') && setHost) {
        let hostHeader = host;
        if (StringPrototypeIncludes(hostHeader, ':') && !StringPrototypeStartsWith(hostHeader, '[')) hostHeader = `[${hostHeader}]`;
        if (port && +port !== defaultPort) hostHeader += `:${port}`;
        this.setHeader('Host', hostHeader);
      }
      if (options.auth && !this.getHeader('Authorization')) this.setHeader('Authorization', `Basic ${Buffer.from(options.auth).toString('base64')}`);
    } else this._rawHeaders = headers;

    if (options.signal) {
      const signal = options.signal;
      const onAbort = () => this.destroy(ObjectAssign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR', cause: signal.reason }));
      if (signal.aborted) process.nextTick(onAbort);
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        this.once('close', () => signal.removeEventListener('abort', onAbort));
      }
    }
    if (this.timeout !== undefined) this.setTimeout(this.timeout);

    const opts = { ...options };
    if (this.socketPath) opts.path = this.socketPath;
    if (agent) agent.addRequest(this, opts);
    else {
      const socket = typeof options.createConnection === 'function' ? options.createConnection(opts) : net.createConnection(opts);
      if (socket) this.onSocket(socket);
    }
  }

  _implicitHeader() {
    if (this._header) throw codeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot render headers after they are sent to the client');
    this._storeHeader(`${this.method} ${this.path} HTTP/1.1\r\n`, this._rawHeaders || this._headers);
  }

  get writableNeedDrain() {
    return this._needDrain;
  }

  abort() {
    if (this.aborted) return;
    this.aborted = true;
    process.nextTick(() => this.emit('abort'));
    this.destroy();
  }

  destroy(err) {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (this.res) this.res._dump();
    this._destroyError = err;
    if (this.socket) this.socket.destroy(err);
    else process.nextTick(() => this._closeWithoutSocket(err));
    return this;
  }

  _closeWithoutSocket(err) {
    if (this._closed) return;
    this._closed = true;
    if (err && !this._errorEmitted) {
      this._errorEmitted = true;
      this.emit('error', err);
    }
    this.emit('close');
  }

  setNoDelay(noDelay) {
    if (this.socket) this.socket.setNoDelay(noDelay);
    else this.once('socket', (s) => s.setNoDelay(noDelay));
  }

  setSocketKeepAlive(enable, delay) {
    if (this.socket) this.socket.setKeepAlive(enable, delay);
    else this.once('socket', (s) => s.setKeepAlive(enable, delay));
  }

  setTimeout(msecs, callback) {
    if (callback) this.once('timeout', callback);
    const apply = (socket) => {
      socket.setTimeout(msecs);
      if (!socket._httpTimeoutHooked) {
        socket._httpTimeoutHooked = true;
        socket.on('timeout', () => {
          const req = socket._httpMessage;
          if (req instanceof ClientRequest) req.emit('timeout');
        });
      }
    };
    if (this.socket) apply(this.socket);
    else this.once('socket', apply);
    return this;
  }

  /** The request's connection: from the Agent, or made for it. */
  onSocket(socket, err) {
    process.nextTick(() => {
      if (err) return this._closeWithoutSocket(err);
      if (this.destroyed) {
        this.socket = socket;
        socket._httpMessage = this;
        attachClient(this, socket);
        socket.destroy(this._destroyError);
        return;
      }
      this.socket = socket;
      socket._httpMessage = this;
      attachClient(this, socket);
      hookDrain(socket);
      this.emit('socket', socket);
      if (this.outputData.length && this._flushOutput(socket) && this._needDrain) {
        this._needDrain = false;
        this.emit('drain');
      }
    });
  }
}

/** Reads one response for `req` on `socket`; the socket goes back to the Agent when both sides are done. */
function attachClient(req, socket) {
  let res = null;
  let detached = false;
  const parser = new HTTPParser('response', {
    onHeaders(info) {
      const s = info.statusCode;
      if (s >= 100 && s < 200 && s !== 101) {
        if (s === 100) req.emit('continue');
        req.emit('information', { statusCode: s, statusMessage: info.statusMessage, httpVersion: `${info.versionMajor}.${info.versionMinor}`, httpVersionMajor: info.versionMajor, httpVersionMinor: info.versionMinor, headers: require('internal/http-outgoing').headersObject(info.rawHeaders), rawHeaders: info.rawHeaders });
        return false;
      }
      res = new IncomingMessage(socket);
      fill(res, info);
      res.req = req;
      req.res = res;
      res._resume = () => socket.resume();
      if (info.upgrade) return true;
      if (req.shouldKeepAlive && !info.shouldKeepAlive) req.shouldKeepAlive = false;
      if (req.method === 'HEAD') {
        process.nextTick(() => emitResponse());
        return true;
      }
      emitResponse();
      return false;
    },
    onBody(chunk) {
      if (res && !res.push(chunk)) socket.pause();
    },
    onComplete(trailers) {
      if (!res) return;
      res.rawTrailers = trailers;
      res.complete = true;
      if (!parser.info.shouldKeepAlive) req.shouldKeepAlive = false;
      if (res.upgrade) return;
      if (!res._emitted) res._completeEarly = true;
      else res.push(null);
    },
  }, req.maxHeaderSize);

  function emitResponse() {
    res._emitted = true;
    if (req.aborted || req.destroyed) return void res._dump();
    res.once('end', onResponseEnd);
    if (!req.emit('response', res)) res._dump();
    if (res._completeEarly) res.push(null);
  }

  function onResponseEnd() {
    if (!req.shouldKeepAlive) {
      if (socket.writable) socket.destroySoon();
      else socket.destroy();
    } else if (req._writableFinished) release();
    else req.once('finish', release);
  }

  function release() {
    if (detached || req.destroyed) return;
    detached = true;
    detach();
    res._detached = true;
    req.destroyed = true;
    process.nextTick(() => {
      req.emit('close');
      if (res) res.emit('close');
    });
    // Flowing again: the body's back-pressure may have paused the socket for its last chunk, and a paused idle
    // socket would neither see the server close it nor, reused, read the next response.
    socket.resume();
    if (req.agent && socket._agentOnFree) socket._agentOnFree();
    else socket.destroy();
  }

  function onData(buf) {
    while (GetLength(buf)) {
      let used;
      try {
        used = parser.execute(buf);
      } catch (err) {
        detach();
        socket.destroy();
        return emitError(err);
      }
      buf = TypedArrayPrototypeSubarray(buf, used);
      if (res && res.upgrade) {
        detach();
        const event = req.method === 'CONNECT' ? 'connect' : 'upgrade';
        if (req.listenerCount(event) > 0) {
          socket._httpMessage = null;
          req.emit(event, res, socket, Buffer.from(buf));
          req.destroyed = true;
          process.nextTick(() => req.emit('close'));
        } else socket.destroy();
        return;
      }
      if (res && res.complete && GetLength(buf)) return; // a server that sent more than one response
    }
  }

  function emitError(err) {
    if (req._errorEmitted) return;
    req._errorEmitted = true;
    req.emit('error', err);
  }

  function onEnd() {
    const err = parser.finish();
    if (!res) {
      if (!req.destroyed && !req._errorEmitted) emitError(connResetException('socket hang up'));
    } else if (err && !res.complete) res.destroy(connResetException('aborted'));
    if (socket.writable) socket.end();
  }

  function onError(err) {
    if (!res || !res.complete) emitError(err);
    if (res && !res.complete) res.destroy(err);
  }

  function onClose() {
    detach();
    if (res && !res.complete) {
      res.aborted = true;
      res.emit('aborted');
      res.destroy(connResetException('aborted'));
    } else if (!res && !req._errorEmitted && !req._destroyedQuietly()) emitError(req._destroyError || connResetException('socket hang up'));
    req.destroyed = true;
    // As Node's socketCloseListener: the request's 'close' at once, after the response's abort.
    req.emit('close');
    if (res && res.complete) process.nextTick(() => res.emit('close'));
  }

  function detach() {
    socket.removeListener('data', onData);
    socket.removeListener('end', onEnd);
    socket.removeListener('error', onError);
    socket.removeListener('close', onClose);
  }

  socket.on('data', onData);
  socket.on('end', onEnd);
  socket.on('error', onError);
  socket.on('close', onClose);
  // A 'data' listener does not resume a socket that was paused: a reused one must read this response.
  socket.resume();
}

ClientRequest.prototype._destroyedQuietly = function () {
  // abort() and destroy() without an error still report 'socket hang up' in Node, unless a response came.
  return false;
};

function request(url, options, cb) {
  return new ClientRequest(url, options, cb);
}

function get(url, options, cb) {
  const req = request(url, options, cb);
  req.end();
  return req;
}

module.exports = {
  METHODS: ArrayPrototypeSlice(METHODS),
  STATUS_CODES,
  Agent,
  ClientRequest,
  IncomingMessage,
  OutgoingMessage,
  Server,
  ServerResponse,
  createServer,
  validateHeaderName,
  validateHeaderValue,
  get,
  request,
  setMaxIdleHTTPParsers() {},
  get maxHeaderSize() {
    return maxHeaderSize;
  },
};
ObjectDefineProperty(module.exports, 'globalAgent', { get: () => globalAgent, set: () => {}, enumerable: true, configurable: true });
