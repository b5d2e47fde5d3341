// `punycode` (deprecated in Node): domain conversion, host-assisted through the URL parser.
'use strict';

const {
  StringPrototypeSplit,
  RegExpPrototypeExec,
} = require('internal/primordials');

const toASCII = (domain) => StringPrototypeSplit(domain, '.').map((label) => ((RegExpPrototypeExec(/^[\x00-\x7f]*$/, label) !== null) ? label : new URL(`http://${label}`).hostname)).join('.');
module.exports = { toASCII, version: '2.1.0' };
