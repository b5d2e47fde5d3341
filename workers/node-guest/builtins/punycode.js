// `punycode` (deprecated in Node): domain conversion, host-assisted through the URL parser.
'use strict';

const {
  StringPrototypeSplit,
  RegExpPrototypeExec,
  ArrayPrototypeJoin, ArrayPrototypeMap,
} = require('internal/primordials');

const toASCII = (domain) => ArrayPrototypeJoin(ArrayPrototypeMap(StringPrototypeSplit(domain, '.'), (label) => ((RegExpPrototypeExec(/^[\x00-\x7f]*$/, label) !== null) ? label : new URL(`http://${label}`).hostname)), '.');
module.exports = { toASCII, version: '2.1.0' };
