// `perf_hooks`: the performance timeline (marks, measures, observers) and the recordable histogram, as Node's
// lib/internal/perf/*.js and lib/internal/histogram.js make them.
'use strict';

const {
  ArrayIsArray,
  BigInt,
  JSONParse,
  Map,
  NumberParseInt,
  MathAbs,
  MathCeil,
  MathFloor,
  MathLog,
  MathLog2,
  MathMax,
  MathMin,
  MathSqrt,
  MathTrunc,
  Number,
  NumberIsInteger,
  NumberMAX_SAFE_INTEGER,
  NumberMIN_SAFE_INTEGER,
  ObjectDefineProperty,
  ObjectFromEntries,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames,
  ObjectHasOwn,
  RangeError,
  ReflectApply,
  Set,
  String,
  Symbol,
  SymbolFor,
  SymbolToStringTag,
  TypeError,
  ArrayPrototypePush, StringPrototypeSplit,
  SafeMap: PrimordialSafeMap, SafeSet,
  SafeArrayIterator,
  MapPrototypeSet,
  ArrayPrototypeFilter, ArrayPrototypeIncludes, ArrayPrototypeMap, ArrayPrototypeSlice, ArrayPrototypeSort, ArrayFrom,
  NumberPrototypeToString, ReflectConstruct, StringPrototypeSlice,
} = require('internal/primordials');

const { codeError, invalidArgType, received } = require('internal/errors');
const { EventTarget } = require('internal/event-target');

const customInspect = SymbolFor('nodejs.util.inspect.custom');
const kMake = Symbol('kMake');
// The process's Node version is known only when it starts, which may be after this module is loaded.
const newer = () => Number(StringPrototypeSplit(process.versions.node, '.')[0]) >= 24;
const illegalConstructor = () => codeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
const now = () => internal.host('hrtime');

