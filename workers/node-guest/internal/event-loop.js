// The guest's waits on fds: one-shot interests on the process's wake ring (src/abi/wake-ring.ts). A ref'd
// wait keeps the process alive (the worker holds its loop while any is pending); when the kernel pushes the
// fd's readiness, the callback runs. Interests are armed again after a ring overflow.
'use strict';

const {
  SafeMap,
} = require('internal/primordials');

const host = internal.host;
const asyncContext = require('internal/async-context');
const READ = 1;
const WRITE = 2;

/** fd * 2 + (write ? 1 : 0) → { fd, events, callback, ref, frame } (frame: the async context the wait was made in) */
const waits = new SafeMap();
let refs = 0;

function setRefs(n) {
  if ((refs === 0) !== (n === 0)) host('hold', n > 0);
  refs = n;
}

/**
 * Calls `callback` once `fd` is readable (or writable), i.e. a read (write) would not return EAGAIN. `armed`:
 * the kernel armed the ring already (the call that answered EAGAIN did), which saves the ARM call.
 */
function waitFd(fd, write, callback, ref = true, armed = false) {
  const key = fd * 2 + (write ? 1 : 0);
  const old = waits.get(key);
  if (old && old.ref) setRefs(refs - 1);
  waits.set(key, { fd, events: write ? WRITE : READ, callback, ref, frame: asyncContext.get() });
  if (ref) setRefs(refs + 1);
  if (!armed) internal.sys.arm(fd, write ? WRITE : READ);
}

/** Forgets a wait (its fd is being closed, or nobody wants the data any more). */
function cancelFd(fd, write) {
  const key = fd * 2 + (write ? 1 : 0);
  const w = waits.get(key);
  if (!w) return;
  waits.delete(key);
  if (w.ref) setRefs(refs - 1);
}

function setRef(fd, write, ref) {
  const w = waits.get(fd * 2 + (write ? 1 : 0));
  if (!w || w.ref === ref) return;
  w.ref = ref;
  setRefs(refs + (ref ? 1 : -1));
}

internal.on('fd', (fd, events) => {
  for (let side = 0; side < 2; side++) {
    const write = side === 1;
    if ((events & (write ? WRITE : READ)) === 0) continue;
    const key = fd * 2 + (write ? 1 : 0);
    const w = waits.get(key);
    if (!w) continue;
    waits.delete(key);
    if (w.ref) setRefs(refs - 1);
    asyncContext.runIn(w.frame, w.callback, undefined, []);
  }
});

internal.on('rearm', () => {
  for (const w of waits.values()) internal.sys.arm(w.fd, w.events);
});

/** Holds the process alive (+1) or lets go (-1), for handles that wait on nothing of the kernel's (message ports). */
function holdLoop(delta) {
  setRefs(refs + delta);
}

module.exports = { waitFd, cancelFd, setRef, holdLoop };
