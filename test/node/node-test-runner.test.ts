import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs, type ExecResult } from "../../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, runHostNode, SETUP_DEADLINE_MS } from "./host-node.js";

// `node:test` and `node --test` in the guest against the host's `node`: the default reporter's whole output
// (TAP on Node 20, spec on Node 24, stdout being a pipe), the exit code, and stderr. Normalised: durations, the
// case directory, stack frames (the runner's own frames are Node's internals on the host and the guest runtime's
// in the VM), and the source line Node prints above an uncaught error.

const js = String.raw;

interface RunnerCase {
  name: string;
  files: Record<string, string>;
  args: string[];
}

// The hooks log on stderr: when a test's own output and the report's lines interleave on stdout depends on
// when Node's reporter stream is flushed, which differs between Node versions.
const HOOKS_AND_SUITES = js`
const { describe, it, before, after, beforeEach, afterEach, test } = require('node:test');
const assert = require('node:assert');
before(() => console.error('root before'));
after(() => console.error('root after'));
describe('outer', () => {
  before(() => console.error('outer before'));
  after(() => console.error('outer after'));
  beforeEach((t) => console.error('outer beforeEach', t.name));
  afterEach((t) => console.error('outer afterEach', t.name));
  it('first', () => assert.ok(true));
  describe('inner', () => {
    beforeEach(() => console.error('inner beforeEach'));
    it('deep', async () => { await new Promise((r) => setImmediate(r)); });
    it('deep fails', () => assert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] }));
  });
  it.todo('todo fails', () => { throw new Error('not yet'); });
  it('skipped at run', (t) => t.skip('not today'));
});
test('callback style', (t, done) => setImmediate(() => done()));
test('callback error', (t, done) => setImmediate(() => done(new TypeError('cb failed'))));
test('rejects', async () => { throw new RangeError('async failure'); });
test('throws a string', () => { throw 'just a string'; });
test('diagnostics', (t) => { t.diagnostic('first note'); t.diagnostic('second note'); });
`;

const SUBTESTS_AND_MOCKS = js`
const test = require('node:test');
const assert = require('node:assert/strict');
test('subtests', async (t) => {
  await t.test('one', () => {});
  await t.test('two', async (t2) => {
    await t2.test('two.a', () => {});
  });
  t.test('not awaited', () => console.log('ran anyway'));
});
test('mock.fn', (t) => {
  const add = t.mock.fn((a, b) => a + b);
  assert.equal(add(1, 2), 3);
  add(3, 4);
  console.log(add.mock.callCount(), JSON.stringify(add.mock.calls.map((c) => [c.arguments, c.result])));
  add.mock.mockImplementationOnce(() => 'once');
  console.log(add(0, 0), add(1, 1));
});
test('mock.method', (t) => {
  const obj = { greet(n) { return 'hi ' + n; } };
  const m = t.mock.method(obj, 'greet', (n) => 'mocked ' + n);
  console.log(obj.greet('a'), m.mock.callCount(), obj.greet.mock.calls[0].arguments);
  m.mock.restore();
  console.log(obj.greet('b'));
});
test('plan', (t) => {
  t.plan(2);
  t.assert.ok(true);
  t.assert.equal(1, 1);
});
test('fullName and name', (t) => console.log(t.name, t.fullName));
test.skip('skip with modifier');
test('todo option', { todo: 'later' }, () => {});
test('exit code when passing', () => {});
process.on('exit', (c) => console.log('exit', c, process.exitCode));
`;

