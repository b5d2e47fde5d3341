'use strict';
// Buffer's own methods as they were at boot, uncurried, for the runtime's files (as internal/primordials.js
// holds the realm's intrinsics): a guest may replace Buffer.prototype.toString or indexOf, and what the runtime
// does with the Buffers it makes must not change with them (Node's own builtins call theirs natively).
// Loaded by internal/globals.js right after the buffer builtin, before any guest code.

const { ObjectFreeze, uncurryThis } = require('internal/primordials');
const { Buffer } = require('buffer');

module.exports = ObjectFreeze({
  __proto__: null,
  BufferPrototypeToString: uncurryThis(Buffer.prototype.toString),
  BufferPrototypeIndexOf: uncurryThis(Buffer.prototype.indexOf),
});
