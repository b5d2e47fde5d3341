// `pnpm bench:peers`: installs the peers on demand, runs every row against each peer in a fresh Node
// process (host first: its outputs are the reference), twice, and writes bench/results/latest.json and the
// report beside it. `--peers ours,host` limits the peers; `--runs 1` runs once; `--rows REGEX` runs only the rows
// whose names match and prints their table instead of writing the results.
import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PeerName } from "./peer.js";
import { writeReport } from "./report.js";
import type { PeerRowResult } from "./run-peer.js";

export const ALL_PEERS: PeerName[] = ["host", "ours", "just-bash", "agent-os"];
let rowFilter: string | undefined;
const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));
export const RESULTS_DIR = here("../results");
const MOUNT_DIR = here("../../node_modules");
const TSX = here("../../node_modules/tsx/dist/esm/index.mjs");

export interface Results {
  date: string;
  machine: { cpu: string; cores: number; node: string };
  rows: Array<{ name: string; group: string; results: Partial<Record<PeerName, PeerResult>> }>;
  /** How much the repeated runs differed: per peer, the median and largest relative p50 difference. */
  repeat?: Partial<Record<PeerName, { median_pct: number; max_pct: number; runs: number }>>;
}
export interface PeerResult {
  p50_ms: number | null;
  p95_ms: number | null;
  n: number;
  ok: boolean;
  error?: string;
  rss_mib?: number;
  note?: string;
}

/** The first `count` regular files below `dir` (not following symlinks), sorted: the filesystem rows' set. */
function mountedFiles(dir: string, count: number): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk("");
  return out.sort().slice(0, count);
}

async function nodeFor(peer: PeerName): Promise<string> {
  if (peer !== "agent-os" && peer !== "just-bash") return process.execPath;
  const adapter = (await import(`./peers/${peer}.ts`)) as { install(): Promise<void>; nodeBinary?: () => string };
  await adapter.install();
  return adapter.nodeBinary?.() ?? process.execPath;
}

/** Runs one peer's runner in a fresh process; a crashed runner becomes failed rows, not a failed report. */
async function runPeer(peer: PeerName, work: string, filesFile: string, expectedFile?: string): Promise<PeerRowResult[]> {
  const out = join(work, `${peer}.json`);
  try {
    const node = await nodeFor(peer);
    execFileSync(node, ["--import", TSX, here("./run-peer.ts"), peer, out, filesFile, ...(expectedFile ? [expectedFile] : [])], {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, BENCH_MOUNT_DIR: MOUNT_DIR, ...(rowFilter ? { BENCH_ROWS: rowFilter } : {}) },
      timeout: 30 * 60_000,
    });
    return JSON.parse(readFileSync(out, "utf8")) as PeerRowResult[];
  } catch (e) {
    process.stderr.write(`${peer}: runner failed: ${(e as Error).message}\n`);
    return [{ name: "*", group: "*", p50_ms: null, p95_ms: null, n: 0, ok: false, error: `runner failed: ${(e as Error).message.slice(0, 300)}` }];
  }
}

/** One pass over the peers; host first, since its outputs are what the others must reproduce. */
export async function runPass(peers: readonly PeerName[]): Promise<Map<PeerName, PeerRowResult[]>> {
  const work = mkdtempSync(join(tmpdir(), "agentos-compare-"));
  const filesFile = join(work, "files.json");
  writeFileSync(filesFile, JSON.stringify(mountedFiles(MOUNT_DIR, 1500)));
  const host = await runPeer("host", work, filesFile);
  const expected = Object.fromEntries(host.filter((r) => r.ok && r.output !== undefined).map((r) => [r.name, r.output!]));
  const expectedFile = join(work, "expected.json");
  writeFileSync(expectedFile, JSON.stringify(expected));
  const all = new Map<PeerName, PeerRowResult[]>([["host", host]]);
  for (const peer of peers) if (peer !== "host") all.set(peer, await runPeer(peer, work, filesFile, expectedFile));
  return all;
}

/** Rows in the order the host ran them, each with every peer's result. */
export function assemble(pass: Map<PeerName, PeerRowResult[]>): Results["rows"] {
  const rows = new Map<string, Results["rows"][number]>();
  for (const r of pass.get("host") ?? []) rows.set(r.name, { name: r.name, group: r.group, results: {} });
  for (const [peer, results] of pass) {
    const crashed = results.length === 1 && results[0]!.name === "*" ? results[0] : undefined;
    for (const row of rows.values()) {
      const r = crashed ?? results.find((x) => x.name === row.name);
      row.results[peer] = r
        ? { p50_ms: r.p50_ms, p95_ms: r.p95_ms, n: r.n, ok: r.ok, ...(r.error ? { error: r.error } : {}), ...(r.rss_mib !== undefined ? { rss_mib: r.rss_mib } : {}), ...(r.note ? { note: r.note } : {}) }
        : { p50_ms: null, p95_ms: null, n: 0, ok: false, error: "row not run" };
    }
  }
  return [...rows.values()];
}

function repeatDifference(a: Results["rows"], b: Results["rows"], peers: readonly PeerName[]): Results["repeat"] {
  const out: Results["repeat"] = {};
  for (const peer of peers) {
    const diffs: number[] = [];
    for (const row of b) {
      const x = a.find((r) => r.name === row.name)?.results[peer]?.p50_ms;
      const y = row.results[peer]?.p50_ms;
      if (x && y) diffs.push((Math.abs(y - x) / Math.min(x, y)) * 100);
    }
    diffs.sort((p, q) => p - q);
    if (diffs.length) out[peer] = { median_pct: diffs[diffs.length >> 1]!, max_pct: diffs.at(-1)!, runs: 2 };
  }
  return out;
}

export const machine = (): Results["machine"] => ({ cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, node: process.version });

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const peers = (arg("--peers")?.split(",") as PeerName[] | undefined) ?? ALL_PEERS;
  rowFilter = arg("--rows");
  const runs = Number(arg("--runs") ?? 2);
  const passes: Results["rows"][] = [];
  for (let i = 0; i < runs; i++) passes.push(assemble(await runPass(peers)));
  const results: Results = {
    date: new Date().toISOString(),
    machine: machine(),
    rows: passes.at(-1)!,
    ...(runs > 1 ? { repeat: repeatDifference(passes[0]!, passes[1]!, peers) } : {}),
  };
  if (rowFilter) {
    const dir = mkdtempSync(join(tmpdir(), "agentos-rows-"));
    writeReport(results, dir);
    console.log(readFileSync(join(dir, "README.md"), "utf8"));
  } else {
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, "latest.json"), JSON.stringify(results, null, 2) + "\n");
    writeReport(results, RESULTS_DIR);
    console.log(`wrote ${join(RESULTS_DIR, "latest.json")} and the report`);
  }
}
