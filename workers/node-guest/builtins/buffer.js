// `buffer`: the npm port of Node's Buffer, completed with what it lacks (base64url, constants, atob/btoa,
// isUtf8, isAscii).
'use strict';

const {
  MathFloor,
  MathAbs,
  NumberIsInteger,
  ReflectApply,
  ObjectDefineProperty,
  ReflectOwnKeys,
  ObjectGetOwnPropertyDescriptor,
  ArrayBuffer,
  ArrayBufferIsView,
  DateNow,
  Error,
  MathMax,
  MathMin,
  MathTrunc,
  ObjectAssign,
  ObjectGetPrototypeOf,
  PromiseResolve,
  RangeError,
  String,
  SymbolFor,
  SymbolIterator,
  SymbolToStringTag,
  TypeError,
  Uint8Array,
  ArrayPrototypePush,
  ArrayPrototypeSlice,
  RegExpPrototypeExec,
  StringPrototypeIndexOf,
  StringPrototypeReplace,
  StringPrototypeSlice,
  StringPrototypeToLowerCase,
  StringPrototypeTrim,
  TypedArrayPrototypeSet,
  TypedArrayPrototypeSubarray,
  SafeArrayIterator,
  ArrayBufferPrototypeSlice, DataViewPrototypeGetBuffer, DataViewPrototypeGetByteLength, DataViewPrototypeGetByteOffset,
  TypedArrayPrototypeGetBuffer, TypedArrayPrototypeGetByteLength, TypedArrayPrototypeGetByteOffset, TypedArrayPrototypeGetSymbolToStringTag, TypedArrayPrototypeSlice,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  GetLength,
  hardenRegExp,
} = require('internal/primordials');

const buffer = internal.require('npm-buffer');
const { Buffer } = buffer;

