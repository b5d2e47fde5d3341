'use strict';

const t = require('internal/timers');
module.exports = {
  setTimeout: t.setTimeout,
  setInterval: t.setInterval,
  setImmediate: t.setImmediate,
  clearTimeout: t.clearTimeout,
  clearInterval: t.clearInterval,
  clearImmediate: t.clearImmediate,
  promises: undefined,
};
Object.defineProperty(module.exports, 'promises', { get: () => require('timers/promises'), enumerable: true });
