// `tls`: the VM has no TLS yet. The module loads with Node's shape (its defaults and tables are this Node's,
// workers/node-host/node-tables-ops.ts); connecting, serving and making a secure context fail with
// ERR_ACCESS_DENIED (internal/denied.js).
'use strict';

const {
  ArrayIsArray,
  ArrayPrototypePush,
  ArrayPrototypeSlice,
  JSONParse,
  NumberParseInt,
  ObjectFreeze,
  RangeError,
  Uint8Array,
} = require('internal/primordials');

const net = require('net');
const process = require('process');
const { Buffer } = require('buffer');
const { deniedError, deniedFunction } = require('internal/denied');
const { codeError, invalidArgType } = require('internal/errors');

const NODE_MAJOR = NumberParseInt(process.versions.node, 10);
const defaults = JSONParse(internal.host('nodeTable', 'tlsDefaults'));

class SecureContext {
  constructor() {
    throw deniedError('tls.SecureContext');
  }
}

class TLSSocket extends net.Socket {
  constructor() {
    super();
    throw deniedError('tls.TLSSocket');
  }
}

class Server extends net.Server {
  constructor() {
    super();
    throw deniedError('tls.Server');
  }
}

/** As Node's: the protocol names, each prefixed by its length, in one buffer. */
function convertALPNProtocols(protocols, out) {
  if (ArrayIsArray(protocols)) {
    const parts = [];
    for (let i = 0; i < protocols.length; i++) {
      const bytes = Buffer.from(protocols[i]);
      if (bytes.length > 255) throw codeRange(protocols[i], i);
      ArrayPrototypePush(parts, Buffer.from([bytes.length]), bytes);
    }
    out.ALPNProtocols = Buffer.concat(parts);
  } else if (protocols instanceof Uint8Array) {
    out.ALPNProtocols = Buffer.from(protocols);
  } else if (protocols !== undefined && protocols !== null) {
    throw invalidArgType('protocols', 'Array, Buffer, TypedArray, or DataView', protocols);
  }
}
function codeRange(p, i) {
  const e = { message: `The byte length of the protocol at index ${i} exceeds the maximum length. It must be <= 255. Received ${Buffer.byteLength(p)}` };
  return codeError(RangeError, 'ERR_OUT_OF_RANGE', e.message);
}

const tls = {
  CLIENT_RENEG_LIMIT: defaults.CLIENT_RENEG_LIMIT,
  CLIENT_RENEG_WINDOW: defaults.CLIENT_RENEG_WINDOW,
  DEFAULT_CIPHERS: defaults.DEFAULT_CIPHERS,
  DEFAULT_ECDH_CURVE: defaults.DEFAULT_ECDH_CURVE,
  DEFAULT_MAX_VERSION: defaults.DEFAULT_MAX_VERSION,
  DEFAULT_MIN_VERSION: defaults.DEFAULT_MIN_VERSION,
  SecureContext,
  Server,
  TLSSocket,
  checkServerIdentity: deniedFunction('checkServerIdentity', 'tls.checkServerIdentity()'),
  connect: deniedFunction('connect', 'tls.connect()'),
  convertALPNProtocols,
  createSecureContext: deniedFunction('createSecureContext', 'tls.createSecureContext()'),
  createServer: deniedFunction('createServer', 'tls.createServer()'),
  getCiphers: () => ArrayPrototypeSlice(defaults.ciphers),
  rootCertificates: ObjectFreeze(defaults.rootCertificates),
};
// Node 20 still has the long-deprecated createSecurePair; Node 24 has the CA certificate functions instead.
if (NODE_MAJOR < 24) tls.createSecurePair = deniedFunction('createSecurePair', 'tls.createSecurePair()');
else {
  tls.getCACertificates = deniedFunction('getCACertificates', 'tls.getCACertificates()');
  tls.getCertificateCompressionAlgorithms = deniedFunction('getCertificateCompressionAlgorithms', 'tls.getCertificateCompressionAlgorithms()');
  tls.setDefaultCACertificates = deniedFunction('setDefaultCACertificates', 'tls.setDefaultCACertificates()');
}
module.exports = tls;
