// node:test's reporters (builtins/test.js): Node's default output, TAP (Node < 23 on a stdout that is not a
// terminal) or spec (Node ≥ 23, or a terminal), and the "child" form a test file run by `node --test` sends to
// its runner (internal/test-runner.js): one JSON event per line after a marker, with the failure already
// rendered for both reporters, so that the runner reports every file's tests as one run.
//
// Like Node's reporters (a stream written after the tests' own output), the report is written when the run
// ends: what the tests print comes first.
'use strict';

const {
  ArrayPrototypeIncludes,
  ArrayPrototypeJoin,
  ArrayPrototypePop,
  ArrayPrototypePush,
  ArrayPrototypeShift,
  ArrayPrototypeUnshift,
  JSONParse,
  JSONStringify,
  NumberParseInt,
  ObjectEntries,
  RegExpPrototypeSymbolReplace,
  SafeSet,
  StringPrototypeRepeat,
  StringPrototypeSlice,
  StringPrototypeSplit,
  StringPrototypeStartsWith,
  hardenRegExp,
} = require('internal/primordials');

const process = require('process');
const { inspect } = require('util');
const { setImmediate } = require('timers');

/** What starts a child's event line on its stdout. */
const CHILD_MARKER = '\u0000agentos-test\u0000';

const INSPECT = { colors: false, breakLength: Infinity };
const UNWRAP = ['testCodeFailure', 'hookFailed', 'uncaughtException', 'unhandledRejection'];

const tapIndent = (nesting) => StringPrototypeRepeat('    ', nesting > 0 ? nesting : 0);
const specIndent = (nesting) => StringPrototypeRepeat('  ', nesting > 0 ? nesting : 0);

