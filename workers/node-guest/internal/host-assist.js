// What the host-assisted builtins (crypto, zlib) share: calling their host operations
// (workers/node-host/host-assist.ts) and rebuilding a relayed failure as an Error of this realm, passing
// arguments by layout (primitives as they are, bytes through the scratch or the pending input, other objects
// by their constructor's name), options as typed text entries, and receiving output bytes.
'use strict';

const {
  JSONParse,
  ObjectDefineProperty,
  ArrayBuffer,
  ArrayBufferIsView,
  Error,
  ErrorCaptureStackTrace,
  SharedArrayBuffer,
  Uint8Array,
  ArrayPrototypePush,
  StringPrototypeIndexOf,
  StringPrototypeReplace,
  StringPrototypeSlice,
  StringPrototypeStartsWith,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  GetLength,
} = require('internal/primordials');

const { Buffer } = require('buffer');
const { codeError } = require('internal/errors');
const host = internal.host;
const sys = internal.sys;
const isFailure = internal.isFailure;
const captureStackTrace = ErrorCaptureStackTrace;

const setProp = (o, k, v) => ObjectDefineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });

/** A relayed failure (host-assist.ts relayError) rebuilt here: Node's class, message, code and properties. */
function hostError(r, skip) {
  const sep = StringPrototypeIndexOf(r, '\0', 2);
  if (sep < 0) return codeError(Error, StringPrototypeSlice(r, 2), `${StringPrototypeSlice(r, 2)}: operation failed`);
  const parsed = JSONParse(StringPrototypeSlice(r, sep + 1));
  const name = parsed[0];
  const message = parsed[1];
  const coded = parsed[2];
  const props = parsed[3];
  const e = new (name === 'RangeError' ? RangeError : name === 'TypeError' ? TypeError : Error)(message);
  for (let i = 0; i < props.length; i++) setProp(e, props[i][0], props[i][1]);
  // The stack starts at the API the guest called, as Node's.
  if (typeof captureStackTrace === 'function') captureStackTrace(e, skip);
  if (coded && typeof e.stack === 'string' && StringPrototypeStartsWith(e.stack, `${name}: `)) e.stack = `${name} [${e.code}]${StringPrototypeSlice(e.stack, name.length)}`;
  return e;
}

/** A host operation's result; its failure thrown as the guest's Error. */
function call(op, a, b, c, d, e, f) {
  const r = host(op, a, b, c, d, e, f);
  if (isFailure(r)) throw hostError(r, call);
  return r;
}

const ctorName = (v) => {
  try {
    const n = v.constructor && v.constructor.name;
    return typeof n === 'string' ? n : 'Object';
  } catch {
    return 'Object';
  }
};

const bytesOf = (v) => (ArrayBufferIsView(v) ? new Uint8Array(GetBuffer(v), GetByteOffset(v), GetByteLength(v)) : new Uint8Array(v));
const isSharedBuffer = (v) => typeof SharedArrayBuffer === 'function' && v instanceof SharedArrayBuffer;

/**
 * Arguments for a host op's layout: primitives as they are (Node validates them), bytes through the scratch
 * (a single one that fits) or the pending input, other objects by their constructor's name. `arrayBuffers`
 * false sends ArrayBuffers as objects, for the APIs of Node that refuse them.
 */
function pack(values, arrayBuffers = true) {
  let layout = '';
  const args = [];
  const bytes = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) {
      layout += 'p';
      ArrayPrototypePush(args, v);
    } else if (ArrayBufferIsView(v) || (arrayBuffers && (v instanceof ArrayBuffer || isSharedBuffer(v)))) {
      const u8 = bytesOf(v);
      layout += 'b';
      ArrayPrototypePush(args, GetLength(u8));
      ArrayPrototypePush(bytes, u8);
    } else {
      layout += 'o';
      ArrayPrototypePush(args, ctorName(v));
    }
  }
  if (bytes.length === 1 && GetLength(bytes[0]) <= internal.scratchBytes) {
    layout = StringPrototypeReplace(layout, 'b', 's');
    internal.toScratch(bytes[0]);
  } else for (let i = 0; i < bytes.length; i++) if (GetLength(bytes[i]) > 0) sys.put(bytes[i]);
  return [layout, args];
}

/** One option as host-assist.ts's decodeOptions reads it: [key, type, value as text]; undefined when unset. */
function optionEntry(k, v) {
  const t = typeof v;
  if (t === 'number') return [k, 'n', `${v}`];
  if (t === 'string') return [k, 's', v];
  if (t === 'boolean') return [k, 'b', `${v}`];
  if (t === 'bigint') return [k, 'i', `${v}`];
  if (v === null) return [k, 'z', ''];
  if (v !== undefined) return [k, 'o', ctorName(v)];
  return undefined;
}

/** `n` bytes of output: from the scratch when they fit, else taken in pieces. A new Buffer. */
function receive(n) {
  if (n <= internal.scratchBytes) {
    const u8 = internal.scratchCopy(n);
    return Buffer.from(GetBuffer(u8), GetByteOffset(u8), GetLength(u8));
  }
  const u8 = sys.take(n);
  return Buffer.from(GetBuffer(u8), GetByteOffset(u8), GetLength(u8));
}

module.exports = { call, hostError, ctorName, bytesOf, pack, optionEntry, receive };
