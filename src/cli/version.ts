/** The package's version, from the nearest package.json above this file (src/cli or dist/src/cli). */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: string };
      return pkg.version ?? "unknown";
    } catch {
      const up = dirname(dir);
      if (up === dir) return "unknown";
      dir = up;
    }
  }
}
