import { describe, expect, it } from "vitest";
import { AgentOs, KernelError } from "../src/index.js";
import { createVm, result, writeTree } from "./helpers.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe("files", () => {
  it("writeFile and readFile round-trip text and bytes, and commands see them", async () => {
    const vm = await createVm();
    await vm.writeFile("/tmp/a.txt", "hello\n");
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    await vm.writeFile("/tmp/b.bin", bytes);
    expect(text(await vm.readFile("/tmp/a.txt"))).toBe("hello\n");
    expect(await vm.readFile("/tmp/b.bin")).toEqual(bytes);
    expect(await vm.exec("cat /tmp/a.txt; wc -c < /tmp/b.bin")).toEqual(result("hello\n256\n"));
    await vm.exec("echo from-shell > /tmp/c.txt");
    expect(text(await vm.readFile("/tmp/c.txt"))).toBe("from-shell\n");
  });

  it("rejects relative, empty and non-string paths", async () => {
    const vm = await createVm();
    await expect(vm.readFile("tmp/a")).rejects.toMatchObject({ code: "EINVAL", path: "tmp/a" });
    await expect(vm.writeFile("", "x")).rejects.toMatchObject({ code: "EINVAL" });
    await expect(vm.stat("a\0b")).rejects.toMatchObject({ code: "EINVAL" });
    await expect(vm.readFile(42 as unknown as string)).rejects.toBeInstanceOf(TypeError);
    await expect(vm.writeFile("/tmp/x", 42 as unknown as string)).rejects.toBeInstanceOf(TypeError);
  });

  it("reports missing files and wrong types with errno codes", async () => {
    const vm = await createVm();
    await vm.writeFile("/tmp/f", "x");
    const missing = await vm.readFile("/nope/x").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(KernelError);
    expect(missing).toMatchObject({ code: "ENOENT", errno: 44, path: "/nope/x" });
    expect((missing as Error).message).toBe("ENOENT: no such file or directory, open '/nope/x'");
    await expect(vm.readFile("/tmp")).rejects.toMatchObject({ code: "EISDIR" });
    await expect(vm.writeFile("/nope/x", "x")).rejects.toMatchObject({ code: "ENOENT", path: "/nope/x" });
    await expect(vm.readdir("/tmp/f")).rejects.toMatchObject({ code: "ENOTDIR" });
    await expect(vm.stat("/nope")).rejects.toMatchObject({ code: "ENOENT", path: "/nope" });
  });

  it("mkdir, with and without recursive", async () => {
    const vm = await createVm();
    await vm.mkdir("/a/b/c", { recursive: true });
    expect((await vm.stat("/a/b/c")).isDirectory).toBe(true);
    await expect(vm.mkdir("/x/y")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(vm.mkdir("/a")).rejects.toMatchObject({ code: "EEXIST" });
    await vm.mkdir("/a", { recursive: true });
  });

  it("readdir gives names, or typed entries", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/d/f.txt": "1", "/d/sub/g.txt": "2" });
    await vm.exec("ln -s /d/f.txt /d/link");
    expect((await vm.readdir("/d")).sort()).toEqual(["f.txt", "link", "sub"]);
    const typed = await vm.readdir("/d", { withFileTypes: true });
    expect(typed.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "f.txt", type: "file" },
      { name: "link", type: "symlink" },
      { name: "sub", type: "directory" },
    ]);
  });

  it("stat and lstat", async () => {
    const vm = await createVm();
    await vm.writeFile("/tmp/f", "12345");
    await vm.exec("ln -s /tmp/f /tmp/l");
    const st = await vm.stat("/tmp/l");
    expect(st).toMatchObject({ size: 5, isFile: true, isDirectory: false, isSymbolicLink: false });
    expect(st.mode & 0o170000).toBe(0o100000);
    const lst = await vm.lstat("/tmp/l");
    expect(lst).toMatchObject({ isSymbolicLink: true, isFile: false });
    expect((await vm.stat("/tmp")).isDirectory).toBe(true);
    expect((await vm.stat("/dev/null")).mode & 0o170000).toBe(0o020000);
  });

  it("exists, move and delete", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/a.txt": "a", "/w/dir/b.txt": "b" });
    expect(await vm.exists("/w/a.txt")).toBe(true);
    expect(await vm.exists("/w/zzz")).toBe(false);
    await vm.move("/w/a.txt", "/w/c.txt");
    await vm.move("/w/dir", "/w/dir2");
    expect((await vm.readdir("/w")).sort()).toEqual(["c.txt", "dir2"]);
    await expect(vm.move("/w/none", "/w/x")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(vm.delete("/w/dir2")).rejects.toMatchObject({ code: "ENOTEMPTY" });
    await vm.delete("/w/dir2", { recursive: true });
    await vm.delete("/w/c.txt");
    expect(await vm.readdir("/w")).toEqual([]);
    await expect(vm.delete("/w/c.txt")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(vm.delete("/", { recursive: true })).rejects.toMatchObject({ code: "EPERM" });
  });

  it("readFiles and writeFiles report per entry; writeFiles creates parents", async () => {
    const vm = await createVm();
    const written = await vm.writeFiles([
      { path: "/deep/er/a.txt", content: "A" },
      { path: "relative.txt", content: "B" },
    ]);
    expect(written).toEqual([
      { path: "/deep/er/a.txt", success: true },
      { path: "relative.txt", success: false, error: "EINVAL: path must be absolute, open 'relative.txt'" },
    ]);
    const read = await vm.readFiles(["/deep/er/a.txt", "/missing"]);
    expect(read[0]).toEqual({ path: "/deep/er/a.txt", content: new TextEncoder().encode("A") });
    expect(read[1]).toEqual({ path: "/missing", content: null, error: "ENOENT: no such file or directory, open '/missing'" });
  });

  it("readdirRecursive lists every entry with its type and size", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/r/a.txt": "aa", "/r/s/b.txt": "bbb", "/r/s/t/c.txt": "c", "/r/skip/x": "x" });
    const all = await vm.readdirRecursive("/r", { exclude: ["skip"] });
    expect(all.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: "/r/a.txt", type: "file", size: 2 },
      { path: "/r/s", type: "directory", size: 0 },
      { path: "/r/s/b.txt", type: "file", size: 3 },
      { path: "/r/s/t", type: "directory", size: 0 },
      { path: "/r/s/t/c.txt", type: "file", size: 1 },
    ]);
    const shallow = await vm.readdirRecursive("/r", { maxDepth: 0 });
    expect(shallow.map((e) => e.path).sort()).toEqual(["/r/a.txt", "/r/s", "/r/skip"]);
  });

  it("has a sensible root", async () => {
    const vm = await createVm();
    const root = await vm.exec("ls /");
    expect(root).toEqual(result("bin\ndev\netc\nhome\ntmp\nusr\nworkspace\n"));
    expect(await vm.exec("ls /dev")).toEqual(result("null\nrandom\nurandom\nzero\n"));
    expect(await vm.exec("command -v ls; ls /bin | grep -c .")).toMatchObject({ exitCode: 0 });
    const bin = await vm.readdir("/bin");
    for (const c of ["sh", "ls", "grep", "sed", "awk", "find", "tar", "gzip", "jq", "rg", "sort"]) expect(bin).toContain(c);
    expect(await vm.exec("head -c 4 /dev/zero | od -An -tx1; head -c 16 /dev/urandom | wc -c; cat /dev/null")).toEqual(
      result(" 00 00 00 00\n16\n"),
    );
    // An fd of a device is the device stat names, as on Linux (programs compare them: wget's rc file check).
    const same = "for d in null zero urandom; do [ \"$(stat -c '%d %i' /dev/$d)\" = \"$(stat -L -c '%d %i' /dev/stdin < /dev/$d)\" ] && echo $d; done";
    expect(await vm.exec(same)).toEqual(result("null\nzero\nurandom\n"));
  });
});

