// `buffer`: the npm port of Node's Buffer, completed with what it lacks (base64url, constants, atob/btoa,
// isUtf8, isAscii).
'use strict';

const buffer = internal.require('npm-buffer');
const { Buffer } = buffer;

const toBase64url = (b64) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64url = (s) => s.replace(/-/g, '+').replace(/_/g, '/');

const toString = Buffer.prototype.toString;
Buffer.prototype.toString = function (encoding, start, end) {
  if (typeof encoding === 'string' && encoding.toLowerCase() === 'base64url') return toBase64url(toString.call(this, 'base64', start, end));
  return toString.apply(this, arguments);
};
const from = Buffer.from;
Buffer.from = function (value, encoding, length) {
  if (typeof value === 'string' && typeof encoding === 'string' && encoding.toLowerCase() === 'base64url') return from.call(this, fromBase64url(value), 'base64');
  return from.apply(this, arguments);
};
const isEncoding = Buffer.isEncoding;
Buffer.isEncoding = (encoding) => (typeof encoding === 'string' && encoding.toLowerCase() === 'base64url') || isEncoding(encoding);
const byteLength = Buffer.byteLength;
Buffer.byteLength = function (value, encoding) {
  if (typeof value === 'string' && typeof encoding === 'string' && encoding.toLowerCase() === 'base64url') return byteLength(fromBase64url(value), 'base64');
  return byteLength.apply(this, arguments);
};

buffer.constants = { MAX_LENGTH: buffer.kMaxLength, MAX_STRING_LENGTH: 2 ** 29 - 24 };
buffer.atob = (data) => Buffer.from(`${data}`, 'base64').toString('latin1');
buffer.btoa = (data) => Buffer.from(`${data}`, 'latin1').toString('base64');
buffer.isUtf8 = (input) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(input);
    return true;
  } catch {
    return false;
  }
};
buffer.isAscii = (input) => {
  const bytes = new Uint8Array(input.buffer || input, input.byteOffset || 0, input.byteLength);
  for (const b of bytes) if (b > 0x7f) return false;
  return true;
};
module.exports = buffer;
