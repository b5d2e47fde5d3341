import { Bench, type FnOptions } from "tinybench";

/** One timed operation. `run` must throw when its result is wrong: a wrong answer is never timed. */
export interface Row {
  name: string;
  run: () => unknown;
  hooks?: FnOptions;
}

export interface Timing {
  name: string;
  n: number;
  p50_ms: number;
  p95_ms: number;
  ok: boolean;
  error?: string;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** Runs every row for about `timeMs` (at least `minRuns` runs) after a warm-up, and reports p50/p95. */
export async function measure(rows: readonly Row[], timeMs = 1000, minRuns = 10): Promise<Timing[]> {
  const out: Timing[] = [];
  for (const row of rows) {
    // Checked once before timing, so that a failure is reported as such and not as a time.
    try {
      await row.hooks?.beforeEach?.call(undefined as never, "run");
      await row.run();
      await row.hooks?.afterEach?.call(undefined as never, "run");
    } catch (e) {
      out.push({ name: row.name, n: 0, p50_ms: Number.NaN, p95_ms: Number.NaN, ok: false, error: String(e) });
      continue;
    }
    const bench = new Bench({ time: timeMs, iterations: minRuns, warmup: true, warmupIterations: 5, retainSamples: true });
    bench.add(row.name, row.run, row.hooks);
    await bench.run();
    const task = bench.tasks[0]!;
    const result = task.result;
    if (!result || !("latency" in result)) {
      const error = result && "error" in result ? String(result.error) : "no result";
      out.push({ name: row.name, n: 0, p50_ms: Number.NaN, p95_ms: Number.NaN, ok: false, error });
      continue;
    }
    const samples = [...(result.latency.samples ?? [])].sort((a, b) => a - b);
    out.push({ name: row.name, n: samples.length, p50_ms: quantile(samples, 0.5), p95_ms: quantile(samples, 0.95), ok: true });
  }
  return out;
}

/** Throws unless `actual` is `expected`. */
export function expectOutput(what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}
