// The guest's `assert` (and `assert.strict`, which the runtime also serves as `assert/strict`).
// Messages follow Node 20's lib/internal/assert/assertion_error.js; differences:
// - `assert.ok(falsy)` quotes the call read from the caller's file with a bracket scan, not a parser (an
//   expression it cannot delimit, e.g. with a regular expression holding a bracket, gives `false == true`);
// - multi-line deep-equal diffs use Node 20's line diff (Node 22+ switched to a Myers diff);
// - no colours in diffs.
'use strict';

const {
  ObjectIs,
  ObjectKeys,
  ObjectGetPrototypeOf,
  ObjectGetOwnPropertySymbols,
  ObjectDefineProperty,
  ArrayIsArray,
  NumberIsNaN,
  ReflectApply,
  MathMax,
  ErrorCaptureStackTrace,
  StringPrototypeSplit,
  StringPrototypeSlice,
  StringPrototypeEndsWith,
  StringPrototypeRepeat,
  ArrayPrototypePop,
  ArrayPrototypeJoin,
  RegExpPrototypeExec,
  DatePrototypeGetTime,
  MapPrototypeGet,
  MapPrototypeHas,
  ArrayPrototypePush,
  MapPrototypeSet,
  MapPrototypeEntries,
  SetPrototypeHas,
  SetPrototypeAdd,
  SetPrototypeDelete,
  SetPrototypeValues,
  StringPrototypeStartsWith,
  StringPrototypeIncludes,
  StringPrototypeIndexOf,
  StringPrototypeLastIndexOf,
  StringPrototypeReplace,
  StringPrototypeCharCodeAt,
  NumberPrototypeToString,
  ObjectPrototypeToString,
  ObjectPrototypeHasOwnProperty,
  ObjectPrototypePropertyIsEnumerable,
  Error,
  Map,
  ObjectGetOwnPropertyDescriptor,
  Promise,
  RegExp,
  Set,
  String,
  TypeError,
  Uint8Array,
  BigIntPrototypeValueOf,
  BooleanPrototypeValueOf,
  MapPrototypeGetSize,
  NumberPrototypeValueOf,
  RegExpPrototypeGetFlags,
  RegExpPrototypeGetSource,
  SetPrototypeGetSize,
  StringPrototypeValueOf,
  SymbolPrototypeValueOf,
  MapPrototypeDelete,
  SafeArrayIterator,
  ArrayPrototypeIncludes, ArrayPrototypeIndexOf, ArrayPrototypeSlice,
  ObjectPrototypeIsPrototypeOf, SafeMapIterator, SafeSetIterator,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  GetLength,
  hardenRegExp,
} = require('internal/primordials');

const util = require('util');

const { inspect } = util;
const { isDate, isRegExp, isMap, isSet, isNativeError, isBoxedPrimitive, isNumberObject, isStringObject,
  isBooleanObject, isBigIntObject, isSymbolObject, isArrayBufferView, isAnyArrayBuffer, isPromise,
  isWeakMap, isWeakSet } = util.types;
const ErrorCtor = Error;
const SetCtor = Set;
const MapCtor = Map;
const uncurry = (fn) => (self, ...args) => ReflectApply(fn, self, args);
const MapSize = MapPrototypeGetSize;
const SetSize = SetPrototypeGetSize;
const RegExpSource = RegExpPrototypeGetSource;
const RegExpFlags = RegExpPrototypeGetFlags;
const TypedArrayProto = ObjectGetPrototypeOf(Uint8Array.prototype);
const TypedArrayLength = uncurry(ObjectGetOwnPropertyDescriptor(TypedArrayProto, 'length').get);
const viewBytes = (v) => new Uint8Array(GetBuffer(v), GetByteOffset(v), GetByteLength(v));
const bufferBytes = (b) => new Uint8Array(b);
const valueOfs = [
  [isNumberObject, NumberPrototypeValueOf], [isStringObject, StringPrototypeValueOf],
  [isBooleanObject, BooleanPrototypeValueOf], [isBigIntObject, BigIntPrototypeValueOf],
  [isSymbolObject, SymbolPrototypeValueOf],
];

// ---- Deep equality (Node's lib/internal/util/comparisons.js, condensed) ----

const kLoose = 0;
const kStrict = 1;

function isDeepEqual(a, b) { return innerDeepEqual(a, b, kLoose, undefined); }
function isDeepStrictEqual(a, b) { return innerDeepEqual(a, b, kStrict, undefined); }

