import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin } from "./host-twin.js";
import { runStepCase, type StepCase } from "./step-cases.js";

/**
 * The VM's diff3 (guests/dist/diff3.wasm, GNU diffutils 3.8), which runs the VM's `diff`, against the host's
 * diff3 3.8 with GNU diff: each case writes the same files at the same absolute path on both sides and runs its
 * command lines; stdout, stderr, exit status and the files afterwards must be identical.
 */

const host = spawnSync("diff3", ["--version"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? host.stdout.split("\n")[0]! : "";

const lines = (n: number, f = (i: number) => `line ${i}`): string => Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join("");
const OLDER = lines(30);
const MINE = OLDER.replace("line 3\n", "line three\n").replace("line 20\n", "line 20\nline 20b\n");
const YOURS = OLDER.replace("line 10\n", "line ten\n").replace("line 28\n", "");
const CLASH = OLDER.replace("line 3\n", "line THREE\n");
const FILES = { mine: MINE, older: OLDER, yours: YOURS, clash: CLASH };

const CASES: Record<string, StepCase> = {
  "--version": { files: {}, steps: ["diff3 --version"] },
  "three-way differences": { files: FILES, steps: ["diff3 mine older yours; echo rc=$?", "diff3 -T mine older yours"] },
  "-m merges without conflicts": { files: FILES, steps: ["diff3 -m mine older yours; echo rc=$?"] },
  "-m with a conflict and -L labels": { files: FILES, steps: ["diff3 -m mine older clash; echo rc=$?", "diff3 -m -L ours -L base -L theirs mine older clash; echo rc=$?"] },
  "ed scripts: -e, -E, -x, -3, -A": {
    files: FILES,
    steps: ["diff3 -e mine older yours", "diff3 -E mine older clash", "diff3 -x mine older clash", "diff3 -3 mine older yours", "diff3 -A mine older clash; echo rc=$?"],
  },
  "identical files and stdin as one of them": { files: FILES, steps: ["diff3 older older older; echo rc=$?", "diff3 mine - yours < older; echo rc=$?"] },
  "a missing file and a bad option": { files: FILES, steps: ["diff3 mine older nosuch; echo rc=$?", "diff3 --bogus mine older yours; echo rc=$?", "diff3 mine older; echo rc=$?"] },
};

const names = Object.keys(CASES);
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostVersion).concurrent(`diff3 in the VM against the host's ${hostVersion} (${names.length} cases)`, () => {
  it.each(names)("%s", async (name) => {
    await runStepCase(twin, name, CASES[name]!);
  }, CASE_DEADLINE_MS * 2);
});
