// `pnpm bench:node`: the guest `node` (src/kernel/node-process.ts, workers/node-host, workers/node-guest) beside
// the host's own `node` (process.execPath, the binary the VM's workers run on), measured in the same run.
//
// Two kinds of row:
// - exec wall time: `vm.exec("node …")` against the host spawning `node …` (execFile), start-up included;
// - inside the program: the same file runs on both sides and times its own work with process.hrtime.bigint()
//   (start-up excluded), printing one JSON line `{ result, us: [...] }`.
// Every run checks its output (exit code, empty stderr, the printed result); a wrong answer fails the row, is
// never timed, and makes the script exit non-zero.
//
// Warm runs: the VM keeps one spare `node` worker booted (src/pool/node-workers.ts) and boots the next one when a
// process exits. Unless a row says back-to-back, each VM run is followed by a pause (BENCH_NODE_PAUSE_MS,
// default 400 ms, not timed) so that the pool refills; the host run of the same iteration comes after that
// pause, so both sides see the same ambient load (VM run, pause, host run, …).
import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, homedir, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { AgentOs } from "../src/index.js";
import { expectOutput } from "./lib/measure.js";

const PAUSE_MS = Number(process.env.BENCH_NODE_PAUSE_MS ?? 400);
const RUN_TIMEOUT_MS = 60_000;
const CHAIN = 300;

// ---- the programs, identical on both sides ---------------------------------------------------------------

/** Files relative to the program root: /w in the VM, a temp dir on the host. */
const files: Record<string, string> = {};
for (let i = 0; i < CHAIN; i++) {
  const last = i === CHAIN - 1;
  files[`req/m${i}.js`] = last ? `module.exports = ${i};\n` : `module.exports = ${i} + require('./m${i + 1}.js');\n`;
  files[`esm/m${i}.mjs`] = last ? `export default ${i};\n` : `import next from './m${i + 1}.mjs';\nexport default ${i} + next;\n`;
}
const CHAIN_SUM = (CHAIN * (CHAIN - 1)) / 2;
files["req/main.js"] = `const t = process.hrtime.bigint();
const sum = require('./m0.js');
const us = Number(process.hrtime.bigint() - t) / 1000;
console.log(JSON.stringify({ result: sum, us: [us] }));
`;
files["esm/main.mjs"] = `const t = process.hrtime.bigint();
const { default: sum } = await import('./m0.mjs');
const us = Number(process.hrtime.bigint() - t) / 1000;
console.log(JSON.stringify({ result: sum, us: [us] }));
`;
/** A program running `work()` REPS times (argv[2]), timing each, and printing the last result. */
const repeated = (prelude: string, work: string): string => `${prelude}
function work() {
${work}
}
const reps = Number(process.argv[2]);
const us = [];
let result;
for (let r = 0; r < reps; r++) {
  const t = process.hrtime.bigint();
  result = work();
  us.push(Number(process.hrtime.bigint() - t) / 1000);
}
if (typeof cleanup === 'function') cleanup();
console.log(JSON.stringify({ result, us }));
`;
const CPU_N = 2e7;
const cpuWork = `  let s = 0;
  for (let i = 0; i < ${CPU_N}; i++) s += i * i;
  return s;`;
