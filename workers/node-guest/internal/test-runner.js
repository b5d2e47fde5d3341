// `node --test [paths]`: finds the test files as the host's Node does, runs each in its own guest `node`
// process (one after another, in sorted order), and reports all their tests as one run with the default
// reporter (internal/test-reporters.js): a child sends its events as marked lines on its stdout; what it prints
// itself, on stdout or stderr, is reported as the test's output. A file that exits non-zero without a failing
// test fails as Node's does ('test failed'); a file without tests passes under its own name. Exit code 1 when
// anything failed.
'use strict';

const {
  ArrayPrototypeJoin,
  ArrayPrototypePush,
  ArrayPrototypeSlice,
  ArrayPrototypeSort,
  Number,
  NumberParseInt,
  RegExpPrototypeExec,
  SafeSet,
  StringPrototypeSplit,
  StringPrototypeStartsWith,
} = require('internal/primordials');

const process = require('process');
const fs = require('fs');
const path = require('path');
const childProcess = require('child_process');
const reporters = require('internal/test-reporters');
const stdio = require('internal/stdio');

const MAJOR = () => NumberParseInt(process.versions.node, 10);

/** Node 20: a file named test.js, test-*.js or *[.-_]test.js (and .cjs, .mjs), or any such file under a `test` directory. */
const NODE20_TEST_FILE = /((^test(-.+)?)|(.+[.\-_]test))\.[cm]?js$/;
const NODE20_SUPPORTED = /\.[cm]?js$/;
/** Node 24's default glob, `**\/{test,test/**\/*,test-*,*[._-]test}.{js,cjs,mjs,ts,cts,mts}`, without dot files. */
const NODE24_TEST_FILE = /^(test|test-.*|.*[._-]test)\.(c|m)?(js|ts)$/;
const NODE24_SUPPORTED = /\.(c|m)?(js|ts)$/;

function notFound(p) {
  process.stderr.write(`Could not find '${p}'\n`);
  internal.exit(1);
}

/** Node 20's walk (lib/internal/test_runner/runner.js, processPath). */
function walk20(p, files, options) {
  if (files.has(p)) return;
  let stat;
  try {
    stat = fs.statSync(p);
  } catch (e) {
    if (e && e.code === 'ENOENT') return notFound(p);
    throw e;
  }
  if (stat.isFile()) {
    if (options.userSupplied || (options.underTestDir && RegExpPrototypeExec(NODE20_SUPPORTED, p) !== null) || RegExpPrototypeExec(NODE20_TEST_FILE, path.basename(p)) !== null) files.add(p);
  } else if (stat.isDirectory()) {
    const name = path.basename(p);
    if (!options.userSupplied && name === 'node_modules') return;
    const underTestDir = options.underTestDir;
    if (name === 'test') options.underTestDir = true;
    options.userSupplied = false;
    const entries = fs.readdirSync(p);
    for (let i = 0; i < entries.length; i++) walk20(path.join(p, entries[i]), files, options);
    options.underTestDir = underTestDir;
  }
}

/** Node 24's default glob over `dir`: no node_modules, no dot files or directories. */
function walk24(dir, rel, underTestDir, files) {
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (StringPrototypeStartsWith(e.name, '.') || e.name === 'node_modules') continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) walk24(full, `${rel}${e.name}/`, underTestDir || e.name === 'test', files);
    else if (e.isFile() && (RegExpPrototypeExec(NODE24_TEST_FILE, e.name) !== null || (underTestDir && RegExpPrototypeExec(NODE24_SUPPORTED, e.name) !== null))) files.add(full);
  }
}

function testFiles(args) {
  const cwd = process.cwd();
  const files = new SafeSet();
  if (MAJOR() < 24) {
    const paths = args.length > 0 ? args : [cwd];
    for (let i = 0; i < paths.length; i++) walk20(path.resolve(paths[i]), files, { userSupplied: true, underTestDir: false });
  } else if (args.length === 0) {
    walk24(cwd, '', false, files);
  } else {
    for (let i = 0; i < args.length; i++) {
      const p = path.resolve(args[i]);
      let stat;
      try {
        stat = fs.statSync(p);
      } catch {
        return notFound(args[i]);
      }
      if (stat.isDirectory()) walk24(p, '', path.basename(p) === 'test', files);
      else files.add(p);
    }
  }
  const list = [];
  files.forEach((f) => ArrayPrototypePush(list, f));
  return ArrayPrototypeSort(list);
}

