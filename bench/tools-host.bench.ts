// The host's side of `pnpm bench:tools`, in its own process: each row through `/bin/sh -c` in a directory laid
// out as the VM's. Prints the timings as JSON.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectOutput, measure } from "./lib/measure.js";
import { BIG_DB_SQL, MAKEFILE_50, toolCases } from "./tool-rows.js";

const dir = mkdtempSync(join(tmpdir(), "agentos-bench-tools-"));
mkdirSync(join(dir, "out"));
writeFileSync(join(dir, "Makefile"), MAKEFILE_50);
writeFileSync(join(dir, "empty.mk"), "all: ;\n");
const made = spawnSync("sqlite3", [join(dir, "big.db")], { input: `${BIG_DB_SQL}\n`, encoding: "utf8" });
if (made.status !== 0) throw new Error(`big.db: ${made.stderr}`);

const timings = await measure(
  toolCases.map((c) => ({
    name: c.name,
    run: () => {
      const r = spawnSync("/bin/sh", ["-c", c.command], { cwd: dir, encoding: "utf8" });
      expectOutput(c.command, `${r.status} ${r.stdout}`, `0 ${c.stdout}`);
    },
  })),
  Number(process.env.BENCH_TIME_MS ?? 1000),
);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify(timings));