const ObjectDefinePropertyEarly = ObjectDefineProperty;
const toBase64url = (b64) => StringPrototypeReplace(StringPrototypeReplace(StringPrototypeReplace(b64, hardenRegExp(/\+/g), '-'), hardenRegExp(/\//g), '_'), hardenRegExp(/=+$/), '');
const fromBase64url = (s) => StringPrototypeReplace(StringPrototypeReplace(s, hardenRegExp(/-/g), '+'), hardenRegExp(/_/g), '/');

const toString = Buffer.prototype.toString;
Buffer.prototype.toString = function (encoding, start, end) {
  if (typeof encoding === 'string' && StringPrototypeToLowerCase(encoding) === 'base64url') return toBase64url(ReflectApply(toString, this, ['base64', start, end]));
  return ReflectApply(toString, this, arguments);
};
const from = Buffer.from;
Buffer.from = function (value, encoding, length) {
  if (typeof value === 'string' && typeof encoding === 'string' && StringPrototypeToLowerCase(encoding) === 'base64url') return ReflectApply(from, this, [fromBase64url(value), 'base64']);
  return ReflectApply(from, this, arguments);
};
const isEncoding = Buffer.isEncoding;
Buffer.isEncoding = (encoding) => (typeof encoding === 'string' && StringPrototypeToLowerCase(encoding) === 'base64url') || isEncoding(encoding);
const byteLength = Buffer.byteLength;
Buffer.byteLength = function (value, encoding) {
  if (typeof value === 'string' && typeof encoding === 'string' && StringPrototypeToLowerCase(encoding) === 'base64url') return byteLength(fromBase64url(value), 'base64');
  return ReflectApply(byteLength, this, arguments);
};

// Buffer.poolSize (unused here, as in the npm port) is Node's default until a guest sets it: 65536 since Node 24,
// 8192 before. The reported version is set when the process starts, after this module loads: read it at use.
let poolSize;
ObjectDefinePropertyEarly(Buffer, 'poolSize', {
  get() {
    if (poolSize !== undefined) return poolSize;
    const version = `${require('process').versions.node}`;
    return +StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.')) >= 24 ? 65536 : 8192;
  },
  set(value) { poolSize = value; },
  enumerable: true, configurable: true,
});

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
  const bytes = new Uint8Array(GetBuffer(input) || input, GetByteOffset(input) || 0, GetByteLength(input));
  for (let i = 0; i < GetLength(bytes); i++) if (bytes[i] > 0x7f) return false;
  return true;
};
buffer.kStringMaxLength = buffer.constants.MAX_STRING_LENGTH;

// ---- Node's range checks of the read/write methods (lib/internal/buffer.js): ERR_OUT_OF_RANGE,
// ERR_BUFFER_OUT_OF_BOUNDS, ERR_INVALID_ARG_TYPE instead of the npm port's uncoded RangeErrors.
const { codeError, invalidArgType } = require('internal/errors');
const StringCtor = String;
const RangeErrorCtor = RangeError;
let utilInspect;
const inspectValue = (v) => {
  if (utilInspect === undefined) utilInspect = require('util').inspect;
  return utilInspect(v);
};

function addNumericalSeparator(val) {
  let res = '';
  let i = val.length;
  const start = val[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) res = `_${StringPrototypeSlice(val, i - 3, i)}${res}`;
  return `${StringPrototypeSlice(val, 0, i)}${res}`;
}
function outOfRange(name, range, input) {
  let received;
  if (NumberIsInteger(input) && MathAbs(input) > 2 ** 32) {
    received = addNumericalSeparator(StringCtor(input));
  } else if (typeof input === 'bigint') {
    received = StringCtor(input);
    if (input > 2n ** 32n || input < -(2n ** 32n)) received = addNumericalSeparator(received);
    received += 'n';
  } else {
    received = inspectValue(input);
  }
  return codeError(RangeErrorCtor, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be ${range}. Received ${received}`);
}
function validateNumber(value, name) {
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
}
function boundsError(value, length, type) {
  if (MathFloor(value) !== value) {
    validateNumber(value, type || 'offset');
    throw outOfRange(type || 'offset', 'an integer', value);
  }
  if (length < 0) throw codeError(RangeErrorCtor, 'ERR_BUFFER_OUT_OF_BOUNDS', 'Attempt to access memory outside buffer bounds');
  throw outOfRange(type || 'offset', `>= ${type ? 1 : 0} and <= ${length}`, value);
}
/** `last`: the size in bytes less one, as Node passes it. */
function checkBounds(buf, offset, last) {
  validateNumber(offset, 'offset');
  if (buf[offset] === undefined || buf[offset + last] === undefined) boundsError(offset, buf.length - (last + 1));
}
function checkInt(value, min, max, buf, offset, last) {
  if (value > max || value < min) {
    const n = typeof min === 'bigint' ? 'n' : '';
    let range;
    if (last > 3) {
      const bits = (last + 1) * 8;
      range = min === 0 || min === 0n
        ? `>= 0${n} and < 2${n} ** ${bits}${n}`
        : `>= -(2${n} ** ${bits - 1}${n}) and < 2${n} ** ${bits - 1}${n}`;
    } else {
      range = `>= ${min}${n} and <= ${max}${n}`;
    }
    throw outOfRange('value', range, value);
  }
  checkBounds(buf, offset, last);
}
function checkByteLength(byteLength) {
  if (typeof byteLength !== 'number' || !NumberIsInteger(byteLength) || byteLength < 1 || byteLength > 6) boundsError(byteLength, 6, 'byteLength');
}

const proto = Buffer.prototype;
/** Replaces a method (and its alias spelled Uint) by `make(original)`, keeping its name and length. */
function replace(name, make) {
  const original = proto[name];
  if (typeof original !== 'function') return;
  const fn = make(original);
  ObjectDefineProperty(fn, 'name', { value: name, configurable: true });
  for (const key of new SafeArrayIterator([name, StringPrototypeReplace(name, 'UInt', 'Uint')])) {
    if (proto[key] === original || key === name) ObjectDefineProperty(proto, key, { value: fn, writable: true, enumerable: true, configurable: true });
  }
}
const fixed = [['8', 1], ['16LE', 2], ['16BE', 2], ['32LE', 4], ['32BE', 4]];
for (const entry$177 of new SafeArrayIterator(fixed)) { const suffix = entry$177[0], size = entry$177[1];
  for (const signed of new SafeArrayIterator([false, true])) {
    const bits = size * 8;
    const min = signed ? -(2 ** (bits - 1)) : 0;
    const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    const kind = signed ? 'Int' : 'UInt';
    replace(`read${kind}${suffix}`, (original) => function (offset = 0) {
      checkBounds(this, offset, size - 1);
      return ReflectApply(original, this, [offset, true]);
    });
    replace(`write${kind}${suffix}`, (original) => function (value, offset = 0) {
      value = +value;
      if (size === 1) validateNumber(offset, 'offset');
      checkInt(value, min, max, this, offset, size - 1);
      return ReflectApply(original, this, [value, offset, true]);
    });
  }
}
for (const entry$195 of new SafeArrayIterator([['FloatLE', 4], ['FloatBE', 4], ['DoubleLE', 8], ['DoubleBE', 8]])) { const name = entry$195[0], size = entry$195[1];
  replace(`read${name}`, (original) => function (offset = 0) {
    checkBounds(this, offset, size - 1);
    return ReflectApply(original, this, [offset, true]);
  });
  replace(`write${name}`, (original) => function (value, offset = 0) {
    value = +value;
    checkBounds(this, offset, size - 1);
    return ReflectApply(original, this, [value, offset, true]);
  });
}
for (const entry$206 of new SafeArrayIterator([['BigUInt64', 0n, 2n ** 64n - 1n], ['BigInt64', -(2n ** 63n), 2n ** 63n - 1n]])) { const kind = entry$206[0], min = entry$206[1], max = entry$206[2];
  for (const end of new SafeArrayIterator(['LE', 'BE'])) {
    replace(`read${kind}${end}`, (original) => function (offset = 0) {
      checkBounds(this, offset, 7);
      return ReflectApply(original, this, [offset]);
    });
    replace(`write${kind}${end}`, (original) => function (value, offset = 0) {
      checkInt(value, min, max, this, offset, 7);
      return ReflectApply(original, this, [value, offset]);
    });
  }
}
for (const end of new SafeArrayIterator(['LE', 'BE'])) {
  for (const signed of new SafeArrayIterator([false, true])) {
    const kind = signed ? 'Int' : 'UInt';
    replace(`read${kind}${end}`, (original) => function (offset, byteLength) {
      if (offset === undefined) throw invalidArgType('offset', 'of type number', offset);
      checkByteLength(byteLength);
      checkBounds(this, offset, byteLength - 1);
      return ReflectApply(original, this, [offset, byteLength, true]);
    });
    replace(`write${kind}${end}`, (original) => function (value, offset, byteLength) {
      checkByteLength(byteLength);
      value = +value;
      const bits = byteLength * 8;
      const min = signed ? -(2 ** (bits - 1)) : 0;
      const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
      if (byteLength === 1) validateNumber(offset, 'offset');
      checkInt(value, min, max, this, offset, byteLength - 1);
      return ReflectApply(original, this, [value, offset, byteLength, true]);
    });
  }
}

// ---- inspect as Node's: `... N more bytes`, and the buffer's own non-index properties.
const customInspect = SymbolFor('nodejs.util.inspect.custom');
const isIndex = (key) => typeof key === 'string' && RegExpPrototypeExec(/^(?:0|[1-9][0-9]*)$/, key) !== null && +key < 2 ** 32 - 1;
const bufferInspect = function inspect(recurseTimes, ctx) {
  const max = buffer.INSPECT_MAX_BYTES;
  const actualMax = MathMin(max, this.length);
  const remaining = this.length - max;
  let str = StringPrototypeTrim(StringPrototypeReplace(ReflectApply(toString, this, ['hex', 0, actualMax]), hardenRegExp(/(.{2})/g), '$1 '));
  if (remaining > 0) str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
  if (ctx) {
    let extras = false;
    const obj = { __proto__: null };
    for (const key of new SafeArrayIterator(ReflectOwnKeys(this))) {
      if (isIndex(key)) continue;
      const desc = ObjectGetOwnPropertyDescriptor(this, key);
      if (!ctx.showHidden && !desc.enumerable) continue;
      extras = true;
      obj[key] = this[key];
    }
    if (extras) {
      if (this.length !== 0) str += ', ';
      if (utilInspect === undefined) utilInspect = require('util').inspect;
      // '[Object: null prototype] {'.length === 26
      str += StringPrototypeSlice(utilInspect(obj, { ...ctx, breakLength: Infinity, compact: true }), 27, -2);
    }
  }
  return `<${this.constructor.name} ${str}>`;
};
ObjectDefineProperty(proto, customInspect, { value: bufferInspect, writable: true, enumerable: true, configurable: true });
proto.inspect = bufferInspect;
// Buffer's own subarray, as Node's: a guest that replaces %TypedArray%.prototype.subarray does not change it.
ObjectDefineProperty(proto, 'subarray', { value: function subarray(start, end) { return TypedArrayPrototypeSubarray(this, start, end); }, writable: true, enumerable: true, configurable: true });

// ---- Blob and File (Node's buffer.Blob): the bytes held in memory, as the parts they were given in (a blob
// streams one chunk per part, as Node's does).
let partsOf;
const encoder = () => new TextEncoder();
/** The parts (non-empty Uint8Arrays, never shared with the guest) that `part` adds to a blob. */
function partsFrom(part) {
  if (part instanceof Blob) return partsOf(part);
  if (part instanceof ArrayBuffer) return [new Uint8Array(ArrayBufferPrototypeSlice(part, 0))];
  if (ArrayBufferIsView(part)) return [copyOfView(part)];
  return [encoder().encode(`${part}`)];
}
/** A copy of the bytes a typed array or a DataView sees (its buffer may be shared), read through the intrinsic accessors. */
function copyOfView(view) {
  const isDataView = TypedArrayPrototypeGetSymbolToStringTag(view) === undefined;
  const buffer = isDataView ? DataViewPrototypeGetBuffer(view) : TypedArrayPrototypeGetBuffer(view);
  const offset = isDataView ? DataViewPrototypeGetByteOffset(view) : TypedArrayPrototypeGetByteOffset(view);
  const length = isDataView ? DataViewPrototypeGetByteLength(view) : TypedArrayPrototypeGetByteLength(view);
  const copy = new Uint8Array(length);
  TypedArrayPrototypeSet(copy, new Uint8Array(buffer, offset, length));
  return copy;
}
function concat(parts, length) {
  const all = new Uint8Array(length);
  let at = 0;
  for (const bytes of new SafeArrayIterator(parts)) {
    TypedArrayPrototypeSet(all, bytes, at);
    at += GetLength(bytes);
  }
  return all;
}
const sequenceError = (sources) => {
  const version = `${require('process').versions.node}`;
  if (+StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.')) >= 24) return new TypeError('Value cannot be converted to sequence.');
  return invalidArgType('sources', 'a sequence', sources);
};
class Blob {
  #parts;
  #size;
  #type;
  static {
    partsOf = (blob) => blob.#parts;
  }
  constructor(sources = [], options = {}) {
    if (sources === null || typeof sources !== 'object' || typeof sources[SymbolIterator] !== 'function') throw sequenceError(sources);
    const parts = [];
    let size = 0;
    for (const source of sources) {
      for (const bytes of new SafeArrayIterator(partsFrom(source))) {
        if (GetLength(bytes) === 0) continue;
        ArrayPrototypePush(parts, bytes);
        size += GetLength(bytes);
      }
    }
    this.#parts = parts;
    this.#size = size;
    const type = options?.type === undefined ? '' : `${options.type}`;
    this.#type = RegExpPrototypeExec(/[^\u0020-\u007e]/, type) !== null ? '' : StringPrototypeToLowerCase(type);
  }
  get size() { return this.#size; }
  get type() { return this.#type; }
  slice(start = 0, end = this.size, type = '') {
    const size = this.size;
    const rel = (n) => (n < 0 ? MathMax(size + n, 0) : MathMin(n, size));
    const s = rel(MathTrunc(+start) || 0);
    const e = MathMax(s, rel(MathTrunc(+end) || 0));
    const parts = [];
    let at = 0;
    for (const bytes of new SafeArrayIterator(this.#parts)) {
      const from = MathMax(s - at, 0);
      const to = MathMin(e - at, GetLength(bytes));
      if (from < to) ArrayPrototypePush(parts, TypedArrayPrototypeSubarray(bytes, from, to));
      at += GetLength(bytes);
      if (at >= e) break;
    }
    return new Blob(parts, { type });
  }
  arrayBuffer() { return PromiseResolve(GetBuffer(concat(this.#parts, this.#size))); }
  bytes() { return PromiseResolve(concat(this.#parts, this.#size)); }
  text() { return PromiseResolve(new TextDecoder().decode(concat(this.#parts, this.#size))); }
  stream() {
    const parts = ArrayPrototypeSlice(this.#parts);
    let next = 0;
    return new (require('stream/web').ReadableStream)({
      type: 'bytes',
      pull(controller) {
        if (next < parts.length) controller.enqueue(TypedArrayPrototypeSlice(parts[next++]));
        if (next >= parts.length) controller.close();
      },
    });
  }
  get [SymbolToStringTag]() { return 'Blob'; }
  [customInspect](depth, options, inspect) {
    if (depth < 0) return options.stylize('[Blob]', 'special');
    return `Blob ${inspect({ size: this.size, type: this.type }, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}
for (const name of new SafeArrayIterator(['size', 'type', 'slice', 'arrayBuffer', 'bytes', 'text', 'stream'])) ObjectDefineProperty(Blob.prototype, name, { enumerable: true });
class File extends Blob {
  #name;
  #lastModified;
  constructor(fileBits, fileName, options = {}) {
    if (arguments.length < 2) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "fileBits" and "fileName" arguments must be specified');
    super(fileBits, options);
    this.#name = `${fileName}`;
    this.#lastModified = options?.lastModified === undefined ? DateNow() : +options.lastModified;
  }
  get name() { return this.#name; }
  get lastModified() { return this.#lastModified; }
  get [SymbolToStringTag]() { return 'File'; }
  [customInspect](depth, options, inspect) {
    if (depth < 0) return options.stylize('[File]', 'special');
    return `File ${inspect({ size: this.size, type: this.type, name: this.name, lastModified: this.lastModified }, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}
// ---- transcode: Node's over ICU, for the encodings it converts between (utf8, ucs2, latin1, ascii), with
// its substitutions: U+FFFD where UTF-8 or UTF-16 is written, '?' where latin1 or ASCII cannot hold a character.
const transcodeNames = { __proto__: null, '': 'utf8', utf8: 'utf8', 'utf-8': 'utf8', ucs2: 'ucs2', 'ucs-2': 'ucs2', utf16le: 'ucs2', 'utf-16le': 'ucs2', latin1: 'latin1', binary: 'latin1', ascii: 'ascii' };
const transcodeError = (code, errno) => ObjectAssign(new Error(`Unable to transcode Buffer [${code}]`), { code, errno });
const invalidChar = () => transcodeError('U_INVALID_CHAR_FOUND', 10);
const TypedArrayTag = ObjectGetOwnPropertyDescriptor(ObjectGetPrototypeOf(Uint8Array.prototype), SymbolToStringTag).get;

/** Calls `emit(cp)` for each code point of WHATWG's UTF-8 decoding, -1 for each maximal invalid subpart. */
function decodeUtf8(bytes, emit) {
  for (let i = 0; i < GetLength(bytes);) {
    const b = bytes[i++];
    if (b < 0x80) { emit(b); continue; }
    let need = 0;
    let cp = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; cp = b & 0xf; if (b === 0xe0) lo = 0xa0; if (b === 0xed) hi = 0x9f; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; cp = b & 7; if (b === 0xf0) lo = 0x90; if (b === 0xf4) hi = 0x8f; }
    else { emit(-1); continue; }
    for (; need > 0; need--) {
      const c = bytes[i];
      if (c === undefined || c < lo || c > hi) break;
      cp = (cp << 6) | (c & 0x3f);
      lo = 0x80;
      hi = 0xbf;
      i++;
    }
    emit(need === 0 ? cp : -1);
  }
}

buffer.transcode = function transcode(source, fromEncoding, toEncoding) {
  if (!ArrayBufferIsView(source) || ReflectApply(TypedArrayTag, source, []) !== 'Uint8Array') {
    throw invalidArgType('source', 'an instance of Buffer or Uint8Array', source);
  }
  if (source.length === 0) return Buffer.alloc(0);
  const name = (enc) => (enc == null ? 'utf8' : typeof enc === 'string' ? transcodeNames[StringPrototypeToLowerCase(enc)] : undefined);
  const from = name(fromEncoding);
  const to = name(toEncoding);
  if (from === undefined || to === undefined) throw transcodeError('U_ILLEGAL_ARGUMENT_ERROR', 1);
  // At most 3 bytes a source byte (U+FFFD for an invalid byte), 2 more for an odd last byte's.
  const out = new Uint8Array(source.length * 3 + 2);
  let n = 0;
  const limit = to === 'latin1' ? 0xff : to === 'ascii' ? 0x7f : 0x10ffff;
  // cp -1: an invalid sequence of the source, written as the target's substitute.
  const put = (cp) => {
    if (cp < 0) cp = limit === 0x10ffff ? 0xfffd : 0x3f;
    else if (cp > limit) {
      // ICU leaves out byte order marks where they cannot be written.
      if (cp === 0xfeff) return;
      cp = 0x3f;
    }
    if (to === 'ucs2') {
      if (cp > 0xffff) {
        cp -= 0x10000;
        put(0xd800 + (cp >> 10));
        cp = 0xdc00 + (cp & 0x3ff);
      }
      out[n++] = cp & 0xff;
      out[n++] = cp >> 8;
    } else if (to !== 'utf8' || cp < 0x80) out[n++] = cp;
    else {
      const extra = cp < 0x800 ? 1 : cp < 0x10000 ? 2 : 3;
      out[n++] = (cp >> (6 * extra)) | (0xf0 << (3 - extra) & 0xff);
      for (let k = extra - 1; k >= 0; k--) out[n++] = 0x80 | ((cp >> (6 * k)) & 0x3f);
    }
  };
  if (from === 'utf8') {
    // ICU's UTF-8 to UTF-16 is strict; the other targets substitute.
    decodeUtf8(source, to === 'ucs2' ? (cp) => { if (cp < 0) throw invalidChar(); put(cp); } : put);
  } else if (from === 'latin1' || from === 'ascii') {
    // ASCII bytes above 0x7f are invalid, except towards UTF-16, which widens every byte.
    const strict = from === 'ascii' && to !== 'ucs2';
    for (let i = 0; i < source.length; i++) put(strict && source[i] > 0x7f ? -1 : source[i]);
  } else {
    const units = source.length >> 1;
    // A lone surrogate fails towards UTF-8; an odd last byte is dropped, except towards UTF-16.
    if (to === 'utf8' && units === 0) throw invalidChar();
    for (let i = 0; i < units; i++) {
      const u = source[2 * i] | (source[2 * i + 1] << 8);
      const next = i + 1 < units ? source[2 * i + 2] | (source[2 * i + 3] << 8) : 0;
      if (u >= 0xd800 && u <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        put(0x10000 + ((u - 0xd800) << 10) + (next - 0xdc00));
        i++;
      } else if (u >= 0xd800 && u <= 0xdfff) {
        if (to === 'utf8') throw invalidChar();
        put(-1);
      } else put(u);
    }
    if (to === 'ucs2' && source.length % 2 === 1) put(-1);
  }
  return Buffer.from(TypedArrayPrototypeSubarray(out, 0, n));
};

buffer.Blob = Blob;
buffer.File = File;
buffer.resolveObjectURL = () => undefined;

module.exports = buffer;
