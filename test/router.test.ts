import { describe, expect, it } from "vitest";
import type { AgentOs } from "../src/index.js";
import { createVm, result } from "./helpers.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";
import { ROUTER_SHELLS_MAX } from "../src/limits.js";

/** Runs `command` and checks that the router served it. */
async function routed(vm: AgentOs, command: string, options: Parameters<AgentOs["exec"]>[1] = {}) {
  const before = vm.stats().router.routed;
  const r = await vm.exec(command, options);
  expect(vm.stats().router.routed, `${command} was routed`).toBe(before + 1);
  return r;
}

describe("exec router: no state carries over between commands", () => {
  it.each([
    ["cd", "cd /tmp", "pwd", "/home/user\n"],
    ["variables", "X=1", 'echo "[${X-unset}]"', "[unset]\n"],
    ["exports", "export Y=2", "env | grep -c '^Y=' || true", "0\n"],
    ["functions", "f() { echo f; }", "type f >/dev/null 2>&1 && echo defined || echo none", "none\n"],
    ["aliases", "alias ll='echo aliased'", "alias ll >/dev/null 2>&1 && echo defined || echo none", "none\n"],
    ["set -e", "set -e", "false; echo continued", "continued\n"],
    ["set -u", "set -u", 'echo "[$UNSET_VAR]"', "[]\n"],
    ["traps", "trap 'echo trapped' EXIT", "echo plain", "plain\n"],
    ["shell options", "shopt -s nullglob", "echo /nonexistent*", "/nonexistent*\n"],
    ["positional parameters", "set -- a b c", 'echo "$#"', "0\n"],
    ["exit", "exit 5", "echo still here", "still here\n"],
    ["reading all of stdin", "cat >/dev/null", "echo next", "next\n"],
  ])("%s", async (_name, first, second, expected) => {
    const vm = await createVm();
    await routed(vm, first, { stdin: "some input\n" });
    expect(await routed(vm, second)).toEqual(result(expected));
  });

  it("exec's redirections and umask hold for the command only", async () => {
    const vm = await createVm();
    const a = await routed(vm, "umask 077; exec >/tmp/x; echo after");
    const b = await routed(vm, "umask 077; exec >/tmp/x; echo after");
    expect(a).toEqual(b);
    expect(a.stdout).toBe("");
    expect(await routed(vm, "cat /tmp/x; umask")).toEqual(result("after\n0022\n"));
  });
});

