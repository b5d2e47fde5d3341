// The host's side of `pnpm bench`, in its own process (spawning costs more in a bigger process):
// `/bin/sh -c` through child_process for exec rows, node:fs for API rows. Prints the timings as JSON.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BATCH, execCases } from "./exec-rows.js";
import { expectOutput, measure, type Row } from "./lib/measure.js";

const dir = mkdtempSync(join(tmpdir(), "agentos-bench-"));
mkdirSync(join(dir, "tmp/empty"), { recursive: true });
mkdirSync(join(dir, "dir100"));
for (let i = 0; i < 100; i++) writeFileSync(join(dir, "dir100", `f${i}`), "x");
const file = join(dir, "file100");
const data = "x".repeat(100);
writeFileSync(file, data);

const sh = (command: string): string => {
  const r = spawnSync("/bin/sh", ["-c", command], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${command}: exit ${r.status} ${r.stderr}`);
  return r.stdout;
};

const rows: Row[] = execCases(dir).map((c) => ({
  name: `exec('${c.command}')`,
  run: () => {
    const out = sh(c.command.replace("/tmp/empty", "tmp/empty"));
    if (typeof c.host === "string") expectOutput(c.command, out, c.host);
    else if (!c.host(out)) throw new Error(`${c.command}: ${out}`);
  },
}));
rows.push({
  name: "15-command batch",
  run: () => BATCH.forEach((c, i) => expectOutput(c, sh(c), `iteration_${i + 1}\n`)),
});
rows.push(
  { name: "readFile 100 B", run: () => expectOutput("readFile", readFileSync(file).length, 100) },
  { name: "writeFile 100 B", run: () => writeFileSync(file, data) },
  { name: "stat", run: () => expectOutput("stat", statSync(file).size, 100) },
  { name: "readdir 100 entries", run: () => expectOutput("readdir", readdirSync(join(dir, "dir100")).length, 100) },
);

const timings = await measure(rows, Number(process.env.BENCH_TIME_MS ?? 1000));
rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify(timings));
