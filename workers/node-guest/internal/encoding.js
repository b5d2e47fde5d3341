// TextEncoder and TextDecoder of the guest's realm. UTF-8 is the host's work for text that fits the scratch
// buffer (one crossing each way); the other encodings Node's TextDecoder knows are decoded by Buffer.
'use strict';

const {
  ArrayBufferIsView,
  MathMin,
  RangeError,
  SymbolToStringTag,
  TypeError,
  Uint8Array,
  StringPrototypeCharCodeAt, StringPrototypeToLowerCase, StringPrototypeTrim,
  StringPrototypeIncludes, StringPrototypeSlice, TypedArrayPrototypeSubarray,
  TypedArrayPrototypeSet,
  TypedArrayPrototypeSlice,
  GetBuffer,
  GetByteOffset,
  GetLength,
  GetByteLength,
} = require('internal/primordials');

const host = internal.host;
const { codeError } = require('internal/errors');

function encodeUtf8(text) {
  const n = text.length * 3 <= internal.scratchBytes ? host('encodeUtf8', text) : -1;
  if (typeof n === 'number' && n >= 0) return internal.scratchCopy(n);
  const { Buffer } = require('buffer');
  const b = Buffer.from(text, 'utf8');
  return new Uint8Array(GetBuffer(b), GetByteOffset(b), GetLength(b));
}

class TextEncoder {
  get encoding() {
    return 'utf-8';
  }
  encode(input = '') {
    return encodeUtf8(`${input}`);
  }
  encodeInto(src, dest) {
    const bytes = encodeUtf8(`${src}`);
    let n = MathMin(GetLength(bytes), GetLength(dest));
    // Never split a character.
    while (n > 0 && n < GetLength(bytes) && (bytes[n] & 0xc0) === 0x80) n--;
    TypedArrayPrototypeSet(dest, TypedArrayPrototypeSubarray(bytes, 0, n));
    let read = 0;
    for (let i = 0; i < n; i++) if ((bytes[i] & 0xc0) !== 0x80) read += bytes[i] >= 0xf0 ? 2 : 1;
    return { read, written: n };
  }
  get [SymbolToStringTag]() {
    return 'TextEncoder';
  }
}

const LABELS = { 'utf-8': 'utf-8', utf8: 'utf-8', 'unicode-1-1-utf-8': 'utf-8', 'utf-16le': 'utf-16le', 'utf-16': 'utf-16le', latin1: 'windows-1252', 'iso-8859-1': 'windows-1252', ascii: 'windows-1252', 'us-ascii': 'windows-1252', 'windows-1252': 'windows-1252' };

class TextDecoder {
  constructor(label = 'utf-8', options = {}) {
    const enc = LABELS[StringPrototypeToLowerCase(StringPrototypeTrim(`${label}`))];
    if (!enc) throw codeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', `The "${label}" encoding is not supported`);
    this._encoding = enc;
    this._fatal = !!options.fatal;
    this._ignoreBOM = !!options.ignoreBOM;
    this._pending = null;
  }
  get encoding() {
    return this._encoding;
  }
  get fatal() {
    return this._fatal;
  }
  get ignoreBOM() {
    return this._ignoreBOM;
  }
  decode(input, options = {}) {
    let bytes = input === undefined ? new Uint8Array(0) : ArrayBufferIsView(input) ? new Uint8Array(GetBuffer(input), GetByteOffset(input), GetByteLength(input)) : new Uint8Array(input);
    if (this._pending) {
      const joined = new Uint8Array(GetLength(this._pending) + GetLength(bytes));
      TypedArrayPrototypeSet(joined, this._pending);
      TypedArrayPrototypeSet(joined, bytes, GetLength(this._pending));
      bytes = joined;
      this._pending = null;
    }
    if (this._encoding !== 'utf-8') {
      const { Buffer } = require('buffer');
      return Buffer.from(bytes).toString(this._encoding === 'utf-16le' ? 'utf16le' : 'latin1');
    }
    if (options.stream) {
      // Keep an incomplete character at the end for the next call.
      let end = GetLength(bytes);
      let i = end - 1;
      while (i >= 0 && i > end - 4 && (bytes[i] & 0xc0) === 0x80) i--;
      if (i >= 0) {
        const b = bytes[i];
        const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
        if (end - i < need) {
          this._pending = TypedArrayPrototypeSlice(bytes, i);
          bytes = TypedArrayPrototypeSubarray(bytes, 0, i);
        }
      }
    }
    let text = '';
    for (let off = 0, n = 0; off < GetLength(bytes); off += n) {
      n = MathMin(internal.scratchBytes, GetLength(bytes) - off);
      // A piece ends on a character's boundary.
      while (off + n < GetLength(bytes) && n > 0 && (bytes[off + n] & 0xc0) === 0x80) n--;
      internal.toScratch(bytes, off, off + n);
      text += host('decodeUtf8', n);
    }
    if (this._fatal && StringPrototypeIncludes(text, '\ufffd')) throw codeError(TypeError, 'ERR_ENCODING_INVALID_ENCODED_DATA', 'The encoded data was not valid for encoding utf-8');
    if (!this._ignoreBOM && StringPrototypeCharCodeAt(text, 0) === 0xfeff) text = StringPrototypeSlice(text, 1);
    return text;
  }
  get [SymbolToStringTag]() {
    return 'TextDecoder';
  }
}

module.exports = { TextEncoder, TextDecoder };
