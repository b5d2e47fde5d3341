// `npm` and `npx` in the VM (npm's own package, run by guest `node`; src/kernel/runtime-image.ts) against the same
// npm package run by this machine's node: the same shell script on both sides, outputs and files compared after
// the paths, times and registry address are put in common. A registry server on the host serves three packages
// (packuments and tarballs); the VM reaches it as host.agentos.internal:PORT through its network policy.
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentOs, ExecResult } from "../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { createVm, writeTree } from "./helpers.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const npmCli = join(root, "node_modules/npm/bin/npm-cli.js");
const npxCli = join(root, "node_modules/npm/bin/npx-cli.js");
const run = promisify(execFile);

/** What both sides' npm is told: no network besides the registry given, no update check, no audit. */
const NPM_ENV = {
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
  npm_config_fetch_retries: "0",
  npm_config_loglevel: "notice",
};

// ---- the registry: packuments and tarballs of three packages, tarball URLs on the address asked ----------

interface Published {
  name: string;
  version: string;
  tarball: Buffer;
  manifest: Record<string, unknown>;
}
const published: Published[] = [];
let server: Server;
let port = 0;
let hostDir = "";
let hostBin = "";

/** A package directory on the host, packed by npm into `published`. */
async function publish(name: string, version: string, files: Record<string, string>, extra: Record<string, unknown> = {}): Promise<void> {
  const dir = join(hostDir, "src", `${name}-${version}`);
  mkdirSync(dir, { recursive: true });
  const manifest = { name, version, main: "index.js", license: "MIT", ...extra };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  await publishDir(dir);
}

/** An existing package directory, packed by npm into `published`. */
async function publishDir(dir: string): Promise<void> {
  const out = mkdtempSync(join(hostDir, "pack-"));
  const { stdout } = await run(process.execPath, [npmCli, "pack", "--json", "--pack-destination", out], { cwd: dir, env: hostEnv(hostDir), maxBuffer: 16 << 20 });
  const [info] = JSON.parse(stdout) as Array<{ filename: string }>;
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown> & { name: string; version: string };
  published.push({ name: manifest.name, version: manifest.version, tarball: readFileSync(join(out, info!.filename)), manifest });
}

function packument(name: string, base: string): object | undefined {
  const versions = published.filter((p) => p.name === name);
  if (versions.length === 0) return undefined;
  return {
    name,
    "dist-tags": { latest: versions[versions.length - 1]!.version },
    versions: Object.fromEntries(
      versions.map((p) => [
        p.version,
        {
          ...p.manifest,
          _id: `${name}@${p.version}`,
          dist: {
            tarball: `${base}/${name}/-/${name}-${p.version}.tgz`,
            shasum: createHash("sha1").update(p.tarball).digest("hex"),
            integrity: `sha512-${createHash("sha512").update(p.tarball).digest("base64")}`,
          },
        },
      ]),
    ),
  };
}

/** The host's side: npm and npx from this repository's npm package, on this machine's node. */
function hostEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: `${hostBin}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, LANG: "C.UTF-8", ...NPM_ENV };
}

beforeAll(async () => {
  hostDir = mkdtempSync(join(tmpdir(), "agentos-npm-"));
  hostBin = join(hostDir, "bin");
  mkdirSync(hostBin);
  symlinkSync(npmCli, join(hostBin, "npm"));
  symlinkSync(npxCli, join(hostBin, "npx"));
  await publish("leftish", "1.0.0", { "index.js": "module.exports = (s, n) => ' '.repeat(n) + s;\n" });
  await publish("leftish", "1.1.0", { "index.js": "module.exports = (s, n) => ' '.repeat(Math.max(0, n - s.length)) + s;\n" });
  await publish("shout", "2.0.0", { "index.js": "module.exports = (s) => s.toUpperCase() + '!';\n" });
  await publish("greeter", "0.3.0", { "index.js": "const pad = require('leftish'); const shout = require('shout');\nmodule.exports = (n) => pad(shout('hi ' + n), 12);\n", "cli.js": "#!/usr/bin/env node\nconsole.log(require('./')(process.argv[2] || 'you'));\n" }, { dependencies: { leftish: "^1.0.0", shout: "2.x" }, bin: { greet: "cli.js" } });
  // The TypeScript compiler this repository uses, as a package of the registry (23 MB unpacked, no dependencies).
  await publishDir(realpathSync(join(root, "node_modules/typescript")));
  server = createServer((req, res) => {
    const base = `http://${req.headers.host}`;
    const url = decodeURIComponent(req.url ?? "/");
    const tgz = /^\/([^/]+)\/-\/[^/]+-(\d+\.\d+\.\d+)\.tgz$/.exec(url);
    if (tgz) {
      const p = published.find((x) => x.name === tgz[1] && x.version === tgz[2]);
      if (p) return res.writeHead(200, { "content-type": "application/octet-stream" }).end(p.tarball);
    } else {
      const doc = packument(url.slice(1), base);
      if (doc) return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc));
    }
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
  });
  server.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  port = (server.address() as AddressInfo).port;
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

