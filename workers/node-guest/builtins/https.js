// `https`: the `http` client over `tls` (builtins/tls.js): an Agent whose connections are tls.connect's, and
// request/get that default to it. Serving HTTPS fails with an error that says so (the VM has no TLS server).
'use strict';

const {
  Error,
  ObjectAssign,
  ReflectApply,
  ReflectConstruct,
  String,
  TypeError,
  ArrayPrototypeShift,
  ArrayPrototypeUnshift,
} = require('internal/primordials');

const http = require('http');
const tls = require('tls');
const { codeError } = require('internal/errors');

const noTlsServer = () => codeError(Error, 'ERR_NOT_SUPPORTED', 'https servers are not available in this VM (TLS is client only)');

/** The options that make a different TLS connection, so a kept-alive one is reused only for the same. */
const NAME_KEYS = ['ca', 'servername', 'rejectUnauthorized', 'minVersion', 'maxVersion', 'ciphers'];

class Agent extends http.Agent {
  constructor(options) {
    super(options);
    this.defaultPort = 443;
    this.protocol = 'https:';
  }

  createConnection(options) {
    return tls.connect(options);
  }

  getName(options = {}) {
    let name = super.getName(options);
    for (let i = 0; i < NAME_KEYS.length; i++) {
      const key = NAME_KEYS[i];
      name += ':';
      if (options[key] !== undefined && options[key] !== null) name += typeof options[key] === 'string' ? options[key] : String(options[key]);
    }
    return name;
  }
}

class Server extends http.Server {
  constructor() {
    throw noTlsServer();
  }
}

const globalAgent = new Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 });

/** As Node's: a URL or options (or both), the callback, with this module's agent as the default. */
function request(...args) {
  let options = {};
  if (typeof args[0] === 'string' || (args[0] !== null && typeof args[0] === 'object' && typeof args[0].href === 'string' && typeof args[0].protocol === 'string')) {
    const { URL } = require('internal/url');
    let url;
    try {
      url = new URL(String(args[0].href !== undefined ? args[0].href : args[0]));
    } catch {
      throw codeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
    }
    ArrayPrototypeShift(args);
    options = require('url').urlToHttpOptions(url);
  }
  if (args[0] && typeof args[0] !== 'function') ObjectAssign(options, ArrayPrototypeShift(args));
  options._defaultAgent = globalAgent;
  ArrayPrototypeUnshift(args, options);
  return ReflectConstruct(http.ClientRequest, args);
}

function get(...args) {
  const req = ReflectApply(request, undefined, args);
  req.end();
  return req;
}

module.exports = {
  Agent,
  Server,
  globalAgent,
  createServer() {
    throw noTlsServer();
  },
  request,
  get,
};
