import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * ps (workers/commands/ps.ts) lists the VM's processes from the kernel's table in procps's formats. The
 * processes differ from the host's, so what is compared with the host's procps is what does not depend on
 * them: header lines and usage errors; the rows are checked against processes the test starts itself.
 */

const hostPs = spawnSync("ps", ["--version"], { encoding: "utf8" });
const procps = hostPs.status === 0 && hostPs.stdout.includes("procps-ng");

let vm: AgentOs;

beforeAll(async () => {
  vm = await AgentOs.create();
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
});

describe.skipIf(!procps)("ps: header lines and errors as the host's procps prints them", () => {
  const onHost = (args: string[]): { stdout: string; stderr: string; exitCode: number } => {
    const r = spawnSync("ps", args, { encoding: "utf8" });
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
  };
  it.each([[[]], [["aux"]], [["-ef"]], [["-o", "pid,cmd"]], [["-o", "pid,ppid,pgid,stat,time,etime,rss,vsz,user,uid,comm,args"]], [["-o", "pid=PROCESS,comm=NAME"]], [["u"]]])(
    "ps %j",
    async (args) => {
      const header = (out: string): string => out.split("\n")[0]!;
      const r = await vm.exec(["ps", ...args].map((a) => `'${a}'`).join(" "));
      expect(r.exitCode).toBe(0);
      expect(header(r.stdout)).toBe(header(onHost(args).stdout));
    },
    CASE_DEADLINE_MS,
  );

  it.each([[["--bogus"]], [["-o", "pid,bogus"]], [["-o", ""]], [["-p", "99999"]], [["-p", "x"]], [["-p", "0"]], [["--ppid", "0"]], [["-u", "nosuchuser"]], [["-p", "99999", "-o", "pid="]]])(
    "ps %j",
    async (args) => {
      const r = await vm.exec(["ps", ...args].map((a) => `'${a}'`).join(" "));
      expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual(onHost(args));
    },
    CASE_DEADLINE_MS,
  );
});

describe("ps: the VM's processes", () => {
  it("lists a process the API started, by pid, in every format, and kill ends it by that pid", async () => {
    const sleeper = vm.spawn("sleep", ["300"]);
    const pid = sleeper.pid;
    const byPid = await vm.exec(`ps -p ${pid} -o pid=,ppid=,comm=,args=`);
    expect(byPid).toMatchObject({ exitCode: 0, stderr: "", stdout: `${String(pid).padStart(5)}     0 sleep           sleep 300\n` });

    const ef = await vm.exec("ps -ef");
    expect(ef.stdout.split("\n")[0]).toBe("UID        PID  PPID  C STIME TTY          TIME CMD");
    expect(ef.stdout).toMatch(new RegExp(`^user +${pid} +0  0 \\d\\d:\\d\\d \\? +00:00:00 sleep 300$`, "m"));

    const aux = await vm.exec("ps aux");
    expect(aux.stdout).toMatch(new RegExp(`^user +${pid}  0\\.0  0\\.0 +\\d+ +\\d+ \\? +[RS] +\\d\\d:\\d\\d   0:00 sleep 300$`, "m"));

    const plain = await vm.exec("ps");
    expect(plain.stdout).toMatch(new RegExp(`^ +${pid} \\? +00:00:00 sleep$`, "m"));
    expect((await vm.exec(`ps -u user -o pid= | grep -c '^ *${pid}$'`)).stdout).toBe("1\n");
    expect(await vm.exec("ps -u root")).toMatchObject({ exitCode: 1, stdout: "  PID TTY          TIME CMD\n" });
    // ps lists itself, running.
    expect((await vm.exec("ps -o stat=,comm= -C ps")).stdout).toBe("R    ps\n");

    expect(await vm.exec(`kill ${pid}`)).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
    expect(await sleeper.wait()).toBe(128 + 15);
    const gone = await vm.exec(`ps -p ${pid}`);
    expect(gone).toMatchObject({ exitCode: 1, stdout: "  PID TTY          TIME CMD\n" });
  }, CASE_DEADLINE_MS);

  it("shows parents: a shell's child has the shell's pid as its PPID", async () => {
    const r = await vm.exec("sh -c 'ps -o pid=,ppid=,args=; true'");
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.trim().split("\n").map((l) => /^ *(\d+) +(\d+) (.*)$/.exec(l)!.slice(1));
    const sh = rows.find((row) => row[2] === "sh -c ps -o pid=,ppid=,args=; true")!;
    const ps = rows.find((row) => row[2] === "ps -o pid=,ppid=,args=")!;
    expect(sh).toBeDefined();
    expect(ps[1]).toBe(sh[0]);
    // --ppid selects the children of a pid.
    const children = await vm.exec("sh -c 'ps --ppid $$ -o comm=; true'");
    expect(children).toMatchObject({ exitCode: 0, stdout: "ps\n" });
  }, CASE_DEADLINE_MS);

  it("cuts command lines that together outgrow the kernel's reply, and still lists every process", async () => {
    const long = "x".repeat(150_000);
    const cats = [vm.spawn("cat", ["-", `${long}1`]), vm.spawn("cat", ["-", `${long}2`])];
    try {
      const r = await vm.exec(`ps -o pid=,args= -p ${cats.map((c) => c.pid).join(",")}`);
      expect(r.exitCode).toBe(0);
      const lines = r.stdout.trim().split("\n");
      expect(lines.map((l) => /^ *(\d+) /.exec(l)![1])).toEqual(cats.map((c) => String(c.pid)));
      // Each cut to 4 KiB: "cat - " and the first 4,090 characters of the long argument.
      for (const line of lines) expect(line.replace(/^ *\d+ /, "")).toBe(`cat - ${"x".repeat(4090)}`);
    } finally {
      for (const c of cats) c.closeStdin();
      for (const c of cats) await c.wait();
    }
  }, CASE_DEADLINE_MS);

  it("says what it is", async () => {
    const r = await vm.exec("ps --version");
    expect(r.stdout.split("\n")[0]).toMatch(/^ps \(agentos-vm\) \S+, compatible with procps-ng 4\.0\.2$/);
  }, CASE_DEADLINE_MS);
});
