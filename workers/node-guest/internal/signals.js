// Signals a guest catches: the first `process.on('SIGTERM')` asks the kernel to queue SIGTERM instead of
// ending the process (Sys.SIGCATCH); the queue is an fd, read when the wake ring says it is readable. A
// signal listener does not keep the process alive, as in Node.
'use strict';

const {
  ObjectEntries,
  Uint8Array,
  SafeArrayIterator,
  GetLength,
} = require('internal/primordials');

const SIGNALS = {
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9,
  SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17, SIGCONT: 18,
  SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25, SIGVTALRM: 26,
  SIGPROF: 27, SIGWINCH: 28, SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
};
const NAMES = [];
for (const entry$18 of new SafeArrayIterator(ObjectEntries(SIGNALS))) { const name = entry$18[0], n = entry$18[1]; if (NAMES[n] === undefined) NAMES[n] = name; }

let fd = -1;
let mask = 0;

/** Keeps the kernel's mask equal to the signals `process` has listeners for. */
function update(process, adding) {
  let want = 0;
  for (const entry$26 of new SafeArrayIterator(ObjectEntries(SIGNALS))) { const name = entry$26[0], n = entry$26[1]; if (n !== 9 && n !== 19 && (name === adding || process.listenerCount(name) > 0)) want |= 1 << n; }
  if (want === mask) return;
  mask = want;
  const queue = internal.sys.sigcatch(mask);
  if (fd < 0) {
    fd = queue;
    internal.sys.setNonblocking(fd, true);
    wait(process);
  }
}

function wait(process) {
  require('internal/event-loop').waitFd(fd, false, () => {
    const buf = new Uint8Array(32);
    let n = 0;
    try {
      n = internal.sys.read(fd, buf, 0, GetLength(buf), -1);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
    wait(process);
    for (let i = 0; i < n; i++) process.emit(NAMES[buf[i]], NAMES[buf[i]], buf[i]);
  }, false);
}

function watch(process) {
  const isSignal = (event) => typeof event === 'string' && event in SIGNALS;
  process.on('newListener', (event) => {
    if (isSignal(event)) update(process, event);
  });
  process.on('removeListener', (event) => {
    if (isSignal(event)) update(process);
  });
}

module.exports = { SIGNALS, NAMES, watch };
