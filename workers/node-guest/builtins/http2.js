// `http2`: the VM has no HTTP/2 sessions yet. The module loads with Node's shape and this Node's constants
// (workers/node-host/node-tables-ops.ts), the settings codec works; a server, a connection or a handshake fails
// with ERR_ACCESS_DENIED (internal/denied.js).
'use strict';

const {
  JSONParse,
  ObjectFreeze,
  ObjectKeys,
  RangeError,
  Symbol,
  GetByteLength,
  GetBuffer,
  GetByteOffset,
  GetLength,
} = require('internal/primordials');

const { Buffer } = require('buffer');
const { Readable, Writable } = require('stream');
const { deniedError, deniedFunction } = require('internal/denied');
const { codeError, invalidArgType } = require('internal/errors');

const constants = ObjectFreeze(JSONParse(internal.host('nodeTable', 'http2Constants')));
const DEFAULTS = JSONParse(internal.host('nodeTable', 'http2DefaultSettings'));

/** Setting name → its id in a SETTINGS frame (RFC 9113 §6.5.2, RFC 8441). */
const SETTING_IDS = {
  __proto__: null,
  headerTableSize: 1,
  enablePush: 2,
  maxConcurrentStreams: 3,
  initialWindowSize: 4,
  maxFrameSize: 5,
  maxHeaderListSize: 6,
  enableConnectProtocol: 8,
};

class Http2ServerRequest extends Readable {
  constructor() {
    super();
    throw deniedError('http2.Http2ServerRequest');
  }
}

class Http2ServerResponse extends Writable {
  constructor() {
    super();
    throw deniedError('http2.Http2ServerResponse');
  }
}

function getDefaultSettings() {
  return { ...DEFAULTS };
}

/** Node's packed SETTINGS payload: 6 bytes per given setting (16-bit id, 32-bit value). */
function getPackedSettings(settings) {
  if (settings !== undefined && (settings === null || typeof settings !== 'object')) throw invalidArgType('settings', 'object', settings);
  const s = settings || {};
  const names = ObjectKeys(SETTING_IDS);
  const out = [];
  for (let i = 0; i < names.length; i++) {
    const v = s[names[i]];
    if (v === undefined) continue;
    const n = typeof v === 'boolean' ? +v : v;
    if (typeof n !== 'number' || n < 0 || n > 0xffffffff || n !== n) {
      throw codeError(RangeError, 'ERR_HTTP2_INVALID_SETTING_VALUE', `Invalid value for setting "${names[i]}": ${v}`);
    }
    out[out.length] = [SETTING_IDS[names[i]], n];
  }
  const buf = Buffer.alloc(out.length * 6);
  for (let i = 0; i < out.length; i++) {
    buf.writeUInt16BE(out[i][0], i * 6);
    buf.writeUInt32BE(out[i][1], i * 6 + 2);
  }
  return buf;
}

function getUnpackedSettings(buf) {
  if (!(buf instanceof Buffer) && !(buf !== null && typeof buf === 'object' && typeof GetByteLength(buf) === 'number')) {
    throw invalidArgType('buf', ['Buffer', 'TypedArray'], buf);
  }
  const bytes = Buffer.from(GetBuffer(buf) || buf, GetByteOffset(buf) || 0, GetByteLength(buf));
  if (GetLength(bytes) % 6 !== 0) throw codeError(RangeError, 'ERR_HTTP2_INVALID_PACKED_SETTINGS_LENGTH', 'Packed settings length must be a multiple of six');
  const names = ObjectKeys(SETTING_IDS);
  const out = {};
  for (let off = 0; off < GetLength(bytes); off += 6) {
    const id = bytes.readUInt16BE(off);
    const value = bytes.readUInt32BE(off + 2);
    for (let i = 0; i < names.length; i++) {
      if (SETTING_IDS[names[i]] === id) out[names[i]] = id === 2 || id === 8 ? value !== 0 : value;
    }
  }
  return out;
}

module.exports = {
  Http2ServerRequest,
  Http2ServerResponse,
  connect: deniedFunction('connect', 'http2.connect()'),
  constants,
  createSecureServer: deniedFunction('createSecureServer', 'http2.createSecureServer()'),
  createServer: deniedFunction('createServer', 'http2.createServer()'),
  getDefaultSettings,
  getPackedSettings,
  getUnpackedSettings,
  performServerHandshake: deniedFunction('performServerHandshake', 'http2.performServerHandshake()'),
  sensitiveHeaders: Symbol('sensitiveHeaders'),
};