function innerDeepEqual(val1, val2, mode, memos) {
  if (val1 === val2) return val1 !== 0 || ObjectIs(val1, val2) || mode === kLoose;
  if (mode === kStrict) {
    if (typeof val1 !== 'object') return typeof val1 === 'number' && NumberIsNaN(val1) && NumberIsNaN(val2);
    if (typeof val2 !== 'object' || val1 === null || val2 === null) return false;
    if (ObjectGetPrototypeOf(val1) !== ObjectGetPrototypeOf(val2)) return false;
  } else {
    if (val1 === null || typeof val1 !== 'object') {
      if (val2 === null || typeof val2 !== 'object') {
        // eslint-disable-next-line eqeqeq
        return val1 == val2 || (NumberIsNaN(val1) && NumberIsNaN(val2));
      }
      return false;
    }
    if (val2 === null || typeof val2 !== 'object') return false;
  }
  const tag1 = ObjectPrototypeToString(val1);
  if (tag1 !== ObjectPrototypeToString(val2)) return false;

  if (ArrayIsArray(val1)) {
    if (!ArrayIsArray(val2) || GetLength(val1) !== GetLength(val2)) return false;
    const keys1 = nonIndexKeys(val1, mode);
    if (keys1.length !== nonIndexKeys(val2, mode).length) return false;
    return keyCheck(val1, val2, mode, memos, kIsArray, keys1);
  } else if (tag1 === '[object Object]') {
    // fall through to keyCheck
  } else if (isDate(val1)) {
    if (!isDate(val2) || DatePrototypeGetTime(val1) !== DatePrototypeGetTime(val2)) return false;
  } else if (isRegExp(val1)) {
    if (!isRegExp(val2) || RegExpSource(val1) !== RegExpSource(val2) || RegExpFlags(val1) !== RegExpFlags(val2) ||
        val1.lastIndex !== val2.lastIndex) return false;
  } else if (isNativeError(val1) || val1 instanceof ErrorCtor) {
    if ((!isNativeError(val2) && !(val2 instanceof ErrorCtor)) || val1.message !== val2.message || val1.name !== val2.name) {
      return false;
    }
  } else if (isArrayBufferView(val1)) {
    if (!isArrayBufferView(val2) || GetByteLength(val1) !== GetByteLength(val2)) return false;
    const tA = tag1 === '[object Float32Array]' || tag1 === '[object Float64Array]' || tag1 === '[object Float16Array]';
    if (mode === kLoose && tA) {
      const n = TypedArrayLength(val1);
      for (let i = 0; i < n; i++) if (val1[i] !== val2[i]) return false;
    } else {
      const x = viewBytes(val1);
      const y = viewBytes(val2);
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    }
    const keys1 = nonIndexKeys(val1, mode);
    if (keys1.length !== nonIndexKeys(val2, mode).length) return false;
    return keyCheck(val1, val2, mode, memos, kNoIterator, keys1);
  } else if (isSet(val1)) {
    if (!isSet(val2) || SetSize(val1) !== SetSize(val2)) return false;
    return keyCheck(val1, val2, mode, memos, kIsSet);
  } else if (isMap(val1)) {
    if (!isMap(val2) || MapSize(val1) !== MapSize(val2)) return false;
    return keyCheck(val1, val2, mode, memos, kIsMap);
  } else if (isAnyArrayBuffer(val1)) {
    if (!isAnyArrayBuffer(val2)) return false;
    const x = bufferBytes(val1);
    const y = bufferBytes(val2);
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  } else if (isBoxedPrimitive(val1)) {
    let same = false;
    for (const entry$163 of new SafeArrayIterator(valueOfs)) { const check = entry$163[0], valueOf = entry$163[1];
      if (check(val1)) { same = check(val2) && ObjectIs(valueOf(val1), valueOf(val2)); break; }
    }
    if (!same) return false;
  } else if (isBoxedPrimitive(val2) || isPromise(val1) || isWeakMap(val1) || isWeakSet(val1)) {
    // Promises and weak collections compare by reference only, as in Node.
    return false;
  }
  return keyCheck(val1, val2, mode, memos, kNoIterator);
}

const kNoIterator = 0;
const kIsArray = 1;
const kIsSet = 2;
const kIsMap = 3;
const indexRe = /^(?:0|[1-9][0-9]*)$/;

function nonIndexKeys(obj, mode) {
  const keys = [];
  for (const k of new SafeArrayIterator(ObjectKeys(obj))) if (RegExpPrototypeExec(indexRe, k) === null) keys[keys.length] = k;
  if (mode === kStrict) {
    for (const s of new SafeArrayIterator(ObjectGetOwnPropertySymbols(obj))) {
      if (ObjectPrototypePropertyIsEnumerable(obj, s)) keys[keys.length] = s;
    }
  }
  return keys;
}

function keyCheck(val1, val2, mode, memos, iterationType, aKeys) {
  if (aKeys === undefined) {
    aKeys = ObjectKeys(val1);
    if (aKeys.length !== ObjectKeys(val2).length) return false;
  }
  for (const k of new SafeArrayIterator(aKeys)) if (!ObjectPrototypePropertyIsEnumerable(val2, k)) return false;
  if (mode === kStrict) {
    const symKeysA = ObjectGetOwnPropertySymbols(val1);
    let count = 0;
    for (const key of new SafeArrayIterator(symKeysA)) {
      if (ObjectPrototypePropertyIsEnumerable(val1, key)) {
        if (!ObjectPrototypePropertyIsEnumerable(val2, key)) return false;
        if (iterationType !== kIsArray && iterationType !== kNoIterator) aKeys[aKeys.length] = key;
        else if (!ArrayPrototypeIncludes(aKeys, key)) aKeys[aKeys.length] = key;
        count++;
      } else if (ObjectPrototypePropertyIsEnumerable(val2, key)) {
        return false;
      }
    }
    let count2 = 0;
    for (const key of new SafeArrayIterator(ObjectGetOwnPropertySymbols(val2))) if (ObjectPrototypePropertyIsEnumerable(val2, key)) count2++;
    if (count !== count2) return false;
  }
  if (aKeys.length === 0 && (iterationType === kNoIterator ||
      (iterationType === kIsArray && GetLength(val1) === 0) ||
      (iterationType === kIsSet && SetSize(val1) === 0) || (iterationType === kIsMap && MapSize(val1) === 0))) {
    return true;
  }
  // Cycles: a pair already being compared is taken as equal, like Node's memos.
  if (memos === undefined) {
    memos = { val1: new MapCtor(), val2: new MapCtor(), position: 0 };
  } else {
    const val2MemoA = MapPrototypeGet(memos.val1, val1);
    if (val2MemoA !== undefined) {
      const val2MemoB = MapPrototypeGet(memos.val2, val2);
      if (val2MemoB !== undefined) return val2MemoA === val2MemoB;
    }
    memos.position++;
  }
  MapPrototypeSet(memos.val1, val1, memos.position);
  MapPrototypeSet(memos.val2, val2, memos.position);
  const result = objEquiv(val1, val2, mode, aKeys, memos, iterationType);
  MapPrototypeDelete(memos.val1, val1);
  MapPrototypeDelete(memos.val2, val2);
  return result;
}

