// `npx tsx bench/exec-p50.ts [MS] CMD…`: p50/p95 of each command through one VM's exec, MS milliseconds
// each (default 2500) after a warm-up. For quick before/after comparisons: run it on both trees,
// alternating, on the same machine.
import { AgentOs } from "../src/index.js";

const timed = /^\d+$/.test(process.argv[2] ?? "");
const ms = timed ? Number(process.argv[2]) : 2500;
const commands = process.argv.slice(timed ? 3 : 2);
const vm = await AgentOs.create();
await vm.writeFiles(Array.from({ length: 100 }, (_, i) => ({ path: `/tmp/d/f${i}`, content: "x".repeat(100) })));
for (const cmd of commands.length > 0 ? commands : ["echo hello", "ls /tmp/d | wc -l", "cat /tmp/d/f1"]) {
  for (let i = 0; i < 20; i++) await vm.exec(cmd);
  const times: number[] = [];
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    const start = performance.now();
    const r = await vm.exec(cmd);
    if (r.exitCode !== 0) throw new Error(`${cmd}: exit ${r.exitCode}: ${r.stderr}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const q = (f: number): string => times[Math.min(times.length - 1, Math.floor(f * times.length))]!.toFixed(3);
  console.log(`${cmd}: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms (${times.length} runs)`);
}
await vm.dispose();