// ---- one script on both sides --------------------------------------------------------------------------

/** `script` run by bash on the host in a fresh directory, with the registry at 127.0.0.1. */
function onHost(script: string, registry: string): Promise<ExecResult & { root: string; home: string }> {
  const dir = mkdtempSync(join(hostDir, "case-"));
  const home = join(dir, "home");
  const work = join(dir, "w");
  mkdirSync(home);
  mkdirSync(work);
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], { cwd: work, env: { ...hostEnv(home), REGISTRY: registry }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_DEADLINE_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? -1, stdout, stderr, root: work, home });
    });
  });
}

/** `script` run by the VM's shell in /w, with the registry at host.agentos.internal. */
async function inVm(vm: AgentOs, script: string, registry: string): Promise<ExecResult & { root: string; home: string }> {
  await vm.mkdir("/w", { recursive: true });
  const r = await vm.exec(script, { cwd: "/w", env: { ...NPM_ENV, REGISTRY: registry }, timeout: RUN_DEADLINE_MS });
  return { ...r, root: "/w", home: "/home/user" };
}

/** The two sides' output in common: their directories, the registry's address, times and log names. */
function normalize(text: string, side: { root: string; home: string }, registry: string): string {
  return text
    .split(side.root)
    .join("<root>")
    .split(side.home)
    .join("<home>")
    .split(registry)
    .join("<registry>")
    .replace(/\b(in|after) \d+(\.\d+)?m?s\b/g, "$1 <time>")
    .replace(/\d{4}-\d\d-\d\dT\d\d_\d\d_\d\d_\d+Z/g, "<stamp>");
}

/** Runs `script` on both sides and expects the same exit code, output and error output. */
async function same(vm: AgentOs, script: string): Promise<{ out: string; err: string; code: number }> {
  const hostRegistry = `http://127.0.0.1:${port}`;
  const vmRegistry = `http://host.agentos.internal:${port}`;
  const [host, guest] = await Promise.all([onHost(script, hostRegistry), inVm(vm, script, vmRegistry)]);
  const h = { out: normalize(host.stdout, host, hostRegistry), err: normalize(host.stderr, host, hostRegistry), code: host.exitCode };
  const g = { out: normalize(guest.stdout, guest, vmRegistry), err: normalize(guest.stderr, guest, vmRegistry), code: guest.exitCode };
  expect(g).toEqual(h);
  return g;
}

const netVm = (test: Parameters<typeof createVm>[1]) => createVm({ network: { allow: [`host.agentos.internal:${port}`] } }, test);