function objEquiv(a, b, mode, keys, memos, iterationType) {
  if (iterationType === kIsSet) {
    if (!setEquiv(a, b, mode, memos)) return false;
  } else if (iterationType === kIsMap) {
    if (!mapEquiv(a, b, mode, memos)) return false;
  } else if (iterationType === kIsArray) {
    for (let i = 0; i < a.length; i++) {
      if (ObjectPrototypeHasOwnProperty(a, i)) {
        if (!ObjectPrototypeHasOwnProperty(b, i) || !innerDeepEqual(a[i], b[i], mode, memos)) return false;
      } else if (ObjectPrototypeHasOwnProperty(b, i)) {
        return false;
      }
    }
  }
  for (const key of new SafeArrayIterator(keys)) if (!innerDeepEqual(a[key], b[key], mode, memos)) return false;
  return true;
}

const isObjectLike = (v) => typeof v === 'object' && v !== null;
function setEquiv(a, b, mode, memo) {
  let set = null;
  for (const val of new SafeSetIterator(a)) {
    if (isObjectLike(val)) {
      if (set === null) set = new SetCtor();
      SetPrototypeAdd(set, val);
    } else if (!SetPrototypeHas(b, val)) {
      if (mode === kStrict) return false;
      if (!setMightHaveLoosePrim(a, b, val)) return false;
      if (set === null) set = new SetCtor();
      SetPrototypeAdd(set, val);
    }
  }
  if (set !== null) {
    for (const val of new SafeSetIterator(b)) {
      if (isObjectLike(val)) {
        if (!setHasEqualElement(set, val, mode, memo)) return false;
      } else if (mode === kLoose && !SetPrototypeHas(a, val) && !setHasEqualElement(set, val, mode, memo)) {
        return false;
      }
    }
    return SetSize(set) === 0;
  }
  return true;
}
function setMightHaveLoosePrim(a, b, prim) {
  for (const v of new SafeSetIterator(b)) if (!isObjectLike(v) && innerDeepEqual(prim, v, kLoose) && !SetPrototypeHas(a, v)) return true;
  return false;
}
function setHasEqualElement(set, val1, mode, memo) {
  for (const val2 of new SafeSetIterator(set)) {
    if (innerDeepEqual(val1, val2, mode, memo)) {
      SetPrototypeDelete(set, val2);
      return true;
    }
  }
  return false;
}
function mapEquiv(a, b, mode, memo) {
  let set = null;
  for (const { 0: key, 1: item1 } of new SafeMapIterator(a)) {
    if (isObjectLike(key)) {
      if (set === null) set = new SetCtor();
      SetPrototypeAdd(set, key);
    } else {
      const item2 = MapPrototypeGet(b, key);
      if ((item2 === undefined && !MapPrototypeHas(b, key)) || !innerDeepEqual(item1, item2, mode, memo)) {
        if (mode === kStrict) return false;
        let found = false;
        for (const { 0: k2, 1: v2 } of new SafeMapIterator(b)) {
          if (!isObjectLike(k2) && innerDeepEqual(key, k2, kLoose) && innerDeepEqual(item1, v2, mode, memo)) { found = true; break; }
        }
        if (!found) return false;
      }
    }
  }
  if (set !== null) {
    for (const { 0: key, 1: item } of new SafeMapIterator(b)) {
      if (isObjectLike(key)) {
        let found = false;
        for (const key1 of new SafeSetIterator(set)) {
          if (innerDeepEqual(key1, key, mode, memo) && innerDeepEqual(MapPrototypeGet(a, key1), item, mode, memo)) {
            SetPrototypeDelete(set, key1);
            found = true;
            break;
          }
        }
        if (!found) return false;
      }
    }
    return SetSize(set) === 0;
  }
  return true;
}

// ---- AssertionError ----

/** The major version of Node the guest reports; process.versions is set when the process starts, so read it at call time. */
function nodeMajor() {
  const version = `${require('process').versions.node}`;
  return +StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.'));
}

const kReadableOperator = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
  deepEqual: 'Expected values to be loosely deep-equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notIdentical: 'Values have same structure but are not reference-equal:',
  notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
};
const kMaxShortLength = 12;

function inspectValue(val) {
  return inspect(val, {
    compact: false, customInspect: false, depth: 1000, maxArrayLength: Infinity,
    showHidden: false, showProxy: false, sorted: true, getters: true,
  });
}

