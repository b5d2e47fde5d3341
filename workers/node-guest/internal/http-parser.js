// An incremental HTTP/1.1 message parser for the guest's `http`: request and status lines, headers (bounded
// by maxHeaderSize, as llhttp's 16 KiB default), bodies by Content-Length, chunked coding (with trailers)
// or until end of input. `execute` stops at the end of each message and returns what it consumed, so the
// connection decides when the next (pipelined) message is parsed. Errors carry llhttp's HPE_* codes.
'use strict';

const {
  Error,
  MathMin,
  parseInt,
  ArrayPrototypePush, ArrayPrototypeShift, StringPrototypeReplace, StringPrototypeSplit, StringPrototypeToLowerCase, StringPrototypeTrim,
  RegExpPrototypeExec,
  ArrayPrototypeIncludes, ArrayPrototypeMap, StringPrototypeIndexOf, StringPrototypeSlice, TypedArrayPrototypeSubarray,
  SafeArrayIterator,
  GetLength,
  hardenRegExp,
} = require('internal/primordials');

// Made once: a hardened regex (its own exec, flags and symbol methods) costs a few property definitions.
const OWS_ENDS = hardenRegExp(/^[ \t]+|[ \t]+$/g);
const { BufferPrototypeToString, BufferPrototypeIndexOf } = require('internal/buffer-primordials');

const { Buffer } = require('buffer');

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) (\S+) HTTP\/(\d)\.(\d)$/;
const STATUS_LINE = /^HTTP\/(\d)\.(\d) (\d{3})(?: (.*))?$/;

function parseError(code, reason) {
  const e = new Error(`Parse Error: ${reason}`);
  e.code = code;
  e.reason = reason;
  return e;
}

class HTTPParser {
  /** kind: 'request' or 'response'; handlers: onHeaders(info) → true to skip the body, onBody(buf), onComplete(trailers). */
  constructor(kind, handlers, maxHeaderSize = 16384) {
    this.kind = kind;
    this.h = handlers;
    this.maxHeaderSize = maxHeaderSize;
    this.reset();
  }

  reset() {
    this.state = 'head';
    this.head = null;
    this.remaining = 0;
    this.mode = 'none';
    this.info = null;
  }

