import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, installReference } from "./host-twin.js";

/**
 * The VM's cal (workers/commands/cal.ts) against Debian's (the ncal package's `cal`), both with output to a
 * pipe: stdout, stderr and exit status identical. Months and years are given, except in the cases about "now",
 * which both sides answer for the same day (the VM's zone is UTC; the host runs them with TZ=UTC).
 */

const CASES = [
  "cal 2 2024",
  "cal 1 2024",
  "cal 12 2023",
  "cal 9 1752",
  "cal 2 1900",
  "cal 2 2000",
  "cal 1 1",
  "cal 12 9999",
  "cal 2 24",
  "cal 02 2024",
  "cal feb 2024",
  "cal -m March 2024",
  "cal -m 3 2024",
  "cal -m 3f 2024",
  "cal -m 3p 2024",
  "cal -m 3 4 2024",
  "cal -j 2 2024",
  "cal -j 12 2024",
  "cal 2 2024 -j",
  "cal -3 1 2024",
  "cal -3 5 2024",
  "cal -3 12 2023",
  "cal -3 -m 5 2024",
  "cal -j -3 1 2024",
  "cal -3 -A 1 2 2024",
  "cal -3 -B 1 2 2024",
  "cal -A 2 3 2024",
  "cal -B 1 -A 1 6 2024",
  "cal -A 2 -B 1 -A 1 2 2024",
  "cal -A 13 1 2024",
  "cal -A 1 12 9999",
  "cal -A 0 1 2024",
  "cal -A x 1 2024",
  "cal -B -2 2 2024",
  "cal -j -A 2 4 2024",
  "cal 2023",
  "cal 1752",
  "cal -y 2024",
  "cal -y 3 2024",
  "cal -j 2024",
  "cal -y -j 1999",
  "cal -y -A 2 2024",
  "cal -B 2 -y 2024",
  "cal -y -B 1 -A 1 2024",
  "cal -3 -y 2024",
  "cal -y -3 5 2024",
  "cal -d 2024-02",
  "cal -d 2024-02 -3",
  "cal -d 2024-05 -y",
  "cal -1 2 2024",
  "cal -b 2 2024",
  "cal -C 2 2024",
  "cal -- 2 2024",
  "cal 13 2024",
  "cal 0 2024",
  "cal 0",
  "cal 10000",
  "cal 1 0",
  "cal x",
  "cal 2x",
  "cal 1 x",
  "cal ''",
  "cal -m 0",
  "cal -m x 2024",
  "cal -m 13",
  "cal 1 2 3",
  "cal -3 2024",
  "cal -j -y 2024 -3",
  "cal -M 2 2024",
  "cal -w 2 2024",
  "cal -h",
  "cal -N",
  "cal -A",
  "cal --help",
];

/** ncal's vertical layout (the same program, by its name); -b and -C ask for cal's. */
const NCAL_CASES = [
  "ncal 2 2024",
  "ncal -3 1 2024",
  "ncal -3 12 2023",
  "ncal -j 2 2024",
  "ncal -w 2 2024",
  "ncal -S 2 2024",
  "ncal -M 2 2024",
  "ncal -w -M 1 2021",
  "ncal -b 2 2024",
  "ncal -C -3 5 2024",
  "ncal 2024",
  "ncal -j 2024",
  "ncal -w 2024",
  "ncal -M -w 2020",
  "ncal -w 2026",
  "ncal -w 2021",
  "ncal -w 12 2024",
  "ncal -w 1 2023",
  "ncal -j -w 3 2024",
  "ncal -A 4 1 2024",
  "ncal -h 2 2024",
  "ncal -J 2 2024",
  "ncal 9 1752",
  "ncal 1752",
  "ncal 13 2024",
  "ncal x",
];

/** Cases about today: the host's and the VM's clocks agree on the day. */
const NOW_CASES = ["cal", "cal -3", "cal -y", "cal -j", "cal -m 6", "cal -A 1 -B 1", "cal -3 -y", "cal -y -m 3", "cal -m 2f", "cal -m 2p", "ncal", "ncal -3 -w", "ncal -y -M"];

const haveCal = installReference("cal", "ncal");
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!haveCal)(`cal and ncal in the VM against Debian's (ncal 12.1.8) (${CASES.length + NCAL_CASES.length + NOW_CASES.length} cases)`, () => {
  it.each([...CASES, ...NCAL_CASES])("%s", async (command) => {
    expect(await twin.inVm(command)).toEqual(twin.onHost(command, { TZ: "UTC" }));
  }, CASE_DEADLINE_MS);

  it.each(NOW_CASES)("%s (today)", async (command) => {
    expect(await twin.inVm(command)).toEqual(twin.onHost(command, { TZ: "UTC" }));
  }, CASE_DEADLINE_MS);
});

describe("cal's version", () => {
  it("says it is agentos-vm's TypeScript cal", async () => {
    const r = await twin.inVm("cal --version");
    expect(r).toMatchObject({ exitCode: 0, stderr: "" });
    expect(r.stdout.split("\n")[0]).toBe("cal (agentos-vm) 0.1.0, compatible with ncal 12.1.8 (Debian)");
  }, CASE_DEADLINE_MS);

  it("says what ncal does not do", async () => {
    expect(await twin.inVm("ncal -e 2024")).toEqual({ exitCode: 1, stdout: "", stderr: "ncal: -e: not supported in agentos-vm's ncal\n" });
  }, CASE_DEADLINE_MS);
});
