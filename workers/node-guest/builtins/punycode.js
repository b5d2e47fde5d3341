// `punycode` (deprecated in Node): RFC 3492's Punycode and its IDNA mapping of domain labels, the API and the
// behaviour of the punycode.js that Node bundles (its error messages, lone surrogates kept), which
// packages still reach by `require('punycode')` (a builtin is found before node_modules), `ucs2` included.
'use strict';

const {
  ArrayPrototypeJoin, ArrayPrototypePush, ArrayPrototypeSplice,
  MathFloor,
  RangeError,
  ReflectApply,
  RegExpPrototypeExec,
  StringFromCharCode, StringFromCodePoint,
  StringPrototypeCharCodeAt, StringPrototypeLastIndexOf, StringPrototypeReplace, StringPrototypeSlice, StringPrototypeSplit, StringPrototypeToLowerCase,
  hardenRegExp,
} = require('internal/primordials');

const maxInt = 2147483647;
const base = 36;
const tMin = 1;
const tMax = 26;
const skew = 38;
const damp = 700;
const initialBias = 72;
const initialN = 128;
const delimiter = '-';
const baseMinusTMin = base - tMin;

const ERRORS = {
  __proto__: null,
  'overflow': 'Overflow: input needs wider integers to process',
  'not-basic': 'Illegal input >= 0x80 (not a basic code point)',
  'invalid-input': 'Invalid input',
};
function error(type) {
  throw new RangeError(ERRORS[type]);
}

/** Each label of a domain (or of an email address's domain part) through `fn`, the IDNA separators made dots. */
function mapDomain(string, fn) {
  const parts = StringPrototypeSplit(string, '@');
  let result = '';
  let domain = string;
  if (parts.length > 1) {
    result = `${parts[0]}@`;
    domain = parts[1];
  }
  domain = StringPrototypeReplace(domain, hardenRegExp(/[\x2E\u3002\uFF0E\uFF61]/g), '\x2E');
  const labels = StringPrototypeSplit(domain, '.');
  const mapped = [];
  for (let i = 0; i < labels.length; i++) ArrayPrototypePush(mapped, fn(labels[i]));
  return result + ArrayPrototypeJoin(mapped, '.');
}

/** The code points of a string, a surrogate pair as one, a lone surrogate as itself. */
function ucs2decode(string) {
  const output = [];
  const length = string.length;
  let counter = 0;
  while (counter < length) {
    const value = StringPrototypeCharCodeAt(string, counter++);
    if (value >= 0xD800 && value <= 0xDBFF && counter < length) {
      const extra = StringPrototypeCharCodeAt(string, counter++);
      if ((extra & 0xFC00) === 0xDC00) {
        ArrayPrototypePush(output, ((value & 0x3FF) << 10) + (extra & 0x3FF) + 0x10000);
      } else {
        // A high surrogate not followed by a low one: keep it, and read the next unit again.
        ArrayPrototypePush(output, value);
        counter--;
      }
    } else {
      ArrayPrototypePush(output, value);
    }
  }
  return output;
}

const ucs2encode = (codePoints) => ReflectApply(StringFromCodePoint, undefined, codePoints);

function basicToDigit(codePoint) {
  if (codePoint >= 0x30 && codePoint < 0x3A) return 26 + (codePoint - 0x30);
  if (codePoint >= 0x41 && codePoint < 0x5B) return codePoint - 0x41;
  if (codePoint >= 0x61 && codePoint < 0x7B) return codePoint - 0x61;
  return base;
}

const digitToBasic = (digit, flag) => digit + 22 + 75 * (digit < 26) - ((flag !== 0) << 5);

function adapt(delta, numPoints, firstTime) {
  let k = 0;
  delta = firstTime ? MathFloor(delta / damp) : delta >> 1;
  delta += MathFloor(delta / numPoints);
  for (; delta > (baseMinusTMin * tMax) >> 1; k += base) delta = MathFloor(delta / baseMinusTMin);
  return MathFloor(k + ((baseMinusTMin + 1) * delta) / (delta + skew));
}

