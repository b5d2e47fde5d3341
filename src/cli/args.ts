/**
 * The command line of the `agentos` CLI (and of its `mcp` subcommand): `node:util` parseArgs, then checks of
 * the values. Errors are UsageError (exit status 2, printed with the usage).
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { MountOptions } from "../agent-os.js";
import { DEFAULT_LIMITS, type Limits } from "../limits.js";

export const USAGE = `Usage: agentos [options]                 interactive shell into a new VM
       agentos [options] -c 'command'    run one command, exit with its status
       agentos mcp [options]             MCP server on stdio whose tools work on one VM

Options:
  -c, --command CMD         run CMD with sh -c in a fresh VM; its output streams to stdout/stderr
      --json                with -c: print one JSON object {exitCode, stdout, stderr, truncated?}
      --mount HOST:/VM[:ro|:rw|:overlay]
                            show host directory HOST at /VM in the VM (repeatable): read-only (the
                            default), read-write, or as an overlay whose changes stay in the VM
      --cwd PATH            working directory in the VM (default /home/user)
      --env NAME=VALUE      add NAME to the VM's environment (repeatable)
      --timeout MS          kill each command after MS milliseconds (exit status 124; mcp: default 120000)
      --limit NAME=N        one of the VM's limits (repeatable): maxVmMemoryBytes=1G, maxProcesses=16, …;
                            sizes take K, M or G (KiB, MiB, GiB)
      --output-limit BYTES  mcp: bytes of each text a tool returns (default 30000); longer keeps start and end
  -h, --help                print this help
  -v, --version             print the version
`;

export class UsageError extends Error {}

export interface CliOptions {
  /** `agentos mcp`: serve the VM to an MCP client on stdio. */
  mcp: boolean;
  command?: string;
  json: boolean;
  mounts: MountOptions[];
  env: Record<string, string>;
  limits: Partial<Limits>;
  cwd?: string;
  timeout?: number;
  outputLimit?: number;
  help: boolean;
  version: boolean;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const UNITS: Record<string, number> = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

export function parseCli(argv: string[]): CliOptions {
  const mcp = argv[0] === "mcp";
  let values;
  try {
    ({ values } = parseArgs({
      args: mcp ? argv.slice(1) : argv,
      strict: true,
      allowPositionals: false,
      options: {
        command: { type: "string", short: "c" },
        json: { type: "boolean", default: false },
        mount: { type: "string", multiple: true, default: [] },
        cwd: { type: "string" },
        env: { type: "string", multiple: true, default: [] },
        timeout: { type: "string" },
        limit: { type: "string", multiple: true, default: [] },
        "output-limit": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "v", default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options: CliOptions = {
    mcp,
    json: values.json,
    mounts: values.mount.map(parseMount),
    env: parseEnv(values.env),
    limits: parseLimits(values.limit),
    help: values.help,
    version: values.version,
  };
  if (mcp && (values.command !== undefined || values.json)) throw new UsageError("agentos mcp takes no -c or --json: its client sends the commands");
  if (!mcp && values["output-limit"] !== undefined) throw new UsageError("--output-limit is an option of agentos mcp");
  if (values.command !== undefined) options.command = values.command;
  if (values.json && values.command === undefined) throw new UsageError("--json needs -c 'command'");
  if (values.cwd !== undefined) {
    if (!values.cwd.startsWith("/")) throw new UsageError(`--cwd must be an absolute path in the VM: ${values.cwd}`);
    options.cwd = values.cwd;
  }
  if (values.timeout !== undefined) {
    const ms = Number(values.timeout);
    if (!/^\s*\d+(\.\d+)?\s*$/.test(values.timeout) || !(ms > 0)) throw new UsageError(`--timeout must be a number of milliseconds > 0: ${values.timeout}`);
    options.timeout = ms;
  }
  if (values["output-limit"] !== undefined) options.outputLimit = parseCount("--output-limit", values["output-limit"]);
  return options;
}

/** `NAME=VALUE` pairs; the value may be empty or hold `=`. */
function parseEnv(specs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const spec of specs) {
    const eq = spec.indexOf("=");
    const name = eq < 0 ? spec : spec.slice(0, eq);
    if (eq < 0 || !ENV_NAME.test(name)) throw new UsageError(`--env ${spec}: expected NAME=VALUE, NAME a shell variable name`);
    env[name] = spec.slice(eq + 1);
  }
  return env;
}

/** `NAME=N` for the limits of src/limits.ts; N a positive integer, optionally with K, M or G. */
function parseLimits(specs: string[]): Partial<Limits> {
  const limits: Partial<Limits> = {};
  for (const spec of specs) {
    const eq = spec.indexOf("=");
    const name = spec.slice(0, Math.max(eq, 0));
    if (eq < 0 || !Object.hasOwn(DEFAULT_LIMITS, name))
      throw new UsageError(`--limit ${spec}: expected NAME=N, NAME one of ${Object.keys(DEFAULT_LIMITS).join(", ")}`);
    limits[name as keyof Limits] = parseCount(`--limit ${name}`, spec.slice(eq + 1));
  }
  return limits;
}

/** A positive integer, optionally with a binary unit: `30000`, `64K`, `1G`. */
function parseCount(what: string, text: string): number {
  const m = /^(\d+)([KMG]?)$/i.exec(text.trim());
  const n = m ? Number(m[1]) * UNITS[m[2]!.toUpperCase()]! : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${what} must be a positive integer (K, M or G for KiB, MiB, GiB): ${text}`);
  return n;
}

/** `hostDir:/vmPath[:ro|:rw|:overlay]`; the host directory may itself contain colons. */
export function parseMount(spec: string): MountOptions {
  let rest = spec;
  const mode = /:(ro|rw|overlay)$/.exec(rest);
  if (mode) rest = rest.slice(0, mode.index);
  const colon = rest.lastIndexOf(":/");
  if (colon <= 0) throw new UsageError(`--mount ${spec}: expected hostDir:/vmPath[:ro|:rw|:overlay]`);
  const hostDir = resolve(rest.slice(0, colon));
  const path = rest.slice(colon + 1);
  if (path === "/") throw new UsageError(`--mount ${spec}: cannot mount over /`);
  let isDir = false;
  try {
    isDir = statSync(hostDir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new UsageError(`--mount ${spec}: ${hostDir} is not a directory`);
  if (mode?.[1] === "overlay") return { hostDir, path, overlay: true };
  return { hostDir, path, readOnly: mode?.[1] !== "rw" };
}