describe("exec options", () => {
  it("cwd applies to the shell and to the commands it runs", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/a.txt": "in w\n" });
    expect(await vm.exec("pwd && cat a.txt && ls", { cwd: "/w" })).toEqual(result("/w\nin w\na.txt\n"));
    await expect(vm.exec("pwd", { cwd: "/w/a.txt" })).rejects.toMatchObject({ code: "ENOTDIR" });
    await expect(vm.exec("pwd", { cwd: "w" })).rejects.toMatchObject({ code: "EINVAL" });
  });

  it("env adds to the default environment", async () => {
    const vm = await createVm({ env: { TEAM: "core" } });
    expect(await vm.exec('echo "$FOO $TEAM $HOME $USER"; printenv FOO', { env: { FOO: "bar" } })).toEqual(
      result("bar core /home/user user\nbar\n"),
    );
  });

  it("stdin as a string or as bytes", async () => {
    const vm = await createVm();
    expect(await vm.exec("wc -c", { stdin: "abc" })).toEqual(result("3\n"));
    const bytes = Uint8Array.from([0, 255, 10, 128]);
    expect(await vm.exec("od -An -tx1", { stdin: bytes })).toEqual(result(" 00 ff 0a 80\n"));
    expect(await vm.exec("cat")).toEqual(result(""));
  });

  it("streams output as it is produced", async () => {
    const vm = await createVm();
    const chunks: string[] = [];
    const errs: string[] = [];
    const r = await vm.exec("echo one; echo two >&2; echo three", {
      onStdout: (c) => chunks.push(text(c)),
      onStderr: (c) => errs.push(text(c)),
    });
    expect(r).toEqual(result("one\nthree\n", 0, "two\n"));
    expect(chunks.join("")).toBe("one\nthree\n");
    expect(errs.join("")).toBe("two\n");
  });

  it("timeout kills the process tree and resolves with 124", async () => {
    const vm = await createVm();
    await vm.exec("true"); // the deadline should not be spent compiling the shell
    const r = await vm.exec("echo start; sleep 30; echo never", { timeout: 2000 }); // `echo start` in time on a loaded machine
    expect(r).toEqual(result("start\n", 124, "agentos: timed out after 2000 ms\n"));
    expect(await vm.exec("echo after")).toEqual(result("after\n"));
  });

  it("timeout also ends a command that computes without system calls", async () => {
    const vm = await createVm();
    const r = await vm.exec("awk 'BEGIN { while (1) i++ }'", { timeout: 300 });
    expect(r).toEqual(result("", 124, "agentos: timed out after 300 ms\n"));
  });

  it("an aborted signal kills the process tree and resolves with 130", async () => {
    const vm = await createVm();
    const ac = new AbortController();
    const pending = vm.exec("sleep 30 | cat", { signal: ac.signal });
    setTimeout(() => ac.abort(), 200);
    expect(await pending).toEqual(result("", 130, "agentos: aborted\n"));
  });

  it("rejects bad arguments with TypeError", async () => {
    const vm = await createVm();
    await expect(vm.exec(1 as unknown as string)).rejects.toBeInstanceOf(TypeError);
    expect(() => vm.spawn("ls", "x" as unknown as string[])).toThrow(TypeError);
  });
});

