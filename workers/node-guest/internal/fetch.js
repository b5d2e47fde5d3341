// The guest's fetch, Headers, Request, Response and FormData, built on its own `http` client (so every request
// goes through the kernel's sockets: the VM's loopback, or the hosts its network policy allows): bodies are web ReadableStreams read with backpressure, redirects
// are followed as undici follows them, and failures are undici's `TypeError: fetch failed` with the cause.
'use strict';

const {
  ArrayBuffer,
  ArrayBufferIsView,
  Boolean,
  Error,
  JSONParse,
  JSONStringify,
  Map,
  MathRandom,
  Number,
  NumberIsInteger,
  ObjectAssign,
  ObjectKeys,
  Promise,
  RangeError,
  Set,
  SharedArrayBuffer,
  String,
  Symbol,
  SymbolAsyncIterator,
  SymbolFor,
  SymbolIterator,
  SymbolToStringTag,
  TypeError,
  Uint8Array,
  ArrayPrototypePush, ArrayPrototypeUnshift, StringPrototypeReplace, StringPrototypeToLowerCase, StringPrototypeToUpperCase,
  SafeMap, SafeSet,
  SafeArrayIterator,
  PromisePrototypeThen, ReflectApply, RegExpPrototypeExec,
  PromiseResolve,
  ArrayPrototypeFilter, ArrayPrototypeFind, ArrayPrototypeFindIndex, ArrayPrototypeIncludes, ArrayPrototypeJoin, ArrayPrototypeMap, ArrayPrototypeSlice, ArrayPrototypeSome, StringPrototypeSlice, TypedArrayPrototypeSlice,
  ArrayFrom, ArrayPrototypeSort,
  ArrayBufferPrototypeSlice, NumberPrototypeToString, TypedArrayPrototypeGetBuffer, uncurryThis,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  GetLength,
  hardenRegExp,
} = require('internal/primordials');

