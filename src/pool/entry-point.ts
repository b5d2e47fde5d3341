import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The file a worker thread (or a process of the CLI) starts from, given as its path in the package without
 * extension (`workers/process-host`). The built package starts its compiled file in dist/.
 *
 * Run from the TypeScript sources (the tests, the demo, the benchmarks), a worker would need a loader that
 * compiles every file it imports, again in every thread: seconds of CPU for each host process, more than most
 * test files take in all. Instead the sources are compiled once, file by file in their own layout as such a
 * loader compiles them (esbuild, no bundling), into `node_modules/.cache/agentos-vm/<hash of the sources>/`,
 * and every host process that runs the same sources starts its workers there. A change to any source file
 * gives a new hash, so a copy is never stale.
 */
export function entryPoint(file: string): URL {
  if (!import.meta.url.endsWith(".ts")) return new URL(`../../${file}.js`, import.meta.url);
  return pathToFileURL(join(compiledSources(), `${file}.js`));
}

const SOURCE_DIRS = ["src", "workers"];
let compiled: string | undefined;

function compiledSources(): string {
  if (compiled !== undefined) return compiled;
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const require = createRequire(import.meta.url);
  const esbuild = require("esbuild") as typeof import("esbuild");
  const files: string[] = [];
  for (const dir of SOURCE_DIRS) for (const name of readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })) if (name.endsWith(".ts")) files.push(join(dir, name));
  files.sort();
  const hash = createHash("sha256").update(`esbuild ${esbuild.version}\n`);
  for (const file of files) hash.update(`${file}\n`).update(readFileSync(join(root, file))).update("\n");
  const cache = join(root, "node_modules", ".cache", "agentos-vm");
  const dir = join(cache, hash.digest("hex").slice(0, 16));
  try {
    statSync(join(dir, "package.json"));
    return (compiled = dir);
  } catch {
    // not compiled yet
  }
  // Compiled beside and renamed into place, so that host processes starting together never see half a copy.
  const partial = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  esbuild.buildSync({ entryPoints: files.map((f) => join(root, f)), outbase: root, outdir: partial, format: "esm", platform: "node", target: "node20", logLevel: "error" });
  // Files under node_modules belong to no package of their own: this one says they are ES modules.
  writeFileSync(join(partial, "package.json"), `{ "type": "module", "private": true }\n`);
  try {
    renameSync(partial, dir);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another host process was first: its copy is the same
  }
  pruneOlderCopies(cache, dir);
  return (compiled = dir);
}

/** Copies of other source states, a day after they were made: a checkout goes back and forth, but not forever. */
function pruneOlderCopies(cache: string, keep: string): void {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    try {
      if (path !== keep && statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone meanwhile: another host process renamed its copy into place
    }
  }
}