/** Runs `node --test` with these arguments (the paths), then exits. */
function runTests(args, execArgv) {
  const cwd = process.cwd();
  const files = testFiles(args);
  const started = process.hrtime.bigint();
  const chunks = [];
  const reporter = reporters.createDirect((s) => ArrayPrototypePush(chunks, s));
  const flush = () => {
    if (chunks.length > 0) stdio.writeAll(1, ArrayPrototypeJoin(chunks, ''));
    chunks.length = 0;
  };
  const stats = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  let topNumber = 0;
  const fileName = (file) => (MAJOR() < 24 ? file : path.relative(cwd, file));
  for (let f = 0; f < files.length; f++) {
    const file = files[f];
    const fileStart = process.hrtime.bigint();
    const argv = ArrayPrototypeSlice(execArgv);
    ArrayPrototypePush(argv, file);
    const r = childProcess.spawnSync(process.execPath, argv, {
      env: { ...process.env, NODE_TEST_CONTEXT: 'child-agentos' },
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let sawTest = false;
    let sawFailure = false;
    const output = (text) => {
      if (text === null || text === undefined) return;
      const lines = StringPrototypeSplit(`${text}`, '\n');
      if (lines[lines.length - 1] === '') lines.length--;
      for (let i = 0; i < lines.length; i++) {
        const e = reporters.parseChildLine(lines[i]);
        if (e === undefined) {
          reporter.event({ type: 'stdout', message: lines[i] });
          continue;
        }
        if (e.type === 'summary') {
          const s = e.stats;
          stats.tests += s.tests;
          stats.suites += s.suites;
          stats.pass += s.pass;
          stats.fail += s.fail;
          stats.cancelled += s.cancelled;
          stats.skipped += s.skipped;
          stats.todo += s.todo;
          continue;
        }
        if (e.type === 'plan' && e.nesting === 0) continue;
        if ((e.type === 'pass' || e.type === 'fail') && e.nesting === 0) {
          e.number = ++topNumber;
          sawTest = true;
        }
        if (e.type === 'fail') sawFailure = true;
        reporter.event(e);
      }
    };
    output(r.stdout);
    output(r.stderr);
    const failedToRun = r.status !== 0 && !sawFailure;
    if (failedToRun || !sawTest) {
      const name = fileName(file);
      const nestedFailure = failedToRun ? { failureType: 'testCodeFailure', exitCode: r.status, signal: r.signal } : undefined;
      reporter.event({ type: 'start', nesting: 0, name });
      stats.tests++;
      if (failedToRun) stats.fail++;
      else stats.pass++;
      const event = {
        type: failedToRun ? 'fail' : 'pass',
        nesting: 0,
        name,
        number: ++topNumber,
        skip: false,
        todo: false,
        duration_ms: Number(process.hrtime.bigint() - fileStart) / 1e6,
        suite: false,
        location: { file, line: 1, column: 1 },
      };
      if (nestedFailure !== undefined) {
        event.failure = {
          failureType: 'testCodeFailure',
          tap: `  failureType: 'testCodeFailure'\n  exitCode: ${r.status === null ? '~' : r.status}\n  signal: ${r.signal === null ? '~' : `'${r.signal}'`}\n  error: 'test failed'\n  code: 'ERR_TEST_FAILURE'\n`,
          spec: "'test failed'",
        };
      }
      reporter.event(event);
    }
  }
  reporter.event({ type: 'plan', nesting: 0, count: topNumber });
  reporter.event({ type: 'summary', stats: { ...stats, duration_ms: Number(process.hrtime.bigint() - started) / 1e6 } });
  flush();
  internal.exit(stats.fail > 0 ? 1 : 0);
}

module.exports = { runTests };
