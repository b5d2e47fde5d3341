import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentOs, ExecResult } from "../../src/index.js";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";

// What stdin, stdout, stderr and the devices look like to the commands (src/kernel/guest-type.ts).
// Each expected result is pinned by hand and, where this machine has bash and GNU coreutils, also
// compared with what they print for the same command in a directory holding the same files. An exec
// without `stdin` has /dev/null as its stdin, so the host runs with stdin from /dev/null too.

const files = { "a.txt": "needle here\n" };

const hostDir = mkdtempSync(join(tmpdir(), "agentos-stdio-"));
for (const [name, content] of Object.entries(files)) writeFileSync(join(hostDir, name), content);
afterAll(() => rmSync(hostDir, { recursive: true, force: true }));
const haveHost = spawnSync("bash", ["-c", "cat --version"], { encoding: "utf8" }).stdout?.includes("GNU coreutils");

/**
 * bash + GNU on this machine, with stdin /dev/null or a pipe, stdout and stderr pipes (as the VM's exec
 * has them; node's own stdio pipes are sockets, which /dev/stdin cannot reopen and which make bash read
 * ~/.bashrc).
 */
function onHost(command: string, stdin: string | undefined): ExecResult {
  // The stdin pipe comes from a process substitution: a feeder in the pipeline would make pipefail report
  // its SIGPIPE (141) whenever the command exits without reading.
  const input = stdin === undefined ? "" : ' < <(printf %s "$3")';
  const run = `bash --norc --noprofile -c "$2"${input} 2>&1 1>&3 3>&- | cat >&2`;
  const script = `set -o pipefail; cd "$1" || exit 99; { ${run}; } 3>&1 | cat`;
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", script, "bash", hostDir, command, stdin ?? ""], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", LC_ALL: "C" },
    encoding: "utf8",
  });
  return { exitCode: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

async function vmWithFiles(): Promise<AgentOs> {
  const vm = await createVm();
  await writeTree(vm, Object.fromEntries(Object.entries(files).map(([name, c]) => [`/workspace/${name}`, c])));
  return vm;
}

/** Runs `command` in /workspace of the VM, expects `expected`, and expects the host to print the same. */
async function expectLikeHost(vm: AgentOs, command: string, expected: ExecResult, stdin?: string): Promise<void> {
  expect(await vm.exec(`cd /workspace && ${command}`, stdin === undefined ? {} : { stdin })).toEqual(expected);
  if (haveHost) expect(onHost(command, stdin), `bash + GNU: ${command}`).toEqual(expected);
}

describe("/dev/stdin, /dev/stdout and /dev/stderr", () => {
  it("name the command's own stdin whatever it is: a file, a pipe, /dev/null", async () => {
    const vm = await vmWithFiles();
    await expectLikeHost(vm, "cat /dev/stdin < a.txt", result("needle here\n"));
    await expectLikeHost(vm, "echo piped | cat /dev/stdin", result("piped\n"));
    await expectLikeHost(vm, "cat a.txt /dev/stdin a.txt < a.txt", result("needle here\n".repeat(3)));
    await expectLikeHost(vm, "cat /dev/stdin; echo $?", result("0\n"));
    await expectLikeHost(vm, "cat /dev/stdin", result("given\n"), "given\n");
  });

  it("can be read by the tools that look before they read (tail, base64, wc, ls)", async () => {
    const vm = await vmWithFiles();
    await expectLikeHost(vm, "printf 'a\\nb\\n' | tail -n 1 /dev/stdin", result("b\n"));
    await expectLikeHost(vm, "tail -n 1 /dev/stdin < a.txt", result("needle here\n"));
    await expectLikeHost(vm, "echo x | base64 /dev/stdin", result("eAo=\n"));
    await expectLikeHost(vm, "echo x | wc -c /dev/stdin", result("2 /dev/stdin\n"));
    await expectLikeHost(vm, "ls /dev/stdin /dev/stdout /dev/stderr", result("/dev/stderr\n/dev/stdin\n/dev/stdout\n"));
  });

  it("cp /dev/stdin saves stdin to a file, from a pipe (mode 600, as the pipe's) or a file", async () => {
    const vm = await vmWithFiles();
    await expectLikeHost(vm, "echo saved | cp /dev/stdin copy1 && cat copy1", result("saved\n"));
    await expectLikeHost(vm, "cp /dev/stdin copy2 < a.txt && cat copy2", result("needle here\n"));
    expect((await vm.stat("/workspace/copy1")).mode & 0o777).toBe(0o600);
  });

  it("exist for the shell, and stdin is a file only when it is one", async () => {
    const vm = await vmWithFiles();
    await expectLikeHost(vm, "[ -e /dev/stdin ] && [ -e /dev/stdout ] && [ -e /dev/stderr ]; echo $?", result("0\n"));
    // The exec's stdin: /dev/null (a character device), or a pipe when `stdin` is given.
    await expectLikeHost(vm, "[ -f /dev/stdin ]; echo $?", result("1\n"));
    await expectLikeHost(vm, "[ -e /dev/stdin ] && [ ! -f /dev/stdin ] && [ ! -d /dev/stdin ]; echo $?", result("0\n"), "x");
  });

  it("/dev/stdout and /dev/stderr write to the command's own output", async () => {
    const vm = await vmWithFiles();
    await expectLikeHost(vm, "echo x | tee /dev/stderr", result("x\n", 0, "x\n"));
    await expectLikeHost(vm, "cp a.txt /dev/stdout", result("needle here\n"));
  });
});

describe("devices", () => {
  it("are not regular files to the shell", async () => {
    const vm = await vmWithFiles();
    await expectLikeHost(vm, "[ -f /dev/null ]; echo $?", result("1\n"));
    await expectLikeHost(vm, "for f in /dev/null /dev/zero /dev/urandom; do [ -f $f ] || [ ! -e $f ] || echo $f; done", result("/dev/null\n/dev/zero\n/dev/urandom\n"));
    await expectLikeHost(vm, "[ -r /dev/null ] && [ -w /dev/null ] && [ ! -d /dev/null ] && [ ! -s /dev/null ]; echo $?", result("0\n"));
  });

  it("keep working for the tools and for redirections", async () => {
    const vm = await vmWithFiles();
    await expectLikeHost(vm, "cat /dev/null; echo $?", result("0\n"));
    await expectLikeHost(vm, "cat < /dev/null; echo $?", result("0\n"));
    await expectLikeHost(vm, "wc -c < /dev/null", result("0\n"));
    await expectLikeHost(vm, "head -c 3 /dev/zero | wc -c", result("3\n"));
    await expectLikeHost(vm, "cp /dev/null empty && wc -c < empty", result("0\n"));
    await expectLikeHost(vm, "echo gone > /dev/null; set -C; echo gone > /dev/null; echo $?", result("0\n"));
    await expectLikeHost(vm, ". /dev/null; echo $?", result("0\n"));
    await expectLikeHost(vm, "grep x /dev/null; echo $?", result("1\n"));
  });

  it("are character devices to stat, and differ from GNU where the others cannot tell", async () => {
    const vm = await vmWithFiles();
    await expectLikeHost(vm, "stat -c '%F %A' /dev/null", result("character special file crw-rw-rw-\n"));
    // differs from GNU (c): uutils ls is shown the devices as regular files, so that the tools read them
    // (src/kernel/guest-type.ts); the shell is shown what they are.
    expect(await vm.exec("ls -l /dev/null | cut -c1; stat -c %F /dev/null; [ -c /dev/null ]; echo $?")).toEqual(
      result("-\ncharacter special file\n0\n"),
    );
    // find (a script) is shown the devices in directory entries too.
    await expectLikeHost(vm, "find /dev -maxdepth 1 -type f; find /dev/null /dev/zero -type c", result("/dev/null\n/dev/zero\n"));
  });
});

describe("no terminal", () => {
  it("an exec's stdin, stdout and stderr are not terminals", async () => {
    const vm = await vmWithFiles();
    await expectLikeHost(vm, "tty; echo $?", result("not a tty\n1\n"));
    await expectLikeHost(vm, "[ -t 0 ] || [ -t 1 ] || [ -t 2 ] || echo none", result("none\n"));
    await expectLikeHost(vm, "test -t 0 || echo piped", result("piped\n"), "input");
  });
});
