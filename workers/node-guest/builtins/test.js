// `node:test`: Node's test runner — test/it, describe/suite, the hooks, subtests (t.test), skip/todo/only,
// t.diagnostic, t.plan, mock functions and methods — and its default reporter: TAP on Node < 23 when stdout is
// not a terminal, spec otherwise (internal/test-reporters.js). Tests start once the main module has run, one at
// a time in declaration order; the report is written when the last has finished, and a failure sets the exit
// code to 1. Under `node --test` (internal/test-runner.js) each file runs in its own process, which sends its
// events to the runner instead of reporting them itself.
'use strict';

const {
  ArrayPrototypePush,
  Error,
  Number,
  NumberParseInt,
  ObjectAssign,
  ObjectDefineProperty,
  Promise,
  PromisePrototypeThen,
  PromiseResolve,
  ReflectApply,
  RegExpPrototypeExec,
  StringPrototypeSplit,
  StringPrototypeStartsWith,
} = require('internal/primordials');

const process = require('process');
const { setImmediate, setTimeout, clearTimeout } = require('timers');
const { AbortController } = require('internal/event-target');
const { codeError, invalidArgType } = require('internal/errors');
const reporters = require('internal/test-reporters');

const NODE_MAJOR = NumberParseInt(process.versions.node, 10);
const ONLY_NOTE = "'only' and 'runOnly' require the --test-only command-line option.";
const { MockTracker } = require('internal/test-mock');

/** Node's ERR_TEST_FAILURE: the test's failure, with the user's error as its cause. */
/** Milliseconds since an earlier now(), at Node's precision (nanoseconds). */
const now = () => process.hrtime.bigint();
const msSince = (start) => Number(now() - start) / 1e6;

function testFailure(cause, failureType) {
  const message = cause !== null && typeof cause === 'object' && typeof cause.message === 'string' ? cause.message : typeof cause === 'string' ? cause : `${cause}`;
  const e = codeError(Error, 'ERR_TEST_FAILURE', message);
  e.failureType = failureType;
  e.cause = cause;
  return e;
}

/** `file:line:column` of the test() call: the first frame of the stack outside this runtime. */
function callSite() {
  const stack = new Error().stack;
  if (typeof stack !== 'string') return undefined;
  const lines = StringPrototypeSplit(stack, '\n');
  for (let i = 1; i < lines.length; i++) {
    const m = RegExpPrototypeExec(/(?:\(|at )((?:file:\/\/)?\/[^\n]*?):(\d+):(\d+)\)?$/, lines[i]);
    if (m !== null) return { file: StringPrototypeStartsWith(m[1], 'file://') ? require('internal/url').fileURLToPath(m[1]) : m[1], line: +m[2], column: +m[3] };
  }
  return undefined;
}

function normaliseArgs(name, options, fn) {
  if (typeof name === 'function') {
    fn = name;
    name = fn.name || '<anonymous>';
    options = {};
  } else if (typeof options === 'function') {
    fn = options;
    options = {};
  }
  if (name !== null && typeof name === 'object') {
    fn = options;
    options = name;
    name = typeof fn === 'function' && fn.name ? fn.name : '<anonymous>';
  }
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object') throw invalidArgType('options', 'object', options);
  if (name === undefined) name = typeof fn === 'function' && fn.name ? fn.name : '<anonymous>';
  return { name: `${name}`, options, fn };
}

const stats = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
let reporter;
function report(event) {
  reporter ??= reporters.create(process.env.NODE_TEST_CONTEXT === 'child-agentos' ? 'child' : undefined);
  reporter.event(event);
}

