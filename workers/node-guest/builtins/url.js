// `url`: the WHATWG URL (internal/url.js), file URL helpers, and the legacy parse/format/resolve (Node's own,
// internal/legacy-url.js).
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
const { Url, urlParse, urlFormat, urlResolve, urlResolveObject } = require('internal/legacy-url');

module.exports = {
  URL,
  URLSearchParams,
  pathToFileURL,
  fileURLToPath,
  parse: urlParse,
  format: urlFormat,
  resolve: urlResolve,
  resolveObject: urlResolveObject,
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
