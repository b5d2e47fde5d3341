// V8's ValueSerializer wire format (format version 15), the bytes of Node's v8.serialize / v8.deserialize,
// written in the guest's realm so that a buffer made here reads on a real Node and the reverse. The classes
// are Node's: Serializer and Deserializer (V8's writer and reader with Node's delegate: _writeHostObject,
// _readHostObject, _getDataCloneError, _getSharedArrayBufferId), and DefaultSerializer / DefaultDeserializer,
// which carry ArrayBufferViews as host objects (type index, byte length, bytes) as Node's lib/v8.js does.
//
// V8 picks some encodings from internals that JavaScript cannot see; they are inferred here the way V8 ends up
// with them for ordinary values: a number is an int32 'I' when it is a Smi (an integer in int32 range, not -0),
// a string is one-byte when all its code units fit Latin-1, an array is dense when it has no holes and plain
// elements, and a dense array of numbers with any non-Smi is a double array whose elements are all written 'N'.
'use strict';

const {
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames,
  ObjectGetPrototypeOf,
  ObjectIsExtensible,
  ObjectKeys,
  ReflectApply,
  ArrayIsArray,
  ArrayBufferIsView,
  StringFromCharCode,
  NumberIsInteger,
  MathMin,
  FunctionPrototypeToString,
  SymbolPrototypeToString,
  MapPrototypeSet,
  MapPrototypeGet,
  MapPrototypeHas,
  MapPrototypeForEach,
  SetPrototypeAdd,
  SetPrototypeForEach,
  Array,
  ArrayBuffer,
  BigInt,
  Boolean,
  DataView,
  Date,
  Error,
  EvalError,
  FinalizationRegistry,
  Map,
  MathFloor,
  MathMax,
  MathTrunc,
  Number,
  Object,
  Promise,
  RangeError,
  ReferenceError,
  RegExp,
  Set,
  SharedArrayBuffer,
  String,
  SymbolToStringTag,
  SyntaxError,
  TypeError,
  URIError,
  Uint8Array,
  WeakMap,
  WeakRef,
  WeakSet,
  BigIntPrototypeValueOf,
  BooleanPrototypeValueOf,
  DatePrototypeGetTime,
  FinalizationRegistryPrototypeUnregister,
  NumberPrototypeValueOf,
  StringPrototypeValueOf,
  SymbolPrototypeValueOf,
  WeakMapPrototypeHas,
  WeakRefPrototypeDeref,
  WeakSetPrototypeAdd,
  WeakSetPrototypeHas,
  ErrorIsError,
  ArrayPrototypeFilter,
  ArrayPrototypeMap,
  ArrayPrototypePush,
  ArrayPrototypeSplice,
  ArrayPrototypeValues,
  BigInt64Array,
  BigUint64Array,
  Float64Array,
  MapPrototypeEntries,
  RegExpPrototypeSymbolMatchAll,
  SetPrototypeValues,
  StringPrototypeCharCodeAt,
  StringPrototypeSplit,
  StringPrototypeSymbolIterator,
  SafeMap, SafeWeakMap, SafeWeakSet,
  SafeArrayIterator,
  ArrayPrototypeFind, ArrayPrototypeIndexOf, ArrayPrototypeSlice, ArrayPrototypeSome, TypedArrayPrototypeSubarray, StringPrototypeSlice,
  DataViewPrototypeGetFloat64, DataViewPrototypeSetFloat64, DataViewPrototypeSetUint8,
  TypedArrayPrototypeSet,
  GetLength,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  hardenRegExp,
} = require('internal/primordials');

const { Buffer } = require('buffer');
const { codeError } = require('internal/errors');

const ObjectPrototype = Object.prototype;
const BigIntCtor = BigInt;
const uncurry = (fn) => (self, ...args) => ReflectApply(fn, self, args);
const getter = (proto, name) => uncurry(ObjectGetOwnPropertyDescriptor(proto, name).get);
const hasOwn = uncurry(ObjectPrototype.hasOwnProperty);
const objectToString = ObjectPrototype.toString;
const ObjectPrototypeToString = uncurry(objectToString);
const DateGetTime = DatePrototypeGetTime;
const NumberValueOf = NumberPrototypeValueOf;
const StringValueOf = StringPrototypeValueOf;
const BooleanValueOf = BooleanPrototypeValueOf;
const BigIntValueOf = BigIntPrototypeValueOf;
const SymbolValueOf = SymbolPrototypeValueOf;
const RegExpSource = getter(RegExp.prototype, 'source');
/** [flag's getter, V8's bit] for each flag this V8 has. */
const RegExpFlagGetters = [];
{
  const flags = [['global', 1], ['ignoreCase', 2], ['multiline', 4], ['sticky', 8], ['unicode', 16], ['dotAll', 32], ['hasIndices', 128], ['unicodeSets', 256]];
  for (let i = 0; i < flags.length; i++) {
    if (ObjectGetOwnPropertyDescriptor(RegExp.prototype, flags[i][0])) ArrayPrototypePush(RegExpFlagGetters, [getter(RegExp.prototype, flags[i][0]), flags[i][1]]);
  }
}
const MapSize = getter(Map.prototype, 'size');
const SetSize = getter(Set.prototype, 'size');
const ArrayBufferByteLength = getter(ArrayBuffer.prototype, 'byteLength');
const ArrayBufferResizable = ObjectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'resizable') ? getter(ArrayBuffer.prototype, 'resizable') : () => false;
const ArrayBufferMaxByteLength = ObjectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'maxByteLength') ? getter(ArrayBuffer.prototype, 'maxByteLength') : ArrayBufferByteLength;
const ArrayBufferDetached = ObjectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached') ? getter(ArrayBuffer.prototype, 'detached') : () => false;
const SharedArrayBufferByteLength = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype, 'byteLength') : null;
const TypedArrayPrototype = ObjectGetPrototypeOf(Uint8Array.prototype);
const TypedArrayTag = getter(TypedArrayPrototype, SymbolToStringTag);
const TypedArrayBuffer = getter(TypedArrayPrototype, 'buffer');
const TypedArrayByteOffset = getter(TypedArrayPrototype, 'byteOffset');
const TypedArrayByteLength = getter(TypedArrayPrototype, 'byteLength');
const DataViewBuffer = getter(DataView.prototype, 'buffer');
const DataViewByteOffset = getter(DataView.prototype, 'byteOffset');
const DataViewByteLength = getter(DataView.prototype, 'byteLength');
const WeakMapHas = WeakMapPrototypeHas;
const WeakSetHas = WeakSetPrototypeHas;
const WeakRefDeref = typeof WeakRef === 'function' ? WeakRefPrototypeDeref : null;
const FinalizationRegistryUnregister = typeof FinalizationRegistry === 'function' ? FinalizationRegistryPrototypeUnregister : null;
const PromisePrototype = Promise.prototype;
const IntlBrands = typeof Intl === 'object'
  ? ArrayPrototypeMap(
    ArrayPrototypeFilter(ArrayPrototypeMap(ObjectGetOwnPropertyNames(Intl), (name) => Intl[name] && Intl[name].prototype), (proto) => proto && typeof proto === 'object'),
    (proto) => uncurry(typeof proto.resolvedOptions === 'function' ? proto.resolvedOptions : proto.toString))
  : [];
