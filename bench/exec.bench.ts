// Rough exec latency after warm-up: `pnpm bench`. Each row checks its output before it is timed.
import { spawnSync } from "node:child_process";
import { Bench } from "tinybench";
import { AgentOs } from "../src/index.js";

const vm = await AgentOs.create();
await vm.mkdir("/tmp/empty");
const rows: Array<[string, string]> = [
  ["echo hello", "hello\n"],
  ["ls /", "bin\ndev\netc\nhome\ntmp\nusr\nworkspace\n"],
  ["ls /tmp/empty", ""],
  ["printf 'b\\na\\n' | sort", "a\nb\n"],
];

const bench = new Bench({ time: 2000, warmup: true, warmupIterations: 10, retainSamples: true });
for (const [cmd, expected] of rows) {
  const check = await vm.exec(cmd);
  if (check.stdout !== expected || check.exitCode !== 0) throw new Error(`${cmd}: unexpected ${JSON.stringify(check)}`);
  bench.add(`exec(${JSON.stringify(cmd)})`, async () => {
    const r = await vm.exec(cmd);
    if (r.stdout !== expected) throw new Error(`${cmd}: ${r.stdout}`);
  });
}
bench.add("host spawnSync('/bin/sh', ['-c', 'echo hello'])", () => {
  const r = spawnSync("/bin/sh", ["-c", "echo hello"], { encoding: "utf8" });
  if (r.stdout !== "hello\n") throw new Error("host echo");
});
await bench.run();
const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
console.table(
  bench.tasks.map((t) => {
    const lat = t.result && "latency" in t.result ? t.result.latency : undefined;
    const samples = [...(lat?.samples ?? [])].sort((a, b) => a - b);
    return {
      task: t.name,
      n: samples.length,
      p50_ms: samples.length ? quantile(samples, 0.5).toFixed(3) : "-",
      p95_ms: samples.length ? quantile(samples, 0.95).toFixed(3) : "-",
    };
  }),
);
await vm.dispose();