function createErrDiff(actual, expected, operator, customMessage) {
  let other = '';
  let res = '';
  let end = '';
  let skipped = false;
  const actualInspected = inspectValue(actual);
  const actualLines = StringPrototypeSplit(actualInspected, '\n');
  const expectedLines = StringPrototypeSplit(inspectValue(expected), '\n');
  let i = 0;
  let indicator = '';
  if (operator === 'strictEqual' &&
      ((isObjectLike(actual) && isObjectLike(expected)) || (typeof actual === 'function' && typeof expected === 'function'))) {
    operator = 'strictEqualObject';
  }
  if (actualLines.length === 1 && expectedLines.length === 1 && actualLines[0] !== expectedLines[0]) {
    const actualRaw = actualLines[0];
    const expectedRaw = expectedLines[0];
    const inputLength = actualRaw.length + expectedRaw.length;
    if (inputLength <= kMaxShortLength) {
      if (!isObjectLike(actual) && !isObjectLike(expected) && (actual !== 0 || expected !== 0)) {
        return `${customMessage ?? kReadableOperator[operator]}\n\n${actualLines[0]} !== ${expectedLines[0]}\n`;
      }
    } else if (operator !== 'strictEqualObject') {
      if (inputLength < 80) {
        while (actualRaw[i] === expectedRaw[i]) i++;
        if (i > 2) {
          indicator = `\n  ${StringPrototypeRepeat(' ', i)}^`;
          i = 0;
        }
      }
    }
  }
  let a = actualLines[actualLines.length - 1];
  let b = expectedLines[expectedLines.length - 1];
  while (a === b) {
    if (i++ < 3) end = `\n  ${a}${end}`;
    else other = a;
    ArrayPrototypePop(actualLines);
    ArrayPrototypePop(expectedLines);
    if (actualLines.length === 0 || expectedLines.length === 0) break;
    a = actualLines[actualLines.length - 1];
    b = expectedLines[expectedLines.length - 1];
  }
  const maxLines = MathMax(actualLines.length, expectedLines.length);
  if (maxLines === 0) {
    const lines = StringPrototypeSplit(actualInspected, '\n');
    if (lines.length > 50) {
      lines[46] = '...';
      while (lines.length > 47) ArrayPrototypePop(lines);
    }
    return `${kReadableOperator.notIdentical}\n\n${ArrayPrototypeJoin(lines, '\n')}\n`;
  }
  if (i >= 5) { end = `\n...${end}`; skipped = true; }
  if (other !== '') { end = `\n  ${other}${end}`; other = ''; }
  let printedLines = 0;
  let identical = 0;
  const msg = `${customMessage ?? kReadableOperator[operator]}\n+ actual - expected`;
  const skippedMsg = ' ... Lines skipped';
  let lines = actualLines;
  let plusMinus = '+';
  let maxLength = expectedLines.length;
  if (actualLines.length < maxLines) {
    lines = expectedLines;
    plusMinus = '-';
    maxLength = actualLines.length;
  }
  const printIdentical = (src) => {
    if (identical > 2) {
      if (identical > 3) {
        if (identical > 4) {
          if (identical === 5) { res += `\n  ${src[i - 3]}`; printedLines++; } else { res += '\n...'; skipped = true; }
        }
        res += `\n  ${src[i - 2]}`;
        printedLines++;
      }
      res += `\n  ${src[i - 1]}`;
      printedLines++;
    }
    identical = 0;
  };
  for (i = 0; i < maxLines; i++) {
    if (maxLength < i + 1) {
      printIdentical(lines);
      if (lines === actualLines) res += `\n${plusMinus} ${lines[i]}`;
      else other += `\n${plusMinus} ${lines[i]}`;
      printedLines++;
    } else {
      const expectedLine = expectedLines[i];
      let actualLine = actualLines[i];
      let divergingLines = actualLine !== expectedLine &&
        (!StringPrototypeEndsWith(actualLine, ',') || StringPrototypeSlice(actualLine, 0, -1) !== expectedLine);
      if (divergingLines && StringPrototypeEndsWith(expectedLine, ',') && StringPrototypeSlice(expectedLine, 0, -1) === actualLine) {
        divergingLines = false;
        actualLine += ',';
      }
      if (divergingLines) {
        printIdentical(actualLines);
        res += `\n+ ${actualLine}`;
        other += `\n- ${expectedLine}`;
        printedLines += 2;
      } else {
        res += other;
        other = '';
        identical++;
        if (identical <= 2) { res += `\n  ${actualLine}`; printedLines++; }
      }
    }
    if (printedLines > 50 && i < maxLines - 2) {
      return `${msg}${skippedMsg}\n${res}\n...${other}\n...`;
    }
  }
  // Node 24 ends the diff with a newline; Node 20 does not.
  return `${msg}${skipped ? skippedMsg : ''}\n${res}${other}${end}${indicator}${nodeMajor() >= 24 ? '\n' : ''}`;
}

function generateMessage(actual, expected, operator) {
  if (operator === 'deepStrictEqual' || operator === 'strictEqual') return createErrDiff(actual, expected, operator);
  if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') {
    let base = kReadableOperator[operator];
    const res = StringPrototypeSplit(inspectValue(actual), '\n');
    if (operator === 'notStrictEqual' && (isObjectLike(actual) || typeof actual === 'function')) {
      base = kReadableOperator.notStrictEqualObject;
    }
    if (res.length > 50) {
      res[46] = '...';
      while (res.length > 47) ArrayPrototypePop(res);
    }
    if (res.length === 1) return `${base}${res[0].length > 5 ? '\n\n' : ' '}${res[0]}`;
    return `${base}\n\n${ArrayPrototypeJoin(res, '\n')}\n`;
  }
  let res = inspectValue(actual);
  let other = inspectValue(expected);
  const knownOperator = kReadableOperator[operator];
  if (operator === 'notDeepEqual' && res === other) {
    res = `${knownOperator}\n\n${res}`;
    if (res.length > 1024) res = `${StringPrototypeSlice(res, 0, 1021)}...`;
    return res;
  }
  if (res.length > 512) res = `${StringPrototypeSlice(res, 0, 509)}...`;
  if (other.length > 512) other = `${StringPrototypeSlice(other, 0, 509)}...`;
  if (operator === 'deepEqual') {
    res = `${knownOperator}\n\n${res}\n\nshould loosely deep-equal\n\n`;
  } else {
    const newOp = kReadableOperator[`${operator}Unequal`];
    if (newOp) res = `${newOp}\n\n${res}\n\nshould not loosely deep-equal\n\n`;
    else other = ` ${operator} ${other}`;
  }
  return `${res}${other}`;
}

// Errors keep their stack out of the diff (Node copies them without it).
function copyError(source) {
  const target = { __proto__: ObjectGetPrototypeOf(source) };
  for (const key of new SafeArrayIterator(ObjectKeys(source))) target[key] = source[key];
  ObjectDefineProperty(target, 'message', { value: source.message });
  return target;
}

