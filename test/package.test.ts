import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guestFiles } from "../guests/build.js";
import { RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { startMcpServer } from "./mcp-child.js";

/**
 * The package as a user gets it: `npm pack` (its prepack builds dist/), the tarball installed into a project
 * of its own, then the README example run from ESM and CommonJS and a TypeScript consumer type-checked
 * without the DOM lib; the AI SDK example run and type-checked against the `ai` that npm installs on this
 * Node (ai 6 on Node 20, ai 7 on Node >= 22: ai 7 needs Node 22); the MCP server started with npx as an MCP
 * client's configuration starts it. The runtime dependencies come from the npm registry (the local cache
 * first); without the registry the tests are skipped, saying why.
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

/** The `ai` major npm installs here: ai 7 declares `engines.node >= 22`, and npm picks ai 6 on Node 20. */
const AI_MAJOR = Number(process.versions.node.split(".")[0]) >= 22 ? 7 : 6;
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; devDependencies: Record<string, string> };
/** A peer at the version the repository's own tests use. */
const pinned = (name: string): string => `${name}@${manifest.devDependencies[name]}`;

/**
 * npm's own work (pack's build, installs from the registry) on a loaded 2-core machine: a deadline for a hang.
 * A test or hook that runs it gets twice that (its own steps besides).
 */
const NPM_DEADLINE_MS = SETUP_DEADLINE_MS;
const NPM_TEST_DEADLINE_MS = 2 * NPM_DEADLINE_MS;

const OFFLINE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network/i;

let project = "";
let tarball = "";
let packed: string[] = [];
let sizes = { size: 0, unpackedSize: 0 };
let skipReason: string | undefined;
/** The XDG_CACHE_HOME where the MCP server installed its peers, once it has. */
let peerCache: string | undefined;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "agentos-consumer-"));
  const { stdout } = await npm(["pack", "--json", "--pack-destination", project], root, NPM_DEADLINE_MS);
  const [info] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }>; size: number; unpackedSize: number }>;
  packed = info!.files.map((f) => f.path);
  tarball = join(project, info!.filename);
  sizes = { size: info!.size, unpackedSize: info!.unpackedSize };
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  try {
    // Peers are the adapters' (optional for this example); --legacy-peer-deps keeps npm from installing them.
    await npm(["install", "--prefer-offline", "--legacy-peer-deps", "--no-package-lock", join(project, info!.filename)], project, NPM_DEADLINE_MS);
  } catch (e) {
    const text = `${(e as { stderr?: string }).stderr ?? ""} ${String(e)}`;
    if (!OFFLINE.test(text)) throw e;
    skipReason = `npm registry unreachable, consumer tests skipped: ${text.trim().split("\n")[0]}`;
    console.warn(skipReason);
    return;
  }
  for (const f of readdirSync(fixtures)) copyFileSync(join(fixtures, f), join(project, f));
}, 3 * NPM_DEADLINE_MS);

afterAll(async () => {
  if (project) rmSync(project, { recursive: true, force: true });
  if (tarball) await removeNpxInstalls(tarball);
});

/**
 * npx installs what `-p` names into `<npm cache>/_npx/<hash>/`, a directory per list of packages; the tarball's
 * path is new each run, so its directories are removed afterwards. They are the ones whose package.json names it.
 */
async function removeNpxInstalls(spec: string): Promise<void> {
  const cache = (await npm(["config", "get", "cache"], root, 60_000)).stdout.trim();
  const dir = join(cache, "_npx");
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const pkg = join(dir, entry, "package.json");
    if (existsSync(pkg) && readFileSync(pkg, "utf8").includes(spec)) rmSync(join(dir, entry), { recursive: true, force: true });
  }
}

/** The npm settings a child needs to use the same registry and cache as this test (a client passes its own env). */
function npmSettings(): Record<string, string> {
  const env: Record<string, string> = { npm_config_prefer_offline: "true" };
  for (const key of ["npm_config_registry", "npm_config_cache"]) if (process.env[key]) env[key] = process.env[key]!;
  return env;
}

