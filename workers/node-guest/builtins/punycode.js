// `punycode` (deprecated in Node): domain conversion, host-assisted through the URL parser.
'use strict';

const toASCII = (domain) => domain.split('.').map((label) => (/^[\x00-\x7f]*$/.test(label) ? label : new URL(`http://${label}`).hostname)).join('.');
module.exports = { toASCII, version: '2.1.0' };
