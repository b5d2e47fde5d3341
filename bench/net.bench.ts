// `pnpm bench:net [row …]`: the guest `node`'s networking (net, dgram, http over the VM's loopback socket table)
// beside the host's own `node` (process.execPath), measured in the same run, with the targets of
// shared/docs/guest-js.md §7.
//
// Rows timed inside the program: bench/guest/net-rows.js <row> <n> <warmup> runs the same operation in the VM
// (`vm.exec("node /bench/net-rows.js …")`) and on the host (a separate `node` process), times each operation with
// process.hrtime.bigint() (start-up excluded), checks every reply and prints `{ row, n, p50_us, p95_us }`.
// Rows timed here: vm_fetch (host `vm.fetch` into bench/guest/server.js run by the VM's `node`, beside the host's
// `fetch` into the same server run by the host's `node`) and node_e (`exec("node -e 0")` wall time, warm).
// A row that fails (non-zero exit, any stderr, a wrong reply) shows why, and the script then exits non-zero.
//
// Environment: BENCH_NET_N (iterations per process, 2000), BENCH_NET_WARMUP (1000), BENCH_NET_RUNS (processes
// per side for the program rows, alternating VM and host; the table shows the median of their p50s and p95s, 3),
// BENCH_NET_NODE_E_RUNS (15), BENCH_NODE_PAUSE_MS (400, as bench/node.bench.ts).
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, homedir, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { AgentOs } from "../src/index.js";

const N = Number(process.env.BENCH_NET_N ?? 2000);
// The rows measure the steady state on both sides: the guest's JavaScript (its http server, the stream
// polyfills) reaches its speed only after 1000–3000 operations (vm_fetch p50 per 500 requests: 550, 491, 393,
// 378, 287, 235, 208, 200 µs), the host's after fewer. BENCH_NET_WARMUP=100 shows the earlier phase.
const WARMUP = Number(process.env.BENCH_NET_WARMUP ?? 1000);
const RUNS = Number(process.env.BENCH_NET_RUNS ?? 3);
const NODE_E_RUNS = Number(process.env.BENCH_NET_NODE_E_RUNS ?? 15);
const PAUSE_MS = Number(process.env.BENCH_NODE_PAUSE_MS ?? 400);
const RUN_TIMEOUT_MS = 120_000;
const VM_FETCH_PORT = 8080;

interface RowSpec {
  what: string;
  /** Target for the VM's p50, µs (guest-js.md §7). */
  targetUs: number;
  kind: "program" | "vm_fetch" | "node_e";
}
const ROWS: Record<string, RowSpec> = {
  udp_echo: { what: "64 B datagram to a dgram echo server and back", targetUs: 150, kind: "program" },
  unix_echo: { what: "64 B over an AF_UNIX stream and back", targetUs: 150, kind: "program" },
  unix_accept: { what: "connect + accept + close (AF_UNIX)", targetUs: 250, kind: "program" },
  tcp_echo_64k: { what: "64 KiB written, 64 KiB echoed back", targetUs: 500, kind: "program" },
  http_get: { what: "http.get, keep-alive agent, local http.createServer, body `ok`", targetUs: 400, kind: "program" },
  vm_fetch: { what: "host vm.fetch GET into a guest http server (host: fetch into a host node)", targetUs: 400, kind: "vm_fetch" },
  node_e: { what: "exec `node -e 0` end to end, warm (host: a node process)", targetUs: 3000, kind: "node_e" },
};

const chosen = process.argv.slice(2);
for (const name of chosen) if (!(name in ROWS)) throw new Error(`unknown row ${name}; rows: ${Object.keys(ROWS).join(" ")}`);
const names = chosen.length > 0 ? chosen : Object.keys(ROWS);

const guestFile = (name: string): string => readFileSync(new URL(`./guest/${name}`, import.meta.url), "utf8");
const PROGRAMS = { "net-rows.js": guestFile("net-rows.js"), "server.js": guestFile("server.js") };

// The host copy sits in a temporary directory, as /bench does in the VM: no package.json around it, so CommonJS.
const hostRoot = mkdtempSync(join(tmpdir(), "net-bench-"));
for (const [name, content] of Object.entries(PROGRAMS)) writeFileSync(join(hostRoot, name), content);
// A fixed environment like the VM's, and none of this process's loader flags.
const HOST_ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: homedir() };

const vm = await AgentOs.create();
await vm.writeFiles(Object.entries(PROGRAMS).map(([name, content]) => ({ path: `/bench/${name}`, content })));

// ---- the program rows ------------------------------------------------------------------------------------

interface Quantiles {
  p50Us: number;
  p95Us: number;
}

