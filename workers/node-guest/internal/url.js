// WHATWG URL and URLSearchParams in the guest's realm. Parsing is the host's (its URL parser, given strings
// and answering strings: host-ops.ts parseUrl); the objects, their setters and the search params are here.
'use strict';

const {
  ObjectDefineProperty,
  ObjectKeys,
  Symbol,
  SymbolFor,
  SymbolIterator,
  SymbolToStringTag,
  TypeError,
  decodeURIComponent,
  encodeURIComponent,
  ArrayPrototypeFilter,
  ArrayPrototypeFind,
  ArrayPrototypeMap,
  ArrayPrototypePush,
  ArrayPrototypeSome,
  ArrayPrototypeSort,
  ArrayPrototypeSymbolIterator,
  NumberPrototypeToString,
  ReflectApply,
  RegExpPrototypeExec,
  SafeArrayIterator,
  StringPrototypeCharCodeAt,
  StringPrototypeEndsWith,
  StringPrototypeIndexOf,
  StringPrototypeReplace,
  StringPrototypeSlice,
  StringPrototypeSplit,
  StringPrototypeStartsWith,
  StringPrototypeToUpperCase,
  ArrayPrototypeFindIndex,
  ArrayPrototypeJoin,
  ArrayPrototypePop,
  hardenRegExp,
} = require('internal/primordials');