// Made once: a hardened regex (its own exec, flags and symbol methods) costs a few property definitions.
const HTTP_WHITESPACE_ENDS = hardenRegExp(/^[\t\n\r ]+|[\t\n\r ]+$/g);
const LF = hardenRegExp(/\n/g);
const CR = hardenRegExp(/\r/g);
const QUOTE = hardenRegExp(/"/g);
const LONE_CR_OR_LF = hardenRegExp(/\r(?!\n)|(?<!\r)\n/g);
const IPV6_BRACKETS = hardenRegExp(/^\[|\]$/g);

const { Buffer } = require('buffer');
const { URL, URLSearchParams } = require('internal/url');

const lazyWeb = () => require('stream/web');
const kGuard = Symbol('guard');
const NULL_BODY = new SafeSet([101, 103, 204, 205, 304]);
const REDIRECT = new SafeSet([301, 302, 303, 307, 308]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// The fetch standard's blocked ports (undici refuses them with 'bad port').
const BAD_PORTS = new SafeSet([1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

const normalizeValue = (v) => StringPrototypeReplace(String(v), HTTP_WHITESPACE_ENDS, '');

/** A Headers' [name, value] pairs in Fetch's order: sorted names, each set-cookie value on its own. */
function headerPairs(headers) {
  const keys = ArrayPrototypeSort(ArrayFrom(headers._list.keys()));
  const pairs = [];
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const values = headers._list.get(k)[1];
    if (k !== 'set-cookie') ArrayPrototypePush(pairs, [k, ArrayPrototypeJoin(values, k === 'cookie' ? '; ' : ', ')]);
    else for (let j = 0; j < values.length; j++) ArrayPrototypePush(pairs, [k, values[j]]);
  }
  return pairs;
}

class Headers {
  constructor(init = undefined) {
    this._list = new SafeMap(); // lower-case name → [name, values[]]
    if (init == null) return;
    if (init instanceof Headers) {
      for (const entry$56 of init._list) { const k = entry$56[0], v = entry$56[1]; this._list.set(k, [v[0], ArrayPrototypeSlice(v[1])]); }
    } else if (typeof init === 'object' && typeof init[SymbolIterator] === 'function') {
      for (const pair of init) {
        const p = [...pair];
        if (p.length !== 2) throw new TypeError('Headers constructor: expected name/value pair to be length 2, found ' + p.length + '.');
        this.append(p[0], p[1]);
      }
    } else if (typeof init === 'object') {
      for (const k of new SafeArrayIterator(ObjectKeys(init))) this.append(k, init[k]);
    } else throw new TypeError("Failed to construct 'Headers': The provided value is not of type '(record<ByteString, ByteString> or sequence<sequence<ByteString>>)'.");
  }

  _check(name, value) {
    name = String(name);
    if (!(RegExpPrototypeExec(TOKEN, name) !== null)) throw new TypeError(`Headers.append: "${name}" is an invalid header name.`);
    if (this[kGuard] === 'immutable') throw new TypeError('immutable');
    if (value !== undefined && (RegExpPrototypeExec(/[\0\r\n]/, value) !== null)) throw new TypeError(`Headers.append: "${value}" is an invalid header value.`);
    return name;
  }

  append(name, value) {
    value = normalizeValue(value);
    name = this._check(name, value);
    const key = StringPrototypeToLowerCase(name);
    const e = this._list.get(key);
    if (e) ArrayPrototypePush(e[1], value);
    else this._list.set(key, [name, [value]]);
  }

  set(name, value) {
    value = normalizeValue(value);
    name = this._check(name, value);
    this._list.set(StringPrototypeToLowerCase(name), [name, [value]]);
  }

  delete(name) {
    name = this._check(name);
    this._list.delete(StringPrototypeToLowerCase(name));
  }

  get(name) {
    name = this._check(name);
    const e = this._list.get(StringPrototypeToLowerCase(name));
    if (!e) return null;
    return ArrayPrototypeJoin(e[1], StringPrototypeToLowerCase(name) === 'cookie' ? '; ' : ', ');
  }

  has(name) {
    return this._list.has(StringPrototypeToLowerCase(this._check(name)));
  }

  getSetCookie() {
    const e = this._list.get('set-cookie');
    return e ? ArrayPrototypeSlice(e[1]) : [];
  }

  *entries() {
    const pairs = headerPairs(this);
    for (let i = 0; i < pairs.length; i++) yield pairs[i];
  }

  *keys() {
    const pairs = headerPairs(this);
    for (let i = 0; i < pairs.length; i++) yield pairs[i][0];
  }

  *values() {
    const pairs = headerPairs(this);
    for (let i = 0; i < pairs.length; i++) yield pairs[i][1];
  }

  forEach(callback, thisArg) {
    const pairs = headerPairs(this);
    for (let i = 0; i < pairs.length; i++) ReflectApply(callback, thisArg, [pairs[i][1], pairs[i][0], this]);
  }

  [SymbolIterator]() {
    return this.entries();
  }

  get [SymbolToStringTag]() {
    return 'Headers';
  }

  [SymbolFor('nodejs.util.inspect.custom')](depth, options, inspect) {
    const o = {};
    const pairs = headerPairs(this);
    for (let i = 0; i < pairs.length; i++) o[pairs[i][0]] = pairs[i][1];
    return `Headers ${inspect(o, options)}`;
  }
}

// Headers' own methods as they were defined: a guest that replaces them on Headers.prototype does not change
// what Request, Response and fetch do with their headers (nor does it on Node, whose fetch keeps its own list).
const HeadersPrototypeGet = uncurryThis(Headers.prototype.get);
const HeadersPrototypeSet = uncurryThis(Headers.prototype.set);
const HeadersPrototypeHas = uncurryThis(Headers.prototype.has);
const HeadersPrototypeDelete = uncurryThis(Headers.prototype.delete);

class FormData {
  constructor(form) {
    if (form !== undefined) throw new TypeError("Failed to construct 'FormData': parameter 1 is not of type 'HTMLFormElement'.");
    this._entries = [];
  }
  _value(value, filename) {
    if (value instanceof globalThis.Blob) {
      const { File } = require('buffer');
      if (filename !== undefined || !(value instanceof File)) return new File([value], filename ?? (value instanceof File ? value.name : 'blob'), { type: value.type });
      return value;
    }
    return String(value);
  }
  append(name, value, filename) {
    ArrayPrototypePush(this._entries, [String(name), this._value(value, filename)]);
  }
  set(name, value, filename) {
    name = String(name);
    const i = ArrayPrototypeFindIndex(this._entries, (e) => e[0] === name);
    const entry = [name, this._value(value, filename)];
    if (i === -1) ArrayPrototypePush(this._entries, entry);
    else {
      this._entries[i] = entry;
      this._entries = ArrayPrototypeFilter(this._entries, (e, j) => j <= i || e[0] !== name);
    }
  }
  get(name) {
    const e = ArrayPrototypeFind(this._entries, (x) => x[0] === String(name));
    return e ? e[1] : null;
  }
  getAll(name) {
    return ArrayPrototypeMap(ArrayPrototypeFilter(this._entries, (x) => x[0] === String(name)), (x) => x[1]);
  }
  has(name) {
    return ArrayPrototypeSome(this._entries, (x) => x[0] === String(name));
  }
  delete(name) {
    this._entries = ArrayPrototypeFilter(this._entries, (x) => x[0] !== String(name));
  }
  *entries() {
    const list = this._entries;
    for (let i = 0; i < list.length; i++) yield [list[i][0], list[i][1]];
  }
  *keys() {
    const list = this._entries;
    for (let i = 0; i < list.length; i++) yield list[i][0];
  }
  *values() {
    const list = this._entries;
    for (let i = 0; i < list.length; i++) yield list[i][1];
  }
  forEach(cb, thisArg) {
    const list = this._entries;
    for (let i = 0; i < list.length; i++) ReflectApply(cb, thisArg, [list[i][1], list[i][0], this]);
  }
  [SymbolIterator]() {
    return this.entries();
  }
  get [SymbolToStringTag]() {
    return 'FormData';
  }
}

/** A body as bytes (or a stream) and its content type, from what Request and Response accept. */
async function multipart(form) {
  const boundary = `----formdata-agentos-${StringPrototypeSlice(NumberPrototypeToString(MathRandom()), 2, 13)}`;
  const parts = [];
  const esc = (s) => StringPrototypeReplace(StringPrototypeReplace(StringPrototypeReplace(s, LF, '%0A'), CR, '%0D'), QUOTE, '%22');
  for (const entry of new SafeArrayIterator(form._entries)) {
    const name = entry[0];
    const value = entry[1];
    if (typeof value === 'string') ArrayPrototypePush(parts, Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${esc(name)}"\r\n\r\n${StringPrototypeReplace(value, LONE_CR_OR_LF, '\r\n')}\r\n`));
    else {
      ArrayPrototypePush(parts, Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${esc(name)}"; filename="${esc(value.name)}"\r\nContent-Type: ${value.type || 'application/octet-stream'}\r\n\r\n`));
      ArrayPrototypePush(parts, Buffer.from(await value.arrayBuffer()), Buffer.from('\r\n'));
    }
  }
  ArrayPrototypePush(parts, Buffer.from(`--${boundary}--\r\n`));
  return { bytes: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

function extractBody(body) {
  const { ReadableStream } = lazyWeb();
  if (typeof body === 'string') return { bytes: Buffer.from(body), type: 'text/plain;charset=UTF-8' };
  if (body instanceof URLSearchParams) return { bytes: Buffer.from(body.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (body instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && body instanceof SharedArrayBuffer)) return { bytes: Buffer.from(TypedArrayPrototypeSlice(new Uint8Array(body))), type: null };
  if (ArrayBufferIsView(body)) return { bytes: Buffer.from(TypedArrayPrototypeSlice(new Uint8Array(GetBuffer(body), GetByteOffset(body), GetByteLength(body)))), type: null };
  if (body instanceof globalThis.Blob) return { blob: body, type: body.type || null, length: body.size };
  if (body instanceof FormData) return { form: body, type: null };
  if (body instanceof ReadableStream) return { stream: body, type: null };
  if (body && typeof body[SymbolAsyncIterator] === 'function') return { stream: ReadableStream.from(body), type: null };
  return { bytes: Buffer.from(String(body)), type: 'text/plain;charset=UTF-8' };
}

function streamOf(source) {
  const { ReadableStream } = lazyWeb();
  if (source.stream) return source.stream;
  if (source.blob) return source.blob.stream();
  let bytes = source.bytes;
  return new ReadableStream({
    async pull(c) {
      if (source.form && !bytes) bytes = (await multipart(source.form)).bytes;
      if (bytes.length) c.enqueue(new Uint8Array(bytes));
      c.close();
    },
  });
}

/** The shared body methods of Request and Response. */
class Body {
  _initBody(body, headers) {
    this._source = null;
    this._stream = null;
    this._used = false;
    if (body === null || body === undefined) return;
    this._source = extractBody(body);
    if (this._source.type && !HeadersPrototypeHas(headers, 'content-type')) HeadersPrototypeSet(headers, 'content-type', this._source.type);
  }

  get body() {
    if (!this._source) return null;
    return (this._stream ??= streamOf(this._source));
  }

  get bodyUsed() {
    return this._used || Boolean(this._stream && this._stream.locked && this._consumed);
  }

  async _bytes() {
    if (this._used || (this._stream && this._stream.locked)) throw new TypeError('Body is unusable: Body has already been read');
    this._used = true;
    this._consumed = true;
    const src = this._source;
    if (!src) return Buffer.alloc(0);
    if (src.bytes && !this._stream) return src.bytes;
    if (src.blob && !this._stream) return Buffer.from(await src.blob.arrayBuffer());
    if (src.form && !this._stream) return (await multipart(src.form)).bytes;
    const reader = this.body.getReader();
    const parts = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      ArrayPrototypePush(parts, Buffer.from(GetBuffer(value), GetByteOffset(value), GetByteLength(value)));
    }
    return Buffer.concat(parts);
  }

  async arrayBuffer() {
    const b = await this._bytes();
    return ArrayBufferPrototypeSlice(TypedArrayPrototypeGetBuffer(b), GetByteOffset(b), GetByteOffset(b) + GetLength(b));
  }

  async bytes() {
    return new Uint8Array(await this.arrayBuffer());
  }

  async text() {
    return new TextDecoder().decode(await this._bytes());
  }

  async json() {
    return JSONParse(await this.text());
  }

  async blob() {
    const b = await this._bytes();
    return new globalThis.Blob([b], { type: HeadersPrototypeGet(this.headers, 'content-type') || '' });
  }

  async formData() {
    const type = HeadersPrototypeGet(this.headers, 'content-type') || '';
    if (RegExpPrototypeExec(/^application\/x-www-form-urlencoded/i, type) !== null) {
      const form = new FormData();
      const params = new URLSearchParams(await this.text());
      for (const p of new SafeArrayIterator(params._list)) form.append(p[0], p[1]);
      return form;
    }
    throw new TypeError('Response.formData: unsupported content type (only application/x-www-form-urlencoded)');
  }
}

class Request extends Body {
  constructor(input, init = {}) {
    super();
    if (init === null || (typeof init !== 'object' && init !== undefined)) throw new TypeError("Failed to construct 'Request': cannot convert to dictionary.");
    init ??= {};
    let base = null;
    if (input instanceof Request) base = input;
    else {
      let url;
      try {
        url = new URL(String(input));
      } catch (cause) {
        throw ObjectAssign(new TypeError(`Failed to parse URL from ${input}`), { cause });
      }
      if (url.username || url.password) throw new TypeError(`Request cannot be constructed from a URL that includes credentials: ${input}`);
      this._url = url.href;
    }
    if (base) this._url = base._url;
    const method = init.method !== undefined ? String(init.method) : base ? base.method : 'GET';
    if (!(RegExpPrototypeExec(TOKEN, method) !== null)) throw new TypeError(`'${method}' is not a valid HTTP method.`);
    const upper = StringPrototypeToUpperCase(method);
    this.method = ArrayPrototypeIncludes(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'], upper) ? upper : method;
    if (ArrayPrototypeIncludes(['CONNECT', 'TRACE', 'TRACK'], upper)) throw new TypeError(`'${method}' HTTP method is unsupported.`);
    this.headers = new Headers(init.headers !== undefined ? init.headers : base ? base.headers : undefined);
    this.redirect = init.redirect || (base ? base.redirect : 'follow');
    this.signal = init.signal || (base ? base.signal : new AbortController().signal);
    this.keepalive = Boolean(init.keepalive);
    this.cache = 'default';
    this.credentials = 'same-origin';
    this.mode = 'cors';
    this.referrer = 'about:client';
    this.integrity = '';
    this.destination = '';
    this.duplex = 'half';
    let body = init.body !== undefined ? init.body : null;
    if (body !== null && (this.method === 'GET' || this.method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
    if (body === null && base && base._source) {
      if (base.bodyUsed) throw new TypeError('Cannot construct a Request with a Request object that has already been used.');
      this._initBody(null, this.headers);
      this._source = base._source;
      this._stream = base._stream;
      base._used = true;
      return;
    }
    if (body instanceof lazyWeb().ReadableStream && init.duplex !== 'half') throw new TypeError('RequestInit: duplex option is required when sending a body.');
    this._initBody(body, this.headers);
  }

  get url() {
    return this._url;
  }

  clone() {
    if (this.bodyUsed) throw new TypeError('Request.clone: Body has already been consumed.');
    const r = new Request(this._url, { method: this.method, headers: this.headers, redirect: this.redirect, signal: this.signal });
    cloneBodyInto(this, r);
    return r;
  }

  get [SymbolToStringTag]() {
    return 'Request';
  }
}

function cloneBodyInto(from, to) {
  if (!from._source) return;
  if (from._source.stream || from._stream) {
    const pair$385 = from.body.tee();
    const a = pair$385[0], b = pair$385[1];
    from._stream = a;
    to._source = { stream: b, type: null };
    to._stream = b;
  } else to._source = from._source;
}

class Response extends Body {
  constructor(body = null, init = {}) {
    super();
    const status = init.status !== undefined ? Number(init.status) : 200;
    if (!(status >= 200 && status <= 599) || !NumberIsInteger(status)) throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
    this._status = status;
    this._statusText = init.statusText !== undefined ? String(init.statusText) : '';
    this.headers = new Headers(init.headers);
    this._type = 'default';
    this._url = '';
    this._redirected = false;
    if (body !== null && body !== undefined && NULL_BODY.has(status)) throw new TypeError('Response constructor: Invalid response status code ' + status);
    this._initBody(body, this.headers);
  }

  get status() {
    return this._status;
  }
  get statusText() {
    return this._statusText;
  }
  get ok() {
    return this._status >= 200 && this._status <= 299;
  }
  get type() {
    return this._type;
  }
  get url() {
    return this._url;
  }
  get redirected() {
    return this._redirected;
  }

  clone() {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    const r = new Response(null, { status: this._status, statusText: this._statusText, headers: this.headers });
    ObjectAssign(r, { _type: this._type, _url: this._url, _redirected: this._redirected });
    cloneBodyInto(this, r);
    return r;
  }

  static error() {
    const r = new Response(null, { status: 200 });
    r._status = 0;
    r._type = 'error';
    return r;
  }

  static json(data, init = {}) {
    const text = JSONStringify(data);
    if (text === undefined) throw new TypeError('Value is not JSON serializable');
    const r = new Response(text, init);
    HeadersPrototypeSet(r.headers, 'content-type', 'application/json');
    return r;
  }

  static redirect(url, status = 302) {
    const href = new URL(String(url)).href;
    if (!REDIRECT.has(status)) throw new RangeError(`Invalid status code ${status}`);
    const r = new Response(null, { status });
    HeadersPrototypeSet(r.headers, 'location', href);
    return r;
  }

  get [SymbolToStringTag]() {
    return 'Response';
  }
}

const abortError = (signal) => signal.reason !== undefined ? signal.reason : new (globalThis.DOMException || Error)('This operation was aborted', 'AbortError');
const fetchFailed = (cause) => ObjectAssign(new TypeError('fetch failed'), { cause });

let agent;
let secureAgent;
function fetchAgent(secure) {
  const options = { keepAlive: true, keepAliveMsecs: 1000, timeout: 4000 };
  if (secure) return (secureAgent ??= new (require('https').Agent)(options));
  return (agent ??= new (require('http').Agent)(options));
}

async function fetch(input, init = undefined) {
  const request = new Request(input, init);
  const signal = request.signal;
  if (signal.aborted) throw abortError(signal);
  let body = request._source ? request._source : null;
  if (body && body.form) body = await PromisePrototypeThen(multipart(body.form), (m) => ({ bytes: m.bytes, type: m.type }));
  if (request._source && request._source.form && !HeadersPrototypeHas(request.headers, 'content-type')) HeadersPrototypeSet(request.headers, 'content-type', body.type);
  let url = new URL(request.url);
  let method = request.method;
  for (let redirects = 0; ; redirects++) {
    const res = await send(url, method, request, body, signal);
    const location = res.headers.location;
    if (!REDIRECT.has(res.statusCode) || location === undefined || request.redirect === 'manual') return toResponse(res, url, redirects > 0, method);
    // The redirect's own body is read to its end first, so that its connection is free for the next request.
    await new Promise((resolve) => res.once('end', resolve).once('close', resolve).resume());
    if (request.redirect === 'error') throw fetchFailed(new Error('unexpected redirect'));
    if (redirects >= 20) throw fetchFailed(new Error('redirect count exceeded'));
    url = new URL(location, url);
    if (res.statusCode === 303 ? method !== 'HEAD' : (res.statusCode === 301 || res.statusCode === 302) && method === 'POST') {
      method = 'GET';
      body = null;
      for (const h of new SafeArrayIterator(['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'])) HeadersPrototypeDelete(request.headers, h);
    } else if (body && body.stream) throw fetchFailed(new Error('Cannot follow redirect with a streamed body'));
  }
}

/** One exchange over the guest's http client; resolves at the response head. */
function send(url, method, request, body, signal) {
  return new Promise((resolve, reject) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(fetchFailed(new Error('unknown scheme')));
    const secure = url.protocol === 'https:';
    if (url.port !== '' && BAD_PORTS.has(Number(url.port))) return reject(fetchFailed(new Error('bad port')));
    const http = require('http');
    const headers = [];
    const pairs = headerPairs(request.headers);
    for (let i = 0; i < pairs.length; i++) ArrayPrototypePush(headers, pairs[i][0], pairs[i][1]);
    const has = (n) => HeadersPrototypeHas(request.headers, n);
    if (!has('accept')) ArrayPrototypePush(headers, 'accept', '*/*');
    if (!has('accept-language')) ArrayPrototypePush(headers, 'accept-language', '*');
    if (!has('sec-fetch-mode')) ArrayPrototypePush(headers, 'sec-fetch-mode', 'cors');
    if (!has('user-agent')) ArrayPrototypePush(headers, 'user-agent', 'node');
    const host = url.port ? `${url.hostname}:${url.port}` : url.hostname;
    ArrayPrototypeUnshift(headers, 'host', host);
    if (body && !body.stream && !has('content-length')) ArrayPrototypePush(headers, 'content-length', String(body.blob ? body.blob.size : body.bytes.length));
    else if (body && body.stream && !has('transfer-encoding')) ArrayPrototypePush(headers, 'transfer-encoding', 'chunked');
    else if (!body && (method === 'POST' || method === 'PUT')) ArrayPrototypePush(headers, 'content-length', '0');
    let req;
    try {
      const options = { method, hostname: StringPrototypeReplace(url.hostname, IPV6_BRACKETS, ''), port: url.port || (secure ? 443 : 80), path: url.pathname + url.search, headers, agent: fetchAgent(secure), setHost: false };
      req = secure ? require('https').request(options) : http.request(options);
    } catch (e) {
      return reject(fetchFailed(e));
    }
    let settled = false;
    const onAbort = () => {
      const err = abortError(signal);
      req.destroy(err);
      if (!settled) {
        settled = true;
        reject(err);
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      reject(fetchFailed(e));
    });
    req.on('response', (res) => {
      if (settled) return res.destroy();
      settled = true;
      res._fetchSignal = signal;
      res._fetchAbort = onAbort;
      resolve(res);
    });
    if (!body) return void req.end();
    if (body.bytes) return void req.end(body.bytes);
    if (body.blob) return void PromisePrototypeThen(PromiseResolve(body.blob.arrayBuffer()), (ab) => req.end(Buffer.from(ab)), (e) => req.destroy(e));
    // A streamed body: one chunk at a time, waiting for 'drain' when the socket is full.
    const reader = body.stream.getReader();
    PromisePrototypeThen((async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return void req.end();
        if (!req.write(value instanceof Uint8Array ? value : Buffer.from(String(value)))) await new Promise((r) => req.once('drain', r));
      }
    })(), undefined, (e) => req.destroy(e));
  });
}

function toResponse(res, url, redirected, method) {
  const { ReadableStream } = lazyWeb();
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
  const noBody = NULL_BODY.has(res.statusCode) || method === 'HEAD';
  const response = new Response(null, { status: 200, headers });
  response._status = res.statusCode;
  response._statusText = res.statusMessage || '';
  response._type = 'basic';
  response._url = url.href;
  response._redirected = redirected;
  headers[kGuard] = 'immutable';
  const signal = res._fetchSignal;
  const done = () => signal.removeEventListener('abort', res._fetchAbort);
  if (noBody) {
    res.resume();
    res.once('end', done);
    return response;
  }
  res.pause();
  let controller;
  const stream = new ReadableStream({
    start(c) {
      controller = c;
      res.on('data', (chunk) => {
        c.enqueue(new Uint8Array(GetBuffer(chunk), GetByteOffset(chunk), GetLength(chunk)));
        if (c.desiredSize <= 0) res.pause();
      });
      res.on('end', () => {
        done();
        c.close();
      });
      res.on('error', (e) => {
        done();
        c.error(signal.aborted ? abortError(signal) : fetchFailed(e));
      });
      res.on('aborted', () => {
        done();
        try {
          c.error(signal.aborted ? abortError(signal) : new TypeError('terminated', { cause: ObjectAssign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
        } catch {}
      });
    },
    pull() {
      res.resume();
    },
    cancel() {
      done();
      res.destroy();
    },
  }, { highWaterMark: 64 * 1024, size: (chunk) => GetByteLength(chunk) });
  response._source = { stream, type: null };
  response._stream = stream;
  void controller;
  return response;
}

module.exports = { fetch, Headers, Request, Response, FormData };