describe("spawn and processes", () => {
  it("spawn streams stdin to stdout and reports the exit code", async () => {
    const vm = await createVm();
    const p = vm.spawn("tr", ["a-z", "A-Z"]);
    const out: string[] = [];
    p.onStdout((c) => out.push(text(c)));
    p.writeStdin("hello ");
    p.writeStdin("world\n");
    p.closeStdin();
    expect(await p.wait()).toBe(0);
    expect(out.join("")).toBe("HELLO WORLD\n");
    expect(vm.listProcesses()).toEqual([
      { pid: p.pid, ppid: 0, command: "tr", args: ["a-z", "A-Z"], cwd: "/home/user", running: false, exitCode: 0 },
    ]);
  });

  it("listProcesses keeps the running processes and the newest 100 that exited", async () => {
    const vm = await createVm();
    const pids: number[] = [];
    for (let i = 0; i < 105; i++) {
      const p = vm.spawn("true");
      pids.push(p.pid);
      expect(await p.wait()).toBe(0);
    }
    const sleeper = vm.spawn("sleep", ["30"]);
    const listed = vm.listProcesses().map((p) => p.pid);
    expect(listed).toEqual([...pids.slice(5), sleeper.pid]);
    sleeper.kill();
    expect(await sleeper.wait()).toBe(128 + 15);
  });

  it("spawn of an unknown command throws ENOENT", async () => {
    const vm = await createVm();
    expect(() => vm.spawn("no-such-cmd", [])).toThrow(expect.objectContaining({ code: "ENOENT" }) as Error);
  });

  it("kill ends a running process; listProcesses and killProcess", async () => {
    const vm = await createVm();
    const p = vm.spawn("sleep", ["30"]);
    const running = vm.listProcesses();
    expect(running).toEqual([{ pid: p.pid, ppid: 0, command: "sleep", args: ["30"], cwd: "/home/user", running: true, exitCode: null }]);
    vm.killProcess(p.pid);
    expect(await p.wait()).toBe(128 + 9);
    expect(() => vm.killProcess(p.pid)).toThrow(expect.objectContaining({ code: "ESRCH", pid: p.pid }) as Error);
    const q = vm.spawn("cat", []);
    q.kill();
    expect(await q.wait()).toBe(128 + 15);
  });

  it("stderr of a spawned process is separate", async () => {
    const vm = await createVm();
    const p = vm.spawn("sh", ["-c", "echo out; echo err >&2; exit 3"]);
    const out: string[] = [];
    const err: string[] = [];
    p.onStdout((c) => out.push(text(c)));
    p.onStderr((c) => err.push(text(c)));
    expect(await p.wait()).toBe(3);
    expect([out.join(""), err.join("")]).toEqual(["out\n", "err\n"]);
  });
});

