// The rewrites of the npm polyfills onto primordials (workers/node-host/polyfill-patches.ts) are textual: each
// rule names code of the installed version of its package. A rule that no longer matches anything (the package
// changed) would leave the call it was written for as it is, silently; this test says so instead.
import { createRequire } from "node:module";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ruleMatches } from "../../workers/node-host/polyfill-patches.js";

const modules = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "node_modules");

/** Every .js file under `dir`, by real path. */
function jsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsFiles(path) : name.endsWith(".js") ? [path] : [];
  });
}

describe("the polyfills' rewrites", () => {
  it("each rule matches code of the installed package", () => {
    const base64 = createRequire(realpathSync(join(modules, "buffer/index.js"))).resolve("base64-js");
    const files = [realpathSync(base64), ...["buffer/index.js", "events/events.js", "path-browserify/index.js", "string_decoder/lib/string_decoder.js", "cjs-module-lexer/lexer.js", "web-streams-polyfill/dist/ponyfill.js"]
      .map((f) => realpathSync(join(modules, f)))]
      .concat(jsFiles(realpathSync(join(modules, "readable-stream/lib"))));
    const matches = ruleMatches(new Map(files.map((f) => [f, readFileSync(f, "utf8")])));
    expect(Object.keys(matches).sort()).toEqual([
      "base64-js/index.js", "buffer/index.js", "cjs-module-lexer/lexer.js", "events/events.js", "path-browserify/index.js",
      "readable-stream/lib/", "string_decoder/lib/string_decoder.js", "web-streams-polyfill/dist/ponyfill.js",
    ]);
    const unmatched = Object.entries(matches).flatMap(([key, counts]) => counts.flatMap((n, i) => (n === 0 ? [`${key} rule ${i}`] : [])));
    expect(unmatched).toEqual([]);
  });
});
