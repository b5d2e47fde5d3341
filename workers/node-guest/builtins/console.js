// The guest's `console` module: Node's Console class over any streams with `write(string)`.
// `createGlobalConsole(stdout, stderr)` builds the guest's global `console` (the runtime calls it).
'use strict';

const {
  ObjectDefineProperty,
  ObjectDefineProperties,
  ObjectKeys,
  ArrayIsArray,
  ReflectApply,
  MathMax,
  MathFloor,
  SymbolToStringTag,
  SymbolIterator,
  ErrorCaptureStackTrace,
  StringPrototypeRepeat,
  StringPrototypeReplace,
  StringPrototypeIncludes,
  StringPrototypeSlice,
  StringPrototypeSplit,
  StringPrototypeNormalize,
  StringPrototypeCodePointAt,
  NumberPrototypeToFixed,
  ArrayPrototypePush,
  ArrayPrototypeJoin,
  ArrayPrototypeMap,
  ArrayPrototypeUnshift,
  MapPrototypeGet,
  MapPrototypeSet,
  MapPrototypeHas,
  MapPrototypeDelete,
  MapPrototypeEntries,
  SetPrototypeValues,
  DateNow,
  WeakMapPrototypeGet,
  WeakMapPrototypeSet,
  NumberIsInteger,
  ObjectPrototypeHasOwnProperty,
  Error,
  Map,
  Number,
  RangeError,
  Symbol,
  SymbolHasInstance,
  TypeError,
  WeakMap,
  SafeWeakMap,
  SafeArrayIterator,
  ReflectConstruct,
  FunctionPrototypeBind, MapIteratorPrototypeNext, SafeMapIterator, SafeSetIterator, SafeStringIterator, SetIteratorPrototypeNext,
  hardenRegExp,
} = require('internal/primordials');

const util = require('util');

const { inspect, formatWithOptions } = util;
const NumberCtor = Number;
const uncurry = (fn) => (self, ...args) => ReflectApply(fn, self, args);
const MapCtor = Map;
const isMap = util.types.isMap;
const isSet = util.types.isSet;
const isMapIterator = util.types.isMapIterator;
const isSetIterator = util.types.isSetIterator;
const emitWarning = util._emitWarning;
const nodeError = util._nodeError;

// Read once: the guest may later replace `performance` or `Date`.
const perf = typeof performance === 'object' && performance !== null && typeof performance.now === 'function' ? performance : null;
const perfNow = perf !== null ? uncurry(perf.now) : null;
const now = () => (perfNow !== null ? perfNow(perf) : DateNow());

const kGroupIndent = Symbol('kGroupIndent');
const kGroupIndentationWidth = Symbol('kGroupIndentWidth');
const kCounts = Symbol('counts');
const kColorMode = Symbol('kColorMode');
const kIsConsole = Symbol('kIsConsole');
const kWrite = Symbol('kWrite');
const kFormat = Symbol('kFormat');
const kGetInspectOptions = Symbol('kGetInspectOptions');
const kMaxGroupIndentation = 1000;
const optionsMap = new SafeWeakMap();
const consolePropAttributes = { writable: true, enumerable: false, configurable: true };
const noop = () => {};

