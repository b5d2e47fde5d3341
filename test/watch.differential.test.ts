import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, cpuMsSince, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, installReference } from "./host-twin.js";

/**
 * The VM's watch (workers/commands/watch.ts) against the host's procps-ng watch. procps's watch needs a terminal
 * (curses); on the host it runs with TERM=dumb and its output to a pipe, where it draws its first row after
 * clearing the 80 × 24 screen with blanks, then a carriage return. The VM's writes each screen as lines. So what
 * is compared is: exit status and stderr of every case, and the first row of the first screen (the header, or
 * with -t the command's first line), the clock's seconds aside; each case ends by itself (-g, -e, -q).
 */

/** Cases that end by themselves: their exit status, stderr and first row agree. */
const CASES = [
  "rm -f n; watch -n 0.1 -g 'cat n 2>/dev/null; echo 1 >> n'",
  "rm -f n; watch -n 0.1 --chgexit 'cat n 2>/dev/null | wc -l; echo 1 >> n'",
  "rm -f n; watch -n 0.1 -t -g 'cat n 2>/dev/null; echo 1 >> n'",
  "watch -n 0.1 -e 'echo bad; exit 3'",
  "watch -n 0.1 -t --errexit 'false'",
  "watch -n 0.1 -q 2 -t 'echo same'",
  "watch -n 0.1 --equexit 2 'echo same'",
  "watch -n 0.01 -q 1 -t 'echo clamped'",
  "WATCH_INTERVAL=0.2 watch -q 1 'echo from env'",
  "watch -n 0.1 -q 1 -x echo exec form",
  "watch -n 0.1 -q 1 -t 'printf \"a\\tb\\n\"'",
  "watch -n 0.1 -q 1 -t 'echo to stderr >&2'",
  "watch -n 0.1 -q 1 'echo a long command line that does not fit the header row beside the host name and the time'",
  "watch -n 0.1 -q 1 -w -b -p -t 'echo flags'",
];

/** Usage errors, --help and --version's exit status: the whole outcome agrees (--version aside). */
const ERRORS = ["watch", "watch -x", "watch --bogus", "watch -k true", "watch -n", "watch -n x true", "watch -q x true", "WATCH_INTERVAL=x watch true", "watch -h", "watch --help"];

const haveWatch = installReference("watch", "procps");
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
  // The header names the host: the VM's is the host's for the comparison.
  await twin.vm.writeFile("/etc/hostname", `${hostname()}\n`);
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

/** The time at the end of the header, as one placeholder of the same width. */
const clock = (row: string): string => row.replace(/\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/, "DAY MON DD HH:MM:SS YEAR");
/** The host's first row: after the blanks that clear 24 rows of 80 columns, up to the carriage return. */
const hostFirstRow = (out: string): string => out.slice(80 * 24).split("\r")[0]!.trimEnd();

describe.skipIf(!haveWatch)(`watch in the VM against procps-ng watch 4.0.2 (${CASES.length + ERRORS.length} cases)`, () => {
  it.each(CASES)("%s", async (command) => {
    const host = twin.onHost(`${command} < /dev/null`, { TERM: "dumb" });
    const vm = await twin.inVm(`${command} < /dev/null`);
    expect({ exitCode: vm.exitCode, stderr: vm.stderr }).toEqual({ exitCode: host.exitCode, stderr: host.stderr });
    expect(clock(vm.stdout.split("\n")[0]!)).toBe(clock(hostFirstRow(host.stdout)));
  }, CASE_DEADLINE_MS);

  it.each(ERRORS)("%s", async (command) => {
    expect(await twin.inVm(`${command} < /dev/null`)).toEqual(twin.onHost(`${command} < /dev/null`, { TERM: "dumb" }));
  }, CASE_DEADLINE_MS);
});

describe("watch's screens in the VM", () => {
  it("writes one screen per run, header, blank line and output, until the output changes (-g)", async () => {
    const r = await twin.inVm("rm -f n; touch n; watch -n 0.1 -g 'cat n; echo 1 >> n'");
    expect(r.exitCode).toBe(0);
    const screens = r.stdout.replace(/\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\n/g, "TIME\n");
    const head = `${"Every 0.1s: cat n; echo 1 >> n".padEnd(80 - `${hostname()}: `.length - 24)}${hostname()}: TIME\n\n`;
    expect(screens).toBe(`${head}${head}1\n`);
  }, CASE_DEADLINE_MS);

  it("wraps long lines at COLUMNS (cuts them with -w), expands tabs, keeps LINES rows", async () => {
    await twin.vm.writeFile("/tmp/w.txt", `${"x".repeat(25)}\n\tTab\n1\n2\n3\n4\n5\n`);
    expect(await twin.inVm("COLUMNS=10 LINES=5 watch -t -q 1 -n 0.1 'cat /tmp/w.txt'")).toEqual({
      exitCode: 0,
      stderr: "",
      stdout: "xxxxxxxxxx\nxxxxxxxxxx\nxxxxx\n        Ta\nb\n".repeat(2),
    });
    expect(await twin.inVm("COLUMNS=10 LINES=5 watch -t -w -q 1 -n 0.1 'cat /tmp/w.txt'")).toEqual({
      exitCode: 0,
      stderr: "",
      stdout: "xxxxxxxxxx\n        Ta\n1\n2\n3\n".repeat(2),
    });
  }, CASE_DEADLINE_MS);

  it("-e: the failing screen, watch's message, status 8; a timeout ends a watch that never exits", async () => {
    const r = await twin.inVm("watch -t -n 0.1 -e 'echo out; exit 2' < /dev/null");
    expect(r).toEqual({ exitCode: 8, stderr: "", stdout: "out\ncommand exit with a non-zero status, press a key to exit\n" });
    const t = await twin.inVm("timeout 1 watch -t -n 0.2 'echo tick'; echo status $?");
    // How many screens fit in the second depends on the machine's load; that timeout ends it does not.
    expect(t.stdout).toMatch(/^(tick\n)*status 124\n$/);
  }, CASE_DEADLINE_MS);

  it("waits on the kernel's timers: two seconds of watching cost far less than two seconds of CPU", async () => {
    const start = process.cpuUsage();
    const r = await twin.inVm("timeout 2 watch -t -n 1 true; echo status $?");
    expect(r.stdout).toBe("status 124\n");
    // A loop that polled the clock would keep a core busy for the two seconds; two runs of `true` take a fraction.
    expect(cpuMsSince(start)).toBeLessThan(1500);
  }, CASE_DEADLINE_MS);

  it("says it is agentos-vm's TypeScript watch", async () => {
    const r = await twin.inVm("watch --version");
    expect(r.stdout.split("\n")[0]).toBe("watch (agentos-vm) 0.1.0, compatible with procps-ng 4.0.2");
  }, CASE_DEADLINE_MS);
});