describe("exec router: results", () => {
  it("output that looks like the router's own text is just output", async () => {
    const vm = await createVm();
    const tricky = "( eval ' ); : >/dev/.agentos-status-0/0\\n";
    const r = await routed(vm, `printf '%s' "${tricky}"; printf '\\0\\377 no newline'`);
    expect(r.stdout).toBe(`${tricky}\0\uFFFD no newline`);
    expect(r.exitCode).toBe(0);
  });

  it("a command cannot fake its status through the router's paths", async () => {
    const vm = await createVm();
    const r = await routed(vm, ": > /dev/.agentos-status-0/0; echo $?; exit 3");
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe("1\n");
  });

  it("exit codes, stdin, cwd and env go through the router", async () => {
    const vm = await createVm();
    expect(await routed(vm, "exit 42")).toEqual(result("", 42));
    expect(await routed(vm, "tr a-z A-Z", { stdin: "piped\n" })).toEqual(result("PIPED\n"));
    expect(await routed(vm, "pwd; ls", { cwd: "/etc" })).toEqual(result("/etc\ngroup\nhostname\nhosts\nnsswitch.conf\npasswd\npip.conf\nresolv.conf\nssl\n"));
    expect(await routed(vm, 'echo "$GREETING $HOME"; env | grep GREETING', { env: { GREETING: "it's" } })).toEqual(
      result("it's /home/user\nGREETING=it's\n"),
    );
    expect(await routed(vm, 'echo "[${GREETING-unset}]"')).toEqual(result("[unset]\n"));
  });

  it("streams output as it is written", async () => {
    const vm = await createVm();
    const chunks: string[] = [];
    const r = await routed(vm, "echo one; echo two >&2; echo three", {
      onStdout: (c) => chunks.push(`out:${Buffer.from(c).toString()}`),
      onStderr: (c) => chunks.push(`err:${Buffer.from(c).toString()}`),
    });
    expect(chunks).toEqual(["out:one\n", "err:two\n", "out:three\n"]);
    expect(r).toEqual(result("one\nthree\n", 0, "two\n"));
  });

  it("a command that hangs is ended by its timeout; its shell is replaced and the next command is right", async () => {
    const vm = await createVm();
    await routed(vm, "true"); // the deadline should not be spent starting the shell (seconds on a loaded machine)
    const r = await routed(vm, "echo started; while :; do :; done", { timeout: 1000 });
    expect(r).toEqual(result("started\n", 124, "agentos: timed out after 1000 ms\n"));
    expect(await routed(vm, "echo fine; pwd")).toEqual(result("fine\n/home/user\n"));
    expect(vm.stats().router.shellsStarted).toBe(2);
  });

  it("an aborted command ends with 130; the router goes on", async () => {
    const vm = await createVm();
    const ac = new AbortController();
    const pending = routed(vm, "cat", { stdin: "x", signal: ac.signal, onStdout: () => ac.abort() });
    expect(await pending).toEqual(result("x", 130, "agentos: aborted\n"));
    expect(await routed(vm, "echo ok")).toEqual(result("ok\n"));
  });

  it("a shell that cannot start runs nothing: the command runs in a fresh shell, which says why", async () => {
    // 1 MiB of memory a process: no shell starts, the router's or a fresh one. The exec's result is the fresh
    // shell's, message and status, never an empty exit 1; the same for a command too long for argv, which goes
    // to a shell of its own through the feed.
    const limits = { maxProcessMemoryBytes: 1024 * 1024 };
    const routed = await createVm({ limits, execRouter: true });
    const fresh = await createVm({ limits, execRouter: false });
    const expected = await fresh.exec("echo hi; echo there");
    expect(expected.exitCode).toBe(1);
    expect(expected.stderr).toMatch(/^sh: out of memory: needs \d+ bytes, process limit 1048576 bytes\n$/);
    expect(await routed.exec("echo hi; echo there")).toEqual(expected);
    expect(await routed.exec("echo hi; echo there")).toEqual(expected);
    expect(await fresh.exec(`echo ${"x".repeat(300_000)} | wc -c`)).toEqual(expected);
  });

  it("concurrent execs run concurrently, each in its own shell", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const vm = await createVm({
      commands: {
        wait_gate: async () => (await gate, 0),
        open_gate: () => (open(), 0),
      },
    });
    // If the second exec waited for the first, the first would never end (its timeout would).
    const [a, b] = await Promise.all([
      vm.exec("wait_gate; echo passed", { timeout: RUN_DEADLINE_MS }),
      vm.exec("open_gate; echo opened"),
    ]);
    expect([a, b]).toEqual([result("passed\n"), result("opened\n")]);
    expect(vm.stats().router).toEqual({ routed: 2, direct: 0, fresh: 0, shellsStarted: 2 });
  });

  it("the router's shells are not the VM's processes", async () => {
    const vm = await createVm();
    await routed(vm, "true");
    expect(vm.allProcesses()).toEqual([]);
  });

  it("a background job belongs to its exec, which ends with it: it cannot reach a later exec", async () => {
    const vm = await createVm();
    // As with bash, whose job is a process of the exec's process group, which the exec waits for.
    expect(await routed(vm, "(sleep 0.2; echo job) & echo one")).toEqual(result("one\njob\n"));
    expect(await routed(vm, "sleep 0.4; echo two")).toEqual(result("two\n"));
    expect(await routed(vm, "(echo mine) & wait; echo three")).toEqual(result("mine\nthree\n"));
    // `&&`, `2>&1`, `&>` and `|&` are not background jobs: those commands are routed.
    expect(await routed(vm, "echo a && ls /nope 2>&1 | cat &>/dev/null; echo b")).toEqual(result("a\nb\n"));
  });

  it("a routed command sees what `sh -c` would: its line numbers, subshell depth and flags", async () => {
    const vm = await createVm();
    expect(await routed(vm, "echo $LINENO $BASH_SUBSHELL $-; (echo $BASH_SUBSHELL)")).toEqual(result("1 0 hBc\n1\n"));
  });

  it("50 execs compile nothing new and read no binary again", async () => {
    const vm = await createVm();
    const commands = ["echo hi", "ls /", "cat /etc/hostname", "printf 'b\\na\\n' | sort", "wc -c /etc/passwd"];
    for (const c of commands) await vm.exec(c);
    const before = vm.stats().modules;
    for (let i = 0; i < 50; i++) expect((await vm.exec(commands[i % commands.length]!)).exitCode).toBe(0);
    const after = vm.stats().modules;
    expect(after.compiles).toBe(before.compiles);
    expect(after.fileReads).toBe(before.fileReads);
    expect(after.instantiations).toBeGreaterThan(before.instantiations);
  });
});

/** Runs `command` directly (a simple command) and through the shell (the same with `;` after it): both must agree. */
async function bothWays(vm: AgentOs, command: string, options: Parameters<AgentOs["exec"]>[1] = {}) {
  const before = vm.stats().router.direct;
  const direct = await vm.exec(command, options);
  expect(vm.stats().router.direct, `${command} was started directly`).toBe(before + 1);
  const shell = await vm.exec(`${command};`, options);
  expect(vm.stats().router.direct, `${command}; went through the shell`).toBe(before + 1);
  expect(direct).toEqual(shell);
  return direct;
}

