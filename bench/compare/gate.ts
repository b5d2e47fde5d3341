// `pnpm bench:gate`: reruns our rows and the host's (not the other peers) and fails when one of our
// ratios to the host is more than 25 % worse than in the committed bench/results/latest.json.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assemble, RESULTS_DIR, runPass, type Results } from "./compare.js";

const TOLERANCE = 1.25;
const committed = JSON.parse(readFileSync(join(RESULTS_DIR, "latest.json"), "utf8")) as Results;
const now = assemble(await runPass(["host", "ours"]));

const ratio = (row: Results["rows"][number] | undefined): number | undefined => {
  const ours = row?.results.ours;
  const host = row?.results.host;
  if (!ours?.ok || !host?.ok) return undefined;
  if (ours.rss_mib !== undefined && host.rss_mib) return ours.rss_mib / host.rss_mib;
  return ours.p50_ms !== null && host.p50_ms ? ours.p50_ms / host.p50_ms : undefined;
};

let failed = false;
for (const row of now) {
  const before = ratio(committed.rows.find((r) => r.name === row.name));
  const after = ratio(row);
  if (before === undefined) continue;
  if (after === undefined) {
    failed = true;
    console.log(`✗ ${row.name}: ours ${row.results.ours?.error ?? "failed"} (was ${before.toFixed(2)}× host)`);
    continue;
  }
  const moved = after / before;
  if (moved > TOLERANCE) failed = true;
  if (moved > TOLERANCE || moved < 1 / TOLERANCE)
    console.log(`${moved > TOLERANCE ? "✗ worse" : "✓ better"} ${row.name}: ${before.toFixed(2)}× → ${after.toFixed(2)}× host`);
}
console.log(failed ? "bench:gate failed" : "bench:gate passed: no ratio to the host is more than 25 % worse");
process.exit(failed ? 1 : 0);