const ErrorCtor = Error;
const StackPrototypes = [];
ArrayPrototypePush(StackPrototypes, ObjectGetPrototypeOf(function* () {}.prototype), ObjectGetPrototypeOf(async function* () {}.prototype));
const iterators = [MapPrototypeEntries(new Map()), SetPrototypeValues(new Set()), ArrayPrototypeValues([]), StringPrototypeSymbolIterator(''), RegExpPrototypeSymbolMatchAll(hardenRegExp(/x/), '')];
for (let i = 0; i < iterators.length; i++) ArrayPrototypePush(StackPrototypes, ObjectGetPrototypeOf(iterators[i]));

const primordials = require('internal/primordials');
const VIEW_TYPES = [['Int8Array', 'b'], ['Uint8Array', 'B'], ['Uint8ClampedArray', 'C'], ['Int16Array', 'w'],
  ['Uint16Array', 'W'], ['Int32Array', 'd'], ['Uint32Array', 'D'], ['Float16Array', 'h'], ['Float32Array', 'f'],
  ['Float64Array', 'F'], ['BigInt64Array', 'q'], ['BigUint64Array', 'Q'], ['DataView', '?']];
for (let i = 0; i < VIEW_TYPES.length; i++) {
  const name = VIEW_TYPES[i][0];
  // The constructors as they were at boot (Float16Array, newer than the primordials' list, from the global).
  const ctor = name in primordials ? primordials[name] : globalThis[name];
  VIEW_TYPES[i] = typeof ctor === 'function' ? { name, tag: StringPrototypeCharCodeAt(VIEW_TYPES[i][1], 0), ctor } : undefined;
}
for (let i = VIEW_TYPES.length - 1; i >= 0; i--) if (VIEW_TYPES[i] === undefined) ArrayPrototypeSplice(VIEW_TYPES, i, 1);

// V8 moved the error's stack before its cause (so that a cause can refer back to the error) in V8 12, and reads
// the fields in that order only; V8 11 writes the cause first and reads them in any order.
const v8Major = () => +StringPrototypeSplit(`${require('process').versions.v8}`, '.')[0];

const T = (c) => StringPrototypeCharCodeAt(c, 0);
const kVersion = 0xff, kLatestVersion = 15;
const tags = {
  padding: 0, verifyCount: T('?'), hole: T('-'), undefined: T('_'), null: T('0'), true: T('T'), false: T('F'),
  int32: T('I'), uint32: T('U'), double: T('N'), bigint: T('Z'), utf8: T('S'), oneByte: T('"'), twoByte: T('c'),
  ref: T('^'), object: T('o'), endObject: T('{'), sparse: T('a'), endSparse: T('@'), dense: T('A'),
  endDense: T('$'), date: T('D'), trueObject: T('y'), falseObject: T('x'), numberObject: T('n'),
  bigintObject: T('z'), stringObject: T('s'), regexp: T('R'), map: T(';'), endMap: T(':'), set: T("'"),
  endSet: T(','), arrayBuffer: T('B'), resizableArrayBuffer: T('~'), transfer: T('t'), view: T('V'),
  sharedArrayBuffer: T('u'), sharedObject: T('p'), hostObject: T('\\'), error: T('r'),
};
const errorTags = { EvalError: T('E'), RangeError: T('R'), ReferenceError: T('F'), SyntaxError: T('S'),
  TypeError: T('T'), URIError: T('U') };
const errorByTag = { [T('E')]: EvalError, [T('R')]: RangeError, [T('F')]: ReferenceError, [T('S')]: SyntaxError,
  [T('T')]: TypeError, [T('U')]: URIError };
const kMessage = T('m'), kCause = T('c'), kStack = T('s'), kEnd = T('.');

const brand = (fn) => (v) => { try { fn(v); return true; } catch { return false; } };
const isDate = brand(DateGetTime);
const isRegExp = brand(RegExpSource);
const isMap = brand(MapSize);
const isSet = brand(SetSize);
const isArrayBuffer = brand(ArrayBufferByteLength);
const isSharedArrayBuffer = SharedArrayBufferByteLength ? brand(SharedArrayBufferByteLength) : () => false;
const isDataView = brand(DataViewByteLength);
const isNumberObject = brand(NumberValueOf);
const isStringObject = brand(StringValueOf);
const isBooleanObject = brand(BooleanValueOf);
const isBigIntObject = brand(BigIntValueOf);
const isSymbolObject = brand(SymbolValueOf);
const isWeakMap = brand((v) => WeakMapHas(v, ObjectPrototype));
const isWeakSet = brand((v) => WeakSetHas(v, ObjectPrototype));
const isWeakRef = WeakRefDeref ? brand(WeakRefDeref) : () => false;
const isFinalizationRegistry = FinalizationRegistryUnregister ? brand((v) => FinalizationRegistryUnregister(v, ObjectPrototype)) : () => false;
// Object.prototype.toString answers 'Error' from the [[ErrorData]] slot alone, the brand V8 serializes by.
const isNativeError = (v) => (typeof ErrorIsError === 'function' ? ErrorIsError(v) : ObjectPrototypeToString(v) === '[object Error]');
const protoChainHas = (v, proto) => {
  for (let o = ObjectGetPrototypeOf(v); o !== null; o = ObjectGetPrototypeOf(o)) if (o === proto) return true;
  return false;
};
const isModuleNamespace = (v) => ObjectGetPrototypeOf(v) === null && !ObjectIsExtensible(v) &&
  ObjectGetOwnPropertyDescriptor(v, SymbolToStringTag)?.value === 'Module';