class Test {
  constructor(name, options, fn, parent, kind) {
    this.name = name;
    this.fn = fn;
    this.parent = parent;
    this.kind = kind;
    this.nesting = parent === null ? -1 : parent.nesting + 1;
    this.subtests = [];
    this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
    this.skip = options.skip !== undefined && options.skip !== false ? options.skip : false;
    this.todo = options.todo !== undefined && options.todo !== false ? options.todo : false;
    this.only = options.only === true;
    // Without --test-only (which the guest does not take), `only` runs everything on Node 20, with Node's
    // note; Node 24 runs only the `only` ones among their siblings (see selected()).
    this.diagnostics = this.only && NODE_MAJOR < 24 ? [ONLY_NOTE] : [];
    this.timeout = typeof options.timeout === 'number' ? options.timeout : Infinity;
    this.error = null;
    this.failedSubtests = 0;
    this.location = callSite();
    this.queue = PromiseResolve();
    this.number = 0;
    this.built = PromiseResolve();
    this.planned = undefined;
    this.assertions = 0;
    this.ran = false;
    this.startReported = false;
    this.finished = null;
  }

  /** A subtest or suite of this one, run after the ones before it. */
  addChild(child) {
    ArrayPrototypePush(this.subtests, child);
    child.number = this.subtests.length;
  }
}

const root = new Test('<root>', {}, undefined, null, 'root');
let currentSuite = root;
let rootScheduled = false;
let rootDone = false;
let started = 0;
let beforeExitSeen = false;

function scheduleRoot() {
  if (rootScheduled) return;
  rootScheduled = true;
  started = now();
  // The tests start once the main module has run (Node starts its root test then too).
  process.nextTick(() => {
    PromisePrototypeThen(drainRoot(), undefined, () => {});
  });
  process.on('beforeExit', () => {
    beforeExitSeen = true;
    finishRoot();
  });
}

let draining = null;
function drainRoot() {
  draining ??= (async () => {
    const ctx = new SuiteContext(root);
    try {
      if (!root.beforeRan) {
        root.beforeRan = true;
        await runHooks(root.hooks.before, ctx, root);
      }
      for (let i = 0; i < root.subtests.length; i++) {
        if (!root.subtests[i].ran && selected(root, root.subtests[i])) await run(root.subtests[i]);
      }
      if (root.hooks.after.length > 0) await suiteEnd();
      await runHooks(root.hooks.after, ctx, root);
      root.hooks.after = [];
    } catch (e) {
      // A failing hook of the file: Node reports it as a failure of the file's root test.
      ArrayPrototypePush(root.diagnostics, `Error: ${e !== null && typeof e === 'object' ? e.message : e}`);
      stats.fail++;
    }
    draining = null;
    finishRoot();
  })();
  return draining;
}

/** After the last test (and again when the loop empties, for tests declared late): the plan and the summary. */
function finishRoot() {
  if (rootDone || draining !== null) return;
  for (let i = 0; i < root.subtests.length; i++) if (!root.subtests[i].ran && selected(root, root.subtests[i])) return void drainRoot();
  if (!beforeExitSeen) return;
  rootDone = true;
  report({ type: 'plan', nesting: 0, count: root.subtests.length });
  for (let i = 0; i < root.diagnostics.length; i++) report({ type: 'diagnostic', nesting: 0, message: root.diagnostics[i] });
  report({ type: 'summary', stats: { ...stats, duration_ms: msSince(started) } });
  reporter.end();
  if (stats.fail > 0) process.exitCode = 1;
}

function hookChain(test, kind) {
  const chain = [];
  for (let t = test.parent; t !== null; t = t.parent) {
    const hooks = t.hooks[kind];
    for (let i = 0; i < hooks.length; i++) ArrayPrototypePush(chain, hooks[i]);
  }
  return chain;
}

