/**
 * The `agentos` CLI (src/cli/), run as a person or a script would: a child process from source (compiled
 * once, as the workers run it), its exit status and output; an interactive session through a pseudo-terminal
 * (`script` from util-linux) and in tmux (send-keys, capture-pane). Each part that needs a host tool is
 * skipped, saying so, when the tool is absent.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseCli, UsageError } from "../src/cli/args.js";
import { packageVersion } from "../src/cli/version.js";
import { entryPoint } from "../src/pool/entry-point.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";

const ROOT = resolve(import.meta.dirname, "..");
// The sources compiled once, as the runtime's workers run them (src/pool/entry-point.ts).
const MAIN = fileURLToPath(entryPoint("src/cli/main"));
const NODE_ARGS = [MAIN];
const TMP = mkdtempSync(join(tmpdir(), "agentos-cli-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

function has(tool: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
}
const haveTmux = has("tmux");
const haveScript = has("script") && spawnSync("script", ["-qefc", "true", "/dev/null"]).status === 0;
if (!haveTmux) console.warn("cli.test.ts: tmux not found; the tmux session test is skipped (apt-get install tmux)");
if (!haveScript) console.warn("cli.test.ts: `script` (util-linux) not found; the pseudo-terminal test is skipped");

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end; `input` is written to a pipe on its stdin (else stdin is /dev/null). */
function cli(args: string[], input?: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...NODE_ARGS, ...args], {
      cwd: ROOT,
      env: { ...process.env, AGENTOS_HISTFILE: "" },
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d));
    child.stderr!.on("data", (d: Buffer) => (stderr += d));
    child.on("error", fail);
    child.on("close", (status) => done({ status, stdout, stderr }));
    if (input !== undefined) child.stdin!.end(input);
  });
}

