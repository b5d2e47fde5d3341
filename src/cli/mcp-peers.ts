/**
 * The MCP server's packages, `@modelcontextprotocol/sdk` and `zod`: optional peers of agentos-vm (a library user
 * who never starts the server does not carry them and their ~90 dependencies). When the server starts without
 * them, as `npx -y agentos-vm mcp` does, they are installed once, at the versions this package is tested with,
 * into a cache directory of their own, and resolved from there: stdout stays the protocol's, npm's output goes to
 * stderr.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { createRequire, register } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { PACKAGE_JSON } from "../util/package-dir.js";

export const PEERS = ["@modelcontextprotocol/sdk", "zod"] as const;

/** Whether this package resolves the peers itself (installed beside it, or given with npx -p). */
export function peersResolvable(): boolean {
  const require = createRequire(import.meta.url);
  try {
    require.resolve("@modelcontextprotocol/sdk/server/stdio.js");
    require.resolve("zod");
    return true;
  } catch {
    return false;
  }
}

export const isMissingPeer = (e: unknown): boolean =>
  (e as { code?: string })?.code === "ERR_MODULE_NOT_FOUND" && /@modelcontextprotocol\/sdk|'zod'/.test(String((e as Error).message));

/** `name@version` of each peer; without a pinned version (never in the published package), the peer range's latest. */
function peerSpecs(): string[] {
  // The package's own devDependencies: the peers' versions its tests run with.
  const pinned = PACKAGE_JSON.devDependencies ?? {};
  return PEERS.map((name) => (pinned[name] ? `${name}@${pinned[name]}` : name));
}

/** Where the peers are kept: $XDG_CACHE_HOME (or ~/.cache)/agentos-vm/mcp/<the specs>. */
function cacheDir(specs: readonly string[]): string {
  const base = process.env["XDG_CACHE_HOME"] || join(homedir(), ".cache");
  return join(base, "agentos-vm", "mcp", specs.join("+").replace(/[/@]/g, "_"));
}

function npmInstall(prefix: string, specs: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", ...specs];
    // npm's output is not the protocol's: both its streams go to stderr.
    const child = spawn("npm", args, { stdio: ["ignore", process.stderr, process.stderr] });
    child.on("error", (e) => reject(new Error(`npm ${args.join(" ")}: ${e.message}`)));
    child.on("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`npm ${args.join(" ")} exited with ${signal ?? code}`))));
  });
}

/**
 * Makes the peers importable: installs them into the cache when they are not there (into a new directory renamed
 * into place, so that servers starting together never see half an install), then lets imports this package
 * cannot resolve itself fall back to that directory (a module resolve hook; nothing else is redirected).
 */
export async function providePeers(): Promise<void> {
  const specs = peerSpecs();
  const dir = cacheDir(specs);
  if (!existsSync(join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))) {
    process.stderr.write(`agentos mcp: installing ${specs.join(" and ")} into ${dir} (once)\n`);
    mkdirSync(dirname(dir), { recursive: true });
    const fresh = mkdtempSync(`${dir}.installing-`);
    try {
      await npmInstall(fresh, specs);
      try {
        renameSync(fresh, dir);
      } catch (e) {
        // Another server finished the same install first: its directory is as good as ours.
        if (!existsSync(dir)) throw e;
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  register(`data:text/javascript,${encodeURIComponent(RESOLVE_HOOK)}`, { data: { parent: pathToFileURL(join(dir, "package.json")).href } });
}

/**
 * The resolve hook (it runs on Node's hooks thread, so it is a module of its own, given as text): a peer that
 * cannot be resolved from where it is imported is resolved from the cache directory's package.json.
 */
const RESOLVE_HOOK = `
let parent;
export function initialize(data) { parent = data.parent; }
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (e) {
    if (e && e.code === "ERR_MODULE_NOT_FOUND" && /^(@modelcontextprotocol\\/sdk|zod)(\\/|$)/.test(specifier)) return next(specifier, { ...context, parentURL: parent });
    throw e;
  }
}
`;