function Console(options /* or: stdout, stderr, ignoreErrors = true */) {
  // Like Node, `Console(...)` without new still constructs.
  if (!new.target) return ReflectApply(construct, undefined, arguments);
  if (!options || typeof options.write === 'function') {
    options = { stdout: options, stderr: arguments[1], ignoreErrors: arguments[2] };
  }
  const { stdout, stderr = stdout, ignoreErrors = true, colorMode = 'auto', inspectOptions, groupIndentation } = options;
  if (!stdout || typeof stdout.write !== 'function') {
    throw nodeError(TypeError, 'ERR_CONSOLE_WRITABLE_STREAM', 'Console expects a writable stream instance for stdout');
  }
  if (!stderr || typeof stderr.write !== 'function') {
    throw nodeError(TypeError, 'ERR_CONSOLE_WRITABLE_STREAM', 'Console expects a writable stream instance for stderr');
  }
  if (typeof colorMode !== 'boolean' && colorMode !== 'auto') {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'colorMode' must be one of: 'auto', true, false.${receivedValue(colorMode)}`);
  }
  if (groupIndentation !== undefined) {
    if (typeof groupIndentation !== 'number') throw invalidArgType('groupIndentation', 'of type number', groupIndentation);
    if (!NumberIsInteger(groupIndentation)) {
      throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "groupIndentation" is out of range. It must be an integer. Received ${groupIndentation}`);
    }
    if (groupIndentation < 0 || groupIndentation > kMaxGroupIndentation) {
      throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "groupIndentation" is out of range. It must be >= 0 && <= ${kMaxGroupIndentation}. Received ${groupIndentation}`);
    }
  }
  if (typeof inspectOptions === 'object' && inspectOptions !== null) {
    if (inspectOptions.colors !== undefined && options.colorMode !== undefined) {
      throw nodeError(TypeError, 'ERR_INCOMPATIBLE_OPTION_PAIR',
        'Option "options.inspectOptions.color" cannot be used in combination with option "colorMode"');
    }
    WeakMapPrototypeSet(optionsMap, this, inspectOptions);
  } else if (inspectOptions !== undefined) {
    throw invalidArgType('options.inspectOptions', 'of type object', inspectOptions);
  }
  // Bound through the instance (a subclass's overrides win), so `const { log } = console` works as in Node.
  bindMethods(this);
  ObjectDefineProperty(this, '_stdout', { ...consolePropAttributes, value: stdout });
  ObjectDefineProperty(this, '_stderr', { ...consolePropAttributes, value: stderr });
  bindProperties(this, ignoreErrors, colorMode, groupIndentation);
}
const construct = (...args) => ReflectConstruct(Console, args);

function bindMethods(self) {
  for (const key of new SafeArrayIterator(ObjectKeys(Console.prototype))) {
    self[key] = FunctionPrototypeBind(self[key], self);
    ObjectDefineProperty(self[key], 'name', { value: key });
  }
}

function bindProperties(self, ignoreErrors, colorMode, groupIndentation = 2) {
  const define = (key, value) => ObjectDefineProperty(self, key, { ...consolePropAttributes, value });
  define('_stdoutErrorHandler', createWriteErrorHandler(self, false));
  define('_stderrErrorHandler', createWriteErrorHandler(self, true));
  define('_ignoreErrors', !!ignoreErrors);
  define('_times', new MapCtor());
  define(kCounts, new MapCtor());
  define(kColorMode, colorMode);
  define(kIsConsole, true);
  define(kGroupIndent, '');
  define(kGroupIndentationWidth, groupIndentation);
}

// A write that failed later than the call: a one-off noop 'error' listener keeps the stream's error from
// becoming uncaught, unless someone else listens.
function createWriteErrorHandler(self, toStderr) {
  return (err) => {
    const stream = toStderr ? self._stderr : self._stdout;
    if (err !== null && !stream._writableState.errorEmitted) {
      if (stream.listenerCount('error') === 0) stream.once('error', noop);
    }
  };
}

function receivedValue(value) {
  return ` Received ${inspect(value)}`;
}
// Loaded without the runtime's internals (its tests load it alone), so Node's message is made here.
function invalidArgType(name, expected, value) {
  let got;
  if (value == null) got = `${value}`;
  else if (typeof value === 'function') got = `function ${value.name}`;
  else if (typeof value === 'object') got = value.constructor && value.constructor.name ? `an instance of ${value.constructor.name}` : '[Object: null prototype]';
  else got = `type ${typeof value} (${inspect(value)})`;
  return nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" ${StringPrototypeIncludes(name, '.') ? 'property' : 'argument'} must be ${expected}. Received ${got}`);
}

function useColors(stream, colorMode) {
  if (colorMode !== 'auto') return colorMode;
  return stream.isTTY && (typeof stream.getColorDepth === 'function' ? stream.getColorDepth() > 2 : true);
}

