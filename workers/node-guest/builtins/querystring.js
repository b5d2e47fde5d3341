// `querystring`: Node's legacy query-string functions.
'use strict';

const {
  ArrayIsArray,
  NumberIsFinite,
  ObjectCreate,
  ObjectKeys,
  String,
  decodeURIComponent,
  encodeURIComponent,
  ArrayPrototypeConcat,
  ArrayPrototypeJoin,
  ArrayPrototypePush,
  ArrayPrototypeSlice,
  NumberPrototypeToString,
  StringPrototypeCharCodeAt,
  StringPrototypeIndexOf,
  StringPrototypeReplace,
  StringPrototypeSlice,
  StringPrototypeSplit,
  StringPrototypeToUpperCase,
  hardenRegExp,
} = require('internal/primordials');

// Made once: a hardened regex (its own exec, flags and symbol methods) costs a few property definitions.
const QS_RESERVED = hardenRegExp(/[!'()*]/g);
const PLUS = hardenRegExp(/\+/g);

const escape = (s) => StringPrototypeReplace(encodeURIComponent(s), QS_RESERVED, (c) => `%${StringPrototypeToUpperCase(NumberPrototypeToString(StringPrototypeCharCodeAt(c, 0), 16))}`);
const unescape = (s) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

function stringifyPrimitive(v) {
  if (typeof v === 'string') return v;
  if ((typeof v === 'number' && NumberIsFinite(v)) || typeof v === 'bigint') return `${v}`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

function stringify(obj, sep = '&', eq = '=', options) {
  const enc = (options && options.encodeURIComponent) || module.exports.escape;
  if (obj === null || typeof obj !== 'object') return '';
  const out = [];
  const keys = ObjectKeys(obj);
  for (let n = 0; n < keys.length; n++) {
    const k = keys[n];
    const v = obj[k];
    const ks = enc(stringifyPrimitive(k)) + eq;
    if (ArrayIsArray(v)) for (let i = 0; i < v.length; i++) ArrayPrototypePush(out, ks + enc(stringifyPrimitive(v[i])));
    else ArrayPrototypePush(out, ks + enc(stringifyPrimitive(v)));
  }
  return ArrayPrototypeJoin(out, sep);
}

function parse(qs, sep = '&', eq = '=', options) {
  const obj = ObjectCreate(null);
  if (typeof qs !== 'string' || qs.length === 0) return obj;
  const dec = (options && options.decodeURIComponent) || module.exports.unescape;
  const max = options && typeof options.maxKeys === 'number' ? options.maxKeys : 1000;
  let parts = StringPrototypeSplit(qs, sep);
  if (max > 0) parts = ArrayPrototypeSlice(parts, 0, max);
  for (let n = 0; n < parts.length; n++) {
    const part = parts[n];
    if (part === '') continue;
    const i = StringPrototypeIndexOf(part, eq);
    const k = dec(StringPrototypeReplace(i >= 0 ? StringPrototypeSlice(part, 0, i) : part, PLUS, ' '));
    const v = i >= 0 ? dec(StringPrototypeReplace(StringPrototypeSlice(part, i + eq.length), PLUS, ' ')) : '';
    if (k in obj) obj[k] = ArrayIsArray(obj[k]) ? ArrayPrototypeConcat(obj[k], [v]) : [obj[k], v];
    else obj[k] = v;
  }
  return obj;
}

module.exports = { stringify, encode: stringify, parse, decode: parse, escape, unescape, unescapeBuffer: (s) => require('buffer').Buffer.from(unescape(String(s))) };
