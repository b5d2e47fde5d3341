// The async context of AsyncLocalStorage: a frame (a Map of this realm, AsyncLocalStorage → store, never
// changed once current except by `disable`, as Node's AsyncContextFrame) that callbacks carry from where they
// are scheduled to where they run.
// The current frame is kept by the host (runtime.ts `alsFrame` / `alsEnter`), which carries it into promise
// reactions of this context: in V8's continuation-preserved data (Node >= 24) or with V8's promise hooks
// (Node 20). Callbacks the runtime schedules (timers, nextTick, queueMicrotask, I/O completions) carry it here.
'use strict';

const {
  ReflectApply,
  MapPrototypeDelete,
  MapPrototypeForEach,
  MapPrototypeGet,
  MapPrototypeSet,
  Map,
} = require('internal/primordials');

const host = internal.host;
const MapCtor = Map;

/** Until an AsyncLocalStorage exists every frame is empty: no host calls for programs that use none. */
let used = false;

const get = () => (!used ? undefined : host('alsFrame'));
const set = (frame) => void host('alsEnter', frame);

/** Runs `fn` with `frame` current, then puts back the frame that was. */
function runIn(frame, fn, thisArg, args) {
  if (!used) return ReflectApply(fn, thisArg, args);
  const prior = get();
  if (prior === frame) return ReflectApply(fn, thisArg, args);
  set(frame);
  try {
    return ReflectApply(fn, thisArg, args);
  } finally {
    set(prior);
  }
}

/** A new frame: the current one with `key` → `value`. */
function enter(key, value) {
  used = true;
  const prior = get();
  const frame = new MapCtor();
  // Copied with the captured methods: `new Map(prior)` would call whatever Map.prototype.set is now.
  if (prior !== undefined) MapPrototypeForEach(prior, (v, k) => MapPrototypeSet(frame, k, v));
  MapPrototypeSet(frame, key, value);
  set(frame);
}

const lookup = (frame, key) => (frame === undefined ? undefined : MapPrototypeGet(frame, key));
/** Forgets `key` in the current frame itself (shared by everything that captured it), as Node's disable. */
function forget(key) {
  const frame = get();
  if (frame !== undefined) MapPrototypeDelete(frame, key);
}

module.exports = { get, runIn, enter, lookup, forget };
