// Real npm packages run by the guest `node`, compared byte for byte (stdout, stderr, exit code) with the host's
// own `node` running the same programs over the same files.
//
// The packages are devDependencies of this repository (exact versions, no native code):
//   lodash 4.18.1    CommonJS utility library
//   semver 7.8.6     CommonJS library with a `bin` (bin/semver.js, `#!/usr/bin/env node`)
//   chalk 5.6.2      ESM-only ("type": "module", exports map)
//   p-limit 7.3.3    ESM-only, with a dependency of its own (yocto-queue, only reachable through .pnpm)
//   js-yaml 5.5.0    dual package (exports import/require conditions) with an ESM `bin` (bin/js-yaml.mjs,
//                    depending on argparse)
//
// The repository's node_modules (pnpm layout: top-level symlinks into node_modules/.pnpm, and .bin holding
// pnpm's `#!/bin/sh` shims) is mounted read-only at /app/node_modules; the fixture project's own files are
// written into the VM at /app. On the host the same files are written to a temporary directory whose
// node_modules is a symlink to the repository's, so both sides resolve exactly the same package files.
//
// Colours: every case runs with FORCE_COLOR=0 on both sides (chalk then stays at level 0), except the one
// case that forces colours on both sides on purpose. The host's environment is built from scratch (like the
// VM's), so nothing of the test runner's (CI, TERM, COLORTERM…) reaches either side.
import { afterAll, beforeAll, describe, expect, type ExpectStatic, it } from "vitest";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AgentOs } from "../../src/index.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";

const REPO_NODE_MODULES = fileURLToPath(new URL("../../node_modules", import.meta.url));

