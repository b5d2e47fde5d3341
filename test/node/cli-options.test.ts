import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs, type ExecResult } from "../../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, runHostNode, SETUP_DEADLINE_MS } from "./host-node.js";

// `node`'s options against the host's: an unknown option fails as Node's does (its message, exit 9), and
// NODE_OPTIONS is honoured for --require and --import, accepted for options that have no effect in the guest,
// and rejected for options Node does not allow there. Compared: stdout, stderr and the exit code, with the
// case directory normalised.

interface OptionCase {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

const FILES: Record<string, string> = {
  "pre.js": "console.log('preloaded', typeof require);\n",
  "pre2.js": "console.log('second preload');\n",
  "imp.mjs": "console.log('imported', typeof import.meta.url);\n",
  "main.js": "console.log('main', process.execArgv, process.argv.slice(2));\n",
  "main.mjs": "console.log('main esm');\n",
};

const CASES: OptionCase[] = [
  { name: "unknown long option", args: ["--no-such-flag", "-e", "0"] },
  { name: "unknown short option", args: ["-x"] },
  { name: "unknown option after a known one", args: ["--no-warnings", "--nope=1", "main.js"] },
  { name: "missing value", args: ["--require"] },
  { name: "missing value of --input-type", args: ["-e", "0", "--input-type"] },
  { name: "options after the script are the script's", args: ["main.js", "--no-such-flag", "-x"] },
  { name: "-- ends the options", args: ["--", "main.js", "--nope"] },
  { name: "underscores in an option's name", args: ["--no_warnings", "--max_old_space_size=64", "main.js"] },
  { name: "no-effect options", args: ["--max-old-space-size=100", "--enable-source-maps", "--no-deprecation", "--trace-warnings", "--expose-gc", "main.js"] },
  { name: "negated boolean", args: ["--no-enable-source-maps", "main.js"] },
  { name: "-r and --require preload in order", args: ["-r", "./pre.js", "--require=./pre2.js", "main.js"] },
  { name: "--import before the main module", args: ["--import", "./imp.mjs", "main.mjs"] },
  { name: "-p and -pe", args: ["-p", "6 * 7"] },
  { name: "-pe", args: ["-pe", "'a' + 'b'"] },
  { name: "NODE_OPTIONS --require", args: ["main.js"], env: { NODE_OPTIONS: "--require ./pre.js" } },
  { name: "NODE_OPTIONS -r and --import", args: ["-e", "console.log('eval', process.execArgv)"], env: { NODE_OPTIONS: "-r ./pre.js --import ./imp.mjs" } },
  { name: "NODE_OPTIONS quoted", args: ["main.js"], env: { NODE_OPTIONS: '--require "./pre.js" --title="a b"' } },
  { name: "NODE_OPTIONS no-effect options", args: ["main.js"], env: { NODE_OPTIONS: "--max-old-space-size=100 --enable-source-maps --no-warnings --unhandled-rejections=strict" } },
  { name: "NODE_OPTIONS --eval is not allowed", args: ["main.js"], env: { NODE_OPTIONS: "--eval 1" } },
  { name: "NODE_OPTIONS -e is not allowed", args: ["main.js"], env: { NODE_OPTIONS: "-e 1" } },
  { name: "NODE_OPTIONS --test is not allowed", args: ["main.js"], env: { NODE_OPTIONS: "--test" } },
  { name: "NODE_OPTIONS unknown option", args: ["main.js"], env: { NODE_OPTIONS: "--foo=1" } },
  { name: "NODE_OPTIONS V8 option not allowed", args: ["main.js"], env: { NODE_OPTIONS: "--stack-size=2000" } },
  { name: "NODE_OPTIONS missing value", args: ["main.js"], env: { NODE_OPTIONS: "--require" } },
];

let vm: AgentOs | undefined;
let hostDir = "";

beforeAll(async () => {
  hostDir = realpathSync(mkdtempSync(join(tmpdir(), "agentos-cli-options-")));
  vm = await AgentOs.create();
  await vm.mkdir("/w", { recursive: true });
  for (const [name, content] of Object.entries(FILES)) {
    writeFileSync(join(hostDir, name), content);
    await vm.writeFile(`/w/${name}`, content);
  }
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
// Node names itself by argv[0]: the host's is started as process.execPath, the guest's as `node`.
const norm = (r: ExecResult, dir: string): ExecResult => ({
  exitCode: r.exitCode,
  stdout: r.stdout.split(dir).join("<DIR>"),
  stderr: r.stderr.split(dir).join("<DIR>").split(`${process.execPath}: `).join("node: "),
});

describe("node's options match the host's node", { concurrent: true, timeout: CASE_DEADLINE_MS }, () => {
  for (const c of CASES) {
    it(c.name, async ({ expect }) => {
      const [inVm, onHost] = await Promise.all([
        vm!.exec(["node", ...c.args.map(quote)].join(" "), { timeout: RUN_DEADLINE_MS, cwd: "/w", ...(c.env ? { env: c.env } : {}) }),
        runHostNode(c.args, hostDir, c.env ? { env: c.env } : {}),
      ]);
      expect(norm(inVm, "/w")).toEqual(norm(onHost, hostDir));
    });
  }
});

describe("options the guest cannot honour", { timeout: CASE_DEADLINE_MS }, () => {
  it("fail loudly instead of being ignored", async () => {
    for (const option of ["--check", "--watch", "--inspect", "--test-name-pattern=x"]) {
      const r = await vm!.exec(`node ${option} main.js`, { timeout: RUN_DEADLINE_MS, cwd: "/w" });
      expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({ exitCode: 9, stdout: "", stderr: `node: ${option.split("=")[0]} is not supported in this VM\n` });
    }
  });
});
