/**
 * `pnpm test:adversarial`: every attack of attacks.ts at full size with the default limits, each in its
 * own child process so that a crash is seen as one. Prints a markdown table and exits non-zero when an
 * attack crashed the host, left the VM dead, lost a file, or ended later than its deadline + 100 ms.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ATTACKS } from "./attacks.js";

const child = fileURLToPath(new URL("./attack.ts", import.meta.url));
const only = process.argv[2];
const rows: string[] = [];
let failed = 0;
console.log("| attack | outcome | time (deadline) | host RSS before → peak | longest event-loop stall | VM after |");
console.log("|---|---|---|---|---|---|");
ATTACKS.forEach((attack, i) => {
  if (only && !attack.name.includes(only)) return;
  const r = spawnSync(process.execPath, ["--import", "tsx", child, String(i)], { encoding: "utf8", timeout: 300_000 });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  let row: string;
  try {
    const o = JSON.parse(line) as Record<string, unknown> & {
      ms: number;
      deadline?: number;
      alive: boolean;
      intact: boolean;
      removesFiles: boolean;
      faults: number;
    };
    const late = o.deadline !== undefined && o.ms > o.deadline + 100;
    const ok = o.alive && (o.intact || o.removesFiles) && !late && o.faults === 0;
    if (!ok) failed++;
    const time = `${Math.round(o.ms)} ms${o.deadline !== undefined ? ` (${o.deadline})` : ""}`;
    const after = `${o.alive ? "alive" : "DEAD"}${o.intact ? "" : o.removesFiles ? ", files removed (as asked)" : ", FILE LOST"}${o.faults ? `, ${o.faults} faults` : ""}${late ? ", LATE" : ""}`;
    row = `| ${attack.name} | ${String(o.outcome).replaceAll("|", "\\|")} | ${time} | ${Math.round(o.rssBeforeMiB as number)} → ${Math.round(o.peakMiB as number)} MiB | ${Math.round(o.stallMs as number)} ms | ${after} |`;
  } catch {
    failed++;
    const how = r.signal ? `signal ${r.signal}` : `exit ${r.status}`;
    row = `| ${attack.name} | HOST CRASHED (${how}): ${(r.stderr ?? "").trim().split("\n").slice(-1)[0]?.slice(0, 100)} | | | | |`;
  }
  rows.push(row);
  console.log(row);
});
console.log(`\n${rows.length - failed} contained, ${failed} not`);
process.exitCode = failed > 0 ? 1 : 0;
