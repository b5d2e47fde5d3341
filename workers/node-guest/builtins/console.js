'use strict';
// The guest's `console` module: Node's Console class over any streams with `write(string)`.
// `createGlobalConsole(stdout, stderr)` builds the guest's global `console` (the runtime calls it).

const util = require('util');

const { inspect, formatWithOptions } = util;
const ObjectDefineProperty = Object.defineProperty;
const ObjectKeys = Object.keys;
const ObjectPrototypeHasOwnProperty = Object.prototype.hasOwnProperty;
const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
const ArrayIsArray = Array.isArray;
const ReflectApply = Reflect.apply;
const MathMax = Math.max;
const MathFloor = Math.floor;
const NumberCtor = Number;
const SymbolToStringTag = Symbol.toStringTag;
const SymbolIterator = Symbol.iterator;
const ErrorCaptureStackTrace = Error.captureStackTrace;
const uncurry = (fn) => (self, ...args) => ReflectApply(fn, self, args);
const StringPrototypeRepeat = uncurry(String.prototype.repeat);
const StringPrototypeReplace = uncurry(String.prototype.replace);
const StringPrototypeIncludes = uncurry(String.prototype.includes);
const StringPrototypeSlice = uncurry(String.prototype.slice);
const StringPrototypeSplit = uncurry(String.prototype.split);
const StringPrototypeNormalize = uncurry(String.prototype.normalize);
const StringPrototypeCodePointAt = uncurry(String.prototype.codePointAt);
const NumberPrototypeToFixed = uncurry(Number.prototype.toFixed);
const ArrayPrototypePush = uncurry(Array.prototype.push);
const ArrayPrototypeJoin = uncurry(Array.prototype.join);
const ArrayPrototypeMap = uncurry(Array.prototype.map);
const ArrayPrototypeUnshift = uncurry(Array.prototype.unshift);
const MapCtor = Map;
const MapPrototypeGet = uncurry(Map.prototype.get);
const MapPrototypeSet = uncurry(Map.prototype.set);
const MapPrototypeHas = uncurry(Map.prototype.has);
const MapPrototypeDelete = uncurry(Map.prototype.delete);
const MapPrototypeEntries = uncurry(Map.prototype.entries);
const SetPrototypeValues = uncurry(Set.prototype.values);
const isMap = util.types.isMap;
const isSet = util.types.isSet;
const isMapIterator = util.types.isMapIterator;
const isSetIterator = util.types.isSetIterator;
const emitWarning = util._emitWarning;
const nodeError = util._nodeError;

// Read once: the guest may later replace `performance` or `Date`.
const perf = typeof performance === 'object' && performance !== null && typeof performance.now === 'function' ? performance : null;
const perfNow = perf !== null ? uncurry(perf.now) : null;
const DateNow = Date.now;
const now = () => (perfNow !== null ? perfNow(perf) : DateNow());

const kGroupIndent = Symbol('kGroupIndent');
const kGroupIndentationWidth = Symbol('kGroupIndentWidth');
const kCounts = Symbol('counts');
const kTimers = Symbol('timers');
const kColorMode = Symbol('kColorMode');
const kInspectOptions = Symbol('kInspectOptions');
const kWrite = Symbol('kWrite');
const kFormat = Symbol('kFormat');


function Console(options, stderr, ignoreErrors) {
  // Like Node, `Console(...)` without new still constructs.
  if (!new.target) return new Console(options, stderr, ignoreErrors);
  if (!options || typeof options.write === 'function') {
    options = { stdout: options, stderr, ignoreErrors };
  }
  const { stdout, stderr: err = stdout, inspectOptions, groupIndentation = 2 } = options;
  const colorMode = options.colorMode === undefined ? 'auto' : options.colorMode;
  if (!stdout || typeof stdout.write !== 'function') {
    throw nodeError(TypeError, 'ERR_CONSOLE_WRITABLE_STREAM', 'Console expects a writable stream instance for stdout');
  }
  if (!err || typeof err.write !== 'function') {
    throw nodeError(TypeError, 'ERR_CONSOLE_WRITABLE_STREAM', 'Console expects a writable stream instance for stderr');
  }
  if (inspectOptions !== undefined) {
    if (typeof inspectOptions !== 'object' || inspectOptions === null) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.inspectOptions" property must be of type object.');
    }
    if (inspectOptions.colors !== undefined && options.colorMode !== undefined) {
      throw nodeError(TypeError, 'ERR_INCOMPATIBLE_OPTION_PAIR',
        'Option "options.inspectOptions.color" cannot be used in combination with option "colorMode"');
    }
  }
  const hidden = (obj, key, value) => ObjectDefineProperty(obj, key, { value, writable: true, configurable: true, enumerable: false });
  hidden(this, '_stdout', stdout);
  hidden(this, '_stderr', err);
  hidden(this, '_ignoreErrors', options.ignoreErrors !== false);
  hidden(this, kColorMode, colorMode);
  hidden(this, kInspectOptions, inspectOptions);
  hidden(this, kGroupIndent, '');
  hidden(this, kGroupIndentationWidth, groupIndentation);
  hidden(this, kCounts, new MapCtor());
  hidden(this, kTimers, new MapCtor());
  // Bound methods, so `const { log } = console` works as in Node.
  for (const key of ObjectGetOwnPropertyNames(Console.prototype)) {
    if (key === 'constructor') continue;
    const desc = Object.getOwnPropertyDescriptor(Console.prototype, key);
    if (typeof desc.value !== 'function') continue;
    const bound = desc.value.bind(this);
    ObjectDefineProperty(bound, 'name', { value: key });
    ObjectDefineProperty(this, key, { value: bound, writable: true, configurable: true, enumerable: true });
  }
}