/** Checks one run of net-rows.js: exit 0, empty stderr, and one JSON line for this row and n. */
function checkProgram(side: string, row: string, exitCode: number, stdout: string, stderr: string): Quantiles {
  if (exitCode !== 0 || stderr !== "") throw new Error(`${side}: exit ${exitCode}, stderr:\n${stderr.slice(0, 2000)}`);
  let out: { row?: unknown; n?: unknown; p50_us?: unknown; p95_us?: unknown };
  try {
    out = JSON.parse(stdout) as typeof out;
  } catch {
    throw new Error(`${side}: stdout is not one JSON line: ${JSON.stringify(stdout.slice(0, 400))}`);
  }
  const { p50_us: p50, p95_us: p95 } = out;
  if (out.row !== row || out.n !== N || typeof p50 !== "number" || typeof p95 !== "number" || !(p50 >= 0 && p95 >= p50)) {
    throw new Error(`${side}: unexpected result ${stdout.trim()}`);
  }
  return { p50Us: p50, p95Us: p95 };
}

async function vmProgram(row: string): Promise<Quantiles> {
  const r = await vm.exec(`node /bench/net-rows.js ${row} ${N} ${WARMUP}`, { timeout: RUN_TIMEOUT_MS });
  return checkProgram("vm", row, r.exitCode, r.stdout, r.stderr);
}

function hostRun(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env: HOST_ENV, cwd: hostRoot, timeout: RUN_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function hostProgram(row: string): Promise<Quantiles> {
  const r = await hostRun(["net-rows.js", row, String(N), String(WARMUP)]);
  return checkProgram("host", row, r.code, r.stdout, r.stderr);
}

// ---- vm_fetch ----------------------------------------------------------------------------------------------

const quantiles = (samplesUs: number[]): Quantiles => {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
  return { p50Us: q(0.5), p95Us: q(0.95) };
};

/** WARMUP then N sequential GETs through `get`, each checked (200, body `ok`). */
async function timeGets(side: string, get: () => Promise<Response>): Promise<Quantiles> {
  const us: number[] = [];
  for (let i = 0; i < WARMUP + N; i++) {
    const t = performance.now();
    const res = await get();
    const body = await res.text();
    const dt = (performance.now() - t) * 1000;
    if (res.status !== 200 || body !== "ok") throw new Error(`${side}: GET answered ${res.status} ${JSON.stringify(body.slice(0, 200))}`);
    if (i >= WARMUP) us.push(dt);
  }
  return quantiles(us);
}

async function vmFetchRow(): Promise<{ vm: Quantiles; host: Quantiles }> {
  let stderr = "";
  const server = vm.spawn("node", ["/bench/server.js", String(VM_FETCH_PORT)], {
    onStderr: (c) => void (stderr += Buffer.from(c).toString()),
  });
  let vmSide: Quantiles;
  try {
    // The server exiting before it listens (no guest http yet, a crash) fails the row with its stderr.
    const exited = server.wait().then((code) => {
      throw new Error(`vm: server.js exited ${code} before listening, stderr:\n${stderr.slice(0, 2000)}`);
    });
    await Promise.race([vm.waitForListener(VM_FETCH_PORT), exited]);
    vmSide = await timeGets("vm", () => vm.fetch(VM_FETCH_PORT, "/"));
    if (stderr !== "") throw new Error(`vm: server.js stderr:\n${stderr.slice(0, 2000)}`);
  } finally {
    server.kill();
    await server.wait().catch(() => undefined);
  }

  const host = spawn(process.execPath, ["server.js", "0"], { env: HOST_ENV, cwd: hostRoot, stdio: ["ignore", "pipe", "pipe"] });
  let hostErr = "";
  host.stderr.on("data", (c: Buffer) => (hostErr += c.toString()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      host.stdout.once("data", (c: Buffer) => resolve((JSON.parse(c.toString()) as { port: number }).port));
      host.once("exit", (code) => reject(new Error(`host: server.js exited ${code}, stderr:\n${hostErr.slice(0, 2000)}`)));
    });
    const hostSide = await timeGets("host", () => fetch(`http://127.0.0.1:${port}/`));
    return { vm: vmSide, host: hostSide };
  } finally {
    host.kill();
  }
}

// ---- node_e ------------------------------------------------------------------------------------------------