// Made once: a hardened regex (its own exec, flags and symbol methods) costs a few property definitions.
const PLUS = hardenRegExp(/\+/g);
const ENCODED_SPACE = hardenRegExp(/%20/g);
const FORM_RESERVED = hardenRegExp(/[!'()~]/g);
const QUERY_AND_FRAGMENT = hardenRegExp(/[?#].*$/);
const PATH_ESCAPES = hardenRegExp(/[%\\\n\r\t#?]/g);

const host = internal.host;
const { codeError, invalidArgType } = require('internal/errors');
const kParts = Symbol('parts');
const kSearch = Symbol('searchParams');
const FIELDS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];

function parse(input, base) {
  const r = host('parseUrl', input, base);
  if (typeof r !== 'string' || r === '' || internal.isFailure(r)) return undefined;
  const values = StringPrototypeSplit(r, '\0');
  const parts = {};
  for (let i = 0; i < FIELDS.length; i++) parts[FIELDS[i]] = values[i];
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
  get [SymbolToStringTag]() {
    return 'URL';
  }
  [SymbolFor('nodejs.util.inspect.custom')](depth, options, inspect) {
    // Beyond the depth Node formats the URL object itself, which has no own properties.
    if (typeof depth === 'number' && depth < 0) return 'URL {}';
    // Node's order: searchParams between search and hash.
    const obj = {};
    for (const f of new SafeArrayIterator(['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search'])) obj[f] = this[f];
    obj.searchParams = this.searchParams;
    obj.hash = this.hash;
    return `URL ${inspect(obj, options)}`;
  }
}

/** Getters for every part; setters re-parse the URL with the part changed, as the spec's setters do. */
for (const field of new SafeArrayIterator(FIELDS)) {
  const desc = { get() { return this[kParts][field]; }, enumerable: true, configurable: true };
  if (field !== 'origin')
    desc.set = function (value) {
      value = `${value}`;
      const p = this[kParts];
      let next;
      if (field === 'href') next = parse(value);
      else {
        const u = { ...p, [field]: value };
        const prefix = (s, c) => (s === '' || StringPrototypeStartsWith(s, c) ? s : c + s);
        const auth = u.username || u.password ? `${u.username}${u.password ? `:${u.password}` : ''}@` : '';
        const hostPart = field === 'hostname' || field === 'port' ? `${u.hostname}${u.port ? `:${u.port}` : ''}` : u.host;
        const proto = StringPrototypeEndsWith(u.protocol, ':') ? u.protocol : `${u.protocol}:`;
        const special = RegExpPrototypeExec(/^(https?|wss?|ftp|file):$/, proto) !== null;
        next = parse(`${proto}${special || hostPart ? '//' : ''}${auth}${hostPart}${u.pathname}${prefix(u.search, '?')}${prefix(u.hash, '#')}`);
      }
      if (!next) {
        if (field === 'href') throw invalid(value);
        return;
      }
      this[kParts] = next;
      if (this[kSearch] && field !== 'hash') this[kSearch]._reset(next.search);
    };
  ObjectDefineProperty(URL.prototype, field, desc);
}

const decode = (s) => {
  try {
    return decodeURIComponent(StringPrototypeReplace(s, PLUS, ' '));
  } catch {
    return s;
  }
};
const encode = (s) => StringPrototypeReplace(StringPrototypeReplace(encodeURIComponent(s), ENCODED_SPACE, '+'), FORM_RESERVED, (c) => `%${StringPrototypeToUpperCase(NumberPrototypeToString(StringPrototypeCharCodeAt(c, 0), 16))}`);

class URLSearchParams {
  constructor(init = '') {
    this._list = [];
    this._url = null;
    if (typeof init === 'object' && init !== null) {
      if (typeof init[SymbolIterator] === 'function') for (const [k, v] of init) ArrayPrototypePush(this._list, [`${k}`, `${v}`]);
      else {
        const keys = ObjectKeys(init);
        for (let i = 0; i < keys.length; i++) ArrayPrototypePush(this._list, [keys[i], `${init[keys[i]]}`]);
      }
    } else this._reset(`${init}`);
  }
  _reset(search) {
    this._list = [];
    const s = StringPrototypeStartsWith(search, '?') ? StringPrototypeSlice(search, 1) : search;
    if (s !== '') for (const pair of new SafeArrayIterator(StringPrototypeSplit(s, '&'))) {
      if (pair === '') continue;
      const i = StringPrototypeIndexOf(pair, '=');
      ArrayPrototypePush(this._list, i < 0 ? [decode(pair), ''] : [decode(StringPrototypeSlice(pair, 0, i)), decode(StringPrototypeSlice(pair, i + 1))]);
    }
  }
  _update() {
    if (this._url) {
      const s = this.toString();
      const p = this._url[kParts];
      const next = parse(`${StringPrototypeReplace(p.href, QUERY_AND_FRAGMENT, '')}${s ? `?${s}` : ''}${p.hash}`);
      if (next) this._url[kParts] = next;
    }
  }
  get size() { return this._list.length; }
  append(k, v) { ArrayPrototypePush(this._list, [`${k}`, `${v}`]); this._update(); }
  delete(k, v) { this._list = ArrayPrototypeFilter(this._list, (p) => p[0] !== `${k}` || (v !== undefined && p[1] !== `${v}`)); this._update(); }
  get(k) { const e = ArrayPrototypeFind(this._list, (p) => p[0] === `${k}`); return e ? e[1] : null; }
  getAll(k) { return ArrayPrototypeMap(ArrayPrototypeFilter(this._list, (p) => p[0] === `${k}`), (p) => p[1]); }
  has(k, v) { return ArrayPrototypeSome(this._list, (p) => p[0] === `${k}` && (v === undefined || p[1] === `${v}`)); }
  set(k, v) {
    const i = ArrayPrototypeFindIndex(this._list, (p) => p[0] === `${k}`);
    if (i < 0) ArrayPrototypePush(this._list, [`${k}`, `${v}`]);
    else { this._list[i][1] = `${v}`; this._list = ArrayPrototypeFilter(this._list, (p, j) => j <= i || p[0] !== `${k}`); }
    this._update();
  }
  sort() { ArrayPrototypeSort(this._list, (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); this._update(); }
  forEach(fn, thisArg) { const list = this._list; for (let i = 0; i < list.length; i++) ReflectApply(fn, thisArg, [list[i][1], list[i][0], this]); }
  keys() { return ArrayPrototypeSymbolIterator(ArrayPrototypeMap(this._list, (p) => p[0])); }
  values() { return ArrayPrototypeSymbolIterator(ArrayPrototypeMap(this._list, (p) => p[1])); }
  entries() { return ArrayPrototypeSymbolIterator(ArrayPrototypeMap(this._list, (p) => [p[0], p[1]])); }
  [SymbolIterator]() { return this.entries(); }
  toString() { return ArrayPrototypeJoin(ArrayPrototypeMap(this._list, (p) => `${encode(p[0])}=${encode(p[1])}`), '&'); }
  get [SymbolToStringTag]() { return 'URLSearchParams'; }
  [SymbolFor('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (this._list.length === 0) return 'URLSearchParams {}';
    return `URLSearchParams { ${ArrayPrototypeJoin(ArrayPrototypeMap(this._list, (p) => `${inspect(p[0])} => ${inspect(p[1])}`), ', ')} }`;
  }
}
ObjectDefineProperty(URLSearchParams.prototype, '_list', { writable: true, enumerable: false });

function pathToFileURL(path) {
  if (typeof path !== 'string') throw invalidArgType('path', 'of type string', path);
  let abs = StringPrototypeStartsWith(path, '/') ? path : `${internal.sys.cwd()}/${path}`;
  // Normalise . and .. as path.resolve does.
  const out = [];
  const segs = StringPrototypeSplit(abs, '/');
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (seg === '' || seg === '.') continue;
    if (seg === '..') ArrayPrototypePop(out);
    else ArrayPrototypePush(out, seg);
  }
  abs = `/${ArrayPrototypeJoin(out, '/')}${StringPrototypeEndsWith(path, '/') && out.length ? '/' : ''}`;
  const ESCAPES = { __proto__: null, '%': '%25', '\\': '%5C', '\n': '%0A', '\r': '%0D', '\t': '%09', '#': '%23', '?': '%3F' };
  const encoded = StringPrototypeReplace(abs, PATH_ESCAPES, (c) => ESCAPES[c]);
  return new URL(`file://${encoded}`);
}

function fileURLToPath(url) {
  const u = typeof url === 'string' ? new URL(url) : url;
  if (!u || typeof u.href !== 'string') throw invalidArgType('path', 'of type string or an instance of URL', url);
  if (u.protocol !== 'file:') throw codeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (u.hostname !== '') throw codeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  if (RegExpPrototypeExec(/%2f/i, u.pathname) !== null) throw codeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
  return decodeURIComponent(u.pathname);
}

module.exports = { URL, URLSearchParams, pathToFileURL, fileURLToPath };