function tapEscape(s) {
  let out = RegExpPrototypeSymbolReplace(hardenRegExp(/\\/g), s, '\\\\');
  out = RegExpPrototypeSymbolReplace(hardenRegExp(/#/g), out, '\\#');
  out = RegExpPrototypeSymbolReplace(hardenRegExp(/\n/g), out, '\\n');
  out = RegExpPrototypeSymbolReplace(hardenRegExp(/\t/g), out, '\\t');
  out = RegExpPrototypeSymbolReplace(hardenRegExp(/\r/g), out, '\\r');
  out = RegExpPrototypeSymbolReplace(hardenRegExp(/\f/g), out, '\\f');
  return RegExpPrototypeSymbolReplace(hardenRegExp(/\v/g), out, '\\v');
}

const isAssertionLike = (v) => v !== null && typeof v === 'object' && 'expected' in v && 'actual' in v;

/** Node's TAP reporter's YAML for one value (lib/internal/test_runner/reporter/tap.js, jsToYaml). */
function yaml(indent, name, value, seen) {
  if (value === undefined) return '';
  const prefix = `${indent}  ${name}:`;
  if (value === null) return `${prefix} ~\n`;
  if (typeof value !== 'object') {
    if (typeof value === 'string') {
      const lines = StringPrototypeSplit(value, hardenRegExp(/\r?\n/));
      if (lines.length === 1) return `${prefix} ${inspect(value, INSPECT)}\n`;
      let str = `${prefix} |-\n`;
      for (let i = 0; i < lines.length; i++) str += `${indent}    ${lines[i]}\n`;
      return str;
    }
    return `${prefix} ${inspect(value, INSPECT)}\n`;
  }
  if (seen.has(value)) return `${prefix} <Circular>\n`;
  seen.add(value);
  const entries = ObjectEntries(value);
  let result = name === null ? '' : `${prefix}\n`;
  const propsIndent = name === null ? indent : `${indent}  `;
  for (let i = 0; i < entries.length; i++) result += yaml(propsIndent, entries[i][0], entries[i][1], seen);
  return result;
}

/** The YAML lines of a failure (ERR_TEST_FAILURE, its cause unwrapped as Node's TAP reporter does). */
function tapError(nesting, error) {
  const indent = tapIndent(nesting);
  const seen = new SafeSet();
  let out = yaml(indent, 'failureType', error.failureType, seen);
  const cause = error.cause;
  let code = error.code;
  let name = error.name;
  let stack;
  let assertion = isAssertionLike(error) ? error : null;
  if (error.code === 'ERR_TEST_FAILURE' && ArrayPrototypeIncludes(UNWRAP, error.failureType)) {
    const obj = cause !== null && (typeof cause === 'object' || typeof cause === 'function');
    stack = obj ? cause.stack : undefined;
    code = obj && cause.code !== undefined && cause.code !== null ? cause.code : code;
    name = obj && cause.name !== undefined && cause.name !== null ? cause.name : name;
    if (isAssertionLike(cause)) assertion = cause;
  }
  out += yaml(indent, 'error', error.message, seen);
  if (code) out += yaml(indent, 'code', code, seen);
  if (name && name !== 'Error') out += yaml(indent, 'name', name, seen);
  if (assertion !== null) {
    out += yaml(indent, 'expected', assertion.expected, seen);
    out += yaml(indent, 'actual', assertion.actual, seen);
    if (assertion.operator) out += yaml(indent, 'operator', assertion.operator, seen);
  }
  if (typeof stack === 'string') {
    const frames = [];
    const lines = StringPrototypeSplit(stack, hardenRegExp(/\r?\n/));
    for (let i = 0; i < lines.length; i++) {
      const frame = RegExpPrototypeSymbolReplace(hardenRegExp(/^ {4}at /), lines[i], '');
      if (frame.length > 0 && frame.length !== lines[i].length) ArrayPrototypePush(frames, frame);
    }
    if (frames.length > 0) out += `${indent}  stack: |-\n${indent}    ${ArrayPrototypeJoin(frames, `\n${indent}    `)}\n`;
  }
  return out;
}

/** The spec reporter's text of a failure: the error Node's test runner was given, inspected. */
function specError(error) {
  const err = error.code === 'ERR_TEST_FAILURE' ? error.cause : error;
  return inspect(err, INSPECT);
}

/** A test's failure, rendered for every reporter (a child cannot send the error itself). */
function renderFailure(nesting, error) {
  return { tap: tapError(nesting, error), spec: specError(error), failureType: error.failureType };
}

const MAJOR = () => NumberParseInt(process.versions.node, 10);

/** The reporter --test-reporter named (tap or spec, internal/main.js), else Node's default for this stdout. */
function defaultReporter() {
  if (internal.testReporter !== undefined) return internal.testReporter;
  return MAJOR() < 23 && !process.stdout.isTTY ? 'tap' : 'spec';
}

/** TAP, as Node 20's reporter writes it. */
function tapReporter(write) {
  let started = false;
  const header = () => {
    if (!started) {
      started = true;
      write('TAP version 13\n');
    }
  };
  return {
    event(e) {
      header();
      const indent = tapIndent(e.nesting);
      switch (e.type) {
        case 'start':
          write(`${indent}# Subtest: ${tapEscape(e.name)}\n`);
          break;
        case 'pass':
        case 'fail': {
          let line = `${indent}${e.type === 'pass' ? 'ok' : 'not ok'} ${e.number} - ${tapEscape(e.name)}`;
          if (e.skip !== false) line += ` # SKIP${typeof e.skip === 'string' && e.skip.length > 0 ? ` ${tapEscape(e.skip)}` : ''}`;
          else if (e.todo !== false) line += ` # TODO${typeof e.todo === 'string' && e.todo.length > 0 ? ` ${tapEscape(e.todo)}` : ''}`;
          let details = `${indent}  ---\n`;
          details += yaml(indent, 'duration_ms', e.duration_ms, new SafeSet());
          // Node 24 gives every test its type; Node 20 only suites.
          if (e.suite || MAJOR() >= 24) details += yaml(indent, 'type', e.suite ? 'suite' : 'test', new SafeSet());
          if (e.failure) {
            if (e.location) details += yaml(indent, 'location', `${e.location.file}:${e.location.line}:${e.location.column}`, new SafeSet());
            details += e.failure.tap;
          }
          write(`${line}\n${details}${indent}  ...\n`);
          break;
        }
        case 'plan':
          write(`${indent}1..${e.count}\n`);
          break;
        case 'diagnostic':
          write(`${indent}# ${tapEscape(e.message)}\n`);
          break;
        case 'stdout':
          // Node 20's runner reports a child's non-empty lines only.
          if (e.message !== '') write(`# ${tapEscape(e.message)}\n`);
          break;
        case 'summary':
          for (let i = 0, lines = summaryLines(e.stats); i < lines.length; i++) write(`# ${lines[i][0]} ${lines[i][1]}\n`);
          break;
      }
    },
  };
}

function summaryLines(stats) {
  return [['tests', stats.tests], ['suites', stats.suites], ['pass', stats.pass], ['fail', stats.fail], ['cancelled', stats.cancelled], ['skipped', stats.skipped], ['todo', stats.todo], ['duration_ms', stats.duration_ms]];
}

/** spec, as Node 24's reporter writes it (no colours: stdout is not a terminal). */
function specReporter(write, cwd) {
  const stack = [];
  const reported = [];
  const failed = [];
  return {
    event(e) {
      switch (e.type) {
        case 'start':
          ArrayPrototypeUnshift(stack, e);
          break;
        case 'pass':
        case 'fail': {
          if (e.type === 'fail' && e.failure && e.failure.failureType !== 'subtestsFailed') ArrayPrototypePush(failed, e);
          ArrayPrototypeShift(stack);
          let prefix = '';
          while (stack.length > 0) {
            const parent = ArrayPrototypePop(stack);
            ArrayPrototypeUnshift(reported, parent);
            prefix += `${specIndent(parent.nesting)}\u25B6 ${parent.name}\n`;
          }
          let hasChildren = false;
          if (reported.length > 0 && reported[0].nesting === e.nesting && reported[0].name === e.name) {
            ArrayPrototypeShift(reported);
            hasChildren = true;
          }
          // Node 20's spec reporter shows a failure's error at the test too; Node 24's only in the summary.
          write(`${format(e, prefix, specIndent(e.nesting), hasChildren, MAJOR() < 23)}\n`);
          break;
        }
        case 'diagnostic':
          write(`${specIndent(e.nesting)}\u2139 ${e.message}\n`);
          break;
        case 'stdout':
          write(`${e.message}\n`);
          break;
        case 'summary': {
          for (let i = 0, lines = summaryLines(e.stats); i < lines.length; i++) write(`\u2139 ${lines[i][0]} ${lines[i][1]}\n`);
          if (failed.length === 0) break;
          const results = ['\n\u2716 failing tests:\n'];
          for (let i = 0; i < failed.length; i++) {
            const t = failed[i];
            if (t.location) ArrayPrototypePush(results, `test at ${relative(cwd, t.location.file)}:${t.location.line}:${t.location.column}`);
            ArrayPrototypePush(results, format(t, '', '', false, true));
          }
          write(ArrayPrototypeJoin(results, '\n'));
          break;
        }
      }
    },
  };
}

function format(e, prefix, indent, hasChildren, showError) {
  // A failing todo test is a warning.
  let symbol = e.type === 'fail' ? (e.todo !== false ? '\u26A0 ' : '\u2716 ') : '\u2714 ';
  let title = `${e.name}${e.duration_ms ? ` (${e.duration_ms}ms)` : ''}`;
  if (e.skip !== false) {
    title += ` # ${typeof e.skip === 'string' && e.skip.length > 0 ? e.skip : 'SKIP'}`;
    symbol = '\uFE63 ';
  } else if (e.todo !== false) {
    title += ` # ${typeof e.todo === 'string' && e.todo.length > 0 ? e.todo : 'TODO'}`;
  }
  const error = showError && e.failure ? `\n${indent}  ${ArrayPrototypeJoin(StringPrototypeSplit(e.failure.spec, hardenRegExp(/\r?\n/)), `\n${indent}  `)}\n` : '';
  const err = hasChildren ? (!error || e.failure.failureType === 'subtestsFailed' ? '' : `\n${error}`) : error;
  return `${prefix}${indent}${symbol}${title}${err}`;
}

function relative(cwd, file) {
  const from = cwd === '/' ? '/' : `${cwd}/`;
  return StringPrototypeStartsWith(file, from) ? StringPrototypeSlice(file, from.length) : require('path').relative(cwd, file);
}

/**
 * The reporter of this process. As Node's (a stream piped to stdout), what it reports is written once the
 * current macrotask is done (and at `end()`), after what the tests printed meanwhile.
 */
function create(kind) {
  const chunks = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (chunks.length > 0) process.stdout.write(ArrayPrototypeJoin(chunks, ''));
    chunks.length = 0;
  };
  const write = (s) => {
    ArrayPrototypePush(chunks, s);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  const chosen = kind ?? defaultReporter();
  let reporter;
  if (chosen === 'child') reporter = { event: (e) => write(`${CHILD_MARKER}${JSONStringify(e)}\n`) };
  else reporter = chosen === 'tap' ? tapReporter(write) : specReporter(write, process.cwd());
  return {
    event(e) {
      reporter.event(e);
    },
    end: flush,
  };
}

/** The runner's own reporter, writing as it goes (the runner prints nothing else). */
function createDirect(write) {
  const chosen = defaultReporter();
  return chosen === 'tap' ? tapReporter(write) : specReporter(write, process.cwd());
}

/** An event line of a child, or undefined for a line the child printed itself. */
function parseChildLine(line) {
  if (!StringPrototypeStartsWith(line, CHILD_MARKER)) return undefined;
  return JSONParse(StringPrototypeSlice(line, CHILD_MARKER.length));
}

module.exports = { create, createDirect, renderFailure, parseChildLine, CHILD_MARKER };