const proto = {
  [kWrite](toStderr, string) {
    const stream = toStderr ? this._stderr : this._stdout;
    const errorHandler = toStderr ? this._stderrErrorHandler : this._stdoutErrorHandler;
    const indent = this[kGroupIndent];
    if (indent.length !== 0) {
      if (StringPrototypeIncludes(string, '\n')) string = StringPrototypeReplace(string, hardenRegExp(/\n/g), `\n${indent}`);
      string = indent + string;
    }
    string += '\n';
    if (this._ignoreErrors === false) return stream.write(string);
    // A stream that is no emitter (the runtime's own, or a guest's `{ write }`) cannot take listeners.
    if (typeof stream.listenerCount !== 'function') {
      try { stream.write(string); } catch { /* ignored, as Node ignores the console's write errors */ }
      return;
    }
    // An error may come synchronously (a noop listener catches it, for this call only) or later (the handler).
    try {
      if (stream.listenerCount('error') === 0) stream.once('error', noop);
      stream.write(string, errorHandler);
    } catch (e) {
      if (e instanceof RangeError && e.message === 'Maximum call stack size exceeded') throw e;
    } finally {
      stream.removeListener('error', noop);
    }
  },
  [kGetInspectOptions](stream) {
    const color = useColors(stream, this[kColorMode]);
    const options = WeakMapPrototypeGet(optionsMap, this);
    if (options) {
      if (options.colors === undefined) options.colors = color;
      return options;
    }
    return color ? { colors: true } : {};
  },
  [kFormat](toStderr, args) {
    const opts = this[kGetInspectOptions](toStderr ? this._stderr : this._stdout);
    return ReflectApply(formatWithOptions, undefined, [opts, ...new SafeArrayIterator(args)]);
  },
  log(...args) { this[kWrite](false, this[kFormat](false, args)); },
  warn(...args) { this[kWrite](true, this[kFormat](true, args)); },
  dir(object, options) {
    this[kWrite](false, inspect(object, { customInspect: false, ...this[kGetInspectOptions](this._stdout), ...options }));
  },
  time(label = 'default') {
    label = `${label}`;
    if (MapPrototypeHas(this._times, label)) {
      emitWarning(`Label '${label}' already exists for console.time()`);
      return;
    }
    MapPrototypeSet(this._times, label, now());
  },
  timeEnd(label = 'default') {
    label = `${label}`;
    if (timeLogImpl(this, 'timeEnd', label)) MapPrototypeDelete(this._times, label);
  },
  timeLog(label = 'default', ...data) {
    label = `${label}`;
    timeLogImpl(this, 'timeLog', label, data);
  },
  trace: function trace(...args) {
    const err = { name: 'Trace', message: this[kFormat](true, args) };
    if (typeof ErrorCaptureStackTrace === 'function') ErrorCaptureStackTrace(err, trace);
    else err.stack = `Trace: ${err.message}`;
    this.error(err.stack);
  },
  assert(expression, ...args) {
    if (!expression) {
      // Node 20: a non-string first argument is stringified into the prefix.
      args[0] = `Assertion failed${args.length === 0 ? '' : `: ${args[0]}`}`;
      ReflectApply(this.warn, this, args);
    }
  },
  // A guest has no TTY to clear; Node only clears a TTY stdout.
  clear() {},
  count(label = 'default') {
    label = `${label}`;
    const counts = this[kCounts];
    let count = MapPrototypeGet(counts, label);
    count = count === undefined ? 1 : count + 1;
    MapPrototypeSet(counts, label, count);
    this.log(`${label}: ${count}`);
  },
  countReset(label = 'default') {
    label = `${label}`;
    const counts = this[kCounts];
    if (!MapPrototypeHas(counts, label)) {
      emitWarning(`Count for '${label}' does not exist`);
      return;
    }
    MapPrototypeDelete(counts, label);
  },
  group(...data) {
    if (data.length > 0) ReflectApply(this.log, this, data);
    this[kGroupIndent] += StringPrototypeRepeat(' ', this[kGroupIndentationWidth]);
  },
  groupEnd() {
    this[kGroupIndent] = StringPrototypeSlice(this[kGroupIndent], 0,
      this[kGroupIndent].length - this[kGroupIndentationWidth]);
  },
  table(tabularData, properties) {
    if (properties !== undefined && !ArrayIsArray(properties)) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "properties" argument must be an instance of Array.');
    }
    if (tabularData === null || typeof tabularData !== 'object') return this.log(tabularData);
    const final = (k, v) => this.log(cliTable(k, v));
    const depth = 1;
    const opts = { ...WeakMapPrototypeGet(optionsMap, this), depth, maxArrayLength: 3, breakLength: Infinity, colors: false };
    const _inspect = (v) => {
      const primitive = v === null || (typeof v !== 'function' && typeof v !== 'object');
      return inspect(v, primitive ? { ...opts, depth: 0 } : opts);
    };
    const getIndexArray = (length) => { const a = []; for (let i = 0; i < length; i++) a[i] = _inspect(i); return a; };

    const mapIter = isMapIterator(tabularData);
    let isKeyValue = false;
    let i = 0;
    if (mapIter) {
      const res = previewIterator(tabularData, true);
      if (res !== undefined) { tabularData = res; isKeyValue = true; }
    }
    if (isKeyValue || isMap(tabularData)) {
      const keys = [];
      const values = [];
      let length = 0;
      if (mapIter) {
        for (; i < tabularData.length / 2; ++i) {
          ArrayPrototypePush(keys, _inspect(tabularData[i * 2]));
          ArrayPrototypePush(values, _inspect(tabularData[i * 2 + 1]));
          length++;
        }
      } else {
        for (const { 0: k, 1: v } of new SafeMapIterator(tabularData)) {
          ArrayPrototypePush(keys, _inspect(k));
          ArrayPrototypePush(values, _inspect(v));
          length++;
        }
      }
      return final([iterKey, keyKey, valuesKey], [getIndexArray(length), keys, values]);
    }

    const setIter = isSetIterator(tabularData);
    if (setIter) tabularData = previewIterator(tabularData, false) ?? tabularData;
    const setlike = setIter || mapIter || isSet(tabularData);
    if (setlike) {
      const values = [];
      let length = 0;
      const source = isSet(tabularData) ? new SafeSetIterator(tabularData) : ArrayIsArray(tabularData) ? new SafeArrayIterator(tabularData) : tabularData;
      for (const v of source) {
        ArrayPrototypePush(values, _inspect(v));
        length++;
      }
      return final([iterKey, valuesKey], [getIndexArray(length), values]);
    }

    const map = { __proto__: null };
    let hasPrimitives = false;
    const valuesKeyArray = [];
    const indexKeyArray = ObjectKeys(tabularData);
    for (; i < indexKeyArray.length; i++) {
      const item = tabularData[indexKeyArray[i]];
      const primitive = item === null || (typeof item !== 'function' && typeof item !== 'object');
      if (properties === undefined && primitive) {
        hasPrimitives = true;
        valuesKeyArray[i] = _inspect(item);
      } else {
        const keys = properties || ObjectKeys(item);
        for (const key of new SafeArrayIterator(keys)) {
          map[key] ??= [];
          if ((primitive && properties) || !ObjectPrototypeHasOwnProperty(item, key)) map[key][i] = '';
          else map[key][i] = _inspect(item[key]);
        }
      }
    }
    const keys = ObjectKeys(map);
    const values = [];
    for (const k of new SafeArrayIterator(keys)) ArrayPrototypePush(values, map[k]);
    if (hasPrimitives) {
      ArrayPrototypePush(keys, valuesKey);
      ArrayPrototypePush(values, valuesKeyArray);
    }
    ArrayPrototypeUnshift(keys, indexKey);
    ArrayPrototypeUnshift(values, indexKeyArray);
    return final(keys, values);
  },
};
proto.debug = proto.log;
proto.info = proto.log;
proto.dirxml = proto.log;
proto.error = proto.warn;
proto.groupCollapsed = proto.group;
// Enumerable, as Node's (its constructor binds what Object.keys lists).
for (const key of new SafeArrayIterator(ObjectKeys(proto))) Console.prototype[key] = proto[key];
for (const sym of new SafeArrayIterator([kWrite, kFormat, kGetInspectOptions])) {
  ObjectDefineProperty(Console.prototype, sym, { ...consolePropAttributes, value: proto[sym] });
}
ObjectDefineProperty(Console.prototype, SymbolToStringTag, { value: 'console', writable: false, enumerable: false, configurable: true });
// The global console is one too, as Node's (which it did not construct).
ObjectDefineProperty(Console, SymbolHasInstance, {
  value(instance) { return instance[kIsConsole]; },
});