const FILES: Record<string, string> = {
  "package.json": `${JSON.stringify(
    {
      name: "fixture-app",
      version: "1.0.0",
      private: true,
      bin: { "fixture-app": "./cli.mjs" },
      dependencies: { chalk: "5.6.2", "js-yaml": "5.5.0", lodash: "4.18.1", "p-limit": "7.3.3", semver: "7.8.6" },
    },
    null,
    2,
  )}\n`,

  // CommonJS: lodash, semver and the CommonJS build of js-yaml (the "require" condition).
  "main.cjs": `'use strict';
const _ = require('lodash');
const semver = require('semver');
const yaml = require('js-yaml');
// Where a package resolved to, below the first node_modules (the same on both sides: the real path in .pnpm).
const where = (id) => require.resolve(id).split('/node_modules/').slice(1).join('/node_modules/');
console.log('lodash', _.VERSION, where('lodash'));
console.log(_.chunk(['a', 'b', 'c', 'd', 'e'], 2));
console.log(_.groupBy([6.1, 4.2, 6.3], Math.floor));
console.log(_.merge({ a: [{ b: 2 }, { d: 4 }] }, { a: [{ c: 3 }, { e: 5 }] }));
console.log(_.sortBy([{ u: 'fred', a: 48 }, { u: 'barney', a: 36 }, { u: 'fred', a: 40 }], ['u', 'a']));
console.log(_.template('hello <%= user %>! <% _.forEach(xs, function(x) { %><li><%- x %></li><% }); %>')({ user: 'fred', xs: ['<a>', 'b&c'] }));
console.log(_.camelCase('Foo Bar_baz'), _.kebabCase('fooBarBaz'), _.padStart('7', 3, '0'), _.words('one, two & three'));
const deep = { m: new Map([[1, { y: [1, 2] }]]), d: new Date(0), r: /a+/g, s: new Set(['x']), buf: Buffer.from('hi') };
const copy = _.cloneDeep(deep);
console.log(copy, copy.m !== deep.m, _.isEqual(copy, deep));
console.log(_.range(0, 20, 5), _.zipObject(['a', 'b'], [1, 2]), _.uniqBy([2.1, 1.2, 2.3], Math.floor));
console.log('semver', semver.SEMVER_SPEC_VERSION, where('semver'));
console.log(semver.valid('1.2.3-beta.1+build'), semver.clean('  =v1.2.3  '), semver.inc('1.2.3', 'prerelease', 'rc'));
console.log(semver.sort(['1.10.0', '1.2.0', '1.2.0-alpha', '0.9.9']));
console.log(semver.maxSatisfying(['1.2.3', '1.4.0', '2.0.0'], '^1.0.0'), semver.satisfies('1.5.0', '>=1.2 <1.5 || 1.5.0'));
console.log(semver.coerce('v2.3-ish').version, semver.diff('1.2.3', '2.0.0'), new semver.Range('~1.2').range);
try { new semver.SemVer('not a version'); } catch (e) { console.log(e.name, e.message); }
console.log('js-yaml', where('js-yaml'));
process.stdout.write(yaml.dump({ name: 'app', list: [1, 'two', { three: 3 }], nested: { ok: true, none: null } }));
console.log(yaml.load('a: 1\\nb: [x, y]\\nc: {d: 2020-01-02}\\n'));
try { yaml.load('a: [1'); } catch (e) { console.log(e.name, JSON.stringify(e.message)); }
try { require('not-installed-anywhere'); } catch (e) { console.log(e.code, e.message.split('\\n')[0]); }
`,

  // ESM: the ESM-only chalk and p-limit (whose own dependency yocto-queue resolves from inside .pnpm), the ESM
  // build of js-yaml (the "import" condition), and a CommonJS package imported from ESM.
  "esm.mjs": `import chalk, { Chalk, supportsColor } from 'chalk';
import pLimit from 'p-limit';
import * as yaml from 'js-yaml';
import _ from 'lodash';
import { createRequire } from 'node:module';

const where = (url) => url.split('/node_modules/').slice(1).join('/node_modules/');
console.log('chalk', where(import.meta.resolve('chalk')), chalk.level, supportsColor);
console.log(chalk.red.bold('no colour at level 0'), chalk.bgBlue.underline('nor here'));
const c1 = new Chalk({ level: 1 });
const c3 = new Chalk({ level: 3 });
console.log(JSON.stringify([c1.red('red'), c1.bold.underline('bu'), c3.hex('#ff8800')('orange'), c3.rgb(1, 2, 3).bgAnsi256(200)('x')]));
console.log(JSON.stringify(c1.green(\`nested \${c1.blue('blue')} back\`)));

const limit = pLimit(2);
const log = [];
// Each task waits for its gate, and the gates open in the order 1, 2, 3, 0, each once its task has started: the
// order of events is the code's, whatever a loaded machine does to timers.
const deferred = () => { let resolve; const promise = new Promise((r) => (resolve = r)); return { promise, resolve }; };
const started = [0, 1, 2, 3].map(deferred);
const gates = [0, 1, 2, 3].map(deferred);
const running = Promise.all([240, 20, 80, 10].map((n, i) => limit(async () => {
  log.push(\`start \${i} active=\${limit.activeCount} pending=\${limit.pendingCount}\`);
  started[i].resolve();
  await gates[i].promise;
  log.push(\`end \${i}\`);
  return i * n;
})));
for (const i of [1, 2, 3, 0]) {
  await started[i].promise;
  gates[i].resolve();
}
const results = await running;
console.log(results, log);
const failing = pLimit(1);
const settled = await Promise.allSettled([failing(() => { throw new TypeError('boom'); }), failing(async () => 'after')]);
console.log(settled.map((s) => s.status + ':' + (s.reason?.message ?? s.value)));

console.log('js-yaml', where(import.meta.resolve('js-yaml')));
console.log(yaml.load('list:\\n  - 1\\n  - two\\nmap: {k: v}\\n'));
process.stdout.write(yaml.dump([{ a: 1 }, 'multi\\nline']));
console.log(_.chunk([1, 2, 3], 2), typeof createRequire(import.meta.url)('semver').satisfies);
`,

  // The named exports Node's cjs-module-lexer finds in CommonJS packages imported from ESM.
  "named.mjs": `const semver = await import('semver');
console.log(Object.keys(semver).sort().join(' '));
const lodash = await import('lodash');
console.log(Object.keys(lodash).sort().join(' ').slice(0, 200));
const yamlCjs = await import('js-yaml/package.json', { with: { type: 'json' } });
console.log(yamlCjs.default.name, yamlCjs.default.version);
`,

  // The fixture's own CLI: a #!/usr/bin/env node ESM script using the packages.
  "cli.mjs": `#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import * as yaml from 'js-yaml';
import semver from 'semver';
import chalk from 'chalk';

const { values, positionals } = parseArgs({ options: { range: { type: 'string', short: 'r' } }, allowPositionals: true });
const doc = yaml.load(readFileSync(positionals[0] ?? 0, 'utf8'));
for (const [name, version] of Object.entries(doc.dependencies)) {
  const ok = semver.satisfies(version, values.range ?? '*');
  console.log(\`\${ok ? chalk.green('ok ') : chalk.red.bold('old')} \${name}@\${version}\`);
  if (!ok) process.exitCode = 2;
}
if (process.exitCode) console.error(chalk.yellow('some dependencies are outside ' + values.range));
`,

  // Evaluation order when ESM imports a CommonJS module between two ES modules.
  "order.mjs": "import './first.mjs';\nimport './second.cjs';\nimport chalk from 'chalk';\nconsole.log('main', chalk.level);\n",
  "first.mjs": "console.log('first (esm)');\n",
  "second.cjs": "console.log('second (cjs), lodash', require('lodash').VERSION);\n",

  "deps.yaml": `# dependencies to check
dependencies:
  lodash: 4.18.1
  semver: 7.8.6
  chalk: 5.6.2
  ancient: 0.1.0
  rc: 2.0.0-rc.1
`,
  "bad.yaml": "list: [1, 2\nother: {\n",
};