describe("npm in the VM against the same npm on the host", { timeout: 2 * CASE_DEADLINE_MS }, () => {
  it.concurrent("npm --version, npx --version, and where they are", async (test) => {
    const vm = await createVm(undefined, test);
    const r = await vm.exec("npm --version && npx --version && command -v npm npx && readlink /usr/bin/npm", { timeout: RUN_DEADLINE_MS });
    const version = (JSON.parse(readFileSync(join(root, "node_modules/npm/package.json"), "utf8")) as { version: string }).version;
    expect(r).toEqual({ exitCode: 0, stdout: `${version}\n${version}\n/usr/bin/npm\n/usr/bin/npx\n../lib/node_modules/npm/bin/npm-cli.js\n`, stderr: "" });
  });

  it.concurrent("init -y, pkg set and get, run (a script that passes, one that fails)", async (test) => {
    const vm = await createVm(undefined, test);
    const r = await same(
      vm,
      `mkdir app && cd app && npm init -y && npm pkg set scripts.hi='echo hello from $npm_package_name' scripts.bad='echo failing >&2; exit 3' && npm pkg get name scripts && npm run hi; echo "run: $?"; npm run bad; echo "bad: $?"; npm run nope; echo "nope: $?"; cat package.json`,
    );
    expect(r.out).toContain("hello from app");
    expect(r.out).toContain("bad: 3");
  });

  it.concurrent("pack, then install the tarball, a folder with a bin, ls, npx of the local bin, and the lockfile", async (test) => {
    const vm = await createVm(undefined, test);
    const r = await same(
      vm,
      [
        "mkdir lib tool app",
        "(cd lib && npm init -y >/dev/null && echo 'module.exports = 42;' > index.js && npm pack 2>&1 && tar tzf lib-1.0.0.tgz)",
        `(cd tool && npm init -y >/dev/null && npm pkg set bin.tool-hi=hi.js && printf '#!/usr/bin/env node\\nconsole.log("tool says", process.argv.slice(2).join(" "))\\n' > hi.js && chmod +x hi.js)`,
        "cd app && npm init -y >/dev/null && npm install ../lib/lib-1.0.0.tgz ../tool && npm ls && node -e 'console.log(require(\"lib\"))' && npx tool-hi a b && npm exec -- tool-hi c && ls -l node_modules | sed 's/  */ /g' | cut -d' ' -f1,9- && cat package.json package-lock.json",
      ].join(" && "),
    );
    expect(r.out).toContain("tool says a b");
  });

  it.concurrent("install from a registry through the network policy, ls --all, require, the bin, then ci from the lockfile", async (test) => {
    const vm = await netVm(test);
    const r = await same(
      vm,
      [
        "mkdir app && cd app && npm init -y >/dev/null",
        'npm install greeter --registry "$REGISTRY"',
        "npm ls --all",
        "node -e 'console.log(require(\"greeter\")(\"vm\"))'",
        "npx greet there",
        "cat package.json package-lock.json",
        'rm -rf node_modules && npm ci --registry "$REGISTRY" && npm ls --all',
        'npm install leftish@1.0.0 --registry "$REGISTRY" && npm ls --all && npm outdated --registry "$REGISTRY"; echo "outdated: $?"',
      ].join(" && "),
    );
    expect(r.out).toContain("HI VM!");
    expect(r.out).toContain("leftish@1.1.0");
  });

  it.concurrent("the TypeScript compiler installed from the registry: npx tsc's diagnostics, exit codes and output", async (test) => {
    const vm = await netVm(test);
    const r = await same(
      vm,
      [
        "mkdir app && cd app && npm init -y >/dev/null",
        'npm install typescript --registry "$REGISTRY"',
        `printf '{ "compilerOptions": { "strict": true, "target": "es2022", "module": "commonjs", "outDir": "out" } }\\n' > tsconfig.json`,
        `printf 'const n: number = "x";\\nexport function f(s: string | undefined) { return s.length + n; }\\n' > a.ts`,
        'npx tsc --noEmit; echo "tsc: $?"',
        `printf 'export const g = (s?: string): number => s?.length ?? 0;\\nexport class P { constructor(readonly x = 1) {} }\\n' > a.ts`,
        'npx tsc; echo "tsc: $?"; cat out/a.js; npx tsc --version',
      ].join(" && "),
    );
    expect(r.out).toContain("error TS2322");
    expect(r.out).toContain("exports.g = g;");
  });

  it.concurrent("a package the registry does not have, and a registry the policy does not allow, fail as npm fails", async (test) => {
    const vm = await netVm(test);
    const missing = await same(vm, `npm init -y >/dev/null && npm install no-such-package --registry "$REGISTRY"; echo "exit $?"`);
    expect(missing.err).toContain("npm error code E404");
    // Not allowed: the name does not resolve in the VM (no query leaves it), as a name that does not exist does not on the host.
    const denied = await same(vm, `npm init -y >/dev/null && npm install greeter --registry http://registry.invalid/; echo "exit $?"`);
    expect(denied.err).toContain("npm error code ENOTFOUND");
    // A VM without a network: host.agentos.internal is in its /etc/hosts, and a connection to it is refused at once.
    const off = await inVm(await createVm(undefined, test), `npm init -y >/dev/null && npm install greeter --registry http://host.agentos.internal:${port}/; echo "exit $?"`, "");
    expect(off.stdout).toBe("exit 1\n");
    expect(off.stderr).toContain(`npm error FetchError: request to http://host.agentos.internal:${port}/greeter failed, reason: connect ECONNREFUSED`);
  });
});