const CASES: RunnerCase[] = [
  { name: "run-file-mixed", files: { "a.test.js": HOOKS_AND_SUITES }, args: ["a.test.js"] },
  { name: "run-file-subtests-mocks", files: { "b.test.js": SUBTESTS_AND_MOCKS }, args: ["b.test.js"] },
  { name: "run-file-all-pass", files: { "c.js": js`const test = require('node:test'); test('a', () => console.log('in a')); console.log('after a'); test('b', async (t) => { await t.test('b1', () => {}); }); console.log('after b');` }, args: ["c.js"] },
  {
    name: "esm-import",
    files: { "e.test.mjs": js`import { test, describe, it } from 'node:test'; import assert from 'node:assert'; test('esm', () => assert.equal(1, 1)); describe('s', () => { it('x', () => {}); });` },
    args: ["e.test.mjs"],
  },
  { name: "reporter-spec", files: { "r.js": js`const test = require('node:test'); test('a', () => {}); test('b', () => { throw new Error('b failed'); }); test('c', async (t) => { await t.test('c1', () => { throw new Error('c1'); }); });` }, args: ["--test-reporter=spec", "r.js"] },
  { name: "reporter-tap-dash-dash-test", files: { "r.test.js": js`const test = require('node:test'); test('a', () => {}); test('b', { skip: 'why' }, () => {});` }, args: ["--test", "--test-reporter", "tap"] },
  { name: "only-without-test-only", files: { "o.js": js`const { test, describe, it } = require('node:test'); test.only('o', () => {}); test('p', () => {}); describe('s', () => { it.only('s1', () => {}); it('s2', () => {}); });` }, args: ["o.js"] },
  {
    name: "dash-dash-test-discovery",
    files: {
      "a.test.js": js`require('node:test')('a', () => console.log('log from a'));`,
      "b-test.js": js`require('node:test')('b', () => {});`,
      "c_test.cjs": js`require('node:test')('c', () => {});`,
      "test-d.mjs": js`import test from 'node:test'; test('d', () => {});`,
      "test/helper.js": js`require('node:test')('in test dir', () => {});`,
      "test/deeper/e.js": js`require('node:test')('deeper', () => { throw new Error('deep failure'); });`,
      "lib/not-a-test.js": js`console.log('never run');`,
      "node_modules/pkg/x.test.js": js`console.log('never run either');`,
      "empty.test.js": js`console.log('no tests here');`,
    },
    args: ["--test"],
  },
  { name: "dash-dash-test-file-args", files: { "one.js": js`require('node:test')('one', () => {});`, "two.js": js`require('node:test')('two', () => {});` }, args: ["--test", "two.js", "one.js"] },
  { name: "dash-dash-test-crash", files: { "bad.test.js": js`console.log('hi'); console.error('err'); throw new Error('top');` }, args: ["--test"] },
  { name: "dash-dash-test-missing", files: { "x.js": "" }, args: ["--test", "nope.js"] },
];

let vm: AgentOs | undefined;
let hostRoot = "";

beforeAll(async () => {
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), "agentos-node-test-")));
  vm = await AgentOs.create();
  for (const c of CASES) {
    for (const [p, content] of Object.entries(c.files)) {
      mkdirSync(dirname(join(hostRoot, c.name, p)), { recursive: true });
      writeFileSync(join(hostRoot, c.name, p), content);
      await vm.mkdir(dirname(`/w/${c.name}/${p}`), { recursive: true });
      await vm.writeFile(`/w/${c.name}/${p}`, content);
    }
  }
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (hostRoot) rmSync(hostRoot, { recursive: true, force: true });
});

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

function normalise(text: string, dir: string): string {
  let s = text.split(dir).join("<DIR>");
  s = s.replace(/duration_ms: [\d.e-]+/g, "duration_ms: <D>").replace(/duration_ms [\d.e-]+/g, "duration_ms <D>").replace(/\([\d.e-]+ms\)/g, "(<D>ms)");
  // TAP: a `stack: |-` block (its lines are indented deeper than the key).
  s = s.replace(/^( *)stack: \|-\n(?:\1 {2}[^\n]*\n)+/gm, "$1stack: <frames>\n");
  // spec and uncaught errors: `at` frames.
  s = s.replace(/(?:\n(?:# )?[ \t]+at [^\n]*)+/g, "\n    at <frames>");
  // The source line and caret Node prints above an uncaught error (the guest omits them).
  s = s.replace(/(^|\n)(# )?[^\n]*:\d+\n(# )?[^\n]*\n(# )?[ ]*\^+[^\n]*\n(\n|# \n)?/g, "$1");
  return s;
}

describe("node:test and node --test match the host's node", { concurrent: true, timeout: CASE_DEADLINE_MS }, () => {
  for (const c of CASES) {
    it(c.name, async ({ expect }) => {
      const [inVm, onHost] = await Promise.all([
        vm!.exec(["node", ...c.args.map(quote)].join(" "), { timeout: RUN_DEADLINE_MS, cwd: `/w/${c.name}` }),
        runHostNode(c.args, join(hostRoot, c.name)),
      ]);
      const norm = (r: ExecResult, dir: string): ExecResult => ({ exitCode: r.exitCode, stdout: normalise(r.stdout, dir), stderr: normalise(r.stderr, dir) });
      expect(norm(inVm, `/w/${c.name}`)).toEqual(norm(onHost, join(hostRoot, c.name)));
    });
  }
});