// Each test starts its own CLI processes: they run side by side.
describe("agentos -c and options", { concurrent: true }, () => {
  it("runs one command and exits with its status, stdout and stderr apart", async () => {
    const r = await cli(["-c", "echo out; echo err >&2; exit 3"]);
    expect(r).toEqual({ status: 3, stdout: "out\n", stderr: "err\n" });
  });

  it("--json prints one object with the result", async () => {
    const r = await cli(["--json", "-c", "printf 'a\\nb'; echo e >&2; exit 4"]);
    expect(r.status).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({ exitCode: 4, stdout: "a\nb", stderr: "e\n" });
  });

  it("--mount shows a host directory read-only; --cwd starts there", async () => {
    const host = join(TMP, "project");
    execFileSync("mkdir", ["-p", host]);
    writeFileSync(join(host, "notes.txt"), "from the host\n");
    const r = await cli(["--mount", `${host}:/mnt/project`, "--mount", `${host}:/mnt/p:ro`, "--cwd", "/mnt/project", "-c", "pwd; cat notes.txt; ls /mnt/p; echo x > new.txt"]);
    expect(r.stdout).toBe("/mnt/project\nfrom the host\nnotes.txt\n");
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(r.status).not.toBe(0);
  });

  it("--env adds to the VM's environment; --limit sets one of its limits", async () => {
    const r = await cli(["--env", "GREETING=hi there", "--limit", "maxFsBytes=64K", "-c", "echo $GREETING; head -c 100000 /dev/zero > /tmp/f"]);
    expect(r.stdout).toBe("hi there\n");
    expect(r.stderr).toMatch(/No space left on device/);
    expect(r.status).toBe(1);
  });

  it("--mount :rw writes to the host directory, :overlay keeps the changes in the VM", async () => {
    const host = join(TMP, "rw-project");
    execFileSync("mkdir", ["-p", host]);
    writeFileSync(join(host, "notes.txt"), "from the host\n");
    const r = await cli(["--mount", `${host}:/mnt/rw:rw`, "--mount", `${host}:/mnt/o:overlay`, "-c", "echo vm > /mnt/o/notes.txt; echo new > /mnt/rw/new.txt; cat /mnt/o/notes.txt /mnt/rw/notes.txt"]);
    expect(r.stdout).toBe("vm\nfrom the host\n");
    expect(r.status).toBe(0);
    expect(readFileSync(join(host, "new.txt"), "utf8")).toBe("new\n");
    expect(readFileSync(join(host, "notes.txt"), "utf8")).toBe("from the host\n");
  });

  it("rejects unknown options and bad values with usage and status 2", async () => {
    const unknown = await cli(["--frobnicate"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--frobnicate'/);
    expect(unknown.stderr).toMatch(/Usage: agentos/);
    const noCommand = await cli(["--json"]);
    expect(noCommand.status).toBe(2);
    expect(noCommand.stderr).toMatch(/--json needs -c/);
    // The other checks, without a process each.
    for (const args of [["--timeout", "soon", "-c", "true"], ["--timeout", "0"], ["--cwd", "relative"], ["--mount", "/nonexistent-dir:/mnt/x"], ["--mount", "nocolon"], ["stray"]])
      expect(() => parseCli(args), args.join(" ")).toThrow(UsageError);
    expect(parseCli(["--mount", `${TMP}:/mnt/a:b:ro`, "--timeout", "1500", "--cwd", "/tmp"])).toEqual({
      mcp: false, json: false, help: false, version: false, cwd: "/tmp", timeout: 1500,
      mounts: [{ hostDir: TMP, path: "/mnt/a:b", readOnly: true }], env: {}, limits: {},
    });
    expect(parseCli(["mcp", "--env", "A=1", "--env", "B=x=y", "--env", "C=", "--limit", "maxProcesses=16", "--limit", "maxVmMemoryBytes=1G", "--output-limit", "64k"])).toEqual({
      mcp: true, json: false, help: false, version: false, mounts: [],
      env: { A: "1", B: "x=y", C: "" }, limits: { maxProcesses: 16, maxVmMemoryBytes: 1024 ** 3 }, outputLimit: 65536,
    });
    for (const args of [["--output-limit", "10"], ["mcp", "--json"], ["mcp", "--limit", "maxProcesses=0"], ["mcp", "--limit", "maxProcesses"], ["mcp", "--output-limit", "1.5"], ["mcp", "--env", "NOVALUE"], ["mcp", "extra"]])
      expect(() => parseCli(args), args.join(" ")).toThrow(UsageError);
  });

  it("--help, --version; --timeout ends a command with 124", async () => {
    const help = await cli(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--mount HOST:\/VM\[:ro\|:rw\|:overlay\]/);
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
    expect(packageVersion()).toBe(version);
    const slow = await cli(["--timeout", "300", "-c", "sleep 20"]);
    expect(slow.status).toBe(124);
  });

  it("gives a piped stdin to the -c command", async () => {
    // A shell's pipe (a FIFO); a socket as child_process makes is not read (a caller may never close it).
    const command = [process.execPath, ...NODE_ARGS, "-c", "tr a-z A-Z"].map((a) => `'${a}'`).join(" ");
    const r = await new Promise<Run>((done, fail) => {
      const child = spawn("sh", ["-c", `printf 'shout\\n' | ${command}`], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d));
      child.stderr.on("data", (d: Buffer) => (stderr += d));
      child.on("error", fail);
      child.on("close", (status) => done({ status, stdout, stderr }));
    });
    expect(r).toEqual({ status: 0, stdout: "SHOUT\n", stderr: "" });
  });
});

describe("agentos with a script on stdin", () => {
  it("runs the lines in one VM: cd, exports, aliases, functions and $? persist; exit n ends it", async () => {
    const script = [
      "cd /tmp",
      "pwd",
      "export GREETING=hello",
      "alias shout='echo LOUD'",
      "greet() { echo \"$GREETING $1\"; }",
      "greet you; shout",
      "mkdir -p a/b && cd a/b && pwd",
      "cd -",
      "cd; pwd",
      "false",
      "echo status=$?",
      "for i in 1 2; do",
      "  echo i$i",
      "done",
      "unset GREETING; echo \"[${GREETING-unset}]\"",
      "exit 5",
      "echo never",
    ].join("\n");
    const r = await cli([], `${script}\n`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("/tmp\nhello you\nLOUD\n/tmp/a/b\n/tmp\n/home/user\nstatus=1\ni1\ni2\n[unset]\n");
    expect(r.status).toBe(5);
  });
});

/** The screen (or transcript) has `pattern` within `ms`. */
async function waitFor(read: () => string, pattern: RegExp, ms = RUN_DEADLINE_MS): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const text = read();
    if (pattern.test(text)) return text;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; screen:\n${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!haveScript)("agentos on a pseudo-terminal (script -qefc)", () => {
  it("prompts with the cwd, runs lines, survives Ctrl-C, and exits with exit's status", async () => {
    const command = [process.execPath, ...NODE_ARGS].map((a) => `'${a}'`).join(" ");
    const child = spawn("script", ["-qefc", command, "/dev/null"], {
      cwd: ROOT,
      env: { ...process.env, AGENTOS_HISTFILE: "", TERM: "dumb" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let screen = "";
    child.stdout.on("data", (d: Buffer) => (screen += d));
    const exited = new Promise<number | null>((r) => child.on("close", r));
    const type = (text: string): boolean => child.stdin.write(text);
    try {
      await waitFor(() => screen, /agentos:\/home\/user\$ $/);
      type("cd /tmp && echo moved\r");
      await waitFor(() => screen, /moved\r?\nagentos:\/tmp\$ $/);
      type("sleep 30\r");
      await new Promise((r) => setTimeout(r, 500));
      type("\x03");
      await waitFor(() => screen, /aborted\r?\nagentos:\/tmp\$ $/);
      type("echo status=$?\r");
      await waitFor(() => screen, /status=130\r?\nagentos:\/tmp\$ $/);
      type("exit 3\r");
      expect(await exited).toBe(3);
    } finally {
      child.kill();
    }
  });
});

describe.skipIf(!haveTmux)("agentos in tmux, as a person uses it", () => {
  it("prompt, echo, cd, Ctrl-C on a long command, history, exit 3", async () => {
    const name = `agentos-cli-test-${process.pid}`;
    const histfile = join(TMP, "history");
    const statusFile = join(TMP, "tmux-status");
    const tmux = (...args: string[]): string => execFileSync("tmux", args, { encoding: "utf8" });
    const screen = (): string => tmux("capture-pane", "-p", "-t", name);
    const command = `cd '${ROOT}' && AGENTOS_HISTFILE='${histfile}' '${process.execPath}' '${MAIN}'; echo $? > '${statusFile}'; sleep 60`;
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "40", command);
    try {
      await waitFor(screen, /agentos:\/home\/user\$ ?$/m);
      tmux("send-keys", "-t", name, "echo hi", "Enter");
      await waitFor(screen, /^hi\nagentos:\/home\/user\$ ?$/m);
      tmux("send-keys", "-t", name, "cd /tmp", "Enter");
      await waitFor(screen, /^agentos:\/tmp\$ ?$/m);
      tmux("send-keys", "-t", name, "pwd", "Enter");
      await waitFor(screen, /^\/tmp\nagentos:\/tmp\$ ?$/m);
      tmux("send-keys", "-t", name, "sleep 30", "Enter");
      await waitFor(screen, /agentos:\/tmp\$ sleep 30\n$/m);
      await new Promise((r) => setTimeout(r, 300));
      tmux("send-keys", "-t", name, "C-c");
      await waitFor(screen, /sleep 30\n\^C\nagentos: aborted\nagentos:\/tmp\$ ?$/m);
      // Up twice: `sleep 30`, then `pwd`.
      tmux("send-keys", "-t", name, "Up", "Up");
      await waitFor(screen, /agentos:\/tmp\$ pwd$/m);
      tmux("send-keys", "-t", name, "Enter");
      await waitFor(screen, /agentos:\/tmp\$ pwd\n\/tmp\nagentos:\/tmp\$ ?$/m);
      tmux("send-keys", "-t", name, "exit 3", "Enter");
      await waitFor(() => {
        try {
          return readFileSync(statusFile, "utf8");
        } catch {
          return "";
        }
      }, /\n/);
      expect(readFileSync(statusFile, "utf8")).toBe("3\n");
      expect(readFileSync(histfile, "utf8")).toBe("echo hi\ncd /tmp\nsleep 30\npwd\nexit 3\n");
    } finally {
      spawnSync("tmux", ["kill-session", "-t", name]);
    }
  });
});