/** A Punycode string of ASCII-only symbols to the string of Unicode symbols it encodes. */
function decode(input) {
  const output = [];
  const inputLength = input.length;
  let i = 0;
  let n = initialN;
  let bias = initialBias;
  let basic = StringPrototypeLastIndexOf(input, delimiter);
  if (basic < 0) basic = 0;
  for (let j = 0; j < basic; ++j) {
    if (StringPrototypeCharCodeAt(input, j) >= 0x80) error('not-basic');
    ArrayPrototypePush(output, StringPrototypeCharCodeAt(input, j));
  }
  for (let index = basic > 0 ? basic + 1 : 0; index < inputLength;) {
    const oldi = i;
    for (let w = 1, k = base; ; k += base) {
      if (index >= inputLength) error('invalid-input');
      const digit = basicToDigit(StringPrototypeCharCodeAt(input, index++));
      if (digit >= base) error('invalid-input');
      if (digit > MathFloor((maxInt - i) / w)) error('overflow');
      i += digit * w;
      const t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias);
      if (digit < t) break;
      const baseMinusT = base - t;
      if (w > MathFloor(maxInt / baseMinusT)) error('overflow');
      w *= baseMinusT;
    }
    const out = output.length + 1;
    bias = adapt(i - oldi, out, oldi === 0);
    if (MathFloor(i / out) > maxInt - n) error('overflow');
    n += MathFloor(i / out);
    i %= out;
    ArrayPrototypeSplice(output, i++, 0, n);
  }
  return ucs2encode(output);
}

/** A string of Unicode symbols to its Punycode string of ASCII-only symbols. */
function encode(string) {
  const output = [];
  const input = ucs2decode(string);
  const inputLength = input.length;
  let n = initialN;
  let delta = 0;
  let bias = initialBias;
  for (let j = 0; j < inputLength; j++) {
    if (input[j] < 0x80) ArrayPrototypePush(output, StringFromCharCode(input[j]));
  }
  const basicLength = output.length;
  let handledCPCount = basicLength;
  if (basicLength) ArrayPrototypePush(output, delimiter);
  while (handledCPCount < inputLength) {
    let m = maxInt;
    for (let j = 0; j < inputLength; j++) {
      if (input[j] >= n && input[j] < m) m = input[j];
    }
    const handledCPCountPlusOne = handledCPCount + 1;
    if (m - n > MathFloor((maxInt - delta) / handledCPCountPlusOne)) error('overflow');
    delta += (m - n) * handledCPCountPlusOne;
    n = m;
    for (let j = 0; j < inputLength; j++) {
      const currentValue = input[j];
      if (currentValue < n && ++delta > maxInt) error('overflow');
      if (currentValue === n) {
        let q = delta;
        for (let k = base; ; k += base) {
          const t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias);
          if (q < t) break;
          const qMinusT = q - t;
          const baseMinusT = base - t;
          ArrayPrototypePush(output, StringFromCharCode(digitToBasic(t + (qMinusT % baseMinusT), 0)));
          q = MathFloor(qMinusT / baseMinusT);
        }
        ArrayPrototypePush(output, StringFromCharCode(digitToBasic(q, 0)));
        bias = adapt(delta, handledCPCountPlusOne, handledCPCount === basicLength);
        delta = 0;
        ++handledCPCount;
      }
    }
    ++delta;
    ++n;
  }
  return ArrayPrototypeJoin(output, '');
}

/** A domain or email address whose `xn--` labels are made Unicode. */
const toUnicode = (input) => mapDomain(input, (label) => (RegExpPrototypeExec(/^xn--/, label) !== null ? decode(StringPrototypeToLowerCase(StringPrototypeSlice(label, 4))) : label));

/** A domain or email address whose non-ASCII labels are made `xn--` Punycode. */
const toASCII = (input) => mapDomain(input, (label) => (RegExpPrototypeExec(/[^\0-\x7F]/, label) !== null ? `xn--${encode(label)}` : label));

module.exports = {
  version: '2.1.0',
  ucs2: { decode: ucs2decode, encode: ucs2encode },
  decode,
  encode,
  toASCII,
  toUnicode,
};
