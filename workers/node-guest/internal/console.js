// The `console` module: Node's require('console') is the global console (made in internal/globals.js).
'use strict';

module.exports = internal.console;
