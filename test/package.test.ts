import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guestFiles } from "../guests/build.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";

/**
 * The package as a user gets it: `npm pack` (its prepack builds dist/), the tarball installed into a project
 * of its own, then the README example run from ESM and CommonJS and a TypeScript consumer type-checked
 * without the DOM lib. The runtime dependencies come from the npm registry (the local cache first); without
 * the registry the tests are skipped, saying why.
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const fixtures = join(root, "test/fixtures/consumer");
const NAME = "agentos-vm";

/** npm's own settings from a surrounding `pnpm test`/`npm test` would leak into the consumer's install. */
function npmEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^npm_(?!config_(registry|cache)$)/i.test(key)) delete env[key];
  return env;
}

const npm = (args: string[], cwd: string, timeout: number) =>
  run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, env: npmEnv(), timeout, maxBuffer: 16 << 20 });
const node = (args: string[], cwd: string) => run(process.execPath, args, { cwd, timeout: RUN_DEADLINE_MS });

const OFFLINE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network/i;

let project = "";
let packed: string[] = [];
let sizes = { size: 0, unpackedSize: 0 };
let skipReason: string | undefined;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "agentos-consumer-"));
  const { stdout } = await npm(["pack", "--json", "--pack-destination", project], root, 90_000);
  const [info] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }>; size: number; unpackedSize: number }>;
  packed = info!.files.map((f) => f.path);
  sizes = { size: info!.size, unpackedSize: info!.unpackedSize };
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  try {
    // Peers are the adapters' (optional for this example); --legacy-peer-deps keeps npm from installing them.
    await npm(["install", "--prefer-offline", "--legacy-peer-deps", "--no-package-lock", join(project, info!.filename)], project, 90_000);
  } catch (e) {
    const text = `${(e as { stderr?: string }).stderr ?? ""} ${String(e)}`;
    if (!OFFLINE.test(text)) throw e;
    skipReason = `npm registry unreachable, consumer tests skipped: ${text.trim().split("\n")[0]}`;
    console.warn(skipReason);
    return;
  }
  for (const f of readdirSync(fixtures)) copyFileSync(join(fixtures, f), join(project, f));
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe(`the packed ${NAME} package`, () => {
  it("ships the build, the workers and their scripts, the committed guests, LICENSE, THIRD_PARTY_NOTICES and no sources", () => {
    const guests = Object.entries(guestFiles()).flatMap(([name, file]) => (name === "probe" ? [] : [`guests/dist/${file}`]));
    const files = ["package.json", "LICENSE", "THIRD_PARTY_NOTICES", "README.md", "dist/src/index.js", "dist/src/index.d.ts", "dist/workers/process-host.js"];
    for (const f of [...files, "dist/workers/commands/grep.js", ...guests]) expect(packed, f).toContain(f);
    expect(packed).not.toContain("guests/dist/probe.wasm");
    expect(packed.filter((f) => /\.ts$/.test(f) && !f.endsWith(".d.ts"))).toEqual([]);
    expect(packed.filter((f) => f.startsWith("test/") || f.startsWith("bench/") || f.includes("tsx-entry"))).toEqual([]);
  });

  // 0.1.0: 12469225 bytes packed, 39748077 unpacked (README "Size"); a bound, not a measurement of speed.
  it("stays within its size bound: 13.5 MB packed, 43 MB unpacked", () => {
    expect(sizes.size).toBeGreaterThan(0);
    expect(sizes.size).toBeLessThanOrEqual(13_500_000);
    expect(sizes.unpackedSize).toBeLessThanOrEqual(43_000_000);
  });

  it("runs the README example from ESM", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const { stdout } = await node(["readme.mjs"], project);
    expect(JSON.parse(stdout)).toEqual({ stdout: "1\n", exitCode: 0 });
  });

  it("runs examples/readme.mts copied as it is into the project, which is CommonJS (no \"type\")", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    // As .ts it would fail there: tsx runs a .ts file of a CommonJS project as CommonJS, without top-level await.
    copyFileSync(join(root, "examples/readme.mts"), join(project, "example.mts"));
    const tsx = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
    const { stdout } = await run(process.execPath, ["--import", tsx, "example.mts"], { cwd: project, timeout: 120_000 });
    expect(stdout).toBe("{ exitCode: 0, stdout: '1\\n' }\n");
  });

  it("runs the README example from CommonJS (require)", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const { stdout } = await node(["readme.cjs"], project);
    expect(JSON.parse(stdout)).toEqual({ name: NAME, stdout: "1\n1\n", exitCode: 0 });
  });

  it("exits by itself when the program forgets dispose()", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    expect((await node(["no-dispose.mjs"], project)).stdout).toBe("hi\n");
  });

  it("exports the adapters (agentos-vm/ai-sdk, agentos-vm/mcp) once their optional peers are installed", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const peers = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    const versions = ["ai", "zod", "@modelcontextprotocol/sdk"].map((name) => `${name}@${peers.devDependencies[name]}`);
    await npm(["install", "--prefer-offline", "--no-package-lock", ...versions], project, 150_000);
    const { stdout } = await node(["adapters.mjs"], project);
    expect(JSON.parse(stdout)).toEqual({ bash: { exitCode: 0, stdout: "hi\n", stderr: "" }, tools: ["exec", "list", "read", "write"] });
  });

  it("type-checks for ESM and CommonJS consumers with --strict --module nodenext --lib es2022", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const flags = ["--strict", "--module", "nodenext", "--target", "es2022", "--lib", "es2022", "--noEmit"];
    // @types/node is the consumer's own business; the repository's copy stands in for it.
    const types = ["--types", "node", "--typeRoots", join(root, "node_modules/@types")];
    const result = await run(process.execPath, [tsc, ...flags, ...types, "consumer.mts", "consumer.cts"], { cwd: project, timeout: RUN_DEADLINE_MS }).catch(
      (e: { stdout?: string }) => ({ stdout: e.stdout ?? String(e) }),
    );
    expect(result.stdout).toBe("");
  });
});