// Iterators cannot be previewed without V8, so a Map/Set iterator is drained into an array: the guest's
// iterator is consumed (Node leaves it untouched).
function previewIterator(iter, entries) {
  const out = [];
  // Advanced by the intrinsic next of a Map's or a Set's iterator (the one it is), not by a method looked up.
  const next = entries ? MapIteratorPrototypeNext : SetIteratorPrototypeNext;
  try {
    for (let r = next(iter); !r.done; r = next(iter)) {
      const item = r.value;
      if (entries) { ArrayPrototypePush(out, item[0]); ArrayPrototypePush(out, item[1]); } else ArrayPrototypePush(out, item);
    }
  } catch { return undefined; }
  return out;
}

const kSecond = 1000;
const kMinute = 60 * kSecond;
const kHour = 60 * kMinute;
const pad2 = (v) => { const s = `${v}`; return s.length < 2 ? `0${s}` : s; };
// Node's lib/internal/util/debuglog.js formatTime.
function formatTime(ms) {
  let hours = 0;
  let minutes = 0;
  let seconds = 0;
  if (ms >= kSecond) {
    if (ms >= kMinute) {
      if (ms >= kHour) { hours = MathFloor(ms / kHour); ms %= kHour; }
      minutes = MathFloor(ms / kMinute);
      ms %= kMinute;
    }
    seconds = ms / kSecond;
  }
  if (hours !== 0 || minutes !== 0) {
    ({ 0: seconds, 1: ms } = StringPrototypeSplit(NumberPrototypeToFixed(seconds, 3), '.'));
    const res = hours !== 0 ? `${hours}:${pad2(minutes)}` : minutes;
    return `${res}:${pad2(seconds)}.${ms} (${hours !== 0 ? 'h:m' : ''}m:ss.mmm)`;
  }
  if (seconds !== 0) return `${NumberPrototypeToFixed(seconds, 3)}s`;
  return `${NumberCtor(NumberPrototypeToFixed(ms, 3))}ms`;
}
function timeLogImpl(self, name, label, data) {
  const time = MapPrototypeGet(self._times, label);
  if (time === undefined) {
    emitWarning(`No such label '${label}' for console.${name}()`);
    return false;
  }
  const formatted = formatTime(now() - time);
  if (data === undefined || data.length === 0) self.log('%s: %s', label, formatted);
  else {
    const args = ['%s: %s', label, formatted];
    for (let i = 0; i < data.length; i++) ArrayPrototypePush(args, data[i]);
    ReflectApply(self.log, self, args);
  }
  return true;
}