class AssertionError extends ErrorCtor {
  constructor(options) {
    if (typeof options !== 'object' || options === null) {
      throw util._nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        `The "options" argument must be of type object.${options === undefined ? ' Received undefined' : ''}`);
    }
    const { message, operator, stackStartFn } = options;
    let { actual, expected } = options;
    if (message != null && (operator === 'deepStrictEqual' || operator === 'strictEqual')) {
      // A custom message replaces the header of the diff, which is still shown (Node 20.x+).
      super(createErrDiff(actual, expected, operator, String(message)));
    } else if (message != null) {
      super(String(message));
    } else {
      if (isObjectLike(actual) && isObjectLike(expected) && 'stack' in actual && actual instanceof ErrorCtor &&
          'stack' in expected && expected instanceof ErrorCtor) {
        actual = copyError(actual);
        expected = copyError(expected);
      }
      super(generateMessage(actual, expected, operator));
    }
    this.generatedMessage = !message;
    ObjectDefineProperty(this, 'name', { value: 'AssertionError [ERR_ASSERTION]', enumerable: false, writable: true, configurable: true });
    this.code = 'ERR_ASSERTION';
    this.actual = options.actual;
    this.expected = options.expected;
    this.operator = operator;
    // Node 24's AssertionError names its diff style ('simple' unless options.diff says 'full').
    if (nodeMajor() >= 24) this.diff = options.diff === 'full' ? 'full' : 'simple';
    if (typeof ErrorCaptureStackTrace === 'function') ErrorCaptureStackTrace(this, stackStartFn || new.target);
    // Reading the stack now bakes `AssertionError [ERR_ASSERTION]` into it; then the plain name is restored.
    void this.stack;
    this.name = 'AssertionError';
  }

  toString() { return `${this.name} [${this.code}]: ${this.message}`; }

  [inspect.custom](recurseTimes, ctx) {
    // Long actual/expected strings are shortened for display, as Node does.
    const tmpActual = this.actual;
    const tmpExpected = this.expected;
    if (typeof this.actual === 'string') this.actual = truncate(this.actual, 128);
    if (typeof this.expected === 'string') this.expected = truncate(this.expected, 128);
    const result = inspect(this, { ...ctx, customInspect: false, depth: 0 });
    this.actual = tmpActual;
    this.expected = tmpExpected;
    return result;
  }
}
const truncate = (s, n) => (s.length > n ? `${StringPrototypeSlice(s, 0, n)}...` : s);

// ---- assert functions ----

function innerFail(obj) {
  if (obj.message instanceof ErrorCtor) throw obj.message;
  throw new AssertionError(obj);
}

// ---- the falsy-value message of assert.ok: the source of the call, read from the caller's file (Node parses
// it with acorn; here a scan for the call's callee and its balanced parentheses).
const errorCache = new MapCtor();
const escapeSequencesRegExp = hardenRegExp(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g);
const escapeFn = (ch) => {
  const c = StringPrototypeCharCodeAt(ch, 0);
  if (c === 8) return '\\b';
  if (c === 12) return '\\f';
  return `\\u${StringPrototypeSlice(`000${NumberPrototypeToString(c, 16)}`, -4)}`;
};
const isIdentChar = (ch) => ch !== undefined && RegExpPrototypeExec(/[\w$\u0080-\uffff]/, ch) !== null;

/** The end (exclusive) of the balanced group opening at `code[open]`, skipping strings and comments; -1 if none. */
function balancedEnd(code, open) {
  const stack = [];
  for (let i = open; i < code.length; i++) {
    const ch = code[i];
    if (ch === '(' || ch === '[' || ch === '{') ArrayPrototypePush(stack, ch);
    else if (ch === ')' || ch === ']' || ch === '}') {
      const top = ArrayPrototypePop(stack);
      if (top === undefined || '([{'[StringPrototypeIndexOf(')]}', ch)] !== top) return -1;
      if (stack.length === 0) return i + 1;
    } else if (ch === '"' || ch === "'") {
      for (i++; i < code.length && code[i] !== ch; i++) {
        if (code[i] === '\\') i++;
        else if (code[i] === '\n') return -1;
      }
    } else if (ch === '`') {
      // A template: its `${ … }` parts are scanned as code.
      for (i++; i < code.length && code[i] !== '`'; i++) {
        if (code[i] === '\\') i++;
        else if (code[i] === '$' && code[i + 1] === '{') {
          const end = balancedEnd(code, i + 1);
          if (end === -1) return -1;
          i = end - 1;
        }
      }
    } else if (ch === '/' && code[i + 1] === '/') {
      const nl = StringPrototypeIndexOf(code, '\n', i);
      if (nl === -1) return -1;
      i = nl;
    } else if (ch === '/' && code[i + 1] === '*') {
      const close = StringPrototypeIndexOf(code, '*/', i + 2);
      if (close === -1) return -1;
      i = close + 1;
    }
  }
  return -1;
}

/** The call expression whose callee ends around `offset` (its property or identifier), as [start, text]. */
function findCall(code, offset) {
  let end = offset;
  while (isIdentChar(code[end])) end++;
  while (code[end] === ' ' || code[end] === '\t') end++;
  if (code[end] === '?' && code[end + 1] === '.') end += 2;
  if (code[end] !== '(') return undefined;
  const close = balancedEnd(code, end);
  if (close === -1) return undefined;
  let start = offset;
  for (;;) {
    const prev = code[start - 1];
    if (isIdentChar(prev) || prev === '.') start--;
    else if (prev === '?' && code[start] === '.') start--;
    else if (prev === ')' || prev === ']') {
      // The callee's object is itself a call or an element access: go back to its opening bracket.
      const open = prev === ')' ? '(' : '[';
      let depth = 0;
      let j = start - 1;
      for (; j >= 0; j--) {
        if (code[j] === prev) depth++;
        else if (code[j] === open && --depth === 0) break;
      }
      if (j < 0) return undefined;
      start = j;
    } else break;
  }
  if (start === end) return undefined;
  return [start, StringPrototypeReplace(StringPrototypeSlice(code, start, close), escapeSequencesRegExp, escapeFn)];
}