files["cpu.js"] = repeated("", cpuWork);
files["json.js"] = repeated(
  "const data = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: 'item' + i, tags: ['a' + (i % 7), 'b' + (i % 13)], v: i * 1.5 }));",
  `  let n = 0;
  for (let k = 0; k < 20; k++) {
    const text = JSON.stringify(data);
    n += JSON.parse(text).length;
    n += (text.match(/"item\\d*7"/g) || []).length;
  }
  return n;`,
);
files["fs.js"] = repeated(
  `const fs = require('fs');
const dir = require('path').join(require('os').tmpdir(), 'node-bench-fs-' + process.pid);
fs.mkdirSync(dir, { recursive: true });
const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });`,
  `  let bytes = 0;
  for (let i = 0; i < 1000; i++) {
    const file = dir + '/f' + (i % 50);
    const content = 'file ' + i + ' ' + 'x'.repeat(64);
    fs.writeFileSync(file, content);
    const back = fs.readFileSync(file, 'utf8');
    if (back !== content) { console.error('read back ' + JSON.stringify(back) + ' at ' + i); process.exit(2); }
    bytes += back.length;
  }
  return bytes;`,
);
files["spawn.js"] = repeated(
  "const { execSync } = require('child_process');",
  `  let n = 0;
  for (let i = 0; i < 50; i++) {
    const out = execSync('true');
    if (!Buffer.isBuffer(out) || out.length !== 0) { console.error('execSync returned ' + JSON.stringify(String(out))); process.exit(2); }
    n++;
  }
  return n;`,
);
const ROUND_TRIPS = 200;
// A forked child echoes each message; the parent times the round trips once the child is up.
files["fork.js"] = `const { fork } = require('child_process');
if (process.argv[2] === 'child') {
  process.on('message', (m) => process.send(m));
  process.send('ready');
} else {
  const c = fork(__filename, ['child']);
  let n = 0, t;
  c.on('message', (m) => {
    if (m === 'ready') t = process.hrtime.bigint();
    else if (m !== n++) { console.error('echo ' + JSON.stringify(m) + ' at ' + n); process.exit(2); }
    if (n < ${ROUND_TRIPS}) return c.send(n);
    const us = Number(process.hrtime.bigint() - t) / 1000;
    c.disconnect();
    console.log(JSON.stringify({ result: n, us: [us] }));
  });
}
`;

// The expected results, computed here by the same code (the cpu sum is a double: same operations, same value).
const CPU_SUM = new Function(cpuWork)() as number;
let FS_BYTES = 0;
for (let i = 0; i < 1000; i++) FS_BYTES += `file ${i} `.length + 64;

// ---- running one program on each side ---------------------------------------------------------------------

interface Run {
  wallMs: number;
  /** The program's own samples (µs), when it prints any. */
  us: number[];
}

const hostRoot = mkdtempSync(join(tmpdir(), "node-bench-"));
for (const [path, content] of Object.entries(files)) {
  mkdirSync(dirname(join(hostRoot, path)), { recursive: true });
  writeFileSync(join(hostRoot, path), content);
}
// A fixed environment like the VM's, and none of this process's loader flags.
const HOST_ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: homedir() };

const vm = await AgentOs.create();
await vm.writeFiles(Object.entries(files).map(([path, content]) => ({ path: `/w/${path}`, content })));

/** Checks one run's output: exit 0, empty stderr, and either empty stdout or `{ result: expected, us }`. */
function check(side: string, exitCode: number, stdout: string, stderr: string, expected: number | undefined): number[] {
  if (exitCode !== 0 || stderr !== "") throw new Error(`${side}: exit ${exitCode}, stderr ${JSON.stringify(stderr.slice(0, 400))}`);
  if (expected === undefined) {
    expectOutput(`${side} stdout`, stdout, "");
    return [];
  }
  let parsed: { result?: unknown; us?: unknown };
  try {
    parsed = JSON.parse(stdout) as typeof parsed;
  } catch {
    throw new Error(`${side}: stdout is not one JSON line: ${JSON.stringify(stdout.slice(0, 400))}`);
  }
  expectOutput(`${side} result`, parsed.result, expected);
  const us = parsed.us;
  if (!Array.isArray(us) || us.length === 0 || !us.every((x) => typeof x === "number" && x >= 0)) {
    throw new Error(`${side}: bad samples ${JSON.stringify(us)}`);
  }
  return us as number[];
}

