import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, hostHas } from "./host-twin.js";

/**
 * The VM's less (workers/commands/less.ts) against the host's less, both with output to a pipe, as every command
 * in the VM has it: stdout, stderr and exit status identical. Standard input is always a pipe (given, or empty).
 */

const FILES = {
  "a.txt": "first\nsecond\n",
  "b.txt": "tab\there\0nul \x01 ctl\n",
  "empty.txt": "",
  "nonl.txt": "no newline",
  "dir/x": "x\n",
};

const CASES = [
  "less a.txt",
  "less a.txt b.txt nonl.txt empty.txt",
  "printf 'piped\\n' | less",
  "printf 'piped\\n' | less - a.txt",
  "printf 'piped\\n' | less a.txt",
  "less missing.txt a.txt",
  "less dir a.txt",
  "less -N -S -R -F -X -i a.txt",
  "less -p second +G a.txt",
  "less --line-numbers --chop-long-lines --quit-if-one-screen a.txt",
  "less --tabs=4 -x8 a.txt",
  "less -@ a.txt",
  "less --bogus a.txt",
  "less --foo=3 a.txt",
  "less --lo=x a.txt",
  "less -- -x",
  "less -x",
  "less -b",
  "less --window",
  "less -z abc a.txt",
  "less -@ -! a.txt",
];

let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create(FILES);
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostHas("less"))(`less in the VM against the host's less (${CASES.length} cases)`, () => {
  it.each(CASES)("%s", async (command) => {
    const line = `${command} < /dev/null`;
    expect(await twin.inVm(line)).toEqual(twin.onHost(line));
  }, CASE_DEADLINE_MS);
});
