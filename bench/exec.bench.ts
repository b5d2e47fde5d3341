// `pnpm bench`: exec and API latency of one VM, with and without the exec router, beside the host measured
// in the same run (in a separate process), plus the simulated-latency experiment and memory per VM.
// Every row checks its output; a wrong answer is reported, never timed.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { AgentOs } from "../src/index.js";
import { BATCH, execCases } from "./exec-rows.js";
import { expectOutput, measure, type Row, type Timing } from "./lib/measure.js";

const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 1000);
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
/** Runs a bench script in a fresh Node process and parses the JSON it prints. */
const inFreshProcess = <T>(script: string): T =>
  JSON.parse(execFileSync(process.execPath, ["--import", "tsx", here(script)], { encoding: "utf8", env: { ...process.env, BENCH_TIME_MS: String(TIME_MS) } })) as T;

async function vmWithFixtures(execRouter: boolean): Promise<AgentOs> {
  const vm = await AgentOs.create({ execRouter });
  await vm.mkdir("/tmp/empty");
  await vm.writeFile("/tmp/file100", "x".repeat(100));
  await vm.writeFiles(Array.from({ length: 100 }, (_, i) => ({ path: `/tmp/dir100/f${i}`, content: "x" })));
  return vm;
}

const execRows = (vm: AgentOs, suffix: string): Row[] => [
  ...execCases("").map((c) => ({
    name: `exec('${c.command}')${suffix}`,
    run: async () => {
      const r = await vm.exec(c.command);
      expectOutput(c.command, r.stdout, c.ours);
    },
  })),
  {
    name: `15-command batch${suffix}`,
    run: async () => {
      for (const [i, c] of BATCH.entries()) expectOutput(c, (await vm.exec(c)).stdout, `iteration_${i + 1}\n`);
    },
  },
];

const routed = await vmWithFixtures(true);
const fresh = await vmWithFixtures(false);
let scratch: AgentOs | undefined;
const data = "x".repeat(100);
const rows: Row[] = [
  ...execRows(routed, ""),
  {
    name: "first exec on a new VM (cold)",
    run: async () => expectOutput("cold", (await scratch!.exec("echo hello")).stdout, "hello\n"),
    hooks: {
      beforeEach: async () => void (scratch = await AgentOs.create()),
      afterEach: async () => scratch?.dispose(),
    },
  },
  {
    name: "AgentOs.create() (warm process)",
    run: async () => void (scratch = await AgentOs.create()),
    hooks: { afterEach: async () => scratch?.dispose() },
  },
  { name: "readFile 100 B", run: async () => expectOutput("readFile", (await routed.readFile("/tmp/file100")).length, 100) },
  { name: "writeFile 100 B", run: () => routed.writeFile("/tmp/file100", data) },
  { name: "stat", run: async () => expectOutput("stat", (await routed.stat("/tmp/file100")).size, 100) },
  { name: "readdir 100 entries", run: async () => expectOutput("readdir", (await routed.readdir("/tmp/dir100")).length, 100) },
  ...execRows(fresh, " [router off]"),
];

const ours = await measure(rows, TIME_MS);
await Promise.all([routed.dispose(), fresh.dispose()]);
const host = new Map(inFreshProcess<Timing[]>("./host.bench.ts").map((t) => [t.name, t]));

/** The 15-command batch when starting a process costs 50 ms more (the public bug report's experiment). */
async function slowMachineBatch(execRouter: boolean): Promise<number[]> {
  const vm = await AgentOs.create({ execRouter, simulatedSpawnLatencyMs: 50 });
  await vm.exec("true"); // the router's shell starts once, like the VM
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    for (const [n, c] of BATCH.entries()) expectOutput(c, (await vm.exec(c)).stdout, `iteration_${n + 1}\n`);
    runs.push(performance.now() - t);
  }
  await vm.dispose();
  return runs.sort((a, b) => a - b);
}
const slowRouted = await slowMachineBatch(true);
const slowFresh = await slowMachineBatch(false);
const rss = inFreshProcess<{ before: number; one: number; ten: number }>("./rss.bench.ts");

const fmt = (ms: number): string => (Number.isNaN(ms) ? "–" : ms < 0.1 ? ms.toFixed(4) : ms.toFixed(3));
console.log(`\n${new Date().toISOString()} · node ${process.version} · ${TIME_MS} ms per row\n`);
console.log("| row | p50 ms | p95 ms | n | host p50 ms | ours / host |");
console.log("|---|---|---|---|---|---|");
for (const t of ours) {
  const h = host.get(t.name.replace(" [router off]", ""));
  const ratio = t.ok && h?.ok ? `${(t.p50_ms / h.p50_ms).toFixed(3)}×` : "–";
  const status = t.ok ? "" : ` ✗ ${t.error}`;
  console.log(`| ${t.name}${status} | ${fmt(t.p50_ms)} | ${fmt(t.p95_ms)} | ${t.n} | ${h ? fmt(h.p50_ms) : "–"} | ${ratio} |`);
}
console.log(`\n15-command batch with 50 ms added to every process start (5 runs, median): router ${fmt(slowRouted[2]!)} ms, fresh processes ${fmt(slowFresh[2]!)} ms`);
console.log(`RSS: ${rss.before.toFixed(1)} MiB before any VM, ${rss.one.toFixed(1)} MiB with 1 VM, ${rss.ten.toFixed(1)} MiB with 10 VMs (+${(rss.ten - rss.one).toFixed(1)} MiB for 9 more)`);
