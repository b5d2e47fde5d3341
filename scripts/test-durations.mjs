#!/usr/bin/env node
// Writes test/durations.json, what each test file took in the last vitest run on this machine (from vitest's
// cache of results), for test/longest-first.ts to order a fresh clone's run. Run it after a full `.ci/run`
// (both phases: a file that runs in both keeps the later, Node 24, duration) on a quiet 2-core machine.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const cacheRoot = new URL("../node_modules/.vite/vitest/", import.meta.url);
const out = new URL("../test/durations.json", import.meta.url);
const measured = {};
for (const dir of readdirSync(cacheRoot)) {
  let results;
  try {
    results = JSON.parse(readFileSync(join(cacheRoot.pathname, dir, "results.json"), "utf8")).results;
  } catch {
    continue;
  }
  for (const [key, { duration }] of results) if (duration > 0) measured[key] = Math.round(duration / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(measured).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(out, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files`);
