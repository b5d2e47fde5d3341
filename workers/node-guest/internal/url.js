// WHATWG URL and URLSearchParams in the guest's realm. Parsing is the host's (its URL parser, given strings
// and answering strings: host-ops.ts parseUrl); the objects, their setters and the search params are here.
'use strict';

const host = internal.host;
const { codeError, invalidArgType } = require('internal/errors');
const kParts = Symbol('parts');
const kSearch = Symbol('searchParams');
const FIELDS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];

function parse(input, base) {
  const r = host('parseUrl', input, base);
  if (typeof r !== 'string' || r === '' || internal.isFailure(r)) return undefined;
  const values = r.split('\0');
  const parts = {};
  FIELDS.forEach((f, i) => (parts[f] = values[i]));
  return parts;
}

function invalid(input) {
  const e = codeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
  e.input = input;
  return e;
}

class URL {
  constructor(input, base) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "url" argument must be specified');
    input = `${input}`;
    if (base !== undefined) base = `${base}`;
    const parts = parse(input, base);
    if (!parts) throw invalid(input);
    this[kParts] = parts;
  }
  static canParse(input, base) {
    return parse(`${input}`, base === undefined ? undefined : `${base}`) !== undefined;
  }
  static parse(input, base) {
    try {
      return new URL(input, base);
    } catch {
      return null;
    }
  }
  get searchParams() {
    if (!this[kSearch]) {
      this[kSearch] = new URLSearchParams(this[kParts].search);
      this[kSearch]._url = this;
    }
    return this[kSearch];
  }
  toString() {
    return this[kParts].href;
  }
  toJSON() {
    return this[kParts].href;
  }
  get [Symbol.toStringTag]() {
    return 'URL';
  }
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    // Beyond the depth Node formats the URL object itself, which has no own properties.
    if (typeof depth === 'number' && depth < 0) return 'URL {}';
    // Node's order: searchParams between search and hash.
    const obj = {};
    for (const f of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search']) obj[f] = this[f];
    obj.searchParams = this.searchParams;
    obj.hash = this.hash;
    return `URL ${inspect(obj, options)}`;
  }
}

/** Getters for every part; setters re-parse the URL with the part changed, as the spec's setters do. */
for (const field of FIELDS) {
  const desc = { get() { return this[kParts][field]; }, enumerable: true, configurable: true };
  if (field !== 'origin')
    desc.set = function (value) {
      value = `${value}`;
      const p = this[kParts];
      let next;
      if (field === 'href') next = parse(value);
      else {
        const u = { ...p, [field]: value };
        const prefix = (s, c) => (s === '' || s.startsWith(c) ? s : c + s);
        const auth = u.username || u.password ? `${u.username}${u.password ? `:${u.password}` : ''}@` : '';
        const hostPart = field === 'hostname' || field === 'port' ? `${u.hostname}${u.port ? `:${u.port}` : ''}` : u.host;
        const proto = u.protocol.endsWith(':') ? u.protocol : `${u.protocol}:`;
        const special = /^(https?|wss?|ftp|file):$/.test(proto);
        next = parse(`${proto}${special || hostPart ? '//' : ''}${auth}${hostPart}${u.pathname}${prefix(u.search, '?')}${prefix(u.hash, '#')}`);
      }
      if (!next) {
        if (field === 'href') throw invalid(value);
        return;
      }
      this[kParts] = next;
      if (this[kSearch] && field !== 'hash') this[kSearch]._reset(next.search);
    };
  Object.defineProperty(URL.prototype, field, desc);
}

const decode = (s) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};
const encode = (s) => encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

class URLSearchParams {
  constructor(init = '') {
    this._list = [];
    this._url = null;
    if (typeof init === 'object' && init !== null) {
      if (typeof init[Symbol.iterator] === 'function') for (const [k, v] of init) this._list.push([`${k}`, `${v}`]);
      else for (const k of Object.keys(init)) this._list.push([k, `${init[k]}`]);
    } else this._reset(`${init}`);
  }
  _reset(search) {
    this._list = [];
    const s = search.startsWith('?') ? search.slice(1) : search;
    if (s !== '') for (const pair of s.split('&')) {
      if (pair === '') continue;
      const i = pair.indexOf('=');
      this._list.push(i < 0 ? [decode(pair), ''] : [decode(pair.slice(0, i)), decode(pair.slice(i + 1))]);
    }
  }
  _update() {
    if (this._url) {
      const s = this.toString();
      const p = this._url[kParts];
      const next = parse(`${p.href.replace(/[?#].*$/, '')}${s ? `?${s}` : ''}${p.hash}`);
      if (next) this._url[kParts] = next;
    }
  }
  get size() { return this._list.length; }
  append(k, v) { this._list.push([`${k}`, `${v}`]); this._update(); }
  delete(k, v) { this._list = this._list.filter(([a, b]) => a !== `${k}` || (v !== undefined && b !== `${v}`)); this._update(); }
  get(k) { const e = this._list.find(([a]) => a === `${k}`); return e ? e[1] : null; }
  getAll(k) { return this._list.filter(([a]) => a === `${k}`).map(([, b]) => b); }
  has(k, v) { return this._list.some(([a, b]) => a === `${k}` && (v === undefined || b === `${v}`)); }
  set(k, v) {
    const i = this._list.findIndex(([a]) => a === `${k}`);
    if (i < 0) this._list.push([`${k}`, `${v}`]);
    else { this._list[i][1] = `${v}`; this._list = this._list.filter(([a], j) => j <= i || a !== `${k}`); }
    this._update();
  }
  sort() { this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); this._update(); }
  forEach(fn, thisArg) { for (const [k, v] of this._list) fn.call(thisArg, v, k, this); }
  keys() { return this._list.map(([k]) => k)[Symbol.iterator](); }
  values() { return this._list.map(([, v]) => v)[Symbol.iterator](); }
  entries() { return this._list.map(([k, v]) => [k, v])[Symbol.iterator](); }
  [Symbol.iterator]() { return this.entries(); }
  toString() { return this._list.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'); }
  get [Symbol.toStringTag]() { return 'URLSearchParams'; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (this._list.length === 0) return 'URLSearchParams {}';
    return `URLSearchParams { ${this._list.map(([k, v]) => `${inspect(k)} => ${inspect(v)}`).join(', ')} }`;
  }
}
Object.defineProperty(URLSearchParams.prototype, '_list', { writable: true, enumerable: false });

function pathToFileURL(path) {
  if (typeof path !== 'string') throw invalidArgType('path', 'of type string', path);
  let abs = path.startsWith('/') ? path : `${internal.sys.cwd()}/${path}`;
  // Normalise . and .. as path.resolve does.
  const out = [];
  for (const seg of abs.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  abs = `/${out.join('/')}${path.endsWith('/') && out.length ? '/' : ''}`;
  const encoded = abs.replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/\t/g, '%09').replace(/#/g, '%23').replace(/\?/g, '%3F');
  return new URL(`file://${encoded}`);
}

function fileURLToPath(url) {
  const u = typeof url === 'string' ? new URL(url) : url;
  if (!u || typeof u.href !== 'string') throw invalidArgType('path', 'of type string or an instance of URL', url);
  if (u.protocol !== 'file:') throw codeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (u.hostname !== '') throw codeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  if (/%2f/i.test(u.pathname)) throw codeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
  return decodeURIComponent(u.pathname);
}

module.exports = { URL, URLSearchParams, pathToFileURL, fileURLToPath };