describe("TypeScript commands", () => {
  it("runs user commands as processes with stdio, cwd and exit codes", async () => {
    const vm = await createVm({
      commands: {
        greet: async (ctx) => {
          const input = text(await ctx.readAllStdin());
          ctx.writeStdout(`hello ${ctx.argv[1]} from ${ctx.cwd}: ${input.trim()}\n`);
          ctx.fs.writeFile("greeted.txt", "yes\n");
          return 3;
        },
      },
    });
    expect(await vm.exec("echo hi | greet you | tr a-z A-Z; echo $?", { cwd: "/tmp" })).toEqual(
      result("HELLO YOU FROM /TMP: HI\n0\n"),
    );
    expect(await vm.exec("greet me < /dev/null; echo $?; cat greeted.txt", { cwd: "/tmp" })).toEqual(
      result("hello me from /tmp: \n3\nyes\n"),
    );
    expect(await vm.exec("command -v greet")).toMatchObject({ exitCode: 0 });
  });

  it("a thrown error ends the command with status 1 and a message", async () => {
    const vm = await createVm({
      commands: {
        boom: () => {
          throw new Error("it broke");
        },
      },
    });
    expect(await vm.exec("boom; echo $?")).toEqual(result("1\n", 0, "boom: it broke\n"));
  });

  it("rejects invalid registrations", async () => {
    await expect(AgentOs.create({ commands: { "bad name": () => 0 } })).rejects.toBeInstanceOf(TypeError);
    await expect(AgentOs.create({ commands: { x: 5 as unknown as () => number } })).rejects.toBeInstanceOf(TypeError);
  });
});

describe("lifetime", () => {
  it("dispose is idempotent and a disposed VM refuses work", async () => {
    const vm = await AgentOs.create();
    await vm.dispose();
    await vm.dispose();
    await expect(vm.exec("echo x")).rejects.toMatchObject({ code: "EPERM" });
    await expect(vm.readFile("/etc/passwd")).rejects.toMatchObject({ code: "EPERM" });
  });

  it("supports await using", async () => {
    let outside: AgentOs;
    {
      await using vm = await AgentOs.create();
      outside = vm;
      expect(await vm.exec("echo in")).toEqual(result("in\n"));
    }
    await expect(outside.exec("echo out")).rejects.toMatchObject({ code: "EPERM" });
  });
});

describe("create({ files })", () => {
  it("writes an initial tree, creating parents, from strings and bytes", async () => {
    const bytes = Uint8Array.from([0, 1, 2, 255]);
    const vm = await createVm({
      files: { "/workspace/src/a.txt": "hello\n", "/workspace/b.bin": bytes, "/tmp/../workspace/c.txt": "c" },
    });
    expect(await vm.readFile("/workspace/src/a.txt", "utf8")).toBe("hello\n");
    expect(await vm.readFile("/workspace/b.bin")).toEqual(bytes);
    expect(await vm.exec("cd /workspace && find . -type f | sort && stat -c %a src")).toEqual(
      result("./b.bin\n./c.txt\n./src/a.txt\n755\n"),
    );
  });

  it("fails with a code and the path when an entry cannot be written, or a TypeError for bad contents", async () => {
    await expect(AgentOs.create({ files: { "relative/x": "x" } })).rejects.toMatchObject({ code: "EINVAL", path: "relative/x" });
    // A file where a directory should be: the path is the one that failed (the file's, or the directory's).
    await expect(AgentOs.create({ files: { "/etc/passwd/x": "x" } })).rejects.toMatchObject({ code: "ENOTDIR", path: "/etc/passwd/x" });
    await expect(AgentOs.create({ files: { "/etc/passwd/x/y": "x" } })).rejects.toMatchObject({ code: "ENOTDIR", path: "/etc/passwd/x" });
    await expect(AgentOs.create({ files: { "/tmp": "x" } })).rejects.toMatchObject({ code: "EISDIR", path: "/tmp" });
    await expect(AgentOs.create({ files: { "/a": 1 as unknown as string } })).rejects.toMatchObject({
      name: "TypeError",
      code: "ERR_INVALID_ARG_VALUE",
    });
    await expect(AgentOs.create({ files: ["/a"] as unknown as Record<string, string> })).rejects.toBeInstanceOf(TypeError);
  });
});

