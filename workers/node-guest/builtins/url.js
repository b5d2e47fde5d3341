// `url`: the WHATWG URL (internal/url.js), file URL helpers, and the legacy parse/format/resolve.
'use strict';

const {
  Number,
  ObjectKeys,
  decodeURIComponent,
  encodeURIComponent,
  StringPrototypeEndsWith,
  StringPrototypeIndexOf,
  StringPrototypeLastIndexOf,
  StringPrototypeReplace,
  StringPrototypeSearch,
  StringPrototypeSlice,
  StringPrototypeStartsWith,
  StringPrototypeToLowerCase,
  StringPrototypeTrim,
  RegExpPrototypeExec,
} = require('internal/primordials');

const { URL, URLSearchParams, pathToFileURL, fileURLToPath } = require('internal/url');
const querystring = require('querystring');

function Url() {
  this.protocol = null;
  this.slashes = null;
  this.auth = null;
  this.host = null;
  this.port = null;
  this.hostname = null;
  this.hash = null;
  this.search = null;
  this.query = null;
  this.pathname = null;
  this.path = null;
  this.href = null;
}

const PROTOCOL = /^([a-z0-9.+-]+:)/i;
/** url.parse, the legacy parser, for the common absolute and relative forms. */
function parse(input, parseQueryString = false, slashesDenoteHost = false) {
  if (typeof input !== 'string') throw require('internal/errors').invalidArgType('url', 'of type string', input);
  const u = new Url();
  let rest = StringPrototypeTrim(input);
  const hash = StringPrototypeIndexOf(rest, '#');
  if (hash >= 0) {
    u.hash = StringPrototypeSlice(rest, hash);
    rest = StringPrototypeSlice(rest, 0, hash);
  }
  const qm = StringPrototypeIndexOf(rest, '?');
  if (qm >= 0) {
    u.search = StringPrototypeSlice(rest, qm);
    u.query = StringPrototypeSlice(rest, qm + 1);
    rest = StringPrototypeSlice(rest, 0, qm);
  } else if (parseQueryString) {
    u.search = '';
    u.query = {};
  }
  if (parseQueryString && typeof u.query === 'string') u.query = querystring.parse(u.query);
  const proto = RegExpPrototypeExec(PROTOCOL, rest);
  if (proto) {
    u.protocol = StringPrototypeToLowerCase(proto[1]);
    rest = StringPrototypeSlice(rest, proto[1].length);
  }
  if ((proto || slashesDenoteHost) && StringPrototypeStartsWith(rest, '//')) {
    u.slashes = true;
    rest = StringPrototypeSlice(rest, 2);
    const end = StringPrototypeSearch(rest, /[/\\]/);
    let hostPart = end < 0 ? rest : StringPrototypeSlice(rest, 0, end);
    rest = end < 0 ? '' : StringPrototypeSlice(rest, end);
    const at = StringPrototypeLastIndexOf(hostPart, '@');
    if (at >= 0) {
      u.auth = decodeURIComponent(StringPrototypeSlice(hostPart, 0, at));
      hostPart = StringPrototypeSlice(hostPart, at + 1);
    }
    const port = RegExpPrototypeExec(/:(\d*)$/, hostPart);
    if (port) {
      if (port[1]) u.port = port[1];
      hostPart = StringPrototypeSlice(hostPart, 0, port.index);
    }
    u.hostname = StringPrototypeToLowerCase(hostPart);
    u.host = u.hostname + (u.port ? `:${u.port}` : '');
    if (rest === '' && (RegExpPrototypeExec(/^(https?|ftp|gopher|file|wss?):$/, u.protocol || '') !== null)) rest = '/';
  }
  u.pathname = rest === '' ? null : rest;
  u.path = (u.pathname || '') + (u.search || '') || null;
  u.href = format(u);
  return u;
}

function format(u, options) {
  if (typeof u === 'string') u = parse(u);
  if (u instanceof URL) {
    const o = { auth: true, fragment: true, search: true, unicode: false, ...(options || {}) };
    let s = `${u.protocol}${u.host || u.protocol === 'file:' ? '//' : ''}`;
    if (o.auth && (u.username || u.password)) s += `${u.username}${u.password ? `:${u.password}` : ''}@`;
    return s + u.host + u.pathname + (o.search ? u.search : '') + (o.fragment ? u.hash : '');
  }
  let auth = u.auth ? `${StringPrototypeReplace(encodeURIComponent(u.auth), /%3A/i, ':')}@` : '';
  const protocol = u.protocol ? (StringPrototypeEndsWith(u.protocol, ':') ? u.protocol : `${u.protocol}:`) : '';
  let host = u.host || (u.hostname ? u.hostname + (u.port ? `:${u.port}` : '') : '');
  let pathname = u.pathname || '';
  let search = u.search || (u.query && typeof u.query === 'object' && ObjectKeys(u.query).length ? `?${querystring.stringify(u.query)}` : '');
  if (search && !StringPrototypeStartsWith(search, '?')) search = `?${search}`;
  let hash = u.hash || '';
  if (hash && !StringPrototypeStartsWith(hash, '#')) hash = `#${hash}`;
  const slashes = u.slashes || (RegExpPrototypeExec(/^(https?|ftp|gopher|file|wss?):$/, protocol) !== null);
  if (slashes || host) {
    if (pathname && !StringPrototypeStartsWith(pathname, '/')) pathname = `/${pathname}`;
    host = `//${auth}${host}`;
    auth = '';
  }
  return protocol + host + StringPrototypeReplace(pathname, /[?#]/g, encodeURIComponent) + StringPrototypeReplace(search, '#', '%23') + hash;
}

function resolve(from, to) {
  const r = new URL(to, new URL(from, 'resolve://'));
  if (r.protocol === 'resolve:') {
    const { pathname, search, hash } = r;
    return pathname + search + hash;
  }
  return r.toString();
}

module.exports = {
  URL,
  URLSearchParams,
  pathToFileURL,
  fileURLToPath,
  parse,
  format,
  resolve,
  resolveObject: (from, to) => parse(resolve(from, to)),
  Url,
  domainToASCII: (domain) => {
    try {
      return new URL(`http://${domain}`).hostname;
    } catch {
      return '';
    }
  },
  domainToUnicode: (domain) => domain,
  urlToHttpOptions: (u) => ({ protocol: u.protocol, hostname: StringPrototypeStartsWith(u.hostname, '[') ? StringPrototypeSlice(u.hostname, 1, -1) : u.hostname, hash: u.hash, search: u.search, pathname: u.pathname, path: `${u.pathname || ''}${u.search || ''}`, href: u.href, ...(u.port !== '' ? { port: Number(u.port) } : {}), ...(u.username || u.password ? { auth: `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` } : {}) }),
};
