// `wasi`: a guest's own WASI instances are not available (the VM's userland runs WebAssembly itself, as
// commands). The module loads as Node's does, with its experimental warning; `new WASI()` fails with
// ERR_ACCESS_DENIED (internal/denied.js).
'use strict';

const process = require('process');
const { deniedError } = require('internal/denied');

process.emitWarning('WASI is an experimental feature and might change at any time', 'ExperimentalWarning');

class WASI {
  constructor() {
    throw deniedError('wasi.WASI');
  }
}

module.exports = { WASI };
