/**
 * The command line of the `agentos` CLI: `node:util` parseArgs, then checks of the values. Errors are
 * UsageError (exit status 2, printed with the usage).
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { MountOptions } from "../agent-os.js";

export const USAGE = `Usage: agentos [options]                 interactive shell into a new VM
       agentos [options] -c 'command'    run one command, exit with its status

Options:
  -c, --command CMD         run CMD with sh -c in a fresh VM; its output streams to stdout/stderr
      --json                with -c: print one JSON object {exitCode, stdout, stderr, truncated?}
      --mount HOST:/VM[:ro] show host directory HOST at /VM in the VM, read-only (repeatable)
      --cwd PATH            working directory in the VM (default /home/user)
      --timeout MS          kill each command after MS milliseconds (exit status 124)
  -h, --help                print this help
  -v, --version             print the version
`;

export class UsageError extends Error {}

export interface CliOptions {
  command?: string;
  json: boolean;
  mounts: MountOptions[];
  cwd?: string;
  timeout?: number;
  help: boolean;
  version: boolean;
}

export function parseCli(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        command: { type: "string", short: "c" },
        json: { type: "boolean", default: false },
        mount: { type: "string", multiple: true, default: [] },
        cwd: { type: "string" },
        timeout: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "v", default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options: CliOptions = {
    json: values.json,
    mounts: values.mount.map(parseMount),
    help: values.help,
    version: values.version,
  };
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
  return options;
}

/** `hostDir:/vmPath[:ro]`; the host directory may itself contain colons. */
export function parseMount(spec: string): MountOptions {
  let rest = spec;
  const mode = /:(ro|rw)$/.exec(rest);
  if (mode) rest = rest.slice(0, -3);
  if (mode?.[1] === "rw")
    throw new UsageError(`--mount ${spec}: read-write mounts are not supported (host directories are mounted read-only); drop ":rw"`);
  const colon = rest.lastIndexOf(":/");
  if (colon <= 0) throw new UsageError(`--mount ${spec}: expected hostDir:/vmPath[:ro]`);
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
  return { hostDir, path, readOnly: true };
}
