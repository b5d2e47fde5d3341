// `repl`: the VM gives a guest no interactive REPL server. The module loads with Node's shape; starting one
// fails with ERR_ACCESS_DENIED (internal/denied.js). `writer` is Node's (util.inspect), and `isValidSyntax`
// tells whether code parses, as Node's does.
'use strict';

const {
  ArrayPrototypePush,
  Function,
  NumberParseInt,
  Symbol,
  SyntaxError,
} = require('internal/primordials');

const process = require('process');
const { inspect } = require('util');
const { deniedError, deniedFunction } = require('internal/denied');

class REPLServer {
  constructor() {
    throw deniedError('repl.REPLServer');
  }
}

class Recoverable extends SyntaxError {
  constructor(err) {
    super();
    this.err = err;
  }
}

const writer = (obj) => inspect(obj, writer.options);
writer.options = { ...inspect.defaultOptions, showProxy: true };

/**
 * Whether `input` parses as the REPL's code, where top-level await is allowed: compiled as an async arrow's
 * body, never run. Unlike Node's (a script parse), a top-level `return` passes.
 */
function isValidSyntax(input) {
  try {
    new Function(`return async () => {\n${input}\n};`);
    return true;
  } catch {
    return false;
  }
}

const repl = {
  REPLServer,
  REPL_MODE_SLOPPY: Symbol('repl-sloppy'),
  REPL_MODE_STRICT: Symbol('repl-strict'),
  Recoverable,
  isValidSyntax,
  start: deniedFunction('start', 'repl.start()'),
  writer,
};
// Node 20's list of the builtins a REPL offers as globals: the public ones.
if (NumberParseInt(process.versions.node, 10) < 24) {
  const names = internal.builtinNames();
  repl.builtinModules = [];
  for (let i = 0; i < names.length; i++) if (names[i][0] !== '_') ArrayPrototypePush(repl.builtinModules, names[i]);
}
module.exports = repl;
