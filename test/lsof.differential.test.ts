import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, installReference } from "./host-twin.js";

/**
 * The VM's lsof (workers/commands/lsof.ts) against the host's lsof 4.95. The processes differ (pids, devices,
 * inodes, and the fd numbers the VM's shell and commands use), so the host is compared on controlled cases: a
 * shell that holds a known file open, an nc that listens on a known port; for the row of that file what must agree
 * is the command, the access mode, TYPE, SIZE/OFF, NODE for a socket, and NAME, and the header's columns. Errors
 * agree whole. The VM's own rows are then checked exactly.
 */

const PORT = 44000 + Math.floor(Math.random() * 2000) * 5;
const haveLsof = installReference("lsof", "lsof");
const haveNc = installReference("nc", "netcat-openbsd");
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({ "held.txt": "twelve bytes" });
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

/** A row's columns, and the FD column's access mode without its number. */
const columns = (row: string): string[] => {
  const c = row.trim().split(/\s+/);
  const name = c.slice(8).join(" ");
  return [c[0]!, c[3]!.replace(/^\d+/, ""), c[4]!, c[6]!, ...(c[4]!.startsWith("IPv") ? [c[7]!] : []), name];
};
const rowNamed = (out: string, suffix: string): string => out.split("\n").find((l) => l.endsWith(suffix)) ?? `(no row for ${suffix} in ${JSON.stringify(out)})`;

describe.skipIf(!haveLsof)("lsof in the VM against the host's lsof 4.95", () => {
  it("a file the shell holds open: the header's columns and the row's command, mode, type, size and name", async () => {
    // A shell of its own (sh -c), which holds nothing else: the VM's exec may reuse one shell between calls.
    const script = "sh -c 'exec 3< held.txt; lsof -a -p $$'";
    const host = twin.onHost(script);
    const vm = await twin.inVm(script);
    expect(vm.exitCode).toBe(host.exitCode);
    expect(vm.stdout.split("\n")[0]!.split(/\s+/)).toEqual(host.stdout.split("\n")[0]!.split(/\s+/));
    expect(columns(rowNamed(vm.stdout, "/held.txt"))).toEqual(columns(rowNamed(host.stdout, "/held.txt")));
    expect(columns(rowNamed(vm.stdout, "/held.txt"))).toEqual(["sh", "r", "REG", "12", `${twin.dir}/held.txt`]);
  }, CASE_DEADLINE_MS);

  it("the same file by name (-a -p narrows it to the shell), and -t", async () => {
    for (const script of ["sh -c 'exec 3< held.txt; lsof -a -p $$ held.txt'", "sh -c 'exec 3< held.txt; lsof -t -a -p $$ held.txt | sed \"s/^$$\\$/SHELL/\"'"]) {
      const host = twin.onHost(script);
      const vm = await twin.inVm(script);
      expect(vm.exitCode, script).toBe(host.exitCode);
      const lines = (out: string): string[][] => out.trim().split("\n").slice(script.includes("-t") ? 0 : 1).map((l) => (script.includes("-t") ? [l] : columns(l)));
      expect(lines(vm.stdout), script).toEqual(lines(host.stdout));
    }
  }, CASE_DEADLINE_MS);

  it.skipIf(!haveNc).each([
    ["-i TCP:$P", "a listening socket by protocol and port"],
    ["-i :$P -n", "by port, numeric"],
    ["-i 4TCP@127.0.0.1:$P", "by family, protocol, host and port"],
  ])("lsof %s: %s", async (selection) => {
    const script = `P=${PORT}; nc -lv 127.0.0.1 $P 2>&1 >/dev/null | { read -r l; lsof ${selection}; echo "status $?"; nc -z 127.0.0.1 $P; cat >/dev/null; }`;
    const host = twin.onHost(script);
    const vm = await twin.inVm(script);
    const rows = (out: string): string[][] => out.trim().split("\n").slice(1, -1).map(columns);
    expect(vm.stdout.split("\n")[0]!.split(/\s+/)).toEqual(host.stdout.split("\n")[0]!.split(/\s+/));
    expect(rows(vm.stdout)).toEqual(rows(host.stdout));
    expect(vm.stdout.trim().split("\n").at(-1)).toBe("status 0");
    expect(host.stdout.trim().split("\n").at(-1)).toBe("status 0");
  }, CASE_DEADLINE_MS);

  it.each(["lsof /nonexistent", "lsof -t /nonexistent", "lsof -p 999999", "lsof -t -p 999999", "lsof -i TCP:1 -a -p 999999"])("%s", async (command) => {
    expect(await twin.inVm(command)).toEqual(twin.onHost(command));
  }, CASE_DEADLINE_MS);
});

describe("lsof: the VM's open files", () => {
  it("lists a process's working and root directories and fds in lsof's columns", async () => {
    const r = await twin.inVm("sh -c 'exec 3< held.txt; lsof -a -p $$ -d 0-9'");
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^COMMAND +PID USER +FD +TYPE DEVICE SIZE\/OFF +NODE NAME$/);
    // 3 is the root directory every WebAssembly process of the VM has open (WASI's preopen).
    expect(lines.slice(1, 5).map((l) => l.split(/\s+/).slice(3, 5).join(" "))).toEqual(["0u CHR", "1w FIFO", "2w FIFO", "3r DIR"]);
    expect(lines.find((l) => l.endsWith("held.txt"))).toMatch(new RegExp(`^sh +\\d+ user +\\d+r +REG +\\d+,\\d+ +12 +\\d+ ${twin.dir}/held.txt$`));
    const dirs = await twin.inVm("lsof -a -p $$ -d cwd,rtd");
    expect(dirs.stdout.trimEnd().split("\n").slice(1).map((l) => l.split(/\s+/).slice(3, 5).join(" "))).toEqual(["cwd DIR", "rtd DIR"]);
  }, CASE_DEADLINE_MS);

  it("shows a connection's two ends and its state; -t lists the pids once", async () => {
    const r = await twin.inVm(
      "nc -lv 127.0.0.1 7000 2>&1 >/dev/null | { read -r l; { sleep 30 | nc 127.0.0.1 7000; } & read -r c; lsof -i TCP:7000 -n; lsof -t -i TCP:7000 | wc -l; kill %1; cat >/dev/null; }",
    );
    const names = r.stdout
      .split("\n")
      .filter((l) => l.includes("TCP "))
      .map((l) => l.slice(l.indexOf("TCP ") + 4))
      .sort();
    expect(names).toEqual([expect.stringMatching(/^127\.0\.0\.1:49\d+->127\.0\.0\.1:7000 \(ESTABLISHED\)$/), "127.0.0.1:7000 (LISTEN)", expect.stringMatching(/^127\.0\.0\.1:7000->127\.0\.0\.1:49\d+ \(ESTABLISHED\)$/)]);
    expect(r.stdout.trimEnd().split("\n").at(-1)!.trim()).toBe("2");
  }, CASE_DEADLINE_MS);

  it("says it is agentos-vm's TypeScript lsof", async () => {
    const r = await twin.inVm("lsof -v");
    expect(r).toMatchObject({ exitCode: 0, stdout: "" });
    expect(r.stderr.split("\n")[0]).toBe("lsof (agentos-vm) 0.1.0, compatible with lsof 4.95");
  }, CASE_DEADLINE_MS);
});