/** A property's value as V8's GetDataProperty sees it: found along the prototype chain, accessors give undefined. */
function dataProperty(o, key) {
  for (; o !== null; o = ObjectGetPrototypeOf(o)) {
    const d = ObjectGetOwnPropertyDescriptor(o, key);
    if (d) return 'value' in d ? d.value : undefined;
  }
  return undefined;
}

/** V8's NoSideEffectsToString of a value that could not be cloned, the subject of the DataCloneError message. */
function describe(v) {
  if (typeof v === 'function') return FunctionPrototypeToString(v);
  if (typeof v === 'symbol') return SymbolPrototypeToString(v);
  if (dataProperty(v, 'toString') === objectToString) {
    const ctor = dataProperty(v, 'constructor');
    if (typeof ctor === 'function') {
      const name = dataProperty(ctor, 'name');
      if (typeof name === 'string' && name !== '') return `#<${name}>`;
    }
  }
  const tag = dataProperty(v, SymbolToStringTag);
  if (typeof tag === 'string') return `[object ${tag}]`;
  return ObjectPrototypeToString(v);
}

const isSmi = (n) => NumberIsInteger(n) && n >= -0x80000000 && n <= 0x7fffffff && (n !== 0 || 1 / n > 0);
/** A canonical array index (a key V8 keeps as a number), or -1. */
function indexOf(key) {
  const n = +key;
  return key !== '' && n <= 4294967294 && NumberIsInteger(n) && n >= 0 && `${n}` === key ? n : -1;
}
const varintSize = (n) => { let size = 1; while (n >= 128) { n = MathFloor(n / 128); size++; } return size; };

// Arrays made by the reader have holey elements in V8 (and keep them), so V8 writes them sparse again.
const holeyArrays = new SafeWeakSet();
const WeakSetHasHoley = WeakSetPrototypeHas;
const WeakSetAddHoley = WeakSetPrototypeAdd;

