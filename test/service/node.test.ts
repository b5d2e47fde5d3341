import { describe, expect, it } from "vitest";
import type { AgentOs } from "../../src/index.js";
import { createVm, result, writeTree } from "../helpers.js";
import { LATE_MS, RUN_DEADLINE_MS } from "../deadlines.js";

// The guest `node` through the public API: acceptance tests 1–14 of shared/docs/guest-js.md §6, with exact
// expectations (13 and 14 pin the exit status and the part of stderr that matters).

const T = { timeout: RUN_DEADLINE_MS };

async function vmWith(files: Record<string, string> = {}): Promise<AgentOs> {
  const vm = await createVm();
  await vm.mkdir("/w", { recursive: true });
  await writeTree(vm, files);
  return vm;
}

describe("guest node (§6 acceptance tests 1–14)", () => {
  it("1: node -e prints", async () => {
    const vm = await vmWith();
    expect(await vm.exec("node -e 'console.log(1+1)'", T)).toEqual(result("2\n"));
  });

  it("2: node -p prints the value inspected", async () => {
    const vm = await vmWith();
    expect(await vm.exec("node -p '[1,2].map(x => x * 2)'", T)).toEqual(result("[ 2, 4 ]\n"));
  });

  it("3: process.stdin streams a pipe", async () => {
    const vm = await vmWith();
    const cmd = `echo hi | node -e "process.stdin.on('data', d => process.stdout.write(String(d).toUpperCase()))"`;
    expect(await vm.exec(cmd, T)).toEqual(result("HI\n"));
  });

  it("4: exit codes: process.exit, process.exitCode, uncaught error, unhandled rejection", async () => {
    const vm = await vmWith();
    expect(await vm.exec("node -e 'process.exit(3)'", T)).toEqual(result("", 3));
    expect(await vm.exec("node -e 'process.exitCode = 4'", T)).toEqual(result("", 4));
    const thrown = await vm.exec(`node -e 'throw new Error("x")'`, T);
    expect(thrown.exitCode).toBe(1);
    expect(thrown.stdout).toBe("");
    expect(thrown.stderr).toContain("Error: x");
    const rejected = await vm.exec(`node -e 'Promise.reject(new Error("y"))'`, T);
    expect(rejected.exitCode).toBe(1);
    expect(rejected.stdout).toBe("");
    expect(rejected.stderr).toContain("Error: y");
  });

  it("5: an .mjs file imports fs by both names, the same module", async () => {
    const vm = await vmWith({
      "/w/t.txt": "hello",
      "/w/a.mjs":
        "import fs from 'node:fs'; import { readFileSync } from 'fs'; console.log(fs.readFileSync === readFileSync, readFileSync('/w/t.txt', 'utf8'))",
    });
    expect(await vm.exec("node /w/a.mjs", T)).toEqual(result("true hello\n"));
  });

  it("6: require of JSON, and MODULE_NOT_FOUND", async () => {
    const vm = await vmWith({
      "/w/data.json": '{ "n": 42 }',
      "/w/r.js": "console.log(require('./data.json').n); try { require('nope'); } catch (e) { console.log(e.code); }",
    });
    expect(await vm.exec("node /w/r.js", T)).toEqual(result("42\nMODULE_NOT_FOUND\n"));
  });

  it("7: package exports conditions: require gets cjs, import gets esm", async () => {
    const vm = await vmWith({
      "/w/node_modules/pkg/package.json": JSON.stringify({ name: "pkg", exports: { ".": { import: "./e.mjs", require: "./c.js" } } }),
      "/w/node_modules/pkg/c.js": "module.exports = 'cjs';",
      "/w/node_modules/pkg/e.mjs": "export default 'esm';",
      "/w/r.js": "console.log(require('pkg'));",
      "/w/i.mjs": "import v from 'pkg'; console.log(v);",
    });
    expect(await vm.exec("node /w/r.js", T)).toEqual(result("cjs\n"));
    expect(await vm.exec("node /w/i.mjs", T)).toEqual(result("esm\n"));
  });

  it("8: import.meta.url and __dirname", async () => {
    const vm = await vmWith({ "/w/m.mjs": "console.log(import.meta.url)", "/w/c.js": "console.log(__dirname)" });
    expect(await vm.exec("node /w/m.mjs", T)).toEqual(result("file:///w/m.mjs\n"));
    expect(await vm.exec("node /w/c.js", T)).toEqual(result("/w\n"));
  });

  it("9: top-level await finishes before the importer continues; live bindings", async () => {
    const vm = await vmWith({
      "/w/t.mjs": "await new Promise((r) => setTimeout(r, 10)); console.log('tla done');",
      "/w/c.mjs": "export let counter = 0; export function inc() { counter++; }",
      "/w/main.mjs": "import './t.mjs'; import { counter, inc } from './c.mjs'; console.log('importer'); inc(); console.log(counter);",
    });
    expect(await vm.exec("node /w/main.mjs", T)).toEqual(result("tla done\nimporter\n1\n"));
  });

  it("10: process.argv", async () => {
    const vm = await vmWith({ "/w/s.js": "console.log(process.argv.slice(1)); console.log(process.argv[0], process.execPath);" });
    expect(await vm.exec("node /w/s.js a b", T)).toEqual(result("[ '/w/s.js', 'a', 'b' ]\n/usr/bin/node /usr/bin/node\n"));
  });

  it("11: env, cwd and chdir", async () => {
    const vm = await vmWith({ "/tmp/a": "in tmp\n", "/w/a": "in w\n" });
    expect(await vm.exec("node -p process.env.HOME", T)).toEqual(result("/home/user\n"));
    expect(await vm.exec("node -p \"process.env.X === '1'\"", { ...T, env: { X: "1" } })).toEqual(result("true\n"));
    expect(await vm.exec("node -p 'process.cwd()'", { ...T, cwd: "/w" })).toEqual(result("/w\n"));
    const chdir = "process.chdir('/tmp'); console.log(process.cwd()); process.stdout.write(require('fs').readFileSync('a'))";
    expect(await vm.exec(`node -e "${chdir}"`, { ...T, cwd: "/w" })).toEqual(result("/tmp\nin tmp\n"));
    // path.win32 resolves against the guest's directory too (Node on Linux gives the same), never the worker's.
    const win32 = "const w = require('path').win32; console.log(w.resolve('x'), w.resolve(), w.relative('a', 'b'), w.toNamespacedPath('y')); process.chdir('/tmp'); console.log(w.resolve('..', 'z'))";
    expect(await vm.exec(`node -e "${win32}"`, { ...T, cwd: "/w" })).toEqual(result("\\w\\x \\w ..\\b \\w\\y\n\\z\n"));
  });

  it("12: child_process: execSync, spawnSync, spawn with pipes, exec of a missing command", async () => {
    const vm = await vmWith({
      "/w/cp.js": [
        "const cp = require('child_process');",
        "console.log(JSON.stringify(cp.execSync('echo hi').toString()));",
        "console.log(cp.spawnSync('sh', ['-c', 'exit 3']).status);",
        "const c = cp.spawn('cat'); let out = '';",
        "c.stdout.on('data', (d) => (out += d));",
        "c.on('close', (code) => {",
        "  console.log('cat', JSON.stringify(out), code);",
        "  cp.exec('nope', (e) => console.log('exec', e.code));",
        "});",
        "c.stdin.end('abc');",
      ].join("\n"),
    });
    expect(await vm.exec("node /w/cp.js", T)).toEqual(result('"hi\\n"\n3\ncat "abc" 0\nexec 127\n'));
  });

  it("13: timeouts and signals: exec timeout → 124 quickly, SIGTERM → 143, a handler keeps the process running", async () => {
    const vm = await vmWith({
      "/w/h.js": [
        "process.on('SIGTERM', (s) => {",
        "  console.log('got', s);",
        "  setTimeout(() => { console.log('still running'); process.exit(0); }, 20);",
        "});",
        "setTimeout(() => {}, 5000);",
        "process.kill(process.pid, 'SIGTERM');",
      ].join("\n"),
    });
    const started = Date.now();
    const spin = await vm.exec("node -e 'for(;;){}'", { timeout: 200 });
    expect(Date.now() - started).toBeLessThan(200 + LATE_MS);
    expect(spin.exitCode).toBe(124);
    expect(spin.stdout).toBe("");
    expect(await vm.exec("node -e \"process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000)\"", T)).toEqual(result("", 143));
    expect(await vm.exec("node /w/h.js", T)).toEqual(result("got SIGTERM\nstill running\n"));
  });

  it("14: a heap bomb under a 64 MiB limit exits 134 with 'heap out of memory'; the next exec works", async () => {
    const vm = await createVm({ limits: { maxProcessMemoryBytes: 64 * 1024 * 1024 } });
    const bomb = await vm.exec("node -e 'const a = []; for (;;) a.push(new Array(1e5).fill({ x: 1 }))'", { timeout: RUN_DEADLINE_MS });
    expect(bomb.exitCode).toBe(134);
    expect(bomb.stderr).toContain("heap out of memory");
    expect(await vm.exec("node -e 'console.log(\"alive\")'", T)).toEqual(result("alive\n"));
  });
});
