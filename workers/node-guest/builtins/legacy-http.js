// Node's old `_http_*` and `_tls_*` modules (still in builtinModules), each as one property here: the parts of
// them that are this VM's http and tls (internal/bootstrap.js maps `_http_agent` to this module's `_http_agent`).
// Node's parser internals (parsers, freeParser, the connection listener) have no counterpart in the guest's
// http and are not exported.
'use strict';

const {
  RegExpPrototypeExec,
  Symbol,
} = require('internal/primordials');

const http = require('http');
const tls = require('tls');
const { HTTPParser } = require('internal/http-parser');

const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

module.exports = {
  _http_agent: { Agent: http.Agent, globalAgent: http.globalAgent },
  _http_client: { ClientRequest: http.ClientRequest },
  _http_common: {
    CRLF: '\r\n',
    HTTPParser,
    _checkInvalidHeaderChar: (v) => RegExpPrototypeExec(INVALID_HEADER_CHAR, v) !== null,
    _checkIsHttpToken: (v) => RegExpPrototypeExec(TOKEN, v) !== null,
    chunkExpression: /(?:^|\W)chunked(?:$|\W)/i,
    continueExpression: /(?:^|\W)100-continue(?:$|\W)/i,
    isLenient: () => false,
    kIncomingMessage: Symbol('IncomingMessage'),
    methods: http.METHODS,
  },
  _http_incoming: {
    IncomingMessage: http.IncomingMessage,
    readStart: (socket) => {
      if (socket && !socket._paused && socket.readable) socket.resume();
    },
    readStop: (socket) => {
      if (socket) socket.pause();
    },
  },
  _http_outgoing: {
    OutgoingMessage: http.OutgoingMessage,
    kHighWaterMark: Symbol('kHighWaterMark'),
    kUniqueHeaders: Symbol('kUniqueHeaders'),
    validateHeaderName: http.validateHeaderName,
    validateHeaderValue: http.validateHeaderValue,
  },
  _http_server: {
    STATUS_CODES: http.STATUS_CODES,
    Server: http.Server,
    ServerResponse: http.ServerResponse,
    kConnectionsCheckingInterval: Symbol('http.server.connectionsCheckingInterval'),
    kServerResponse: Symbol('ServerResponse'),
  },
  _tls_common: { SecureContext: tls.SecureContext, createSecureContext: tls.createSecureContext },
  _tls_wrap: { Server: tls.Server, TLSSocket: tls.TLSSocket, connect: tls.connect, createServer: tls.createServer },
};
