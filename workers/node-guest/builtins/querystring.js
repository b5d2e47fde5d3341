// `querystring`: Node's legacy query-string functions.
'use strict';

const escape = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const unescape = (s) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

function stringifyPrimitive(v) {
  if (typeof v === 'string') return v;
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'bigint') return `${v}`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

function stringify(obj, sep = '&', eq = '=', options) {
  const enc = (options && options.encodeURIComponent) || module.exports.escape;
  if (obj === null || typeof obj !== 'object') return '';
  const out = [];
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    const ks = enc(stringifyPrimitive(k)) + eq;
    if (Array.isArray(v)) for (const item of v) out.push(ks + enc(stringifyPrimitive(item)));
    else out.push(ks + enc(stringifyPrimitive(v)));
  }
  return out.join(sep);
}

function parse(qs, sep = '&', eq = '=', options) {
  const obj = Object.create(null);
  if (typeof qs !== 'string' || qs.length === 0) return obj;
  const dec = (options && options.decodeURIComponent) || module.exports.unescape;
  const max = options && typeof options.maxKeys === 'number' ? options.maxKeys : 1000;
  let parts = qs.split(sep);
  if (max > 0) parts = parts.slice(0, max);
  for (const part of parts) {
    if (part === '') continue;
    const i = part.indexOf(eq);
    const k = dec((i >= 0 ? part.slice(0, i) : part).replace(/\+/g, ' '));
    const v = i >= 0 ? dec(part.slice(i + eq.length).replace(/\+/g, ' ')) : '';
    if (k in obj) obj[k] = Array.isArray(obj[k]) ? [...obj[k], v] : [obj[k], v];
    else obj[k] = v;
  }
  return obj;
}

module.exports = { stringify, encode: stringify, parse, decode: parse, escape, unescape, unescapeBuffer: (s) => require('buffer').Buffer.from(unescape(String(s))) };
