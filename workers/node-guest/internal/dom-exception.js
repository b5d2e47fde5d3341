// The web platform's DOMException, as Node's (lib/internal/per_context/domexception.js): name, message and the
// legacy code are the prototype's getters over a hidden record; it is an Error by prototype.
'use strict';

const {
  Error,
  ErrorCaptureStackTrace,
  Map,
  ObjectDefineProperty,
  ObjectSetPrototypeOf,
  SymbolToStringTag,
  TypeError,
  WeakMap,
  SafeMap, SafeWeakMap,
  SafeArrayIterator,
  ArrayPrototypeMap,
} = require('internal/primordials');

const LEGACY_CODES = [
  ['IndexSizeError', 'INDEX_SIZE_ERR', 1], ['HierarchyRequestError', 'HIERARCHY_REQUEST_ERR', 3], ['WrongDocumentError', 'WRONG_DOCUMENT_ERR', 4],
  ['InvalidCharacterError', 'INVALID_CHARACTER_ERR', 5], ['NoModificationAllowedError', 'NO_MODIFICATION_ALLOWED_ERR', 7], ['NotFoundError', 'NOT_FOUND_ERR', 8],
  ['NotSupportedError', 'NOT_SUPPORTED_ERR', 9], ['InUseAttributeError', 'INUSE_ATTRIBUTE_ERR', 10], ['InvalidStateError', 'INVALID_STATE_ERR', 11],
  ['SyntaxError', 'SYNTAX_ERR', 12], ['InvalidModificationError', 'INVALID_MODIFICATION_ERR', 13], ['NamespaceError', 'NAMESPACE_ERR', 14],
  ['InvalidAccessError', 'INVALID_ACCESS_ERR', 15], ['TypeMismatchError', 'TYPE_MISMATCH_ERR', 17], ['SecurityError', 'SECURITY_ERR', 18],
  ['NetworkError', 'NETWORK_ERR', 19], ['AbortError', 'ABORT_ERR', 20], ['URLMismatchError', 'URL_MISMATCH_ERR', 21], ['QuotaExceededError', 'QUOTA_EXCEEDED_ERR', 22],
  ['TimeoutError', 'TIMEOUT_ERR', 23], ['InvalidNodeTypeError', 'INVALID_NODE_TYPE_ERR', 24], ['DataCloneError', 'DATA_CLONE_ERR', 25],
];
const codeOf = new SafeMap(ArrayPrototypeMap(LEGACY_CODES, (e) => [e[0], e[2]]));
const records = new SafeWeakMap();

function record(self, what) {
  const r = records.get(self);
  if (r === undefined) throw new TypeError(`Value of "this" must be of type DOMException`);
  return r[what];
}

class DOMException {
  constructor(message = '', options = 'Error') {
    if (options !== null && typeof options === 'object') {
      records.set(this, { message: `${message}`, name: `${options.name === undefined ? 'Error' : options.name}` });
      if ('cause' in options) ObjectDefineProperty(this, 'cause', { value: options.cause, writable: true, enumerable: false, configurable: true });
    } else {
      records.set(this, { message: `${message}`, name: `${options}` });
    }
    ErrorCaptureStackTrace(this, DOMException);
  }
  get name() {
    return record(this, 'name');
  }
  get message() {
    return record(this, 'message');
  }
  get code() {
    return codeOf.get(record(this, 'name')) ?? 0;
  }
}
ObjectSetPrototypeOf(DOMException.prototype, Error.prototype);
ObjectDefineProperty(DOMException.prototype, SymbolToStringTag, { value: 'DOMException', configurable: true });
for (const property of new SafeArrayIterator(['name', 'message', 'code'])) ObjectDefineProperty(DOMException.prototype, property, { enumerable: true });
for (const entry$58 of new SafeArrayIterator(LEGACY_CODES)) { const constant = entry$58[1], code = entry$58[2];
  const d = { value: code, enumerable: true };
  ObjectDefineProperty(DOMException, constant, d);
  ObjectDefineProperty(DOMException.prototype, constant, d);
}

module.exports = DOMException;