const scratch = new DataView(new ArrayBuffer(8));
const states = new SafeWeakMap();
function state(self) {
  const s = states.get(self);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

// ---- writing

class Writer {
  constructor() {
    this.bytes = new Uint8Array(64);
    this.length = 0;
    this.ids = new SafeMap();
    this.nextId = 0;
    this.transfers = new SafeMap();
    this.viewsAsHostObjects = false;
    /** Which objects go to _writeHostObject (setHostObjectTest): a Worker's MessagePorts. */
    this.isHostObject = null;
  }

  reserve(n) {
    if (this.length + n > GetLength(this.bytes)) {
      const grown = new Uint8Array(MathMax(this.length + n, GetLength(this.bytes) * 2) + 64);
      TypedArrayPrototypeSet(grown, TypedArrayPrototypeSubarray(this.bytes, 0, this.length));
      this.bytes = grown;
    }
  }

  byte(b) { this.reserve(1); this.bytes[this.length++] = b; }

  varint(n) {
    this.reserve(10);
    while (n >= 128) { this.bytes[this.length++] = (n % 128) | 0x80; n = MathFloor(n / 128); }
    this.bytes[this.length++] = n;
  }

  bigVarint(n) {
    this.reserve(10);
    while (n >= 128n) { this.bytes[this.length++] = Number(n & 127n) | 0x80; n >>= 7n; }
    this.bytes[this.length++] = Number(n);
  }

  double(n) {
    DataViewPrototypeSetFloat64(scratch, 0, n, true);
    this.raw(new Uint8Array(GetBuffer(scratch)));
  }

  raw(bytes) {
    this.reserve(GetLength(bytes));
    TypedArrayPrototypeSet(this.bytes, bytes, this.length);
    this.length += GetLength(bytes);
  }

  bigintContents(n) {
    const negative = n < 0n;
    let magnitude = negative ? -n : n;
    const digits = [];
    while (magnitude > 0n) { ArrayPrototypePush(digits, magnitude & 0xffffffffffffffffn); magnitude >>= 64n; }
    this.varint(digits.length * 8 * 2 + (negative ? 1 : 0));
    this.reserve(digits.length * 8);
    for (let d of new SafeArrayIterator(digits)) for (let i = 0; i < 8; i++) { this.bytes[this.length++] = Number(d & 255n); d >>= 8n; }
  }

  string(s) {
    const n = s.length;
    let oneByte = true;
    for (let i = 0; i < n; i++) if (StringPrototypeCharCodeAt(s, i) > 0xff) { oneByte = false; break; }
    if (oneByte) {
      this.byte(tags.oneByte);
      this.varint(n);
      this.reserve(n);
      for (let i = 0; i < n; i++) this.bytes[this.length++] = StringPrototypeCharCodeAt(s, i);
      return;
    }
    // V8 aligns the two-byte payload on an even offset, with a padding tag before the string's tag.
    if ((this.length + 1 + varintSize(n * 2)) & 1) this.byte(tags.padding);
    this.byte(tags.twoByte);
    this.varint(n * 2);
    this.reserve(n * 2);
    for (let i = 0; i < n; i++) {
      const c = StringPrototypeCharCodeAt(s, i);
      this.bytes[this.length++] = c & 0xff;
      this.bytes[this.length++] = c >> 8;
    }
  }

  number(n) {
    if (isSmi(n)) {
      this.byte(tags.int32);
      this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
    } else {
      this.byte(tags.double);
      this.double(n);
    }
  }

  key(k) {
    const index = indexOf(k);
    if (index >= 0) this.number(index);
    else this.string(k);
  }
}

function cloneError(self, message) {
  throw ReflectApply(self._getDataCloneError, self, [message]);
}

function writeObject(self, w, v) {
  switch (typeof v) {
    case 'undefined': return w.byte(tags.undefined);
    case 'boolean': return w.byte(v ? tags.true : tags.false);
    case 'number': return w.number(v);
    case 'bigint': w.byte(tags.bigint); return w.bigintContents(v);
    case 'string': return w.string(v);
    case 'symbol': return cloneError(self, `${describe(v)} could not be cloned.`);
    default:
      if (v === null) return w.byte(tags.null);
      if (typeof v === 'object' && !w.viewsAsHostObjects && !MapPrototypeHas(w.ids, v) && viewInfo(v)) {
        // A view follows its buffer, which is written first (or referred back to).
        writeReceiver(self, w, GetBuffer(viewInfo(v)));
      }
      return writeReceiver(self, w, v);
  }
}

/** The type, buffer, offset and length of an ArrayBufferView, or undefined for other objects. */
function viewInfo(v) {
  const name = TypedArrayTag(v);
  if (name !== undefined) {
    return { name, buffer: TypedArrayBuffer(v), byteOffset: TypedArrayByteOffset(v), byteLength: TypedArrayByteLength(v) };
  }
  if (isDataView(v)) {
    return { name: 'DataView', buffer: DataViewBuffer(v), byteOffset: DataViewByteOffset(v), byteLength: DataViewByteLength(v) };
  }
  return undefined;
}

function writeReceiver(self, w, v) {
  const id = MapPrototypeGet(w.ids, v);
  if (id !== undefined) {
    w.byte(tags.ref);
    return w.varint(id);
  }
  MapPrototypeSet(w.ids, v, w.nextId++);
  if (w.isHostObject !== null && w.isHostObject(v)) return writeHostObject(self, w, v);
  if (typeof v === 'function') return cloneError(self, `${describe(v)} could not be cloned.`);
  if (ArrayIsArray(v)) return writeArray(self, w, v);
  const proto = ObjectGetPrototypeOf(v);
  // Ordinary objects skip the brand checks below.
  if (proto === ObjectPrototype || proto === null) {
    if ((proto === null && isModuleNamespace(v)) || v === globalThis ||
        (hasOwn(v, 'callee') && ObjectPrototypeToString(v) === '[object Arguments]')) {
      return cloneError(self, `${describe(v)} could not be cloned.`);
    }
    return writeJSObject(self, w, v);
  }
  if (isDate(v)) { w.byte(tags.date); return w.double(DateGetTime(v)); }
  if (isRegExp(v)) {
    let flags = 0;
    for (let i = 0; i < RegExpFlagGetters.length; i++) if (RegExpFlagGetters[i][0](v)) flags += RegExpFlagGetters[i][1];
    w.byte(tags.regexp);
    w.string(RegExpSource(v));
    return w.varint(flags);
  }
  if (isMap(v)) {
    const entries = [];
    MapPrototypeForEach(v, (value, key) => { entries[entries.length] = key; entries[entries.length] = value; });
    w.byte(tags.map);
    for (let i = 0; i < entries.length; i++) writeObject(self, w, entries[i]);
    w.byte(tags.endMap);
    return w.varint(entries.length);
  }
  if (isSet(v)) {
    const entries = [];
    SetPrototypeForEach(v, (value) => { entries[entries.length] = value; });
    w.byte(tags.set);
    for (let i = 0; i < entries.length; i++) writeObject(self, w, entries[i]);
    w.byte(tags.endSet);
    return w.varint(entries.length);
  }
  if (isArrayBuffer(v)) return writeArrayBuffer(self, w, v);
  if (isSharedArrayBuffer(v)) {
    if (typeof self._getSharedArrayBufferId !== 'function') return cloneError(self, `${describe(v)} could not be cloned.`);
    const sabId = ReflectApply(self._getSharedArrayBufferId, self, [v]);
    w.byte(tags.sharedArrayBuffer);
    return w.varint(sabId >>> 0);
  }
  const view = viewInfo(v);
  if (view) {
    if (w.viewsAsHostObjects) return writeHostObject(self, w, v);
    const type = ArrayPrototypeFind(VIEW_TYPES, (t) => t.name === view.name);
    w.byte(tags.view);
    w.varint(type.tag);
    w.varint(GetByteOffset(view));
    w.varint(GetByteLength(view));
    // A view of shared memory is never of a resizable ArrayBuffer (a growable SharedArrayBuffer is not either, here).
    return w.varint(!isSharedArrayBuffer(GetBuffer(view)) && ArrayBufferResizable(GetBuffer(view)) ? 2 : 0);
  }
  if (isNativeError(v)) return writeError(self, w, v);
  if (isBooleanObject(v)) return w.byte(BooleanValueOf(v) ? tags.trueObject : tags.falseObject);
  if (isNumberObject(v)) { w.byte(tags.numberObject); return w.double(NumberValueOf(v)); }
  if (isBigIntObject(v)) { w.byte(tags.bigintObject); return w.bigintContents(BigIntValueOf(v)); }
  if (isStringObject(v)) { w.byte(tags.stringObject); return w.string(StringValueOf(v)); }
  if (isSymbolObject(v) || protoChainHas(v, PromisePrototype) || isWeakMap(v) || isWeakSet(v) || isWeakRef(v) ||
      isFinalizationRegistry(v) || v === globalThis || ArrayPrototypeSome(StackPrototypes, (p) => protoChainHas(v, p)) ||
      ArrayPrototypeSome(IntlBrands, (b) => brand(b)(v))) {
    return cloneError(self, `${describe(v)} could not be cloned.`);
  }
  return writeJSObject(self, w, v);
}

/** Writes the own enumerable properties named by keys (indices as numbers); returns how many were written. */
function writeProperties(self, w, o, keys) {
  let written = 0;
  for (let i = 0; i < keys.length; i++) {
    const d = ObjectGetOwnPropertyDescriptor(o, keys[i]);
    if (d === undefined) continue; // deleted by a getter met earlier, as V8 skips it
    const value = 'value' in d ? d.value : d.get === undefined ? undefined : ReflectApply(d.get, o, []);
    w.key(keys[i]);
    writeObject(self, w, value);
    written++;
  }
  return written;
}

function writeJSObject(self, w, o) {
  w.byte(tags.object);
  const written = writeProperties(self, w, o, ObjectKeys(o));
  w.byte(tags.endObject);
  w.varint(written);
}

function writeArray(self, w, a) {
  const length = a.length;
  // V8 writes an array densely when its elements are packed: no holes, only plain data elements.
  const names = ObjectGetOwnPropertyNames(a);
  let elements = 0;
  while (elements < names.length && indexOf(names[elements]) >= 0) elements++;
  let packed = elements === length && ObjectIsExtensible(a) && !WeakSetHasHoley(holeyArrays, a);
  const values = packed ? new Array(length) : null;
  let numbers = true, smis = true;
  for (let i = 0; packed && i < length; i++) {
    const d = ObjectGetOwnPropertyDescriptor(a, i);
    if (!('value' in d) || !d.writable || !d.enumerable || !d.configurable) packed = false;
    else {
      const v = values[i] = d.value;
      if (typeof v !== 'number') numbers = smis = false;
      else if (smis && !isSmi(v)) smis = false;
    }
  }
  if (!packed) {
    w.byte(tags.sparse);
    w.varint(length);
    const written = writeProperties(self, w, a, ObjectKeys(a));
    w.byte(tags.endSparse);
    w.varint(written);
    return w.varint(length);
  }
  w.byte(tags.dense);
  w.varint(length);
  if (numbers && !smis) {
    for (let i = 0; i < length; i++) { w.byte(tags.double); w.double(values[i]); }
  } else {
    for (let i = 0; i < length; i++) writeObject(self, w, values[i]);
  }
  const keys = ObjectKeys(a);
  let first = 0;
  while (first < keys.length && indexOf(keys[first]) >= 0) first++;
  const written = writeProperties(self, w, a, first ? ArrayPrototypeSlice(keys, first) : keys);
  w.byte(tags.endDense);
  w.varint(written);
  w.varint(length);
}

function writeArrayBuffer(self, w, ab) {
  const transferId = MapPrototypeGet(w.transfers, ab);
  if (transferId !== undefined) {
    w.byte(tags.transfer);
    return w.varint(transferId);
  }
  if (ArrayBufferDetached(ab)) return cloneError(self, 'An ArrayBuffer is detached and could not be cloned.');
  const bytes = new Uint8Array(ab);
  if (ArrayBufferResizable(ab)) {
    w.byte(tags.resizableArrayBuffer);
    w.varint(GetLength(bytes));
    w.varint(ArrayBufferMaxByteLength(ab));
  } else {
    w.byte(tags.arrayBuffer);
    w.varint(GetLength(bytes));
  }
  w.raw(bytes);
}

function writeHostObject(self, w, v) {
  w.byte(tags.hostObject);
  // Without a _writeHostObject, V8's own delegate refuses the object (not through _getDataCloneError).
  if (typeof self._writeHostObject !== 'function') throw new ErrorCtor(`${describe(v)} could not be cloned.`);
  ReflectApply(self._writeHostObject, self, [v]);
}

function writeError(self, w, e) {
  const message = ObjectGetOwnPropertyDescriptor(e, 'message');
  const cause = ObjectGetOwnPropertyDescriptor(e, 'cause');
  w.byte(tags.error);
  const name = `${e.name}`;
  if (hasOwn(errorTags, name)) w.varint(errorTags[name]);
  if (message !== undefined && 'value' in message) {
    const text = `${message.value}`;
    w.varint(kMessage);
    w.string(text);
  }
  const writeCause = () => {
    if (cause === undefined || !('value' in cause)) return;
    w.varint(kCause);
    writeObject(self, w, cause.value);
  };
  const stackFirst = v8Major() >= 12;
  if (!stackFirst) writeCause();
  const stack = e.stack;
  if (typeof stack === 'string') {
    w.varint(kStack);
    w.string(stack);
  }
  if (stackFirst) writeCause();
  w.varint(kEnd);
}

// ---- reading

const FAIL = { reason: 'Unable to deserialize cloned data.' };

class Reader {
  constructor(view) {
    this.bytes = new Uint8Array(GetBuffer(view), GetByteOffset(view), GetByteLength(view));
    this.position = 0;
    this.version = 0;
    this.ids = [];
    this.nextId = 0;
    this.transfers = new SafeMap();
    this.broken13 = false;
    /** (id) → the SharedArrayBuffer a writer shared under that id (setSharedArrayBufferSource). */
    this.sharedSource = null;
  }

  get remaining() { return GetLength(this.bytes) - this.position; }

  readTag() {
    let tag;
    do {
      if (this.position >= GetLength(this.bytes)) throw FAIL;
      tag = this.bytes[this.position++];
    } while (tag === tags.padding);
    return tag;
  }

  peekTag() {
    let p = this.position;
    while (p < GetLength(this.bytes) && this.bytes[p] === tags.padding) p++;
    return p < GetLength(this.bytes) ? this.bytes[p] : -1;
  }

  // A varint of `bits` bits; as V8, more significant bits are dropped.
  varint(bits = 32) {
    let value = 0, scale = 1, shift = 0, byte;
    do {
      if (this.position >= GetLength(this.bytes)) throw FAIL;
      byte = this.bytes[this.position];
      if (shift >= bits) return value;
      this.position++;
      value += (byte & 0x7f) * scale;
      scale *= 128;
      shift += 7;
    } while (byte & 0x80);
    return bits < 53 ? value % 2 ** bits : value;
  }

  bigVarint() {
    let value = 0n, shift = 0n, byte;
    do {
      if (this.position >= GetLength(this.bytes)) throw FAIL;
      byte = this.bytes[this.position];
      if (shift >= 64n) return value;
      this.position++;
      value |= BigIntCtor(byte & 0x7f) << shift;
      shift += 7n;
    } while (byte & 0x80);
    return value & 0xffffffffffffffffn;
  }

  double() {
    if (this.remaining < 8) throw FAIL;
    for (let i = 0; i < 8; i++) DataViewPrototypeSetUint8(scratch, i, this.bytes[this.position++]);
    return DataViewPrototypeGetFloat64(scratch, 0, true);
  }

  raw(n) {
    if (n > this.remaining) throw FAIL;
    const start = this.position;
    this.position += n;
    return start;
  }

  bigint() {
    const bitfield = this.varint();
    const length = MathFloor(bitfield / 2);
    const start = this.raw(length);
    let n = 0n;
    for (let i = length - 1; i >= 0; i--) n = (n << 8n) | BigIntCtor(this.bytes[start + i]);
    return bitfield & 1 ? -n : n;
  }

  latin1(start, n) {
    let s = '';
    for (let i = 0; i < n; i += 4096) {
      const chunk = TypedArrayPrototypeSubarray(this.bytes, start + i, start + MathMin(n, i + 4096));
      s += ReflectApply(StringFromCharCode, null, chunk);
    }
    return s;
  }

  utf16(start, n) {
    let s = '';
    for (let i = 0; i < n; i += 2) s += StringFromCharCode(this.bytes[start + i] | (this.bytes[start + i + 1] << 8));
    return s;
  }
}

function readObject(self, r) {
  let v = readObjectInternal(self, r);
  // A view is written right after its buffer, and turns the buffer just read into the view.
  if (r.peekTag() === tags.view && typeof v === 'object' && v !== null && (isArrayBuffer(v) || isSharedArrayBuffer(v))) {
    r.readTag();
    v = readView(r, v);
  }
  return v;
}

function readString(self, r) {
  const s = readObject(self, r);
  if (typeof s !== 'string') throw FAIL;
  return s;
}

function readObjectInternal(self, r) {
  const tag = r.readTag();
  switch (tag) {
    case tags.verifyCount: r.varint(); return readObject(self, r);
    case tags.undefined: return undefined;
    case tags.null: return null;
    case tags.true: return true;
    case tags.false: return false;
    case tags.int32: { const n = r.varint(); return n % 2 ? -(n - 1) / 2 - 1 : n / 2; }
    case tags.uint32: return r.varint();
    case tags.double: return r.double();
    case tags.bigint: return r.bigint();
    case tags.utf8: {
      const n = r.varint();
      const start = r.raw(n);
      return Buffer.from(GetBuffer(r.bytes), GetByteOffset(r.bytes) + start, n).toString('utf8');
    }
    case tags.oneByte: { const n = r.varint(); return r.latin1(r.raw(n), n); }
    case tags.twoByte: {
      const n = r.varint();
      if (n % 2) throw FAIL;
      return r.utf16(r.raw(n), n);
    }
    case tags.ref: {
      const id = r.varint();
      if (!hasOwn(r.ids, id)) throw FAIL;
      return r.ids[id];
    }
    case tags.object: {
      const o = {};
      r.ids[r.nextId++] = o;
      const count = readProperties(self, r, o, tags.endObject);
      if (r.varint() !== count) throw FAIL;
      return o;
    }
    case tags.sparse: {
      const length = r.varint();
      const a = [];
      a.length = length;
      WeakSetAddHoley(holeyArrays, a);
      r.ids[r.nextId++] = a;
      const count = readProperties(self, r, a, tags.endSparse);
      if (r.varint() !== count || r.varint() !== length) throw FAIL;
      return a;
    }
    case tags.dense: {
      const length = r.varint();
      if (length > r.remaining) throw FAIL;
      const a = new Array(length);
      WeakSetAddHoley(holeyArrays, a);
      r.ids[r.nextId++] = a;
      for (let i = 0; i < length; i++) {
        if (r.peekTag() === tags.hole) { r.readTag(); continue; }
        const v = readObject(self, r);
        if (r.version < 11 && v === undefined) continue;
        a[i] = v;
      }
      const count = readProperties(self, r, a, tags.endDense);
      if (r.varint() !== count || r.varint() !== length) throw FAIL;
      return a;
    }
    case tags.date: { const d = new Date(r.double()); r.ids[r.nextId++] = d; return d; }
    case tags.trueObject: case tags.falseObject: case tags.numberObject: case tags.bigintObject:
    case tags.stringObject: {
      const id = r.nextId++;
      let o;
      if (tag === tags.trueObject || tag === tags.falseObject) o = new Boolean(tag === tags.trueObject);
      else if (tag === tags.numberObject) o = new Number(r.double());
      else if (tag === tags.bigintObject) o = Object(r.bigint());
      else o = new String(readString(self, r));
      r.ids[id] = o;
      return o;
    }
    case tags.regexp: {
      const id = r.nextId++;
      const source = readString(self, r);
      const bits = r.varint();
      if (bits >= 512 || bits & 64) throw FAIL;
      let flags = '';
      for (const entry$760 of new SafeArrayIterator([[128, 'd'], [1, 'g'], [2, 'i'], [4, 'm'], [32, 's'], [16, 'u'], [256, 'v'], [8, 'y']])) { const bit = entry$760[0], flag = entry$760[1];
        if (bits & bit) flags += flag;
      }
      let re;
      try { re = new RegExp(source, flags); } catch { throw FAIL; }
      r.ids[id] = re;
      return re;
    }
    case tags.map: {
      const m = new Map();
      r.ids[r.nextId++] = m;
      let length = 0;
      for (;;) {
        const next = r.peekTag();
        if (next === -1) throw FAIL;
        if (next === tags.endMap) { r.readTag(); break; }
        const key = readObject(self, r);
        MapPrototypeSet(m, key, readObject(self, r));
        length += 2;
      }
      if (r.varint() !== length) throw FAIL;
      return m;
    }
    case tags.set: {
      const s = new Set();
      r.ids[r.nextId++] = s;
      let length = 0;
      for (;;) {
        const next = r.peekTag();
        if (next === -1) throw FAIL;
        if (next === tags.endSet) { r.readTag(); break; }
        SetPrototypeAdd(s, readObject(self, r));
        length++;
      }
      if (r.varint() !== length) throw FAIL;
      return s;
    }
    case tags.sharedArrayBuffer: {
      // Only where the runtime carries shared memory (setSharedArrayBufferSource): a Worker's messages.
      if (r.sharedSource === null) throw FAIL;
      const id = r.nextId++;
      const sab = r.sharedSource(r.varint());
      if (!isSharedArrayBuffer(sab)) throw FAIL;
      r.ids[id] = sab;
      return sab;
    }
    case tags.arrayBuffer: case tags.resizableArrayBuffer: {
      const id = r.nextId++;
      const byteLength = r.varint();
      const max = tag === tags.resizableArrayBuffer ? r.varint() : byteLength;
      if (byteLength > max) throw FAIL;
      const start = r.raw(byteLength);
      const ab = tag === tags.resizableArrayBuffer ? new ArrayBuffer(byteLength, { maxByteLength: max }) : new ArrayBuffer(byteLength);
      TypedArrayPrototypeSet(new Uint8Array(ab), TypedArrayPrototypeSubarray(r.bytes, start, start + byteLength));
      r.ids[id] = ab;
      return ab;
    }
    case tags.transfer: {
      const id = r.nextId++;
      const ab = MapPrototypeGet(r.transfers, r.varint());
      if (ab === undefined) throw FAIL;
      r.ids[id] = ab;
      return ab;
    }
    case tags.error: return readError(self, r);
    case tags.hostObject: {
      const id = r.nextId++;
      if (typeof self._readHostObject !== 'function') throw FAIL;
      const o = ReflectApply(self._readHostObject, self, []);
      if (o === null || (typeof o !== 'object' && typeof o !== 'function')) throw new TypeError('readHostObject must return an object');
      r.ids[id] = o;
      return o;
    }
    default: throw FAIL; // shared array buffers and shared objects need a conveyor the guest has not
  }
}

function readProperties(self, r, o, endTag) {
  for (let count = 0; ; count++) {
    const next = r.peekTag();
    if (next === -1) throw FAIL;
    if (next === endTag) { r.readTag(); return count; }
    const key = readObject(self, r);
    if (typeof key !== 'string' && typeof key !== 'number') throw FAIL;
    const value = readObject(self, r);
    if (hasOwn(o, key)) throw FAIL;
    ObjectDefineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  }
}

function readView(r, buffer) {
  const bufferLength = isSharedArrayBuffer(buffer) ? SharedArrayBufferByteLength(buffer) : ArrayBufferByteLength(buffer);
  const tag = r.varint(8);
  const byteOffset = r.varint();
  const byteLength = r.varint();
  if (byteOffset > bufferLength || byteLength > bufferLength - byteOffset) throw FAIL;
  const flags = r.version >= 14 || r.broken13 ? r.varint() : 0;
  const id = r.nextId++;
  const type = ArrayPrototypeFind(VIEW_TYPES, (t) => t.tag === tag);
  if (type === undefined) throw FAIL;
  const size = type.ctor.BYTES_PER_ELEMENT || 1;
  if (byteOffset % size || byteLength % size) throw FAIL;
  const lengthTracking = (flags & 1) !== 0, backedByRab = (flags & 2) !== 0;
  const resizable = !isSharedArrayBuffer(buffer) && ArrayBufferResizable(buffer);
  if ((lengthTracking || backedByRab) && !resizable) throw FAIL;
  if (resizable && !backedByRab) throw FAIL;
  const view = lengthTracking ? new type.ctor(buffer, byteOffset) : new type.ctor(buffer, byteOffset, byteLength / size);
  r.ids[id] = view;
  return view;
}

function readError(self, r) {
  const id = r.nextId++;
  let Ctor = Error, message, stack, hasCause = false, cause;
  const make = () => {
    const e = hasCause ? new Ctor(message, { cause }) : new Ctor(message);
    e.stack = stack;
    return e;
  };
  if (v8Major() < 12) {
    // V8 11 takes the fields in any order, and makes the error once all are read.
    for (let tag = r.varint(8); tag !== kEnd; tag = r.varint(8)) {
      if (errorByTag[tag]) Ctor = errorByTag[tag];
      else if (tag === kMessage) message = readString(self, r);
      else if (tag === kStack) stack = readString(self, r);
      else if (tag === kCause) { hasCause = true; cause = readObject(self, r); }
      else throw FAIL;
    }
    const e = make();
    r.ids[id] = e;
    return e;
  }
  let tag = r.varint(8);
  if (errorByTag[tag]) { Ctor = errorByTag[tag]; tag = r.varint(8); }
  if (tag === kMessage) { message = readString(self, r); tag = r.varint(8); }
  if (tag === kStack) { stack = readString(self, r); tag = r.varint(8); }
  const e = make();
  r.ids[id] = e;
  if (tag === kCause) {
    ObjectDefineProperty(e, 'cause', { value: readObject(self, r), writable: true, enumerable: false, configurable: true });
    tag = r.varint(8);
  }
  if (tag !== kEnd) throw FAIL;
  return e;
}

// ---- Node's classes

const toUint32 = (v) => +v >>> 0;
const invalidArg = (message) => codeError(TypeError, 'ERR_INVALID_ARG_TYPE', message);
const constructCallRequired = (name) =>
  codeError(TypeError, 'ERR_CONSTRUCT_CALL_REQUIRED', `Class constructor ${name} cannot be invoked without 'new'`);

function Serializer() {
  if (new.target === undefined) throw constructCallRequired('Serializer');
  states.set(this, new Writer());
}

function Deserializer(buffer) {
  if (new.target === undefined) throw constructCallRequired('Deserializer');
  if (!ArrayBufferIsView(buffer)) throw invalidArg('buffer must be a TypedArray or a DataView');
  states.set(this, new Reader(buffer));
  this.buffer = buffer;
}

function defineMethods(proto, methods) {
  for (const name of new SafeArrayIterator(ObjectKeys(methods))) {
    ObjectDefineProperty(proto, name, { value: methods[name], writable: true, enumerable: true, configurable: true });
  }
}

defineMethods(Serializer.prototype, {
  writeHeader() {
    const w = state(this);
    w.byte(kVersion);
    w.varint(kLatestVersion);
  },
  writeValue(value) {
    writeObject(this, state(this), value);
    return true;
  },
  releaseBuffer() {
    const w = state(this);
    const ab = new ArrayBuffer(w.length);
    TypedArrayPrototypeSet(new Uint8Array(ab), TypedArrayPrototypeSubarray(w.bytes, 0, w.length));
    w.bytes = new Uint8Array(64);
    w.length = 0;
    return Buffer.from(ab);
  },
  transferArrayBuffer(id, arrayBuffer) {
    const w = state(this);
    const n = toUint32(id);
    if (!isArrayBuffer(arrayBuffer)) throw invalidArg('arrayBuffer must be an ArrayBuffer');
    MapPrototypeSet(w.transfers, arrayBuffer, n);
  },
  writeUint32(value) { state(this).varint(toUint32(value)); },
  writeUint64(hi, lo) {
    state(this).bigVarint((BigIntCtor(toUint32(hi)) << 32n) | BigIntCtor(toUint32(lo)));
  },
  writeDouble(value) { state(this).double(+value); },
  writeRawBytes(source) {
    const w = state(this);
    if (!ArrayBufferIsView(source)) throw invalidArg('source must be a TypedArray or a DataView');
    w.raw(new Uint8Array(GetBuffer(source), GetByteOffset(source), GetByteLength(source)));
  },
  _setTreatArrayBufferViewsAsHostObjects(value) { state(this).viewsAsHostObjects = !!value; },
});
Serializer.prototype._getDataCloneError = Error;

/** Runs a read, turning a malformed input into V8's error. */
function reading(self, fn, message) {
  try {
    return fn(state(self));
  } catch (e) {
    if (e === FAIL) throw new ErrorCtor(message);
    throw e;
  }
}

defineMethods(Deserializer.prototype, {
  readHeader() {
    const r = state(this);
    const versionError = 'Unable to deserialize cloned data due to invalid or unsupported version.';
    if (GetLength(r.bytes) > 0 && r.bytes[0] === kVersion) {
      r.position = 1;
      r.version = reading(this, () => r.varint(), versionError);
      if (r.version > kLatestVersion) throw new ErrorCtor(versionError);
    }
    // Node reads no format older than 13 (V8's legacy format).
    if (r.version < 13) throw new ErrorCtor(versionError);
    return true;
  },
  readValue() {
    const r = state(this);
    const start = r.position;
    try {
      return readObject(this, r);
    } catch (e) {
      if (e !== FAIL) throw e;
    }
    // V8 retries version 13 data as written by a version that gave views their version 14 flags.
    if (r.version === 13) {
      r.position = start;
      r.broken13 = true;
      try {
        return readObject(this, r);
      } catch (e) {
        if (e !== FAIL) throw e;
      }
    }
    throw new ErrorCtor(FAIL.reason);
  },
  getWireFormatVersion() { return state(this).version; },
  transferArrayBuffer(id, arrayBuffer) {
    const r = state(this);
    const n = toUint32(id);
    if (!isArrayBuffer(arrayBuffer) && !isSharedArrayBuffer(arrayBuffer)) {
      throw invalidArg('arrayBuffer must be an ArrayBuffer or SharedArrayBuffer');
    }
    MapPrototypeSet(r.transfers, n, arrayBuffer);
  },
  readUint32() { return reading(this, (r) => r.varint(), 'ReadUint32() failed'); },
  readUint64() {
    const n = reading(this, (r) => r.bigVarint(), 'ReadUint64() failed');
    return [Number(n >> 32n), Number(n & 0xffffffffn)];
  },
  readDouble() { return reading(this, (r) => r.double(), 'ReadDouble() failed'); },
  _readRawBytes(length) {
    const n = MathTrunc(+length);
    return reading(this, (r) => (n < 0 ? r.raw(Infinity) : r.raw(n)), 'ReadRawBytes() failed');
  },
});
Deserializer.prototype.readRawBytes = function readRawBytes(length) {
  const offset = this._readRawBytes(length);
  return Buffer.from(GetBuffer(GetBuffer(this)), GetByteOffset(GetBuffer(this)) + offset, length);
};

// Node's index of each ArrayBufferView type in DefaultSerializer's host objects; 10 is Buffer.
const HOST_VIEW_TYPES = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float32Array', 'Float64Array', 'DataView', 'Buffer', 'BigInt64Array', 'BigUint64Array', 'Float16Array'];

class DefaultSerializer extends Serializer {
  constructor() {
    super();
    this._setTreatArrayBufferViewsAsHostObjects(true);
  }

  _writeHostObject(abView) {
    let i = 10;
    if (abView.constructor !== Buffer) {
      const tag = StringPrototypeSlice(ObjectPrototypeToString(abView), 8, -1);
      i = tag === 'Buffer' ? -1 : ArrayPrototypeIndexOf(HOST_VIEW_TYPES, tag);
      if (i === -1 || typeof globalThis[tag] !== 'function') {
        throw new this._getDataCloneError(`Unserializable host object: ${require('util').inspect(abView)}`);
      }
    }
    this.writeUint32(i);
    this.writeUint32(GetByteLength(abView));
    this.writeRawBytes(new Uint8Array(GetBuffer(abView), GetByteOffset(abView), GetByteLength(abView)));
  }
}

class DefaultDeserializer extends Deserializer {
  _readHostObject() {
    const typeIndex = this.readUint32();
    const name = HOST_VIEW_TYPES[typeIndex];
    const ctor = name === 'Buffer' ? { BYTES_PER_ELEMENT: 1 } : name !== undefined ? globalThis[name] : undefined;
    const byteLength = this.readUint32();
    const byteOffset = this._readRawBytes(byteLength);
    const BYTES_PER_ELEMENT = ctor.BYTES_PER_ELEMENT || 1;
    const make = (buffer, offset) => (name === 'Buffer'
      ? Buffer.from(buffer, offset, byteLength)
      : new ctor(buffer, offset, byteLength / BYTES_PER_ELEMENT));
    const offset = GetByteOffset(GetBuffer(this)) + byteOffset;
    // As Node: a view over the input's memory when aligned, else over an aligned copy.
    if (offset % BYTES_PER_ELEMENT === 0) return make(GetBuffer(GetBuffer(this)), offset);
    const copy = Buffer.allocUnsafe(byteLength);
    TypedArrayPrototypeSet(copy, new Uint8Array(GetBuffer(GetBuffer(this)), offset, byteLength));
    return make(GetBuffer(copy), GetByteOffset(copy));
  }
}

function serialize(value) {
  const ser = new DefaultSerializer();
  ser.writeHeader();
  ser.writeValue(value);
  return ser.releaseBuffer();
}

function deserialize(buffer) {
  const der = new DefaultDeserializer(buffer);
  der.readHeader();
  return der.readValue();
}

/**
 * Makes `serializer` write the objects `test` picks as host objects (V8 does so with its embedder's objects):
 * the runtime's, for a Worker's MessagePorts (internal/worker-ports.js); not a method a guest's subclass sees.
 */
function setHostObjectTest(serializer, test) {
  state(serializer).isHostObject = test;
}

/** Makes `deserializer` read shared SharedArrayBuffers, each from `source(id)` (a Worker's messages: internal/worker-channel.js). */
function setSharedArrayBufferSource(deserializer, source) {
  state(deserializer).sharedSource = source;
}

module.exports = { Serializer, Deserializer, DefaultSerializer, DefaultDeserializer, serialize, deserialize, setHostObjectTest, setSharedArrayBufferSource };
