// `https`: the VM has no TLS, so servers and requests fail with an error that says so; the classes exist
// for code that only checks for them.
'use strict';

const {
  Error,
} = require('internal/primordials');

const http = require('http');
const { codeError } = require('internal/errors');

const noTls = () => codeError(Error, 'ERR_NOT_SUPPORTED', 'https is not available in this VM (no TLS)');

class Agent extends http.Agent {
  constructor(options) {
    super(options);
    this.defaultPort = 443;
    this.protocol = 'https:';
  }
}

class Server extends http.Server {
  constructor() {
    throw noTls();
  }
}

module.exports = {
  Agent,
  Server,
  globalAgent: new Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 }),
  createServer() {
    throw noTls();
  },
  request() {
    throw noTls();
  },
  get() {
    throw noTls();
  },
};