// The tests that only run what the installed project holds run side by side; the ones that install peers into it
// (the MCP server's first start, then the adapters') run in order, and the adapters' after all the others.
describe(`the packed ${NAME} package`, { concurrent: true }, () => {
  it("ships the build, the workers and their scripts, the committed guests, LICENSE, THIRD_PARTY_NOTICES and no sources", () => {
    const guests = Object.entries(guestFiles()).flatMap(([name, file]) => (name === "probe" ? [] : [`guests/dist/${file}`]));
    const files = ["package.json", "LICENSE", "THIRD_PARTY_NOTICES", "README.md", "dist/src/index.js", "dist/src/index.d.ts", "dist/workers/process-host.js"];
    for (const f of [...files, "dist/workers/commands/grep.js", "guests/dist/python3.13-lib.tar.gz", "guests/openssl/openssl.cnf", ...guests]) expect(packed, f).toContain(f);
    expect(packed).not.toContain("guests/dist/probe.wasm");
    expect(packed.filter((f) => /\.ts$/.test(f) && !f.endsWith(".d.ts"))).toEqual([]);
    expect(packed.filter((f) => f.startsWith("test/") || f.startsWith("bench/") || f.includes("tsx-entry"))).toEqual([]);
  });

  // 0.1.0: 12469225 bytes packed, 39748077 unpacked. git (guests/dist/git.wasm, 3.56 MB, 1.3 MB compressed, and
  // its 29 KB of templates) brought it to 14203070 packed, 44781378 unpacked (README "Size"), so the bound was
  // raised from 13.5 MB and 43 MB. sqlite3 (1.71 MB, 0.63 MB compressed) and GNU make (0.24 MB, 0.09 MB
  // compressed) brought it to 15014515 packed, 47037955 unpacked, so it was raised again from 15 MB and 47 MB.
  // yq (guests/dist/yq.wasm, 27.5 MB, 6.5 MB compressed: Go's runtime and all of yq's formats) brought it to
  // 21543598 packed, 74694921 unpacked; GNU patch (0.23 MB, 0.09 MB compressed) to 21633716 packed, 74924145
  // unpacked. Python (python3.wasm, 8.45 MB, 2.9 MB compressed, and its standard library with bytecode, an
  // 8.09 MB .tar.gz that does not compress further) with both: 32518469 packed, 91717026 unpacked, so the bound
  // was raised from 16 MB and 50 MB. openssl (guests/dist/openssl.wasm, 2.75 MB, 0.96 MB compressed, no custom
  // sections left to strip) brought it to 33659174 packed, 95153721 unpacked; xz, bzip2, zstd, zip and unzip
  // (1.49 MB, 0.50 MB compressed; linked with --strip-all), diff3 (76 KB), curl with OpenSSL (curl.wasm,
  // 3.12 MB, 1.09 MB compressed), python3's socket calls and Debian's openssl.cnf brought it to 35432987 packed,
  // 100329043 unpacked, so it was raised from 33 MB and 93 MB. git's HTTP transport (libcurl and OpenSSL linked
  // into git.wasm: 3.56 MB to 6.48 MB, 1.02 MB more compressed), GNU wget with OpenSSL (wget.wasm, 3.03 MB),
  // python3's ssl and _hashlib (python3.wasm 8.47 MB to 10.92 MB) and openssl's socket commands (2.75 MB to
  // 3.31 MB) brought it to 38651687 packed, 109373046 unpacked, so it was raised from 36 MB and 101 MB. A bound,
  // not a measurement of speed.
  it("stays within its size bound: 39 MB packed, 110 MB unpacked", () => {
    expect(sizes.size).toBeGreaterThan(0);
    expect(sizes.size).toBeLessThanOrEqual(39_000_000);
    expect(sizes.unpackedSize).toBeLessThanOrEqual(110_000_000);
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
    const { stdout } = await run(process.execPath, ["--import", tsx, "example.mts"], { cwd: project, timeout: RUN_DEADLINE_MS });
    expect(stdout).toBe("{ exitCode: 0, stdout: '1\\n' }\n");
  });

  it("runs python3 with its standard library from the installed package", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const script = `import { AgentOs } from "${NAME}";
const vm = await AgentOs.create();
const r = await vm.exec("python3 -c 'import json, sqlite3, zlib; print(json.dumps([sqlite3.sqlite_version, zlib.ZLIB_VERSION]))'");
console.log(JSON.stringify(r));
await vm.dispose();
`;
    writeFileSync(join(project, "python.mjs"), script);
    const { stdout } = await node(["python.mjs"], project);
    expect(JSON.parse(stdout)).toEqual({ stdout: '["3.46.0", "1.3.1"]\n', stderr: "", exitCode: 0 });
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

  describe.sequential("started by npx as an MCP client starts it", () => {
    it("serves MCP when started as the README's client configuration starts it: npx -y agentos-vm mcp …, installing the MCP SDK on its first start", async (ctx) => {
      if (skipReason) return ctx.skip(skipReason);
      // Started from a project that has none of the packages (npx installs them in its cache), with the environment
      // the SDK's stdio client gives a server.
      const elsewhere = join(project, "elsewhere");
      const host = join(project, "host-dir");
      mkdirSync(elsewhere);
      mkdirSync(host);
      writeFileSync(join(host, "notes.txt"), "from the host\n");
      writeFileSync(join(elsewhere, "package.json"), JSON.stringify({ name: "not-a-consumer", private: true }));
      // From the registry this is `npx -y agentos-vm mcp`; a tarball must be named with -p (npx would run a path
      // it is given first). Only agentos-vm itself is installed: the server installs the MCP SDK.
      const args = ["-y", "-p", tarball, "agentos", "mcp", "--mount", `${host}:/workspace/host:ro`, "--cwd", "/workspace/host", "--env", "WHO=npx"];
      // A cache of its own, so that the server installs its peers here, as on a user's first start.
      const cache = join(project, "cache");
      const server = await startMcpServer("npx", args, { cwd: elsewhere, env: { ...npmSettings(), XDG_CACHE_HOME: cache } });
      const { client } = server;
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["download", "exec", "list", "read", "write"]);
      expect(tools.find((t) => t.name === "exec")!.description).toContain("When this session started, /workspace/host holds: notes.txt.");
      const exec = async (command: string) => client.callTool({ name: "exec", arguments: { command } });
      expect((await exec("cat notes.txt; echo $WHO; pwd")).structuredContent).toEqual({ exitCode: 0, stdout: "from the host\nnpx\n/workspace/host\n", stderr: "" });
      const failing = await exec("exit 5");
      expect(failing.isError).toBeFalsy();
      expect(failing.structuredContent).toEqual({ exitCode: 5, stdout: "", stderr: "" });
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i));
      await client.callTool({ name: "write", arguments: { path: "/tmp/bytes", content: bytes.toString("base64"), encoding: "base64" } });
      const back = (await client.callTool({ name: "read", arguments: { path: "/tmp/bytes", encoding: "base64" } })).content as Array<{ text: string }>;
      expect(Buffer.from(back[0]!.text, "base64").equals(bytes)).toBe(true);
      await client.close(); // ends the server's stdin: npx's child disposes its VM and exits, and so does npx
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.stderr()).toContain(`agentos mcp ${manifest.version}: one VM on stdio, commands start in /workspace/host; ${host} at /workspace/host (read-only)\n`);
      const peers = `${pinned("@modelcontextprotocol/sdk")} and ${pinned("zod")}`;
      expect(server.stderr()).toContain(`agentos mcp: installing ${peers} into ${join(cache, "agentos-vm", "mcp")}`);
      peerCache = cache;
    }, NPM_TEST_DEADLINE_MS);

    it("npx -y agentos-vm mcp in a project without the MCP SDK uses the peers an earlier start installed, and installs nothing", async (ctx) => {
      if (skipReason) return ctx.skip(skipReason);
      if (!peerCache) return ctx.skip("the server test before it did not install the peers");
      // The project has agentos-vm and not the MCP SDK: npx runs the package's one bin, agentos.
      const server = await startMcpServer("npx", ["-y", "agentos-vm", "mcp"], { cwd: project, env: { ...npmSettings(), XDG_CACHE_HOME: peerCache } });
      expect((await server.client.listTools()).tools.map((t) => t.name).sort()).toEqual(["download", "exec", "list", "read", "write"]);
      await server.client.close();
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.stderr()).not.toContain("installing");
    }, NPM_TEST_DEADLINE_MS);
  });
});