describe("readFile with an encoding", () => {
  it("returns a string for utf8 (and other Buffer encodings), bytes without one", async () => {
    const vm = await createVm({ files: { "/tmp/u.txt": "grüße ✓\n" } });
    expect(await vm.readFile("/tmp/u.txt", "utf8")).toBe("grüße ✓\n");
    expect(await vm.readFile("/tmp/u.txt", "utf-8")).toBe("grüße ✓\n");
    expect(await vm.readFile("/tmp/u.txt", "base64")).toBe(Buffer.from("grüße ✓\n").toString("base64"));
    expect(await vm.readFile("/tmp/u.txt")).toEqual(new TextEncoder().encode("grüße ✓\n"));
    await expect(vm.readFile("/tmp/u.txt", "klingon" as BufferEncoding)).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    await expect(vm.readFile("/tmp/none", "utf8")).rejects.toMatchObject({ code: "ENOENT", path: "/tmp/none" });
  });
});

describe("signal names", () => {
  it("killProcess and a handle's kill take names as well as numbers (os.constants.signals)", async () => {
    const vm = await createVm();
    const a = vm.spawn("sleep", ["30"]);
    vm.killProcess(a.pid, "SIGTERM");
    expect(await a.wait()).toBe(128 + 15);
    const b = vm.spawn("cat", []);
    b.kill("SIGINT");
    expect(await b.wait()).toBe(128 + 2);
    const c = vm.spawn("cat", []);
    vm.killProcess(c.pid, 0); // only checks that it runs
    c.kill("SIGHUP");
    expect(await c.wait()).toBe(128 + 1);
    const d = vm.spawn("cat", []);
    d.kill(9);
    expect(await d.wait()).toBe(128 + 9);
  });

  it("rejects unknown names and numbers out of range with a TypeError", async () => {
    const vm = await createVm();
    const p = vm.spawn("cat", []);
    expect(() => vm.killProcess(p.pid, "SIGNOPE" as NodeJS.Signals)).toThrow(
      expect.objectContaining({ name: "TypeError", code: "ERR_INVALID_ARG_VALUE" }) as Error,
    );
    expect(() => p.kill(-1)).toThrow(TypeError);
    expect(() => p.kill(1.5)).toThrow(TypeError);
    p.kill("SIGKILL");
    expect(await p.wait()).toBe(128 + 9);
  });
});

describe("unknown options", () => {
  const rejected = expect.objectContaining({ name: "TypeError", code: "ERR_INVALID_ARG_VALUE" }) as Error;

  it("create, exec, spawn and the file calls reject option names they do not know", async () => {
    await expect(AgentOs.create({ execRuoter: false } as never)).rejects.toMatchObject({
      name: "TypeError",
      code: "ERR_INVALID_ARG_VALUE",
      message: expect.stringContaining('"execRuoter"') as string,
    });
    await expect(AgentOs.create({ mounts: [{ path: "/mnt/x", hostDir: "/tmp", rw: true }] } as never)).rejects.toMatchObject({
      code: "ERR_INVALID_ARG_VALUE",
    });
    const vm = await createVm();
    await expect(vm.exec("echo x", { timout: 10 } as never)).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    expect(() => vm.spawn("echo", [], { stdin: "x" } as never)).toThrow(rejected);
    await expect(vm.mkdir("/tmp/d", { recursiv: true } as never)).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    await expect(vm.delete("/tmp", { force: true } as never)).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    await expect(vm.readdir("/tmp", { withFileType: true } as never)).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    await expect(vm.readdirRecursive("/tmp", { depth: 1 } as never)).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    expect(await vm.exists("/tmp/d")).toBe(false);
    // Known names, including ones given as undefined, are fine.
    expect(await vm.exec("echo ok", { cwd: undefined, timeout: RUN_DEADLINE_MS })).toEqual(result("ok\n"));
  });
});
