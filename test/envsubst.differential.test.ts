import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, hostHas } from "./host-twin.js";

/**
 * The VM's envsubst (workers/commands/envsubst.ts) against the host's GNU gettext envsubst: each command line's
 * stdout, stderr and exit status identical, with the same extra environment on both sides.
 */

const FILES = {
  "template.txt": "x $A ${A} $B ${B} $ ${ ${A $1 $$A a$A_b ${A}b $_u ${UNSET}\n",
  "utf8.txt": "é $Ü $A ${A}ü\n",
  "nonl.txt": "tail $A",
};
const ENV = { A: "hi", B: "b b", _u: "under", C: "ö" };

const CASES = [
  "envsubst < template.txt",
  "envsubst '$A' < template.txt",
  "envsubst '${B} and $_u' < template.txt",
  "envsubst '' < template.txt",
  "envsubst < utf8.txt && A=$C envsubst < utf8.txt",
  "envsubst < nonl.txt",
  "envsubst -v 'x $A ${B} $A ${C $D_1 $9'",
  "envsubst --variables '$A' < template.txt",
  "envsubst -v",
  "envsubst a b",
  "envsubst --bogus",
  "envsubst -h",
];

let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create(FILES);
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostHas("envsubst"))(`envsubst in the VM against the host's GNU envsubst (${CASES.length} cases)`, () => {
  it.each(CASES)("%s", async (command) => {
    expect(await twin.inVm(command, ENV)).toEqual(twin.onHost(command, ENV));
  }, CASE_DEADLINE_MS);
});
