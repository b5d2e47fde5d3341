// Runs every comparison row against one peer, in this (fresh) process, and writes the timings as JSON.
// Usage: run-peer.ts <peer> <out.json> <files.json> [expected.json]
// `files.json` lists the mounted directory's files for the filesystem rows; `expected.json` holds the
// host's outputs, which every other peer must reproduce (a wrong output is reported, not timed).
import { readFileSync, writeFileSync } from "node:fs";
import { measure } from "../lib/measure.js";
import type { Peer, PeerInstance, PeerName } from "./peer.js";
import { filesystemRows, fixtures, networkRows, rows, type CompareRow } from "./rows.js";

export interface PeerRowResult {
  name: string;
  group: string;
  p50_ms: number | null;
  p95_ms: number | null;
  n: number;
  ok: boolean;
  error?: string;
  /** The row's output (kept from the host run: the reference). */
  output?: string;
  /** Memory rows: resident set size, MiB. */
  rss_mib?: number;
  /** A self-timed row measured another way (rows.ts SelfTiming). */
  note?: string;
}

const [peerName, outFile, filesFile, expectedFile] = process.argv.slice(2) as [PeerName, string, string, string?];
const peer = (await import(`./peers/${peerName}.ts`)).default as Peer;
const mountDir = process.env.BENCH_MOUNT_DIR!;
const files = JSON.parse(readFileSync(filesFile, "utf8")) as string[];
const expected = expectedFile ? (JSON.parse(readFileSync(expectedFile, "utf8")) as Record<string, string>) : undefined;
const rowTimeMs = Number(process.env.BENCH_TIME_MS ?? 2000);
/** `--rows REGEX` of compare.ts: only the rows whose names match (and no memory rows). */
const only = process.env.BENCH_ROWS ? new RegExp(process.env.BENCH_ROWS) : undefined;

async function withFixtures(): Promise<{ vm: PeerInstance; mounted: boolean; mountError?: string }> {
  let vm: PeerInstance;
  let mounted = true;
  let mountError: string | undefined;
  try {
    vm = await peer.create({ mountHostDir: mountDir });
  } catch (e) {
    mounted = false;
    mountError = `cannot mount a host directory: ${(e as Error).message}`;
    vm = await peer.create();
  }
  for (const [path, content] of Object.entries(fixtures())) await vm.writeFile(`${peer.root}/${path}`, content);
  return { vm, mounted, ...(mountError ? { mountError } : {}) };
}

const failed = (row: CompareRow, error: string): PeerRowResult => ({
  name: row.name,
  group: row.group,
  p50_ms: null,
  p95_ms: null,
  n: 0,
  ok: false,
  error: error.slice(0, 500),
});

async function runRow(row: CompareRow, vm: PeerInstance): Promise<PeerRowResult> {
  let cold: PeerInstance | undefined;
  const target = (): PeerInstance => cold ?? vm;
  const hooks = row.cold
    ? { beforeEach: async () => void (cold = await peer.create()), afterEach: async () => void (await cold?.dispose(), (cold = undefined)) }
    : undefined;
  let output: string;
  const started = performance.now();
  try {
    await hooks?.beforeEach();
    output = await row.run(target(), peer.root);
    await hooks?.afterEach();
  } catch (e) {
    await hooks?.afterEach().catch(() => {});
    return failed(row, `failed: ${(e as Error).message}`);
  }
  const once = performance.now() - started;
  const reference = expected?.[row.name];
  let checked: boolean;
  try {
    checked = row.check ? row.check(output) : reference === undefined || output === reference;
  } catch {
    checked = false;
  }
  if (!checked) return failed(row, `wrong output: ${JSON.stringify(output.slice(0, 200))}, host: ${JSON.stringify(reference?.slice(0, 200))}`);
  if (row.timing) {
    try {
      return { name: row.name, group: row.group, ...(await row.timing(target(), output)), ok: true, output };
    } catch (e) {
      return failed(row, `failed: ${(e as Error).message}`);
    }
  }
  // n ≥ 10, or about 2 s for slow rows (at least 3 runs).
  const minRuns = Math.max(3, Math.min(10, Math.ceil(rowTimeMs / Math.max(once, 1))));
  const [t] = await measure([{ name: row.name, run: () => row.run(target(), peer.root), ...(hooks ? { hooks } : {}) }], rowTimeMs, minRuns);
  if (!t?.ok) return failed(row, t?.error ?? "no timing");
  return { name: row.name, group: row.group, p50_ms: t.p50_ms, p95_ms: t.p95_ms, n: t.n, ok: true, output };
}

async function memoryRows(): Promise<PeerRowResult[]> {
  const rss = (): number => process.memoryUsage().rss / 2 ** 20;
  const instances: PeerInstance[] = [];
  const add = async (): Promise<void> => {
    const vm = await peer.create();
    const r = await vm.exec("echo hello");
    if (r.stdout !== "hello\n") throw new Error(`echo: ${JSON.stringify(r)}`);
    instances.push(vm);
  };
  const row = (name: string, value: number): PeerRowResult => ({ name, group: "memory", p50_ms: null, p95_ms: null, n: 1, ok: true, rss_mib: value });
  try {
    await add();
    const one = rss();
    for (let i = 0; i < 9; i++) await add();
    const ten = rss();
    return [row("rss_1_instance", one), row("rss_10_instances", ten)];
  } catch (e) {
    return ["rss_1_instance", "rss_10_instances"].map((name) => failed({ name, group: "memory" } as CompareRow, (e as Error).message));
  } finally {
    await Promise.all(instances.map((vm) => vm.dispose()));
  }
}

// Memory first, in a process that has done nothing else yet.
const results: PeerRowResult[] = only ? [] : await memoryRows();
const { vm, mounted, mountError } = await withFixtures();
const record = (r: PeerRowResult): void => {
  results.push(r);
  process.stderr.write(`${peerName} ${r.name}: ${r.ok ? `${r.p50_ms?.toFixed(3)} ms` : r.error}\n`);
};
const chosen = (row: CompareRow): boolean => only === undefined || only.test(row.name);
for (const row of [...rows, ...networkRows].filter(chosen)) record(await runRow(row, vm));
for (const row of filesystemRows(files).filter(chosen)) record(mounted ? await runRow(row, vm) : failed(row, mountError!));
await vm.dispose();
writeFileSync(outFile, JSON.stringify(results));
process.exit(0);