interface Outcome { stdout: string; stderr: string; exitCode: number }

interface Case {
  name: string;
  cmd: string;
  env?: Record<string, string>;
  stdin?: string;
  /** The host's exit code, checked so that a case cannot pass by failing the same way on both sides. */
  exit?: number;
  /** Text the host's stdout must contain (same reason). */
  contains?: string;
  /** Set when the VM differs from the host because of a runtime bug (the case is then it.fails). */
  bug?: string;
}

const CASES: Case[] = [
  { name: "CommonJS: lodash, semver, js-yaml (require condition)", cmd: "node main.cjs", contains: "lodash 4.18.1 .pnpm/lodash@4.18.1" },
  { name: "ESM: chalk and p-limit (ESM-only), js-yaml (import condition), CommonJS from ESM", cmd: "node esm.mjs", contains: "start 3 active=2 pending=0" },
  {
    name: "ESM: named exports of CommonJS packages (cjs-module-lexer)",
    cmd: "node named.mjs",
    contains: "satisfies",
    // Named exports come from cjs-module-lexer, as Node's: lodash gives only `default`.
  },
  {
    name: "ESM: evaluation order of ES modules and a CommonJS module they import",
    cmd: "node order.mjs",
    contains: "first (esm)\nsecond (cjs), lodash 4.18.1\nmain 0",
    // A CommonJS module imported from ESM runs when the graph is evaluated, in import order.
  },
  { name: "bin through pnpm's .bin shim: semver range filter", cmd: "node_modules/.bin/semver -r '^1.0.0' 1.2.3 1.5.0 2.0.0 0.9.0", contains: "1.5.0" },
  { name: "bin through pnpm's .bin shim: semver, nothing matches (exit 1)", cmd: "node_modules/.bin/semver -r '^3' 1.2.3", exit: 1 },
  { name: "bin by `node <path>`: semver -i premajor --preid beta", cmd: "node node_modules/semver/bin/semver.js -i premajor --preid beta 1.2.3", contains: "2.0.0-beta.0" },
  { name: "bin by path (#!/usr/bin/env node): semver --help", cmd: "./node_modules/semver/bin/semver.js --help", contains: "SemVer 7.8.6" },
  { name: "bin by path: semver -c coerce, sorted, reversed", cmd: "./node_modules/semver/bin/semver.js --rsort -c v1 2.x 'version 3.1.4 here'", contains: "3.1.4" },
  { name: "ESM bin through the .bin shim: js-yaml FILE", cmd: "node_modules/.bin/js-yaml deps.yaml", contains: '"ancient": "0.1.0"' },
  { name: "ESM bin: js-yaml reading stdin", cmd: "node_modules/.bin/js-yaml -", stdin: "a: 1\nb: [x, {y: z}]\n---\nsecond: doc\n", contains: '"second"' },
  { name: "ESM bin: js-yaml --version", cmd: "node_modules/.bin/js-yaml --version", contains: "5.5.0" },
  { name: "ESM bin: js-yaml on invalid YAML (stderr, exit 1)", cmd: "node_modules/.bin/js-yaml bad.yaml", exit: 1 },
  { name: "ESM bin: js-yaml with an unknown option (argparse error, exit 2)", cmd: "node_modules/.bin/js-yaml --bogus", exit: 2 },
  { name: "ESM bin: js-yaml on a missing file", cmd: "node_modules/.bin/js-yaml missing.yaml", exit: 2 },
  { name: "the fixture's own #!/usr/bin/env node CLI, run by path", cmd: "./cli.mjs -r '>=1' deps.yaml", exit: 2, contains: "old ancient@0.1.0" },
  { name: "the fixture's own CLI with colours forced on both sides", cmd: "./cli.mjs -r '^5 || ^7' deps.yaml", env: { FORCE_COLOR: "1" }, exit: 2, contains: "\u001b[32mok \u001b[39m semver@7.8.6" },
  { name: "a pipeline: js-yaml | node, CLI from stdin", cmd: "node_modules/.bin/js-yaml deps.yaml | node -e \"let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(Object.keys(JSON.parse(s).dependencies).join()))\" && ./cli.mjs -r '<2' < deps.yaml", exit: 2, contains: "lodash,semver,chalk,ancient,rc" },
];