// lib/internal/cli_table.js. Cells are left-aligned as in Node 22+ (Node 20 centres them).
const keyKey = 'Key';
const valuesKey = 'Values';
const indexKey = '(index)';
const iterKey = '(iteration index)';
const tableChars = {
  middleMiddle: '─', rowMiddle: '┼', topRight: '┐', topLeft: '┌', leftMiddle: '├', topMiddle: '┬',
  bottomRight: '┘', bottomLeft: '└', bottomMiddle: '┴', rightMiddle: '┤', left: '│ ', right: ' │', middle: ' │ ',
};
// Columns a string takes in a terminal: wide East Asian and emoji count 2, combining marks 0.
function getStringWidth(str) {
  str = StringPrototypeNormalize(util.stripVTControlCharacters(`${str}`), 'NFC');
  let width = 0;
  for (const ch of new SafeStringIterator(str)) {
    const code = StringPrototypeCodePointAt(ch, 0);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x300 && code <= 0x36f) || code === 0x200b ||
        (code >= 0xfe00 && code <= 0xfe0f)) continue;
    width += isFullWidth(code) ? 2 : 1;
  }
  return width;
}
function isFullWidth(code) {
  return code >= 0x1100 && (code <= 0x115f || code === 0x2329 || code === 0x232a ||
    (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) || (code >= 0x3250 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0xa4c6) || (code >= 0xa960 && code <= 0xa97c) || (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe10 && code <= 0xfe19) || (code >= 0xfe30 && code <= 0xfe6b) ||
    (code >= 0xff01 && code <= 0xff60) || (code >= 0xffe0 && code <= 0xffe6) || (code >= 0x1b000 && code <= 0x1b001) ||
    (code >= 0x1f200 && code <= 0x1f251) || (code >= 0x1f300 && code <= 0x1f64f) || (code >= 0x20000 && code <= 0x3fffd));
}
function renderRow(row, columnWidths) {
  let out = tableChars.left;
  for (let i = 0; i < row.length; i++) {
    const cell = row[i];
    out += cell + StringPrototypeRepeat(' ', columnWidths[i] - getStringWidth(cell));
    if (i !== row.length - 1) out += tableChars.middle;
  }
  return out + tableChars.right;
}
function cliTable(head, columns) {
  const rows = [];
  const columnWidths = ArrayPrototypeMap(head, (h) => getStringWidth(h));
  let longestColumn = 0;
  for (const c of new SafeArrayIterator(columns)) longestColumn = MathMax(longestColumn, c.length);
  for (let i = 0; i < head.length; i++) {
    const column = columns[i];
    for (let j = 0; j < longestColumn; j++) {
      if (rows[j] === undefined) rows[j] = [];
      const value = rows[j][i] = ObjectPrototypeHasOwnProperty(column, j) ? column[j] : '';
      columnWidths[i] = MathMax(columnWidths[i] || 0, getStringWidth(value));
    }
  }
  const divider = ArrayPrototypeMap(columnWidths, (w) => StringPrototypeRepeat(tableChars.middleMiddle, w + 2));
  let result = `${tableChars.topLeft}${ArrayPrototypeJoin(divider, tableChars.topMiddle)}${tableChars.topRight}\n` +
    `${renderRow(head, columnWidths)}\n` +
    `${tableChars.leftMiddle}${ArrayPrototypeJoin(divider, tableChars.rowMiddle)}${tableChars.rightMiddle}\n`;
  for (const row of new SafeArrayIterator(rows)) result += `${renderRow(row, columnWidths)}\n`;
  result += `${tableChars.bottomLeft}${ArrayPrototypeJoin(divider, tableChars.bottomMiddle)}${tableChars.bottomRight}`;
  return result;
}

