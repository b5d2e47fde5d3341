// `vm` in the guest: code runs in the guest's own context (runInThisContext, Script); new contexts are not
// available, as they would be contexts of the worker's realm.
'use strict';

const {
  Error,
  Function,
  StringPrototypeStartsWith,
  ArrayPrototypePush, ReflectConstruct,
} = require('internal/primordials');

const { codeError } = require('internal/errors');

/** Runs code in the guest's global scope as a script named `filename`. */
function run(code, filename) {
  const outcome = internal.host('runScript', code, filename || 'evalmachine.<anonymous>');
  const result = internal.host('scriptResult');
  if (outcome !== 'ok') throw result;
  return result;
}

class Script {
  constructor(code, options) {
    this.code = `${code}`;
    this.filename = typeof options === 'string' ? options : options && options.filename;
    // A syntax error is reported at construction, as Node does.
    new Function(StringPrototypeStartsWith(this.code, '#!') ? `//${this.code}` : this.code);
  }
  runInThisContext() {
    return run(this.code, this.filename);
  }
  runInContext() {
    throw denied('vm.Script.runInContext');
  }
  runInNewContext() {
    throw denied('vm.Script.runInNewContext');
  }
  createCachedData() {
    return require('buffer').Buffer.alloc(0);
  }
}

function denied(what) {
  return codeError(Error, 'ERR_ACCESS_DENIED', `${what} is not available in this VM`);
}

module.exports = {
  Script,
  createScript: (code, options) => new Script(code, options),
  runInThisContext: (code, options) => run(`${code}`, typeof options === 'string' ? options : options && options.filename),
  createContext() {
    throw denied('vm.createContext');
  },
  runInNewContext() {
    throw denied('vm.runInNewContext');
  },
  runInContext() {
    throw denied('vm.runInContext');
  },
  isContext: () => false,
  compileFunction(code, params = []) {
    const args = [];
    for (let i = 0; i < params.length; i++) ArrayPrototypePush(args, params[i]);
    ArrayPrototypePush(args, code);
    return ReflectConstruct(Function, args);
  },
  constants: {},
};
