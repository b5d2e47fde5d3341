// `trace_events`: the VM records no V8 trace. No category is enabled; creating a tracing fails with
// ERR_ACCESS_DENIED (internal/denied.js).
'use strict';

const { deniedFunction } = require('internal/denied');

module.exports = {
  createTracing: deniedFunction('createTracing', 'trace_events.createTracing()'),
  getEnabledCategories: () => undefined,
};