/** Calls `fn` with `ctx` (and a done callback when it takes two parameters); settles when it is done. */
function invoke(fn, ctx, timeout) {
  return new Promise((resolve, reject) => {
    let timer;
    const settle = (err) => {
      if (timer !== undefined) clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    };
    if (timeout !== Infinity) {
      timer = setTimeout(() => reject(codeError(Error, 'ERR_TEST_FAILURE', `test timed out after ${timeout}ms`)), timeout);
    }
    try {
      if (fn.length >= 2) {
        let called = false;
        const result = ReflectApply(fn, ctx, [ctx, (err) => {
          if (called) return;
          called = true;
          settle(err);
        }]);
        if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
          settle(codeError(Error, 'ERR_TEST_FAILURE', 'passed a callback but also returned a Promise'));
        }
      } else {
        const result = ReflectApply(fn, ctx, [ctx]);
        if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
          PromisePrototypeThen(PromiseResolve(result), () => settle(), (e) => settle(e === undefined || e === null ? new Error(`${e}`) : e));
        } else settle();
      }
    } catch (e) {
      settle(e === undefined || e === null ? new Error(`${e}`) : e);
    }
  });
}

async function runHooks(hooks, ctx, test) {
  for (let i = 0; i < hooks.length; i++) await invoke(hooks[i].fn, ctx, hooks[i].timeout);
}

/**
 * The starts of a test and of its ancestors not reported yet, outermost first: as Node's reporters, a start is
 * reported with the first result under it, so that the report stays in declaration order.
 */
function reportStarts(test) {
  const pending = [];
  for (let t = test; t !== null && t !== root && !t.startReported; t = t.parent) ArrayPrototypePush(pending, t);
  for (let i = pending.length - 1; i >= 0; i--) {
    pending[i].startReported = true;
    report({ type: 'start', nesting: pending[i].nesting, name: pending[i].name });
  }
}

async function run(test) {
  test.ran = true;
  const start = now();
  const ctx = test.kind === 'suite' ? new SuiteContext(test) : new TestContext(test);
  if (test.skip === false) {
    try {
      if (test.kind === 'suite') {
        await test.built;
        await runHooks(test.hooks.before, ctx, test);
        for (let i = 0; i < test.subtests.length; i++) if (selected(test, test.subtests[i])) await run(test.subtests[i]);
        await runHooks(test.hooks.after, ctx, test);
      } else {
        let hookFailed = true;
        try {
          const chain = hookChain(test, 'beforeEach');
          for (let i = chain.length - 1; i >= 0; i--) await invoke(chain[i].fn, ctx, chain[i].timeout);
          hookFailed = false;
          if (typeof test.fn === 'function') await invoke(test.fn, ctx, test.timeout);
        } catch (e) {
          test.error = testFailure(e, hookFailed ? 'hookFailed' : 'testCodeFailure');
        }
        // Subtests started and not awaited: the test ends when they have.
        for (let i = 0; i < test.subtests.length; i++) if (!test.subtests[i].ran) await run(test.subtests[i]);
        await test.queue;
        try {
          await runHooks(test.hooks.after, ctx, test);
          // A test that skipped itself (t.skip()) has no afterEach on Node 20; Node 24 runs them.
          if (test.skip === false || NODE_MAJOR >= 24) await runHooks(hookChain(test, 'afterEach'), ctx, test);
        } catch (e) {
          test.error ??= testFailure(e, 'hookFailed');
        }
      }
    } catch (e) {
      test.error ??= testFailure(e, test.kind === 'suite' ? 'hookFailed' : 'testCodeFailure');
    }
    if (test.error === null && test.planned !== undefined && test.planned !== test.assertions) {
      test.error = testFailure(codeError(Error, 'ERR_TEST_FAILURE', `plan expected ${test.planned} assertions but received ${test.assertions}`), 'testCodeFailure');
    }
    if (test.error === null && test.failedSubtests > 0) {
      const n = test.failedSubtests;
      test.error = testFailure(`${n} subtest${n === 1 ? '' : 's'} failed`, 'subtestsFailed');
    }
  }
  const duration = msSince(start);
  if (test.subtests.length > 0) report({ type: 'plan', nesting: test.nesting + 1, count: test.subtests.length });
  const failed = test.error !== null && test.todo === false;
  if (test.kind === 'suite') stats.suites++;
  else {
    stats.tests++;
    if (test.skip !== false) stats.skipped++;
    else if (test.todo !== false) stats.todo++;
    else if (failed) stats.fail++;
    else stats.pass++;
  }
  if (failed) test.parent.failedSubtests++;
  reportStarts(test);
  report({
    type: test.error !== null ? 'fail' : 'pass',
    nesting: test.nesting,
    name: test.name,
    number: test.number,
    skip: test.skip,
    todo: test.todo,
    duration_ms: duration,
    suite: test.kind === 'suite',
    location: test.location,
    failure: test.error !== null ? reporters.renderFailure(test.nesting, test.error) : undefined,
  });
  for (let i = 0; i < test.diagnostics.length; i++) report({ type: 'diagnostic', nesting: test.nesting, message: test.diagnostics[i] });
  if (test.finished !== null) test.finished();
  // Node 24's runner lets the loop turn when a suite ends: its report is written before what follows runs.
  if (test.kind === 'suite') await suiteEnd();
}

