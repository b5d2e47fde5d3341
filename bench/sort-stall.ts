// `npx tsx bench/sort-stall.ts [lines...]` (default 2000000): how much one VM's big `sort` stalls the host.
// VM A runs `seq 1 N | sort -n | tail -1`; meanwhile the host's event-loop delay is sampled
// (monitorEventLoopDelay, 1 ms resolution) and VM B runs `echo hi` in a loop. Reports the total time of
// the pipeline, the longest event-loop stall, and the p50/max latency of VM B's echo, beside the echo's
// latency on an idle host and the same numbers for `seq 1 N | tail -1` (everything but the sort). The
// stalls over 20 ms are listed with the part of them that no main-thread garbage collection explains.
// Every result is checked: a wrong answer is reported and fails the run.
import { monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { AgentOs } from "../src/index.js";

const sizes = process.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(2_000_000);
if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new Error("usage: sort-stall.ts [lines...]");

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const ms = (x: number): string => x.toFixed(1);

async function echo(vm: AgentOs): Promise<number> {
  const t = performance.now();
  const r = await vm.exec("echo hi");
  if (r.stdout !== "hi\n" || r.exitCode !== 0) throw new Error(`echo hi: ${JSON.stringify(r)}`);
  return performance.now() - t;
}

/** Gaps over 20 ms between ticks of a 1 ms timer: [start, length] in performance.now() time. */
function watchStalls(): { stop: () => [number, number][] } {
  const stalls: [number, number][] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 20) stalls.push([last, now - last]);
    last = now;
  }, 1);
  return { stop: () => (clearInterval(timer), stalls) };
}

/** Main-thread GC pauses, as performance entries. */
const gcs: PerformanceEntry[] = [];
new PerformanceObserver((list) => gcs.push(...list.getEntries())).observe({ entryTypes: ["gc"] });

/** The part of [start, start + length) not covered by GC pauses. */
function notGc([start, length]: [number, number]): number {
  let covered = 0;
  for (const g of gcs) {
    covered += Math.max(0, Math.min(start + length, g.startTime + g.duration) - Math.max(start, g.startTime));
  }
  return length - covered;
}

/** Echo latencies (ms) on B until `done` settles. */
async function echoLoop(vm: AgentOs, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const latencies: number[] = [];
  while (!finished) latencies.push(await echo(vm));
  return latencies;
}

/** Runs `command` on A (its output must be `n`) while watching the host's event loop and B's echo. */
async function row(command: string, n: number): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const watch = watchStalls();
  gcs.length = 0;
  const start = performance.now();
  const done = a.exec(command, { maxOutputBytes: 1 << 20 });
  const latencies = await echoLoop(b, done);
  const r = await done;
  const total = performance.now() - start;
  delay.disable();
  const stalls = watch.stop();
  // A wrong answer is reported as such (the stalls up to it still count), and fails the run.
  const ok = r.stdout === `${n}\n` && r.exitCode === 0;
  if (!ok) process.exitCode = 1;
  const failed = ok ? "" : ` FAILED (exit ${r.exitCode}: ${JSON.stringify(r.stderr.slice(0, 200))})`;
  latencies.sort((x, y) => x - y);
  console.log(
    `${command}:${failed} total ${ms(total)} ms, max event-loop stall ${ms(delay.max / 1e6)} ms ` +
      `(p99 ${ms(delay.percentile(99) / 1e6)} ms); echo hi on VM B: n ${latencies.length}, ` +
      `p50 ${ms(quantile(latencies, 0.5))} ms, max ${ms(latencies.at(-1)!)} ms`,
  );
  const worst = stalls.sort((x, y) => y[1] - x[1]).slice(0, 5);
  const longest = worst.map((s) => `${ms(s[1])} (${ms(notGc(s))} not GC)`).join(", ");
  const gcMax = Math.max(0, ...gcs.map((g) => g.duration));
  console.log(`  stalls over 20 ms: ${stalls.length}; longest ${longest}; longest GC pause ${ms(gcMax)} ms`);
}

const a = await AgentOs.create();
const b = await AgentOs.create();
try {
  // Warm up: module compiles, router shells, the sort code itself.
  for (let i = 0; i < 3; i++) {
    await a.exec("seq 1 1000 | sort -n | tail -1");
    await echo(b);
  }
  const idle: number[] = [];
  for (let i = 0; i < 200; i++) idle.push(await echo(b));
  idle.sort((x, y) => x - y);
  console.log(`echo hi on an idle host: p50 ${ms(quantile(idle, 0.5))} ms, max ${ms(idle.at(-1)!)} ms`);

  for (const n of sizes) {
    // The same pipeline without sort first: what the rest (seq, tail, pipes, the machine) stalls by itself.
    await row(`seq 1 ${n} | tail -1`, n);
    await row(`seq 1 ${n} | sort -n | tail -1`, n);
  }
} finally {
  await a.dispose();
  await b.dispose();
}
