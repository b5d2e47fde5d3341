// `pnpm bench:tools`: the starts of sqlite3 and make against a coreutils command's, sqlite3 on a 12 MB database
// and `make -j2` of 50 targets, in the VM and on the host (the host's rows in a fresh process, as `pnpm bench`
// measures them: spawning costs more in a bigger process). Every row checks its output.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { AgentOs } from "../src/index.js";
import { expectOutput, measure, type Timing } from "./lib/measure.js";
import { BIG_DB_SQL, MAKEFILE_50, toolCases } from "./tool-rows.js";

const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 1000);
const host = new Map(
  (JSON.parse(
    execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./tools-host.bench.ts", import.meta.url))], { encoding: "utf8", env: { ...process.env, BENCH_TIME_MS: String(TIME_MS) } }),
  ) as Timing[]).map((t) => [t.name, t]),
);

const vm = await AgentOs.create();
const dir = "/tmp/bench-tools";
await vm.mkdir(`${dir}/out`, { recursive: true });
await vm.writeFile(`${dir}/Makefile`, MAKEFILE_50);
await vm.writeFile(`${dir}/empty.mk`, "all: ;\n");
await vm.writeFile(`${dir}/big.sql`, `${BIG_DB_SQL}\n`);
const made = await vm.exec("sqlite3 big.db < big.sql", { cwd: dir });
if (made.exitCode !== 0) throw new Error(`big.db: ${made.stderr}`);

const ours = await measure(
  toolCases.map((c) => ({
    name: c.name,
    run: async () => {
      const r = await vm.exec(c.command, { cwd: dir });
      expectOutput(c.command, `${r.exitCode} ${r.stdout}`, `0 ${c.stdout}`);
    },
  })),
  TIME_MS,
);
await vm.dispose();

// A row that failed has no time (NaN, or null once through JSON).
const fmt = (ms: number | null): string => (ms === null || Number.isNaN(ms) ? "–" : ms.toFixed(3));
console.log(`\n${new Date().toISOString()} · node ${process.version} · ${TIME_MS} ms per row\n`);
console.log("| row | p50 ms | p95 ms | n | host p50 ms | ours / host |");
console.log("|---|---|---|---|---|---|");
for (const t of ours) {
  const h = host.get(t.name);
  const ratio = t.ok && h?.ok ? `${(t.p50_ms / h.p50_ms).toFixed(3)}×` : "–";
  console.log(`| ${t.name}${t.ok ? "" : ` ✗ ${t.error}`}${h && !h.ok ? ` ✗ host: ${h.error}` : ""} | ${fmt(t.p50_ms)} | ${fmt(t.p95_ms)} | ${t.n} | ${h ? fmt(h.p50_ms) : "–"} | ${ratio} |`);
}