/**
 * Whether `child` of `parent` runs: on Node 24, when some of its siblings are `only` (or are suites holding an
 * `only` test), only those do.
 */
function selected(parent, child) {
  if (NODE_MAJOR < 24 || hasOnly(child)) return true;
  for (let i = 0; i < parent.subtests.length; i++) if (hasOnly(parent.subtests[i])) return false;
  return true;
}
function hasOnly(test) {
  if (test.only) return true;
  for (let i = 0; i < test.subtests.length; i++) if (test.kind === 'suite' && hasOnly(test.subtests[i])) return true;
  return false;
}

/** On Node 24, a turn of the loop (see run). */
function suiteEnd() {
  return NODE_MAJOR >= 24 ? new Promise((resolve) => setImmediate(resolve)) : undefined;
}

/** A test's name with its suites' before it, as Node's `fullName` gives it. */
function fullNameOf(test) {
  let name = test.name;
  for (let t = test.parent; t !== null && t !== root; t = t.parent) name = `${t.name} > ${name}`;
  return name;
}

class TestContext {
  #test;
  constructor(test) {
    this.#test = test;
  }

  get name() {
    return this.#test.name;
  }

  get fullName() {
    return fullNameOf(this.#test);
  }

  get signal() {
    return new AbortController().signal;
  }

  get mock() {
    return (this.#test.mock ??= new MockTracker());
  }

  get assert() {
    const test = this.#test;
    const assert = require('assert');
    const out = {};
    const names = ['ok', 'equal', 'notEqual', 'deepEqual', 'notDeepEqual', 'strictEqual', 'notStrictEqual', 'deepStrictEqual', 'notDeepStrictEqual', 'throws', 'doesNotThrow', 'rejects', 'doesNotReject', 'match', 'doesNotMatch', 'fail', 'ifError'];
    for (let i = 0; i < names.length; i++) {
      const f = assert[names[i]];
      out[names[i]] = (...args) => {
        test.assertions++;
        return ReflectApply(f, assert, args);
      };
    }
    return out;
  }

  plan(count) {
    if (typeof count !== 'number') throw invalidArgType('count', 'number', count);
    this.#test.planned = count;
  }

  diagnostic(message) {
    ArrayPrototypePush(this.#test.diagnostics, `${message}`);
  }

  skip(message) {
    this.#test.skip = message === undefined ? true : `${message}`;
  }

  todo(message) {
    this.#test.todo = message === undefined ? true : `${message}`;
  }

  runOnly() {
    ArrayPrototypePush(this.#test.diagnostics, ONLY_NOTE);
  }

  before(fn, options) {
    ArrayPrototypePush(this.#test.hooks.before, hook(fn, options));
  }

  after(fn, options) {
    ArrayPrototypePush(this.#test.hooks.after, hook(fn, options));
  }

  beforeEach(fn, options) {
    ArrayPrototypePush(this.#test.hooks.beforeEach, hook(fn, options));
  }

  afterEach(fn, options) {
    ArrayPrototypePush(this.#test.hooks.afterEach, hook(fn, options));
  }

  test(name, options, fn) {
    const parent = this.#test;
    const args = normaliseArgs(name, options, fn);
    const sub = new Test(args.name, args.options, args.fn, parent, 'test');
    parent.addChild(sub);
    const done = PromisePrototypeThen(parent.queue, () => run(sub));
    parent.queue = done;
    return done;
  }
}

class SuiteContext {
  #test;
  constructor(test) {
    this.#test = test;
  }

  get name() {
    return this.#test.name;
  }

  get fullName() {
    return fullNameOf(this.#test);
  }

  get signal() {
    return new AbortController().signal;
  }
}

function hook(fn, options) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'function', fn);
  return { fn, timeout: options !== null && typeof options === 'object' && typeof options.timeout === 'number' ? options.timeout : Infinity };
}

/** test()/it(): a test of the suite being declared, or of the file. */
function test(name, options, fn) {
  const args = normaliseArgs(name, options, fn);
  const parent = currentSuite;
  const t = new Test(args.name, args.options, args.fn, parent, 'test');
  parent.addChild(t);
  if (parent !== root) return undefined;
  scheduleRoot();
  return new Promise((resolve) => {
    t.finished = resolve;
  });
}

/** describe()/suite(): its function runs now, declaring the suite's tests and hooks. */
function describe(name, options, fn) {
  const args = normaliseArgs(name, options, fn);
  const parent = currentSuite;
  const suite = new Test(args.name, args.options, args.fn, parent, 'suite');
  parent.addChild(suite);
  if (parent === root) scheduleRoot();
  if (typeof args.fn === 'function' && suite.skip === false) {
    currentSuite = suite;
    try {
      const result = ReflectApply(args.fn, new SuiteContext(suite), [new SuiteContext(suite)]);
      if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
        suite.built = PromisePrototypeThen(PromiseResolve(result), undefined, (e) => {
          suite.error = testFailure(e, 'testCodeFailure');
        });
      }
    } catch (e) {
      suite.error = testFailure(e, 'testCodeFailure');
    } finally {
      currentSuite = parent;
    }
  }
  return PromiseResolve();
}

function withModifiers(fn) {
  fn.skip = (name, options, f) => {
    const a = normaliseArgs(name, options, f);
    return fn(a.name, { ...a.options, skip: true }, a.fn);
  };
  fn.todo = (name, options, f) => {
    const a = normaliseArgs(name, options, f);
    return fn(a.name, { ...a.options, todo: true }, a.fn);
  };
  fn.only = (name, options, f) => {
    const a = normaliseArgs(name, options, f);
    return fn(a.name, { ...a.options, only: true }, a.fn);
  };
  return fn;
}

const it = withModifiers((name, options, fn) => test(name, options, fn));
const suiteFn = withModifiers((name, options, fn) => describe(name, options, fn));
withModifiers(test);

function topHook(kind) {
  return (fn, options) => {
    ArrayPrototypePush(currentSuite.hooks[kind], hook(fn, options));
    if (currentSuite === root) scheduleRoot();
  };
}

const mock = new MockTracker();

ObjectAssign(test, {
  after: topHook('after'),
  afterEach: topHook('afterEach'),
  before: topHook('before'),
  beforeEach: topHook('beforeEach'),
  describe: suiteFn,
  it,
  mock,
  run() {
    throw codeError(Error, 'ERR_ACCESS_DENIED', 'run() of node:test is not available in this VM (use node --test)');
  },
  suite: suiteFn,
  test,
});
ObjectDefineProperty(test, 'test', { value: test, enumerable: true, writable: true, configurable: true });
module.exports = test;