function getErrMessage(fn) {
  let tmpLimit;
  let stack;
  try {
    tmpLimit = ErrorCtor.stackTraceLimit;
    ErrorCtor.stackTraceLimit = 1;
    const err = {};
    ErrorCaptureStackTrace(err, fn);
    stack = err.stack;
  } catch {
    return undefined;
  } finally {
    try { ErrorCtor.stackTraceLimit = tmpLimit; } catch { /* not writable */ }
  }
  if (typeof stack !== 'string') return undefined;
  const lines = StringPrototypeSplit(stack, '\n');
  const frame = lines[lines.length - 1];
  if (!StringPrototypeStartsWith(frame, '    at ') || StringPrototypeIncludes(frame, '(eval at ') ||
      StringPrototypeIncludes(frame, ' (eval at ')) return undefined;
  const m = RegExpPrototypeExec(/(?:\(|at )((?:file:\/\/)?\/[^()]*):(\d+):(\d+)\)?$/, frame);
  if (m === null) return undefined;
  let filename = m[1];
  const line = +m[2] - 1;
  const column = +m[3] - 1;
  const identifier = `${filename}${line}${column}`;
  if (MapPrototypeHas(errorCache, identifier)) return MapPrototypeGet(errorCache, identifier);
  let message;
  try {
    if (StringPrototypeStartsWith(filename, 'file:')) filename = require('url').fileURLToPath(filename);
    const source = require('fs').readFileSync(filename, 'utf8');
    let at = 0;
    for (let i = 0; i < line; i++) {
      at = StringPrototypeIndexOf(source, '\n', at) + 1;
      if (at === 0) throw null;
    }
    const code = StringPrototypeSlice(source, at);
    const found = findCall(code, column);
    if (found === undefined) throw null;
    let start = found[0];
    message = found[1];
    const nl = StringPrototypeLastIndexOf(code, '\n', start);
    start -= nl + 1;
    if (StringPrototypeIncludes(message, '\n')) {
      message = StringPrototypeReplace(message, hardenRegExp(/\r\n/g), '\n');
      const frames = StringPrototypeSplit(message, '\n');
      message = frames[0];
      for (let k = 1; k < frames.length; k++) {
        const f = frames[k];
        let pos = 0;
        while (pos < start && (f[pos] === ' ' || f[pos] === '\t')) pos++;
        message += `\n  ${StringPrototypeSlice(f, pos)}`;
      }
    }
    message = `The expression evaluated to a falsy value:\n\n  ${message}\n`;
  } catch {
    message = undefined;
  }
  MapPrototypeSet(errorCache, identifier, message);
  return message;
}

function innerOk(fn, argLen, value, message) {
  if (!value) {
    let generatedMessage = false;
    if (argLen === 0) {
      generatedMessage = true;
      message = 'No value argument passed to `assert.ok()`';
    } else if (message == null) {
      generatedMessage = true;
      message = getErrMessage(fn);
    } else if (message instanceof ErrorCtor) {
      throw message;
    }
    const err = new AssertionError({ actual: value, expected: true, message, operator: '==', stackStartFn: fn });
    err.generatedMessage = generatedMessage || message == null;
    throw err;
  }
}

function ok(...args) { ReflectApply(innerOk, undefined, [ok, args.length, ...new SafeArrayIterator(args)]); }

const assert = ok;

assert.fail = function fail(actual, expected, message, operator, stackStartFn) {
  const argsLen = arguments.length;
  let internalMessage = false;
  if (actual == null && argsLen <= 1) {
    internalMessage = true;
    message = 'Failed';
  } else if (argsLen === 1) {
    message = actual;
    actual = undefined;
  } else {
    if (argsLen === 2) operator = '!=';
  }
  if (message instanceof ErrorCtor) throw message;
  const errArgs = { actual, expected, operator: operator === undefined ? 'fail' : operator, stackStartFn: stackStartFn || fail, message };
  const err = new AssertionError(errArgs);
  if (internalMessage) err.generatedMessage = true;
  throw err;
};
assert.AssertionError = AssertionError;
assert.ok = ok;

const missingArgs = (fn, names) => util._nodeError(TypeError, 'ERR_MISSING_ARGS',
  `The ${names.length === 1 ? `"${names[0]}" argument` : `"${names[0]}" and "${names[1]}" arguments`} must be specified`);
const checkArgs = (argc, fn) => { if (argc < 2) throw missingArgs(fn, ['actual', 'expected']); };

assert.equal = function equal(actual, expected, message) {
  checkArgs(arguments.length, equal);
  // eslint-disable-next-line eqeqeq
  if (actual != expected && (!NumberIsNaN(actual) || !NumberIsNaN(expected))) {
    innerFail({ actual, expected, message, operator: '==', stackStartFn: equal });
  }
};
assert.notEqual = function notEqual(actual, expected, message) {
  checkArgs(arguments.length, notEqual);
  // eslint-disable-next-line eqeqeq
  if (actual == expected || (NumberIsNaN(actual) && NumberIsNaN(expected))) {
    innerFail({ actual, expected, message, operator: '!=', stackStartFn: notEqual });
  }
};
assert.deepEqual = function deepEqual(actual, expected, message) {
  checkArgs(arguments.length, deepEqual);
  if (!isDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'deepEqual', stackStartFn: deepEqual });
};
assert.notDeepEqual = function notDeepEqual(actual, expected, message) {
  checkArgs(arguments.length, notDeepEqual);
  if (isDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'notDeepEqual', stackStartFn: notDeepEqual });
};
assert.deepStrictEqual = function deepStrictEqual(actual, expected, message) {
  checkArgs(arguments.length, deepStrictEqual);
  if (!isDeepStrictEqual(actual, expected)) {
    innerFail({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: deepStrictEqual });
  }
};
assert.notDeepStrictEqual = function notDeepStrictEqual(actual, expected, message) {
  checkArgs(arguments.length, notDeepStrictEqual);
  if (isDeepStrictEqual(actual, expected)) {
    innerFail({ actual, expected, message, operator: 'notDeepStrictEqual', stackStartFn: notDeepStrictEqual });
  }
};
assert.strictEqual = function strictEqual(actual, expected, message) {
  checkArgs(arguments.length, strictEqual);
  if (!ObjectIs(actual, expected)) innerFail({ actual, expected, message, operator: 'strictEqual', stackStartFn: strictEqual });
};
assert.notStrictEqual = function notStrictEqual(actual, expected, message) {
  checkArgs(arguments.length, notStrictEqual);
  if (ObjectIs(actual, expected)) innerFail({ actual, expected, message, operator: 'notStrictEqual', stackStartFn: notStrictEqual });
};