async function vmRun(args: string, expected: number | undefined): Promise<Run> {
  const t = performance.now();
  const r = await vm.exec(`node ${args}`, { timeout: RUN_TIMEOUT_MS });
  const wallMs = performance.now() - t;
  return { wallMs, us: check("vm", r.exitCode, r.stdout, r.stderr, expected) };
}

function hostRun(args: readonly string[], expected: number | undefined): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    execFile(process.execPath, args, { env: HOST_ENV, cwd: hostRoot, timeout: RUN_TIMEOUT_MS }, (error, stdout, stderr) => {
      const wallMs = performance.now() - t;
      try {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ wallMs, us: check("host", code, stdout, stderr, expected) });
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

// ---- rows ------------------------------------------------------------------------------------------------

interface Spec {
  name: string;
  /** What the row times, for the table. */
  what: string;
  /** Arguments to `node` in the VM (paths under /w) and on the host (relative to the host root, its cwd). */
  vmArgs: string;
  hostArgs: string[];
  /** The printed result; undefined: the program prints nothing. */
  expected: number | undefined;
  runs: number;
  warmup: number;
  /** Pause after each VM run so that the spare worker is booted again. */
  pause: boolean;
  /** Which timing(s) to report: the exec wall time, the program's own samples, or both. */
  report: ("wall" | "inside")[];
}

const reqArgs = (main: string): Pick<Spec, "vmArgs" | "hostArgs"> => ({ vmArgs: `/w/${main}`, hostArgs: [main] });
const specs: Spec[] = [
  { name: "node_e", what: "exec `node -e 0`, warm", vmArgs: "-e 0", hostArgs: ["-e", "0"], expected: undefined, runs: 15, warmup: 2, pause: true, report: ["wall"] },
  { name: "node_e_back_to_back", what: "exec `node -e 0`, no pause", vmArgs: "-e 0", hostArgs: ["-e", "0"], expected: undefined, runs: 20, warmup: 1, pause: false, report: ["wall"] },
  { name: "node_require_300", what: "300-module CommonJS chain", ...reqArgs("req/main.js"), expected: CHAIN_SUM, runs: 10, warmup: 1, pause: true, report: ["wall", "inside"] },
  { name: "node_esm_300", what: "300-module ESM chain (import())", ...reqArgs("esm/main.mjs"), expected: CHAIN_SUM, runs: 10, warmup: 1, pause: true, report: ["wall", "inside"] },
  { name: "node_cpu", what: `Σ i*i, i < ${CPU_N.toExponential()}`, vmArgs: "/w/cpu.js 5", hostArgs: ["cpu.js", "5"], expected: CPU_SUM, runs: 5, warmup: 1, pause: true, report: ["inside"] },
  { name: "node_cpu_json", what: "20 × JSON stringify+parse+regex, 2000 objects", vmArgs: "/w/json.js 5", hostArgs: ["json.js", "5"], expected: 20 * 2200, runs: 5, warmup: 1, pause: true, report: ["inside"] },
  { name: "node_fs_small", what: "1000 × writeFileSync+readFileSync, 70 B", vmArgs: "/w/fs.js 5", hostArgs: ["fs.js", "5"], expected: FS_BYTES, runs: 5, warmup: 1, pause: true, report: ["inside"] },
  { name: "node_fork_ipc", what: `fork, then ${ROUND_TRIPS} message round trips`, vmArgs: "/w/fork.js", hostArgs: ["fork.js"], expected: ROUND_TRIPS, runs: 5, warmup: 1, pause: true, report: ["inside"] },
  { name: "node_spawn_sync", what: "50 × execSync('true')", vmArgs: "/w/spawn.js 1", hostArgs: ["spawn.js", "1"], expected: 50, runs: 5, warmup: 1, pause: true, report: ["inside"] },
];

interface Side {
  n: string;
  samplesMs: number[];
}
interface Line {
  name: string;
  what: string;
  vm?: Side;
  host?: Side;
  error?: string;
}

async function measureSpec(s: Spec): Promise<Line[]> {
  const vmRuns: Run[] = [];
  const hostRuns: Run[] = [];
  try {
    for (let i = 0; i < s.warmup + s.runs; i++) {
      const v = await vmRun(s.vmArgs, s.expected);
      if (s.pause) await sleep(PAUSE_MS);
      if (i >= s.warmup) vmRuns.push(v);
      if (s.pause) {
        const h = await hostRun(s.hostArgs, s.expected);
        if (i >= s.warmup) hostRuns.push(h);
      }
    }
    if (!s.pause) {
      for (let i = 0; i < s.warmup + s.runs; i++) {
        const h = await hostRun(s.hostArgs, s.expected);
        if (i >= s.warmup) hostRuns.push(h);
      }
      await sleep(PAUSE_MS); // the next row starts warm
    }
  } catch (e) {
    return [{ name: s.name, what: s.what, error: e instanceof Error ? e.message : String(e) }];
  }
  const wall = (runs: Run[]): Side => ({ n: String(runs.length), samplesMs: runs.map((r) => r.wallMs) });
  const inside = (runs: Run[]): Side => ({ n: `${runs.length}×${runs[0]!.us.length}`, samplesMs: runs.flatMap((r) => r.us.map((us) => us / 1000)) });
  return s.report.map((kind) =>
    kind === "wall"
      ? { name: s.report.length > 1 ? `${s.name} (exec)` : s.name, what: `${s.what}: exec wall time`, vm: wall(vmRuns), host: wall(hostRuns) }
      : { name: s.report.length > 1 ? `${s.name} (inside)` : s.name, what: `${s.what}: timed inside`, vm: inside(vmRuns), host: inside(hostRuns) },
  );
}

const started = performance.now();
const lines: Line[] = [];
try {
  await vm.exec("node -e 0", { timeout: RUN_TIMEOUT_MS }); // the first worker of this host process (code caches)
  await sleep(PAUSE_MS);
  for (const s of specs) {
    lines.push(...(await measureSpec(s)));
    process.stderr.write(`${s.name} done (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
} finally {
  await vm.dispose();
  rmSync(hostRoot, { recursive: true, force: true });
}

// ---- report ----------------------------------------------------------------------------------------------

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const stats = (side: Side): { p50: number; p95: number } => {
  const sorted = [...side.samplesMs].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
};
const fmt = (ms: number): string =>
  Number.isNaN(ms) ? "–" : ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : ms < 10 ? `${ms.toFixed(2)} ms` : ms < 1000 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(0)} ms`;

const cores = cpus();
console.log(
  `\n${new Date().toISOString()} · node ${process.version} · ${cores.length} cores (${cores[0]?.model.trim() ?? "?"}) · load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(
  `warm rows pause ${PAUSE_MS} ms (untimed) after each VM run so the spare node worker is booted again; back-to-back rows do not. ` +
    `"inside" rows are timed by the program with process.hrtime.bigint(), n = processes × repetitions.\n`,
);
console.log("| row | what | VM p50 | VM p95 | VM n | host p50 | host p95 | host n | VM / host (p50) |");
console.log("|---|---|---|---|---|---|---|---|---|");
let failed = false;
for (const l of lines) {
  if (l.error !== undefined || !l.vm || !l.host) {
    failed = true;
    console.log(`| ${l.name} ✗ | ${l.what} | ${l.error ?? "no samples"} | | | | | | |`);
    continue;
  }
  const v = stats(l.vm);
  const h = stats(l.host);
  console.log(`| ${l.name} | ${l.what} | ${fmt(v.p50)} | ${fmt(v.p95)} | ${l.vm.n} | ${fmt(h.p50)} | ${fmt(h.p95)} | ${l.host.n} | ${(v.p50 / h.p50).toFixed(2)}× |`);
}
console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s${failed ? " · SOME ROWS FAILED" : ""}`);
process.exit(failed ? 1 : 0);