/** Node's numbers past 2**32 in range messages: `1_000_000_000_000`. */
function shownNumber(n) {
  if (typeof n !== 'number' || !NumberIsInteger(n) || MathAbs(n) <= 2 ** 32) return String(n);
  const digits = String(MathAbs(n));
  let out = '';
  for (let i = digits.length; i > 0; i -= 3) out = `${StringPrototypeSlice(digits, MathMax(0, i - 3), i)}${out === '' ? '' : '_'}${out}`;
  return `${n < 0 ? '-' : ''}${out}`;
}
const outOfRange = (name, range, value) => codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be ${range}. Received ${shownNumber(value)}`);
function validateInteger(value, name, min = NumberMIN_SAFE_INTEGER, max = NumberMAX_SAFE_INTEGER) {
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
  if (!NumberIsInteger(value)) throw outOfRange(name, 'an integer', value);
  if (value < min || value > max) throw outOfRange(name, `>= ${min} && <= ${max}`, value);
}
function validateObject(value, name) {
  if (value === null || typeof value !== 'object' || ArrayIsArray(value)) throw invalidArgType(name, 'of type object', value);
}
/** `this` lacks the class's field: Node 20 and 24 word it differently. */
function invalidThis(self, className) {
  if (newer()) return codeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type ${className}`);
  return codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "this" argument must be an instance of ${className}.${received(self)}`);
}
/** Node's webstreams-style inspection: `Name { ...data }`. */
function inspectAs(name, data, depth, options, inspect) {
  if (depth < 0) return undefined;
  return `${name} ${inspect(data, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
}
const enumerable = (C, names) => {
  for (const name of new SafeArrayIterator(names)) ObjectDefineProperty(C.prototype, name, { enumerable: true });
};
const tag = (C) => ObjectDefineProperty(C.prototype, SymbolToStringTag, { value: C.name, writable: false, enumerable: false, configurable: true });

// ---- entries ----

let isEntry;
class PerformanceEntry {
  static {
    isEntry = (o) => o !== null && typeof o === 'object' && #name in o;
  }
  #name;
  #type;
  #start;
  #duration;
  constructor(make = undefined, name = undefined, type = undefined, start = undefined, duration = undefined) {
    if (make !== kMake) throw illegalConstructor();
    this.#name = name;
    this.#type = type;
    this.#start = start;
    this.#duration = duration;
  }
  get name() {
    if (!isEntry(this)) throw invalidThis(this, 'PerformanceEntry');
    return this.#name;
  }
  get entryType() {
    if (!isEntry(this)) throw invalidThis(this, 'PerformanceEntry');
    return this.#type;
  }
  get startTime() {
    if (!isEntry(this)) throw invalidThis(this, 'PerformanceEntry');
    return this.#start;
  }
  get duration() {
    if (!isEntry(this)) throw invalidThis(this, 'PerformanceEntry');
    return this.#duration;
  }
  [customInspect](depth, options, inspect) {
    // Node gives back the entry itself, which prints as `[Name]` past the depth.
    if (depth < 0) return options.stylize(`[${this.constructor.name}]`, 'special');
    return inspectAs(this.constructor.name, this.toJSON(), depth, options, inspect);
  }
  toJSON() {
    if (!isEntry(this)) throw invalidThis(this, 'PerformanceEntry');
    return { name: this.#name, entryType: this.#type, startTime: this.#start, duration: this.#duration };
  }
}
enumerable(PerformanceEntry, ['name', 'entryType', 'startTime', 'duration', 'toJSON']);
// The customInspect goes after toJSON, as Node's.
ObjectDefineProperty(PerformanceEntry.prototype, customInspect, { value: ObjectGetOwnPropertyDescriptor(PerformanceEntry.prototype, customInspect).value, writable: true, configurable: true, enumerable: false });

/** Where each mark was last set, for measures that name it. */
const markTimes = new PrimordialSafeMap();

class PerformanceMark extends PerformanceEntry {
  #detail;
  constructor(name, options = undefined) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    name = `${name}`;
    if (options != null) validateObject(options, 'options');
    const startTime = options?.startTime ?? now();
    if (typeof startTime !== 'number') throw invalidArgType('startTime', 'of type number', startTime);
    if (startTime < 0) throw codeError(TypeError, 'ERR_PERFORMANCE_INVALID_TIMESTAMP', `${startTime} is not a valid timestamp`);
    markTimes.set(name, startTime);
    const detail = options?.detail;
    super(kMake, name, 'mark', startTime, 0);
    this.#detail = detail != null ? structuredClone(detail) : null;
  }
  get detail() {
    if (!isEntry(this) || !(#detail in this)) throw invalidThis(this, 'PerformanceMark');
    return this.#detail;
  }
  toJSON() {
    return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration, detail: this.#detail };
  }
}
enumerable(PerformanceMark, ['detail']);
tag(PerformanceMark);

class PerformanceMeasure extends PerformanceEntry {
  #detail;
  constructor(make = undefined, name = undefined, start = undefined, duration = undefined, detail = undefined) {
    if (make !== kMake) throw illegalConstructor();
    super(kMake, name, 'measure', start, duration);
    this.#detail = detail;
  }
  get detail() {
    if (!isEntry(this) || !(#detail in this)) throw invalidThis(this, 'PerformanceMeasure');
    return this.#detail;
  }
  toJSON() {
    return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration, detail: this.#detail };
  }
}
enumerable(PerformanceMeasure, ['detail']);
tag(PerformanceMeasure);

/** Resource timings come from the fetch of a browser: the guest makes none, the class is Node's shape. */
const RESOURCE_FIELDS = ['initiatorType', 'workerStart', 'redirectStart', 'redirectEnd', 'fetchStart', 'domainLookupStart', 'domainLookupEnd', 'connectStart', 'connectEnd', 'secureConnectionStart', 'nextHopProtocol', 'requestStart', 'responseStart', 'responseEnd', 'encodedBodySize', 'decodedBodySize', 'transferSize'];
class PerformanceResourceTiming extends PerformanceEntry {
  constructor(make = undefined) {
    if (make !== kMake) throw illegalConstructor();
    super(kMake);
  }
  get name() {
    return super.name;
  }
  get startTime() {
    return super.startTime;
  }
  get duration() {
    return super.duration;
  }
  toJSON() {
    return { ...super.toJSON() };
  }
}
// (Node 24 adds deliveryType and responseStatus; the prototype is made before the process's version is known.)
for (const name of new SafeArrayIterator(RESOURCE_FIELDS)) ObjectDefineProperty(PerformanceResourceTiming.prototype, name, { get: () => undefined, enumerable: true, configurable: true });
const resourceToJSON = ObjectGetOwnPropertyDescriptor(PerformanceResourceTiming.prototype, 'toJSON');
delete PerformanceResourceTiming.prototype.toJSON;
ObjectDefineProperty(PerformanceResourceTiming.prototype, 'toJSON', resourceToJSON);
enumerable(PerformanceResourceTiming, ['name', 'startTime', 'duration', 'toJSON']);
tag(PerformanceResourceTiming);

// ---- the timeline and its observers ----

/** Marks and measures kept for getEntries*, as Node keeps them (it only warns past a million). */
const timeline = { mark: [], measure: [] };
function allEntries() {
  const all = ArrayPrototypeSlice(timeline.mark);
  for (let i = 0; i < timeline.measure.length; i++) ArrayPrototypePush(all, timeline.measure[i]);
  return all;
}
const byStart = (a, b) => a.startTime - b.startTime;
function filtered(list, name, type) {
  return ArrayPrototypeSort(ArrayPrototypeFilter(list, (e) => (name === undefined || e.name === name) && (type === undefined || e.entryType === type)), byStart);
}

class PerformanceObserverEntryList {
  #entries;
  constructor(make = undefined, entries = undefined) {
    if (make !== kMake) throw illegalConstructor();
    this.#entries = ArrayPrototypeSort(ArrayPrototypeSlice(entries), byStart);
  }
  getEntries() {
    return ArrayPrototypeSlice(this.#entries);
  }
  getEntriesByType(type) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" argument must be specified');
    return filtered(this.#entries, undefined, `${type}`);
  }
  getEntriesByName(name, type = undefined) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    return filtered(this.#entries, `${name}`, type === undefined ? undefined : `${type}`);
  }
  [customInspect](depth, options, inspect) {
    return inspectAs('PerformanceObserverEntryList', this.#entries, depth, options, inspect);
  }
}
tag(PerformanceObserverEntryList);

const SUPPORTED_TYPES = ['dns', 'function', 'gc', 'http', 'http2', 'mark', 'measure', 'net', 'resource'];
/** The observers connected, and those with entries waiting for their callback. */
const observers = new SafeSet();
const pendingObservers = new SafeSet();

let enqueue;
let dispatch;
class PerformanceObserver {
  static {
    enqueue = (entry) => {
      for (const o of observers) {
        if (!o.#entryTypes.has(entry.entryType)) continue;
        ArrayPrototypePush(o.#buffer, entry);
        schedule(o);
      }
    };
    dispatch = (o) => {
      if (o.#buffer.length === 0) return;
      const list = new PerformanceObserverEntryList(kMake, o.takeRecords());
      ReflectApply(o.#callback, o, [list, o]);
    };
  }
  #callback;
  #buffer = [];
  #entryTypes = new SafeSet();
  #type;
  constructor(callback) {
    if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
    this.#callback = callback;
  }
  static get supportedEntryTypes() {
    if (!newer()) return ArrayPrototypeSlice(SUPPORTED_TYPES);
    const types = ArrayPrototypeSlice(SUPPORTED_TYPES, 0, 8);
    ArrayPrototypePush(types, 'quic', 'resource');
    return types;
  }
  observe(options = {}) {
    validateObject(options, 'options');
    const { entryTypes, type } = options;
    if (entryTypes === undefined && type === undefined) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "options.entryTypes" and "options.type" arguments must be specified');
    if (entryTypes != null && type != null) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.entryTypes' can not be used with 'options.type'. Received ${require('util').inspect(entryTypes)}`);
    this.#entryTypes.clear();
    if (entryTypes !== undefined) {
      if (!ArrayIsArray(entryTypes)) throw invalidArgType('options.entryTypes', 'an instance of Array', entryTypes);
      for (let i = 0; i < entryTypes.length; i++) if (ArrayPrototypeIncludes(SUPPORTED_TYPES, entryTypes[i])) this.#entryTypes.add(entryTypes[i]);
    } else {
      if (!ArrayPrototypeIncludes(SUPPORTED_TYPES, type)) return;
      this.#entryTypes.add(type);
      this.#type = type;
      if (options.buffered) for (const e of new SafeArrayIterator(timeline[type] ?? [])) ArrayPrototypePush(this.#buffer, e);
    }
    if (this.#entryTypes.size > 0) observers.add(this);
    else this.disconnect();
    if (this.#buffer.length > 0) schedule(this);
  }
  disconnect() {
    observers.delete(this);
    pendingObservers.delete(this);
    this.#buffer = [];
  }
  takeRecords() {
    const list = this.#buffer;
    this.#buffer = [];
    return list;
  }
  [customInspect](depth, options, inspect) {
    return inspectAs('PerformanceObserver', { connected: observers.has(this), pending: pendingObservers.has(this), entryTypes: [...this.#entryTypes], buffer: this.#buffer }, depth, options, inspect);
  }
}
tag(PerformanceObserver);

/** Observers hear of entries in a later turn of the loop, all together, as Node's. */
function schedule(o) {
  if (pendingObservers.size === 0) {
    setImmediate(() => {
      const due = ArrayFrom(pendingObservers);
      pendingObservers.clear();
      for (const each of new SafeArrayIterator(due)) dispatch(each);
    });
  }
  pendingObservers.add(o);
}

function record(entry) {
  ArrayPrototypePush(timeline[entry.entryType], entry);
  enqueue(entry);
  return entry;
}

/** A measure's point: a timestamp, or the time of the named mark. */
function markTime(name) {
  if (name === undefined) return undefined;
  if (typeof name === 'number') {
    if (name < 0) throw codeError(TypeError, 'ERR_PERFORMANCE_INVALID_TIMESTAMP', `${name} is not a valid timestamp`);
    return name;
  }
  name = `${name}`;
  if (!markTimes.has(name)) throw new DOMException(`The "${name}" performance mark has not been set`, 'SyntaxError');
  return markTimes.get(name);
}
const invalidMeasure = (message) => codeError(TypeError, 'ERR_PERFORMANCE_MEASURE_INVALID_OPTIONS', message);

/** Node's calculateStartDuration: options count only when they name a start or an end. */
function measure(name, startOrOptions, endMark) {
  name = `${name}`;
  let start;
  let end;
  let duration;
  let optionsValid = false;
  if (startOrOptions !== null && typeof startOrOptions === 'object') {
    ({ start, end, duration } = startOrOptions);
    optionsValid = start !== undefined || end !== undefined;
  }
  if (optionsValid) {
    if (endMark !== undefined) throw invalidMeasure('endMark must not be specified');
    if (start !== undefined && end !== undefined && duration !== undefined) throw invalidMeasure('Must not have options.start, options.end, and options.duration specified');
  }
  if (endMark !== undefined) end = markTime(endMark);
  else if (optionsValid && end !== undefined) end = markTime(end);
  else if (optionsValid && start !== undefined && duration !== undefined) end = markTime(start) + markTime(duration);
  else end = now();
  if (typeof startOrOptions === 'string') start = markTime(startOrOptions);
  else if (optionsValid && start !== undefined) start = markTime(start);
  else if (optionsValid && duration !== undefined && end !== undefined) start = end - markTime(duration);
  else start = 0;
  const detail = startOrOptions?.detail;
  return record(new PerformanceMeasure(kMake, name, start, end - start, detail != null ? structuredClone(detail) : null));
}

// ---- Performance ----

let timeOrigin;
class Performance extends EventTarget {
  constructor(make = undefined) {
    if (make !== kMake) throw illegalConstructor();
    super();
  }
  clearMarks(name = undefined) {
    if (name === undefined) {
      markTimes.clear();
      timeline.mark.length = 0;
      return;
    }
    name = `${name}`;
    markTimes.delete(name);
    timeline.mark = ArrayPrototypeFilter(timeline.mark, (e) => e.name !== name);
  }
  clearMeasures(name = undefined) {
    timeline.measure = name === undefined ? [] : ArrayPrototypeFilter(timeline.measure, (e) => e.name !== `${name}`);
  }
  clearResourceTimings() {}
  getEntries() {
    return filtered(allEntries());
  }
  getEntriesByName(name, type = undefined) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    return filtered(allEntries(), `${name}`, type === undefined ? undefined : `${type}`);
  }
  getEntriesByType(type) {
    if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" argument must be specified');
    type = `${type}`;
    return ObjectHasOwn(timeline, type) ? filtered(timeline[type]) : [];
  }
  mark(name, options = undefined) {
    return record(ReflectConstruct(PerformanceMark, arguments));
  }
  measure(name, startOrOptions, endMark) {
    return measure(name, startOrOptions, endMark);
  }
  now() {
    return now();
  }
  setResourceTimingBufferSize(maxSize) {
    validateInteger(maxSize, 'maxSize', 0);
  }
  get timeOrigin() {
    return (timeOrigin ??= internal.host('now') - internal.host('hrtime'));
  }
  toJSON() {
    return { nodeTiming: this.nodeTiming, timeOrigin: this.timeOrigin, eventLoopUtilization: this.eventLoopUtilization() };
  }
  eventLoopUtilization() {
    return { idle: 0, active: 0, utilization: 0 };
  }
  markResourceTiming() {}
  timerify(fn) {
    if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
    return fn;
  }
  get onresourcetimingbufferfull() {
    return null;
  }
  set onresourcetimingbufferfull(value) {}
  [customInspect](depth, options, inspect) {
    return inspectAs('Performance', { nodeTiming: this.nodeTiming, timeOrigin: this.timeOrigin, eventLoopUtilization: this.eventLoopUtilization }, depth, options, inspect);
  }
}
for (const name of new SafeArrayIterator(ObjectGetOwnPropertyNames(Performance.prototype))) if (name !== 'constructor') ObjectDefineProperty(Performance.prototype, name, { enumerable: true });
// Node's is a PerformanceNodeTiming of the process's milestones, which the guest does not keep.
const nodeTiming = ObjectGetOwnPropertyDescriptor(Performance.prototype, 'markResourceTiming');
delete Performance.prototype.markResourceTiming;
const after = ArrayPrototypeMap(['timerify', 'onresourcetimingbufferfull', customInspect], (key) => [key, ObjectGetOwnPropertyDescriptor(Performance.prototype, key)]);
for (let i = 0; i < after.length; i++) delete Performance.prototype[after[i][0]];
ObjectDefineProperty(Performance.prototype, 'nodeTiming', { value: {}, writable: true, enumerable: false, configurable: true });
ObjectDefineProperty(Performance.prototype, 'markResourceTiming', nodeTiming);
for (let i = 0; i < after.length; i++) ObjectDefineProperty(Performance.prototype, after[i][0], after[i][1]);
tag(Performance);
const performance = new Performance(kMake);

// ---- histograms ----

const INT64_MAX = 9223372036854775807n;

/** HdrHistogram's buckets (Node's histograms are HdrHistograms): the range of values a value counts as. */
function bucketsOf(lowest, figures) {
  const unit = floorLog2(lowest);
  const half = MathMax(MathCeil(MathLog2(2 * 10 ** figures)), 1) - 1;
  const shiftOf = (v) => MathMax(unit, floorLog2(v) - half);
  return {
    lowestOf: (v) => {
      const size = 2 ** shiftOf(v);
      return MathFloor(v / size) * size;
    },
    sizeOf: (v) => 2 ** shiftOf(v),
  };
}
function floorLog2(v) {
  return v < 1 ? 0 : NumberPrototypeToString(v, 2).length - 1;
}

let addValue;
let mergeInto;
let isHistogram;
class Histogram {
  static {
    addValue = (h, value, times) => {
      if (value > h.#highest) {
        h.#exceeds += times;
        return;
      }
      const key = h.#buckets.lowestOf(value);
      h.#counts.set(key, (h.#counts.get(key) ?? 0) + times);
      if (value < h.#min) h.#min = value;
      if (value > h.#max) h.#max = value;
      h.#count += times;
    };
    mergeInto = (h, other) => {
      for (const entry$480 of other.#counts) { const value = entry$480[0], times = entry$480[1]; addValue(h, value, times); }
      h.#exceeds += other.#exceeds;
    };
    isHistogram = (o) => o !== null && typeof o === 'object' && #counts in o;
  }
  // Recorded values by the lowest value of their bucket, so at most one entry per bucket.
  #counts = new PrimordialSafeMap();
  #buckets;
  #highest;
  #min = Infinity;
  #max = 0;
  #count = 0;
  #exceeds = 0;
  constructor(make, lowest, highest, figures) {
    if (make !== kMake) throw illegalConstructor();
    this.#buckets = bucketsOf(lowest, figures);
    this.#highest = highest;
  }
  #sorted() {
    return ArrayPrototypeSort(ArrayFrom(this.#counts), (a, b) => a[0] - b[0]);
  }
  #highestOf(v) {
    return this.#buckets.lowestOf(v) + this.#buckets.sizeOf(v) - 1;
  }
  #medianOf(v) {
    return this.#buckets.lowestOf(v) + MathFloor(this.#buckets.sizeOf(v) / 2);
  }
  get count() {
    return this.#count;
  }
  get countBigInt() {
    return BigInt(this.#count);
  }
  get min() {
    return Number(this.minBigInt);
  }
  get minBigInt() {
    return this.#count === 0 ? INT64_MAX : BigInt(this.#buckets.lowestOf(this.#min));
  }
  get max() {
    return Number(this.maxBigInt);
  }
  get maxBigInt() {
    return this.#max === 0 ? 0n : BigInt(this.#highestOf(this.#max));
  }
  get mean() {
    if (this.#count === 0) return NaN;
    let total = 0;
    for (const e of new SafeArrayIterator(this.#sorted())) total += e[1] * this.#medianOf(e[0]);
    return total / this.#count;
  }
  get exceeds() {
    return this.#exceeds;
  }
  get exceedsBigInt() {
    return BigInt(this.#exceeds);
  }
  get stddev() {
    if (this.#count === 0) return NaN;
    const mean = this.mean;
    let total = 0;
    for (const e of new SafeArrayIterator(this.#sorted())) {
      const dev = this.#medianOf(e[0]) - mean;
      total += dev * dev * e[1];
    }
    return MathSqrt(total / this.#count);
  }
  percentile(percentile) {
    if (typeof percentile !== 'number') throw invalidArgType('percentile', 'of type number', percentile);
    if (!(percentile > 0 && percentile <= 100)) throw outOfRange('percentile', '> 0 && <= 100', percentile);
    const wanted = MathMax(MathTrunc((MathMin(percentile, 100) / 100) * this.#count + 0.5), 1);
    let total = 0;
    for (const e of new SafeArrayIterator(this.#sorted())) {
      total += e[1];
      if (total >= wanted) return this.#highestOf(e[0]);
    }
    return 0;
  }
  percentileBigInt(percentile) {
    return BigInt(this.percentile(percentile));
  }
  /** HdrHistogram's percentile iteration, one step per half of the distance left to 100. */
  #percentiles(of) {
    const map = new (newer() ? Map : SafeMap)();
    const sorted = this.#sorted();
    let next = 0;
    let value = 0;
    let cumulative = 0;
    for (const e of new SafeArrayIterator(sorted)) {
      const v = e[0];
      const times = e[1];
      cumulative += times;
      value = v;
      // One step where the value is reached; more only while values are left after it (hdr's has_next).
      for (let first = true; (first || cumulative < this.#count) && next <= (100 * cumulative) / this.#count; first = false) {
        MapPrototypeSet(map, next, of(v));
        const halfDistance = 2 ** (MathTrunc(MathLog(100 / (100 - next)) / MathLog(2)) + 1);
        next += 100 / halfDistance;
      }
      if (cumulative === this.#count) break;
    }
    MapPrototypeSet(map, 100, of(value));
    return map;
  }
  get percentiles() {
    return this.#percentiles((v) => v);
  }
  get percentilesBigInt() {
    return this.#percentiles(BigInt);
  }
  reset() {
    this.#counts.clear();
    this.#min = Infinity;
    this.#max = 0;
    this.#count = 0;
    this.#exceeds = 0;
  }
  toJSON() {
    return { count: this.count, min: this.min, max: this.max, mean: this.mean, exceeds: this.exceeds, stddev: this.stddev, percentiles: ObjectFromEntries(this.percentiles) };
  }
  [customInspect](depth, options, inspect) {
    if (depth < 0) return this;
    return inspectAs('Histogram', { min: this.min, max: this.max, mean: this.mean, exceeds: this.exceeds, stddev: this.stddev, count: this.count, percentiles: this.percentiles }, depth, options, inspect);
  }
}
/** Node 20 builds its percentiles in a primordials SafeMap, and prints it as one. */
class SafeMap extends Map {}
class RecordableHistogram extends Histogram {
  #previous = 0n;
  constructor(make, lowest, highest, figures) {
    if (make !== kMake) throw illegalConstructor();
    super(kMake, lowest, highest, figures);
  }
  record(val) {
    if (typeof val === 'bigint') {
      if (val < 1n || val > BigInt(NumberMAX_SAFE_INTEGER)) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'value is out of range');
      val = Number(val);
    } else {
      validateInteger(val, 'val', 1);
    }
    addValue(this, val, 1);
  }
  recordDelta() {
    const at = process.hrtime.bigint();
    if (this.#previous !== 0n) {
      const delta = Number(at - this.#previous);
      if (delta > 0) addValue(this, delta, 1);
    }
    this.#previous = at;
  }
  add(other) {
    if (!(other instanceof RecordableHistogram) || !isHistogram(other)) throw invalidArgType('other', 'an instance of RecordableHistogram', other);
    mergeInto(this, other);
  }
}

function createHistogram(options = undefined) {
  if (options !== undefined) validateObject(options, 'options');
  const { lowest = 1, highest = NumberMAX_SAFE_INTEGER, figures = 3 } = options ?? {};
  if (typeof lowest !== 'bigint') validateInteger(lowest, 'options.lowest', 1, NumberMAX_SAFE_INTEGER);
  if (typeof highest !== 'bigint') validateInteger(highest, 'options.highest', 2 * Number(lowest), NumberMAX_SAFE_INTEGER);
  else if (highest < 2n * BigInt(lowest)) throw codeError(RangeError, 'ERR_INVALID_ARG_VALUE', `The argument 'options.highest' is invalid. Received ${highest}n`);
  validateInteger(figures, 'options.figures', 1, 5);
  const histogram = new RecordableHistogram(kMake, Number(lowest), Number(highest), figures);
  // Node's transferable histograms carry their class as an own property.
  ObjectDefineProperty(histogram, 'constructor', { value: RecordableHistogram, writable: true, enumerable: true, configurable: true });
  return histogram;
}

module.exports = {
  Performance,
  PerformanceEntry,
  PerformanceMark,
  PerformanceMeasure,
  PerformanceObserver,
  PerformanceObserverEntryList,
  PerformanceResourceTiming,
  monitorEventLoopDelay: () => ({ enable() {}, disable() {}, percentile: () => 0, min: 0, max: 0, mean: 0, stddev: 0 }),
  createHistogram,
  performance,
  constants: {},
};
// Node 24 exports performance's eventLoopUtilization and timerify from the module too. (This module can load
// before the process starts, when process.versions is not yet set: the version is the worker's own.)
if (NumberParseInt(JSONParse(internal.host('nodeTable', 'version')), 10) >= 24) {
  module.exports.eventLoopUtilization = performance.eventLoopUtilization;
  module.exports.timerify = performance.timerify;
}