describe("exec router: a simple command starts its program without a shell", () => {
  it("with the words, environment, directory and stdin the shell would give it", async () => {
    const vm = await createVm();
    const env = { A: "1", A0: "2", Z_: "three words", LANG: "C.UTF-8" };
    // As bash, the shell exports PWD.
    expect((await bothWays(vm, "env", { env, cwd: "/tmp" })).stdout).toContain("A0=2\nA=1\nHOME=/home/user\nLANG=C.UTF-8\nLOGNAME=user\nPATH=/usr/local/bin:/usr/bin:/bin\nPWD=/tmp\n");
    expect(await bothWays(vm, `/usr/bin/printf '%s|' a "b  c" 'd "e"' --k=v x,y:z@1%2+3 ''`)).toEqual(result('a|b  c|d "e"|--k=v|x,y:z@1%2+3||'));
    expect(await bothWays(vm, "tr a-z A-Z", { stdin: "piped\n" })).toEqual(result("PIPED\n"));
    expect(await bothWays(vm, "ls -a", { cwd: "/etc" })).toEqual(result(".\n..\ngroup\nhostname\nhosts\nnsswitch.conf\npasswd\npip.conf\nresolv.conf\nssl\n"));
  });

  it("exit codes, signals, and programs that cannot run are as the shell reports them", async () => {
    const vm = await createVm();
    expect((await bothWays(vm, "ls /nope")).exitCode).toBe(2);
    expect((await bothWays(vm, `node -e 'process.kill(process.pid, "SIGTERM")'`)).exitCode).toBe(143);
    // The shell says why a program cannot run: those go to it.
    await vm.writeFile("/tmp/plain", "echo x\n");
    for (const c of ["no-such-command a", "/tmp/plain", "/etc"]) {
      const before = vm.stats().router.direct;
      const r = await vm.exec(c);
      expect(vm.stats().router.direct).toBe(before);
      expect(r).toEqual(await vm.exec(`${c};`));
    }
  });

  it("anything with shell syntax, a builtin or an assignment goes to the shell", async () => {
    const vm = await createVm();
    for (const c of ["echo hi", "X=1 env", "ls *", "ls ~", "ls $HOME", 'ls "$HOME"', "ls >/dev/null", "ls # note", "cd /tmp", "time ls", "ls\nls"]) {
      const before = vm.stats().router.direct;
      await vm.exec(c);
      expect(vm.stats().router.direct, c).toBe(before);
    }
  });
});

describe("sh -c with one simple command runs the program in the shell's place, as bash execs it", () => {
  /** `argv` run by vm.spawn: its exit code and its output, stderr marked. */
  async function spawned(vm: AgentOs, argv: string[]) {
    let out = "";
    const p = vm.spawn(argv[0]!, argv.slice(1), {
      cwd: "/tmp",
      onStdout: (d) => (out += Buffer.from(d).toString()),
      onStderr: (d) => (out += `ERR:${Buffer.from(d).toString()}`),
    });
    return { code: await p.wait(), out, command: vm.listProcesses().find((q) => q.pid === p.pid)?.command };
  }

  it("with what the shell would give it; a program that cannot start is the shell's to report", async () => {
    const vm = await createVm();
    for (const script of ["env", "ls -a /etc", "no-such-command x", "/etc", "printf x"]) {
      const direct = await spawned(vm, ["sh", "-c", script]);
      const shell = await spawned(vm, ["sh", "-c", `${script};`]);
      expect({ code: direct.code, out: direct.out }, script).toEqual({ code: shell.code, out: shell.out });
    }
    expect((await spawned(vm, ["sh", "-c", "ls /etc"])).command).toBe("ls");
    expect((await spawned(vm, ["sh", "-c", "ls /etc;"])).command).toBe("sh");
  });

  it("a guest's execSync of a program starts it without a shell", async () => {
    const vm = await createVm();
    const r = await vm.exec(`node -e "const { execSync } = require('child_process'); console.log(execSync('ls /etc').toString() === execSync('ls /etc;').toString())"`);
    expect(r).toEqual(result("true\n"));
  });
});

describe("exec router: shells of the host process", () => {
  it(`past ROUTER_SHELLS_MAX (${ROUTER_SHELLS_MAX}) shells, a VM that needs one takes the place of the one idle longest`, async () => {
    const vms: AgentOs[] = [];
    for (let i = 0; i <= ROUTER_SHELLS_MAX; i++) {
      const vm = await createVm();
      // `;` makes it a shell's command (a simple command would start its program directly).
      expect(await routed(vm, `echo ${i};`)).toEqual(result(`${i}\n`));
      vms.push(vm);
    }
    // Every VM was served by a shell of its own, the last one's in place of the first one's.
    expect(vms.map((vm) => vm.stats().router.fresh)).toEqual(vms.map(() => 0));
    expect(vms.map((vm) => vm.stats().router.shellsStarted)).toEqual(vms.map(() => 1));
    // The first VM's shell was let go: its next command starts one, in place of the second VM's.
    expect(await routed(vms[0]!, "echo again;")).toEqual(result("again\n"));
    expect(vms[0]!.stats().router.shellsStarted).toBe(2);
    expect(await routed(vms[2]!, "echo kept;")).toEqual(result("kept\n"));
    expect(vms[2]!.stats().router.shellsStarted).toBe(1);
  });
});
