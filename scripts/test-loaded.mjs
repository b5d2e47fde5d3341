#!/usr/bin/env node
// The test command on a loaded machine: one busy-loop child process per core runs beside it, the way a CI
// runner or a laptop shares its cores with other work. The suite must pass like this (its time limits are
// deadlines for hangs only, test/deadlines.ts); this script fails when the tests fail.
//
//   node scripts/test-loaded.mjs                 runs `npx -y pnpm@10.34.8 test`, the README's command
//   node scripts/test-loaded.mjs CMD [ARG …]     runs CMD instead (e.g. npx -y pnpm@10.34.8 test:reference)
//
// Each hog ends by itself after HOG_MINUTES (default 60) should this script be killed without its cleanup,
// and is killed as soon as the tests end.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

const hogMs = Number(process.env["HOG_MINUTES"] ?? 60) * 60_000;
const cores = availableParallelism();
const [cmd, ...args] = process.argv.length > 2 ? process.argv.slice(2) : ["npx", "-y", "pnpm@10.34.8", "test"];

const hogs = Array.from({ length: cores }, () =>
  spawn(process.execPath, ["-e", `const end = Date.now() + ${hogMs}; while (Date.now() < end);`], { stdio: "ignore" }),
);
const stopHogs = () => {
  for (const h of hogs) if (h.exitCode === null && h.signalCode === null) h.kill("SIGKILL");
};
process.on("exit", stopHogs);
console.log(`test-loaded: ${hogs.length} CPU hog(s) (pids ${hogs.map((h) => h.pid).join(" ")}), one per core, beside: ${[cmd, ...args].join(" ")}`);

const started = Date.now();
const tests = spawn(cmd, args, { stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => tests.kill(sig));
tests.on("error", (e) => {
  console.error(`test-loaded: ${cmd}: ${e.message}`);
  stopHogs();
  process.exit(1);
});
tests.on("exit", (code, signal) => {
  stopHogs();
  const s = Math.round((Date.now() - started) / 1000);
  console.log(`test-loaded: ${[cmd, ...args].join(" ")} ended with ${signal ?? code} after ${s} s beside ${hogs.length} CPU hog(s)`);
  process.exit(code ?? 1);
});