/** As bench/node.bench.ts: VM run, untimed pause so the spare worker boots again, host run; 2 warm-up rounds. */
async function nodeERow(): Promise<{ vm: Quantiles; host: Quantiles }> {
  const vmMs: number[] = [];
  const hostMs: number[] = [];
  for (let i = 0; i < 2 + NODE_E_RUNS; i++) {
    let t = performance.now();
    const v = await vm.exec("node -e 0", { timeout: RUN_TIMEOUT_MS });
    const vmWall = performance.now() - t;
    if (v.exitCode !== 0 || v.stdout !== "" || v.stderr !== "") throw new Error(`vm: exit ${v.exitCode}, output ${JSON.stringify((v.stdout + v.stderr).slice(0, 400))}`);
    await sleep(PAUSE_MS);
    t = performance.now();
    const h = await hostRun(["-e", "0"]);
    const hostWall = performance.now() - t;
    if (h.code !== 0 || h.stdout !== "" || h.stderr !== "") throw new Error(`host: exit ${h.code}, output ${JSON.stringify((h.stdout + h.stderr).slice(0, 400))}`);
    if (i >= 2) {
      vmMs.push(vmWall * 1000);
      hostMs.push(hostWall * 1000);
    }
  }
  return { vm: quantiles(vmMs), host: quantiles(hostMs) };
}

// ---- running ---------------------------------------------------------------------------------------------

interface Line {
  name: string;
  vm?: Quantiles;
  host?: Quantiles;
  runs: string;
  error?: string;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function measure(name: string): Promise<Line> {
  const spec = ROWS[name]!;
  try {
    if (spec.kind === "vm_fetch") return { name, ...(await vmFetchRow()), runs: `1×${N}` };
    if (spec.kind === "node_e") return { name, ...(await nodeERow()), runs: String(NODE_E_RUNS) };
    const vmRuns: Quantiles[] = [];
    const hostRuns: Quantiles[] = [];
    for (let r = 0; r < RUNS; r++) {
      vmRuns.push(await vmProgram(name));
      hostRuns.push(await hostProgram(name));
    }
    const med = (runs: Quantiles[]): Quantiles => ({ p50Us: median(runs.map((q) => q.p50Us)), p95Us: median(runs.map((q) => q.p95Us)) });
    return { name, vm: med(vmRuns), host: med(hostRuns), runs: `${RUNS}×${N}` };
  } catch (e) {
    return { name, runs: "", error: e instanceof Error ? e.message : String(e) };
  }
}

const started = performance.now();
const lines: Line[] = [];
try {
  await vm.exec("node -e 0", { timeout: RUN_TIMEOUT_MS }); // the first worker of this host process (code caches)
  await sleep(PAUSE_MS);
  for (const name of names) {
    lines.push(await measure(name));
    process.stderr.write(`${name} ${lines.at(-1)!.error === undefined ? "done" : "FAILED"} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
} finally {
  await vm.dispose();
  rmSync(hostRoot, { recursive: true, force: true });
}

// ---- report ----------------------------------------------------------------------------------------------

const fmt = (us: number): string =>
  Number.isNaN(us) ? "–" : us < 1000 ? `${us.toFixed(0)} µs` : us < 10_000 ? `${(us / 1000).toFixed(2)} ms` : `${(us / 1000).toFixed(1)} ms`;

const cores = cpus();
console.log(
  `\n${new Date().toISOString()} · node ${process.version} · ${cores.length} cores (${cores[0]?.model.trim() ?? "?"}) · load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(
  `program rows: n = processes × iterations per side (warm-up ${WARMUP} each), median over the processes of each one's p50/p95; ` +
    `vm_fetch: one server per side; node_e: ${PAUSE_MS} ms untimed pause after each VM run so the spare node worker is booted again.\n`,
);
console.log("| row | what | VM p50 | VM p95 | host p50 | host p95 | VM / host (p50) | target (VM p50) | met | n |");
console.log("|---|---|---|---|---|---|---|---|---|---|");
let failed = false;
for (const l of lines) {
  const spec = ROWS[l.name]!;
  if (l.error !== undefined || !l.vm || !l.host) {
    failed = true;
    console.log(`| ${l.name} ✗ | ${spec.what} | FAILED (below) | | | | | ≤ ${fmt(spec.targetUs)} | | |`);
    continue;
  }
  const met = l.vm.p50Us <= spec.targetUs;
  console.log(
    `| ${l.name} | ${spec.what} | ${fmt(l.vm.p50Us)} | ${fmt(l.vm.p95Us)} | ${fmt(l.host.p50Us)} | ${fmt(l.host.p95Us)} | ${(l.vm.p50Us / l.host.p50Us).toFixed(2)}× | ≤ ${fmt(spec.targetUs)} | ${met ? "yes" : "no"} | ${l.runs} |`,
  );
}
for (const l of lines) if (l.error !== undefined) console.log(`\n${l.name} FAILED: ${l.error}`);
console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s${failed ? " · SOME ROWS FAILED" : ""}`);
process.exit(failed ? 1 : 0);
