// What a builtin exports for a capability the VM does not give (TLS, HTTP/2 sessions, the inspector, cluster
// workers, a REPL, …): Node's shape, so that a package that only loads the module or checks for a class works,
// and an error with Node's permission-model code, ERR_ACCESS_DENIED, from the call that would use it.
'use strict';

const {
  Error,
} = require('internal/primordials');

const { codeError } = require('internal/errors');

/** The error of a call to `what` (`tls.connect()`, `new http2.Http2Session()`). */
function deniedError(what) {
  return codeError(Error, 'ERR_ACCESS_DENIED', `${what} is not available in this VM`);
}

/** A function named `name` that throws deniedError(`${label}`). */
function deniedFunction(name, label) {
  const fn = {
    [name]() {
      throw deniedError(label);
    },
  }[name];
  return fn;
}

module.exports = { deniedError, deniedFunction };