function useColors(stream, colorMode) {
  if (colorMode !== 'auto') return !!colorMode;
  try {
    return !!stream.isTTY && (typeof stream.getColorDepth === 'function' ? stream.getColorDepth() > 2 : true);
  } catch { return false; }
}

const proto = {
  [kWrite](toStderr, string) {
    const stream = toStderr ? this._stderr : this._stdout;
    const indent = this[kGroupIndent];
    if (indent.length !== 0) {
      if (StringPrototypeIncludes(string, '\n')) string = StringPrototypeReplace(string, /\n/g, `\n${indent}`);
      string = indent + string;
    }
    string += '\n';
    if (this._ignoreErrors === false) return stream.write(string);
    try { stream.write(string); } catch { /* Node ignores errors of the console's streams by default */ }
  },
  [kFormat](toStderr, args) {
    const stream = toStderr ? this._stderr : this._stdout;
    const opts = this[kInspectOptions];
    const colors = useColors(stream, this[kColorMode]);
    const options = opts !== undefined ? (opts.colors === undefined ? { ...opts, colors } : opts) : { colors };
    return ReflectApply(formatWithOptions, undefined, [options, ...args]);
  },
  log(...args) { this[kWrite](false, this[kFormat](false, args)); },
  warn(...args) { this[kWrite](true, this[kFormat](true, args)); },
  dir(object, options) {
    const colors = useColors(this._stdout, this[kColorMode]);
    this[kWrite](false, inspect(object, { customInspect: false, colors, ...this[kInspectOptions], ...options }));
  },
  time(label = 'default') {
    label = `${label}`;
    if (MapPrototypeHas(this[kTimers], label)) {
      emitWarning(`Label '${label}' already exists for console.time()`);
      return;
    }
    MapPrototypeSet(this[kTimers], label, now());
  },
  timeEnd(label = 'default') {
    label = `${label}`;
    if (timeLogImpl(this, 'timeEnd', label)) MapPrototypeDelete(this[kTimers], label);
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
    const opts = { ...this[kInspectOptions], depth, maxArrayLength: 3, breakLength: Infinity, colors: false };
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
        for (const { 0: k, 1: v } of MapPrototypeEntries(tabularData)) {
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
      for (const v of (isSet(tabularData) ? SetPrototypeValues(tabularData) : tabularData)) {
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
        for (const key of keys) {
          map[key] ??= [];
          if ((primitive && properties) || !ObjectPrototypeHasOwnProperty.call(item, key)) map[key][i] = '';
          else map[key][i] = _inspect(item[key]);
        }
      }
    }
    const keys = ObjectKeys(map);
    const values = [];
    for (const k of keys) ArrayPrototypePush(values, map[k]);
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
for (const key of ObjectKeys(proto)) {
  ObjectDefineProperty(Console.prototype, key, { value: proto[key], writable: true, configurable: true, enumerable: false });
}
for (const sym of [kWrite, kFormat]) {
  ObjectDefineProperty(Console.prototype, sym, { value: proto[sym], writable: true, configurable: true, enumerable: false });
}
ObjectDefineProperty(Console.prototype, SymbolToStringTag, { value: 'console', writable: false, enumerable: false, configurable: true });
ObjectDefineProperty(Console, Symbol.hasInstance, {
  value(instance) { return instance !== null && typeof instance === 'object' && kWrite in instance; },
});

// Iterators cannot be previewed without V8, so a Map/Set iterator is drained into an array: the guest's
// iterator is consumed (Node leaves it untouched).
function previewIterator(iter, entries) {
  const out = [];
  try {
    for (const item of { [SymbolIterator]: () => iter }) {
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
  const time = MapPrototypeGet(self[kTimers], label);
  if (time === undefined) {
    emitWarning(`No such label '${label}' for console.${name}()`);
    return false;
  }
  const formatted = formatTime(now() - time);
  if (data === undefined || data.length === 0) self.log('%s: %s', label, formatted);
  else ReflectApply(self.log, self, ['%s: %s', label, formatted, ...data]);
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
  for (const ch of str) {
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
  for (const c of columns) longestColumn = MathMax(longestColumn, c.length);
  for (let i = 0; i < head.length; i++) {
    const column = columns[i];
    for (let j = 0; j < longestColumn; j++) {
      if (rows[j] === undefined) rows[j] = [];
      const value = rows[j][i] = ObjectPrototypeHasOwnProperty.call(column, j) ? column[j] : '';
      columnWidths[i] = MathMax(columnWidths[i] || 0, getStringWidth(value));
    }
  }
  const divider = ArrayPrototypeMap(columnWidths, (w) => StringPrototypeRepeat(tableChars.middleMiddle, w + 2));
  let result = `${tableChars.topLeft}${ArrayPrototypeJoin(divider, tableChars.topMiddle)}${tableChars.topRight}\n` +
    `${renderRow(head, columnWidths)}\n` +
    `${tableChars.leftMiddle}${ArrayPrototypeJoin(divider, tableChars.rowMiddle)}${tableChars.rightMiddle}\n`;
  for (const row of rows) result += `${renderRow(row, columnWidths)}\n`;
  result += `${tableChars.bottomLeft}${ArrayPrototypeJoin(divider, tableChars.bottomMiddle)}${tableChars.bottomRight}`;
  return result;
}

function createGlobalConsole(stdout, stderr) {
  const c = new Console({ stdout, stderr });
  return c;
}

module.exports = { Console, createGlobalConsole };