// ---- throws / rejects ----

const NO_EXCEPTION_SENTINEL = {};
const invalidArgType = (name, expected, actual) => util._nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
  `The "${name}" argument must be ${expected}. Received ${actual === undefined || actual === null ? actual : inspect(actual)}`);

class Comparison {
  constructor(obj, keys, actual) {
    for (const key of new SafeArrayIterator(keys)) {
      if (key in obj) {
        if (actual !== undefined && typeof actual[key] === 'string' && isRegExp(obj[key]) &&
            RegExpPrototypeExec(obj[key], actual[key]) !== null) {
          this[key] = actual[key];
        } else {
          this[key] = obj[key];
        }
      }
    }
  }
}

function compareExceptionKey(actual, expected, key, message, keys, fn) {
  if (!(key in actual) || !isDeepStrictEqual(actual[key], expected[key])) {
    if (!message) {
      const a = new Comparison(actual, keys);
      const b = new Comparison(expected, keys, actual);
      const err = new AssertionError({ actual: a, expected: b, operator: 'deepStrictEqual', stackStartFn: fn });
      err.actual = actual;
      err.expected = expected;
      err.operator = fn.name;
      throw err;
    }
    innerFail({ actual, expected, message, operator: fn.name, stackStartFn: fn });
  }
}