const BASE_ENV = { LANG: "C.UTF-8", FORCE_COLOR: "0" };

let vm: AgentOs;
let tmp: string;
let hostApp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agentos-packages-"));
  hostApp = path.join(tmp, "app");
  fs.mkdirSync(hostApp);
  for (const [name, content] of Object.entries(FILES)) fs.writeFileSync(path.join(hostApp, name), content, { mode: name.endsWith("cli.mjs") ? 0o755 : 0o644 });
  fs.symlinkSync(REPO_NODE_MODULES, path.join(hostApp, "node_modules"));

  vm = await AgentOs.create({
    mounts: [{ path: "/app/node_modules", hostDir: REPO_NODE_MODULES }],
    files: Object.fromEntries(Object.entries(FILES).map(([name, content]) => [`/app/${name}`, content])),
  });
  const chmod = await vm.exec("chmod 755 /app/cli.mjs");
  expect(chmod).toEqual({ exitCode: 0, stdout: "", stderr: "" });
});

afterAll(async () => {
  await vm?.dispose();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** The case on the host, its output read as it comes (as the VM's), so that cases can run side by side. */
function runHost(c: Case): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", c.cmd], {
      cwd: hostApp,
      env: {
        PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
        HOME: tmp,
        ...BASE_ENV,
        ...c.env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const deadline = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`host: ${c.cmd} still running after ${RUN_DEADLINE_MS} ms`));
    }, RUN_DEADLINE_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(deadline);
      resolve({ stdout, stderr, exitCode: code ?? -1 });
    });
    child.stdin.on("error", () => {}); // a command that exits without reading its stdin
    child.stdin.end(c.stdin ?? "");
  });
}

async function runVm(c: Case): Promise<Outcome> {
  const r = await vm.exec(`cd /app && ${c.cmd}`, {
    env: { ...BASE_ENV, ...c.env },
    ...(c.stdin === undefined ? {} : { stdin: c.stdin }),
    timeout: RUN_DEADLINE_MS,
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

// The cases only read the fixture app: they run side by side.
describe("real npm packages in the guest node, identical to the host's node", { concurrent: true }, () => {
  const checkHost = async (c: Case, expect: ExpectStatic): Promise<Outcome> => {
    const host = await runHost(c);
    expect(host.exitCode, `host: ${host.stderr}`).toBe(c.exit ?? 0);
    if (c.contains !== undefined) expect(host.stdout).toContain(c.contains);
    return host;
  };
  for (const c of CASES) {
    if (c.bug) {
      // The host's side on its own, so that the expected failure below can only be the VM's difference.
      it(`${c.name} (host baseline)`, async ({ expect }) => {
        await checkHost(c, expect);
      });
    }
    (c.bug ? it.fails : it)(c.name, async ({ expect }) => {
      const [host, guest] = await Promise.all([checkHost(c, expect), runVm(c)]);
      expect(guest).toEqual(host);
    });
  }
});