  /** Parses from `buf`; returns the bytes consumed (less than its length when a message ended), or throws. */
  execute(buf) {
    let pos = 0;
    while (pos < GetLength(buf)) {
      if (this.state === 'head' || this.state === 'trailers') {
        const start = this.head ? GetLength(this.head) : 0;
        const joined = this.head ? Buffer.concat([this.head, TypedArrayPrototypeSubarray(buf, pos)]) : TypedArrayPrototypeSubarray(buf, pos);
        let skip = 0;
        // Empty lines before a message are ignored, as llhttp does.
        if (this.state === 'head') while (skip < GetLength(joined) && (joined[skip] === 13 || joined[skip] === 10)) skip++;
        let end = this.state === 'trailers' && joined[0] === 13 && joined[1] === 10 ? 0 : BufferPrototypeIndexOf(joined, '\r\n\r\n', skip, 'latin1');
        if (end === -1) {
          if (GetLength(joined) - skip > this.maxHeaderSize) throw parseError('HPE_HEADER_OVERFLOW', 'Header overflow');
          this.head = skip === GetLength(joined) ? null : Buffer.from(TypedArrayPrototypeSubarray(joined, skip));
          return GetLength(buf);
        }
        const termLen = end === 0 && this.state === 'trailers' ? 2 : 4;
        if (end - skip > this.maxHeaderSize) throw parseError('HPE_HEADER_OVERFLOW', 'Header overflow');
        const text = BufferPrototypeToString(joined, 'latin1', skip, end);
        pos += end + termLen - start;
        this.head = null;
        if (this.state === 'trailers') {
          this.state = 'head';
          this.h.onComplete(text === '' ? [] : this.headerLines(StringPrototypeSplit(text, '\r\n')));
          return pos;
        }
        if (this.message(text)) return pos;
        continue;
      }
      if (this.state === 'body') {
        const n = MathMin(this.remaining, GetLength(buf) - pos);
        if (this.mode !== 'eof') this.remaining -= n;
        const chunk = TypedArrayPrototypeSubarray(buf, pos, pos + (this.mode === 'eof' ? GetLength(buf) - pos : n));
        pos += GetLength(chunk);
        this.h.onBody(chunk);
        if (this.mode === 'length' && this.remaining === 0) {
          this.state = 'head';
          this.h.onComplete([]);
          return pos;
        }
        if (this.mode === 'chunked' && this.remaining === 0) this.state = 'chunk-end';
        continue;
      }
      if (this.state === 'chunk-size' || this.state === 'chunk-end') {
        const joined = this.head ? Buffer.concat([this.head, TypedArrayPrototypeSubarray(buf, pos)]) : TypedArrayPrototypeSubarray(buf, pos);
        const start = this.head ? GetLength(this.head) : 0;
        const eol = BufferPrototypeIndexOf(joined, '\r\n', 0, 'latin1');
        if (eol === -1) {
          if (GetLength(joined) > 1024) throw parseError('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
          this.head = Buffer.from(joined);
          return GetLength(buf);
        }
        this.head = null;
        pos += eol + 2 - start;
        if (this.state === 'chunk-end') {
          if (eol !== 0) throw parseError('HPE_STRICT', 'Expected LF after chunk data');
          this.state = 'chunk-size';
          continue;
        }
        const line = BufferPrototypeToString(joined, 'latin1', 0, eol);
        const hex = StringPrototypeTrim(StringPrototypeSplit(line, ';')[0]);
        if (!(RegExpPrototypeExec(/^[0-9a-fA-F]{1,15}$/, hex) !== null)) throw parseError('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
        const size = parseInt(hex, 16);
        if (size === 0) this.state = 'trailers';
        else {
          this.remaining = size;
          this.state = 'body';
        }
        continue;
      }
      throw parseError('HPE_CLOSED_CONNECTION', 'Data after `Connection: close`');
    }
    return pos;
  }

  /** End of input: completes a body read until close; an unfinished message is an error. */
  finish() {
    if (this.state === 'body' && this.mode === 'eof') {
      this.state = 'head';
      this.h.onComplete([]);
      return null;
    }
    if (this.state === 'head' && !this.head) return null;
    return parseError('HPE_INVALID_EOF_STATE', 'Invalid EOF state');
  }

  headerLines(lines) {
    const raw = [];
    for (const line of new SafeArrayIterator(lines)) {
      const colon = StringPrototypeIndexOf(line, ':');
      if (colon <= 0) throw parseError('HPE_INVALID_HEADER_TOKEN', 'Invalid header token');
      const name = StringPrototypeSlice(line, 0, colon);
      if (!(RegExpPrototypeExec(TOKEN, name) !== null)) throw parseError('HPE_INVALID_HEADER_TOKEN', 'Invalid header token');
      const value = StringPrototypeReplace(StringPrototypeSlice(line, colon + 1), OWS_ENDS, '');
      if (RegExpPrototypeExec(BAD_VALUE, value) !== null) throw parseError('HPE_INVALID_HEADER_TOKEN', 'Invalid header value char');
      ArrayPrototypePush(raw, name, value);
    }
    return raw;
  }

  /** A message's head; true when the message is complete already (no body). */
  message(text) {
    const lines = StringPrototypeSplit(text, '\r\n');
    const first = ArrayPrototypeShift(lines);
    const info = { method: null, url: null, statusCode: 0, statusMessage: '', versionMajor: 1, versionMinor: 1, rawHeaders: null, upgrade: false, shouldKeepAlive: false };
    if (this.kind === 'request') {
      const m = RegExpPrototypeExec(REQUEST_LINE, first);
      if (!m) throw parseError((RegExpPrototypeExec(/^\S+ \S+ /, first) !== null) ? 'HPE_INVALID_VERSION' : 'HPE_INVALID_METHOD', (RegExpPrototypeExec(/^\S+ \S+ /, first) !== null) ? 'Invalid HTTP version' : 'Invalid method encountered');
      info.method = m[1];
      info.url = m[2];
      info.versionMajor = +m[3];
      info.versionMinor = +m[4];
    } else {
      const m = RegExpPrototypeExec(STATUS_LINE, first);
      if (!m) throw parseError('HPE_INVALID_CONSTANT', 'Expected HTTP/');
      info.versionMajor = +m[1];
      info.versionMinor = +m[2];
      info.statusCode = +m[3];
      info.statusMessage = m[4] || '';
    }
    const raw = this.headerLines(lines);
    info.rawHeaders = raw;
    let length = -1;
    let chunked = false;
    let connection = '';
    let hasUpgrade = false;
    for (let i = 0; i < raw.length; i += 2) {
      const name = StringPrototypeToLowerCase(raw[i]);
      const value = raw[i + 1];
      if (name === 'content-length') {
        if (!(RegExpPrototypeExec(/^\d+$/, value) !== null) || (length !== -1 && length !== +value)) throw parseError('HPE_INVALID_CONTENT_LENGTH', 'Invalid character in Content-Length');
        length = +value;
      } else if (name === 'transfer-encoding') {
        chunked = (RegExpPrototypeExec(/(?:^|,)\s*chunked\s*$/i, value) !== null);
        if (!chunked && this.kind === 'request') throw parseError('HPE_INVALID_TRANSFER_ENCODING', 'Request has invalid `Transfer-Encoding`');
      } else if (name === 'connection') connection += `,${StringPrototypeToLowerCase(value)}`;
      else if (name === 'upgrade') hasUpgrade = true;
    }
    if (chunked && length !== -1) throw parseError('HPE_UNEXPECTED_CONTENT_LENGTH', 'Content-Length can\'t be present with Transfer-Encoding');
    const tokens = ArrayPrototypeMap(StringPrototypeSplit(connection, ','), (s) => StringPrototypeTrim(s));
    const http11 = info.versionMajor === 1 && info.versionMinor >= 1;
    info.shouldKeepAlive = http11 ? !ArrayPrototypeIncludes(tokens, 'close') : ArrayPrototypeIncludes(tokens, 'keep-alive');
    info.upgrade = (hasUpgrade && ArrayPrototypeIncludes(tokens, 'upgrade')) || info.method === 'CONNECT';
    if (this.kind === 'response' && info.upgrade) info.upgrade = info.statusCode === 101;
    this.info = info;
    const skipBody = this.h.onHeaders(info) === true;
    const s = info.statusCode;
    if (info.upgrade || skipBody || (this.kind === 'response' && ((s >= 100 && s < 200) || s === 204 || s === 304))) {
      // An informational status is followed by the real response.
      if (this.kind === 'response' && s >= 100 && s < 200 && s !== 101) return false;
      this.h.onComplete([]);
      return true;
    }
    if (chunked) {
      this.mode = 'chunked';
      this.state = 'chunk-size';
      return false;
    }
    if (length > 0) {
      this.mode = 'length';
      this.remaining = length;
      this.state = 'body';
      return false;
    }
    if (length === -1 && this.kind === 'response') {
      this.mode = 'eof';
      info.shouldKeepAlive = false;
      this.remaining = Infinity;
      this.state = 'body';
      return false;
    }
    this.h.onComplete([]);
    return true;
  }
}

module.exports = { HTTPParser, TOKEN, BAD_VALUE };
