import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package's own directory: where its package.json, `guests/dist/` and `workers/node-guest/` are. Found by
 * walking up from this file, which runs from three places: `src/util/` (the sources), `dist/src/util/` (the
 * package) and the sources' compiled copy under `node_modules/.cache/` (src/pool/entry-point.ts), whose own
 * package.json only marks its files as ES modules.
 */
export const PACKAGE_DIR = find();

/** The package's package.json, read once. */
export const PACKAGE_JSON = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { name: string; version?: string; devDependencies?: Record<string, string> };

function find(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; ) {
    try {
      if ((JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name === "agentos-vm") return dir;
    } catch {
      // no package.json here (or not ours): look further up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`agentos-vm: no package.json of agentos-vm above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}