function expectedException(actual, expected, message, fn) {
  let generatedMessage = false;
  let throwError = false;
  if (typeof expected !== 'function') {
    if (isRegExp(expected)) {
      const str = String(actual);
      if (RegExpPrototypeExec(expected, str) !== null) return;
      if (!message) {
        generatedMessage = true;
        message = `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(str)}\n`;
      }
      throwError = true;
    } else if (typeof actual !== 'object' || actual === null) {
      const err = new AssertionError({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: fn });
      err.operator = fn.name;
      throw err;
    } else {
      const keys = ObjectKeys(expected);
      if (expected instanceof ErrorCtor) {
        ArrayPrototypePush(keys, 'name', 'message');
      } else if (keys.length === 0) {
        throw util._nodeError(TypeError, 'ERR_INVALID_ARG_VALUE',
          `The argument 'error' may not be an empty object. Received {}`);
      }
      for (const key of new SafeArrayIterator(keys)) {
        if (typeof actual[key] === 'string' && isRegExp(expected[key]) &&
            RegExpPrototypeExec(expected[key], actual[key]) !== null) {
          continue;
        }
        compareExceptionKey(actual, expected, key, message, keys, fn);
      }
      return;
    }
  } else if (expected.prototype !== undefined && actual instanceof expected) {
    return;
  } else if (ObjectPrototypeIsPrototypeOf(ErrorCtor, expected) || expected === ErrorCtor) {
    if (!message) {
      generatedMessage = true;
      message = 'The error is expected to be an instance of ' +
        `"${expected.name}". Received `;
      if (isNativeError(actual) || actual instanceof ErrorCtor) {
        const name = (actual.constructor && actual.constructor.name) || actual.name;
        if (expected.name === name) {
          message += 'an error with identical name but a different prototype.';
        } else {
          message += `"${name}"`;
        }
        if (actual.message) message += `\n\nError message:\n\n${actual.message}`;
      } else {
        message += `"${inspect(actual, { depth: -1 })}"`;
      }
    }
    throwError = true;
  } else {
    const res = ReflectApply(expected, {}, [actual]);
    if (res !== true) {
      if (!message) {
        generatedMessage = true;
        const name = expected.name ? `"${expected.name}" ` : '';
        message = `The ${name}validation function is expected to return "true". Received ${inspect(res)}`;
        if (isNativeError(actual) || actual instanceof ErrorCtor) message += `\n\nCaught error:\n\n${actual}`;
      }
      throwError = true;
    }
  }
  if (throwError) {
    const err = new AssertionError({ actual, expected, message, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}

function getActual(fn) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  try { fn(); } catch (e) { return e; }
  return NO_EXCEPTION_SENTINEL;
}

const checkIsPromise = (obj) => isPromise(obj) ||
  (obj !== null && typeof obj === 'object' && typeof obj.then === 'function' && typeof obj.catch === 'function');

async function waitForActual(promiseFn) {
  let resultPromise;
  if (typeof promiseFn === 'function') {
    resultPromise = promiseFn();
    if (!checkIsPromise(resultPromise)) {
      throw util._nodeError(TypeError, 'ERR_INVALID_RETURN_VALUE',
        `Expected instance of Promise to be returned from the "promiseFn" function but got ${describeType(resultPromise)}.`);
    }
  } else if (checkIsPromise(promiseFn)) {
    resultPromise = promiseFn;
  } else {
    throw invalidArgType('promiseFn', 'of type function or an instance of Promise', promiseFn);
  }
  try { await resultPromise; } catch (e) { return e; }
  return NO_EXCEPTION_SENTINEL;
}
const describeType = (v) => (v === null ? 'null' : v === undefined ? 'undefined' :
  typeof v === 'object' ? `an instance of ${v.constructor?.name ?? 'Object'}` : `type ${typeof v}`);

function expectsError(stackStartFn, actual, error, message) {
  if (typeof error === 'string') {
    if (arguments.length === 4) {
      throw invalidArgType('error', 'of type function or an instance of Error, RegExp, or Object', error);
    }
    if (typeof actual === 'object' && actual !== null) {
      if (actual.message === error) {
        throw util._nodeError(TypeError, 'ERR_AMBIGUOUS_ARGUMENT',
          `The "error/message" argument is ambiguous. The error message "${actual.message}" is identical to the message.`);
      }
    } else if (actual === error) {
      throw util._nodeError(TypeError, 'ERR_AMBIGUOUS_ARGUMENT',
        `The "error/message" argument is ambiguous. The error "${actual}" is identical to the message.`);
    }
    message = error;
    error = undefined;
  } else if (error != null && typeof error !== 'object' && typeof error !== 'function') {
    throw invalidArgType('error', 'of type function or an instance of Error, RegExp, or Object', error);
  }
  if (actual === NO_EXCEPTION_SENTINEL) {
    let details = '';
    if (error && error.name) details += ` (${error.name})`;
    details += message ? `: ${message}` : '.';
    const fnType = stackStartFn === assert.rejects ? 'rejection' : 'exception';
    innerFail({ actual: undefined, expected: error, operator: stackStartFn.name,
      message: `Missing expected ${fnType}${details}`, stackStartFn });
  }
  if (!error) return;
  expectedException(actual, error, message, stackStartFn);
}

function hasMatchingError(actual, expected) {
  if (typeof expected !== 'function') {
    if (isRegExp(expected)) return RegExpPrototypeExec(expected, String(actual)) !== null;
    throw invalidArgType('expected', 'of type function or an instance of RegExp', expected);
  }
  if (expected.prototype !== undefined && actual instanceof expected) return true;
  if (ObjectPrototypeIsPrototypeOf(ErrorCtor, expected)) return false;
  return ReflectApply(expected, {}, [actual]) === true;
}

function expectsNoError(stackStartFn, actual, error, message) {
  if (actual === NO_EXCEPTION_SENTINEL) return;
  if (typeof error === 'string') { message = error; error = undefined; }
  if (!error || hasMatchingError(actual, error)) {
    const details = message ? `: ${message}` : '.';
    const fnType = stackStartFn === assert.doesNotReject ? 'rejection' : 'exception';
    innerFail({ actual, expected: error, operator: stackStartFn.name,
      message: `Got unwanted ${fnType}${details}\nActual message: "${actual && actual.message}"`, stackStartFn });
  }
  throw actual;
}

assert.throws = function throws(promiseFn, ...args) {
  ReflectApply(expectsError, undefined, [throws, getActual(promiseFn), ...new SafeArrayIterator(args)]);
};
assert.rejects = async function rejects(promiseFn, ...args) {
  ReflectApply(expectsError, undefined, [rejects, await waitForActual(promiseFn), ...new SafeArrayIterator(args)]);
};
assert.doesNotThrow = function doesNotThrow(fn, ...args) {
  ReflectApply(expectsNoError, undefined, [doesNotThrow, getActual(fn), ...new SafeArrayIterator(args)]);
};
assert.doesNotReject = async function doesNotReject(fn, ...args) {
  ReflectApply(expectsNoError, undefined, [doesNotReject, await waitForActual(fn), ...new SafeArrayIterator(args)]);
};

assert.ifError = function ifError(err) {
  if (err !== null && err !== undefined) {
    let message = 'ifError got unwanted exception: ';
    if (typeof err === 'object' && typeof err.message === 'string') {
      if (err.message.length === 0 && err.constructor) message += err.constructor.name;
      else message += err.message;
    } else {
      message += inspect(err);
    }
    const newErr = new AssertionError({ actual: err, expected: null, operator: 'ifError', message, stackStartFn: ifError });
    // Node appends the original error's stack frames after the assertion's own.
    const origStack = err.stack;
    if (typeof origStack === 'string' && typeof newErr.stack === 'string') {
      const origStackStart = StringPrototypeIndexOf(origStack, '\n    at');
      if (origStackStart !== -1) {
        const originalFrames = StringPrototypeSplit(StringPrototypeSlice(origStack, origStackStart + 1), '\n');
        let newFrames = StringPrototypeSplit(newErr.stack, '\n');
        for (const errFrame of new SafeArrayIterator(originalFrames)) {
          const pos = ArrayPrototypeIndexOf(newFrames, errFrame);
          if (pos !== -1) { newFrames = ArrayPrototypeSlice(newFrames, 0, pos); break; }
        }
        const stackStart = ArrayPrototypeJoin(newFrames, '\n');
        const stackEnd = ArrayPrototypeJoin(originalFrames, '\n');
        newErr.stack = `${stackStart}\n${stackEnd}`;
      }
    }
    throw newErr;
  }
};

function internalMatch(string, regexp, message, fn) {
  if (!isRegExp(regexp)) throw invalidArgType('regexp', 'an instance of RegExp', regexp);
  const match = fn === assert.match;
  if (typeof string !== 'string' || (RegExpPrototypeExec(regexp, string) !== null) !== match) {
    if (message instanceof ErrorCtor) throw message;
    const generatedMessage = !message;
    message = message || (typeof string !== 'string'
      ? `The "string" argument must be of type string. Received type ${typeof string} (${inspect(string)})`
      : (match
        ? 'The input did not match the regular expression '
        : 'The input was expected to not match the regular expression ') +
          `${inspect(regexp)}. Input:\n\n${inspect(string)}\n`);
    const err = new AssertionError({ actual: string, expected: regexp, message, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}
assert.match = function match(string, regexp, message) { internalMatch(string, regexp, message, match); };
assert.doesNotMatch = function doesNotMatch(string, regexp, message) { internalMatch(string, regexp, message, doesNotMatch); };

// assert.strict: the same functions with the strict comparisons under the loose names.
function strict(...args) { ReflectApply(innerOk, undefined, [strict, args.length, ...new SafeArrayIterator(args)]); }
assert.strict = ObjectAssignFns(strict, assert, {
  equal: assert.strictEqual,
  deepEqual: assert.deepStrictEqual,
  notEqual: assert.notStrictEqual,
  notDeepEqual: assert.notDeepStrictEqual,
});
assert.strict.strict = assert.strict;
function ObjectAssignFns(target, source, overrides) {
  for (const key of new SafeArrayIterator(ObjectKeys(source))) target[key] = source[key];
  for (const key of new SafeArrayIterator(ObjectKeys(overrides))) target[key] = overrides[key];
  return target;
}

module.exports = assert;