describe(`the packed ${NAME} package with its optional peers installed`, () => {
  it(`exports the adapters (agentos-vm/ai-sdk, agentos-vm/mcp) once their optional peers are installed (ai ${AI_MAJOR} on Node ${process.versions.node})`, async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const versions = [`ai@${AI_MAJOR}`, pinned("zod"), pinned("@modelcontextprotocol/sdk")];
    await npm(["install", "--prefer-offline", "--no-package-lock", ...versions], project, NPM_DEADLINE_MS);
    const { stdout } = await node(["adapters.mjs"], project);
    expect(JSON.parse(stdout)).toEqual({ bash: { exitCode: 0, stdout: "hi\n", stderr: "" }, tools: ["download", "exec", "list", "read", "write"], aiMajor: AI_MAJOR });
  }, NPM_TEST_DEADLINE_MS);

  it(`runs examples/ai-sdk-tool.mts and command-hooks.mts, the README's AI SDK examples, with ai ${AI_MAJOR}, and type-checks them`, async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const examples = ["ai-sdk-tool.mts", "command-hooks.mts"];
    for (const f of examples) copyFileSync(join(root, "examples", f), join(project, f));
    const tsx = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
    const tool = await run(process.execPath, ["--import", tsx, "ai-sdk-tool.mts"], { cwd: project, timeout: RUN_DEADLINE_MS });
    expect(tool.stdout).toBe('bash {"command":"wc -l < data.csv"} -> {"exitCode":0,"stdout":"3\\n","stderr":""}\ndata.csv has 2 rows.\n');
    const hooks = await run(process.execPath, ["--import", tsx, "command-hooks.mts"], { cwd: project, timeout: RUN_DEADLINE_MS });
    expect(hooks).toEqual({
      stdout: "{ exitCode: 1, stdout: 'token=[redacted]\\n', stderr: '' }\ncommand refused: rm -rf is not allowed here\n",
      stderr: "audit: set -o pipefail; echo token=$API_TOKEN; false | true -> 1\n",
    });
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    // As an AI SDK project compiles: ai's declarations need the DOM lib (HeadersInit, FileList) and leave out
    // @types/json-schema, so such projects skip checking libraries' declarations; the examples' own code is checked.
    const flags = ["--strict", "--module", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "--skipLibCheck", "--noEmit"];
    const types = ["--types", "node", "--typeRoots", join(root, "node_modules/@types")];
    const result = await run(process.execPath, [tsc, ...flags, ...types, ...examples], { cwd: project, timeout: RUN_DEADLINE_MS }).catch(
      (e: { stdout?: string }) => ({ stdout: e.stdout ?? String(e) }),
    );
    expect(result.stdout).toBe("");
  }, NPM_TEST_DEADLINE_MS);
});