/**
 * The global console: Console's methods bound to it, over the given streams (which write to the process's
 * stdio), with the inspector's methods, which do nothing without an inspector.
 */
function createGlobalConsole(stdout, stderr) {
  const c = { __proto__: Console.prototype };
  bindMethods(c);
  ObjectDefineProperty(c, '_stdout', { ...consolePropAttributes, value: stdout });
  ObjectDefineProperty(c, '_stderr', { ...consolePropAttributes, value: stderr });
  bindProperties(c, true, 'auto');
  c.Console = Console;
  ObjectDefineProperties(c, inspectorMethods());
  return c;
}

/** What V8 adds to the global console: profile, profileEnd, timeStamp, context and createTask. */
function inspectorMethods() {
  const method = (fn) => ({ value: fn, writable: true, enumerable: true, configurable: true });
  return {
    profile: method(function profile() {}),
    profileEnd: method(function profileEnd() {}),
    timeStamp: method(function timeStamp() {}),
    context: method(function context(name) { return contextConsole(); }),
    createTask: method(function createTask() {
      const name = arguments[0];
      if (typeof name !== 'string' || name === '') throw new Error('First argument must be a non-empty string.');
      const task = { __proto__: taskProto };
      ObjectDefineProperty(task, 'run', { value: run, writable: true, enumerable: true, configurable: true });
      return task;
    }),
  };
}
const taskProto = { __proto__: null };
// A task's callbacks run as they are: there is no inspector to follow them.
function run(fn) {
  if (typeof fn !== 'function') throw new Error('First argument must be a function.');
  return fn();
}
ObjectDefineProperty(run, 'length', { value: 0 });
/** A console of its own context, as V8 gives it: its methods report to an inspector, so here do nothing. */
const CONTEXT_METHODS = ['dir', 'dirXml', 'table', 'groupEnd', 'clear', 'count', 'countReset', 'profile', 'profileEnd', 'timeLog', 'debug', 'error', 'info', 'log', 'warn', 'trace', 'group', 'groupCollapsed', 'assert', 'time', 'timeEnd', 'timeStamp'];
function contextConsole() {
  const ctx = {};
  for (const name of new SafeArrayIterator(CONTEXT_METHODS)) {
    const fn = { [name]() {} }[name];
    ObjectDefineProperty(fn, 'length', { value: 1 });
    ctx[name] = fn;
  }
  return ctx;
}

module.exports = { Console, createGlobalConsole };
