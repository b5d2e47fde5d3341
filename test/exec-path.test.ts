import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createVm, result } from "./helpers.js";

/**
 * Files run by path, as Linux and bash run them: `#!` with an interpreter and its one argument, nested
 * interpreters, a text file without `#!` under sh, PATH search, and the failures (no execute bit, a
 * directory, binary data, a missing interpreter) with bash's messages and exit codes. Each case runs in
 * host bash over the same files, and the results must be the same (bash's `bash: line 1: ` is our `sh: `).
 */

interface Case {
  name: string;
  /** path → [content, mode] */
  files: Record<string, [string, number]>;
  command: string;
}

const script = (body: string): [string, number] => [body, 0o755];

const cases: Case[] = [
  { name: "a #!/bin/sh script gets its path as $0 and its arguments", files: { "s.sh": script('#!/bin/sh\necho "run $0 $1 $2"\n') }, command: "./s.sh a 'b c'" },
  { name: "the interpreter gets its one argument, then the path and the arguments", files: { "e.sh": script("#!/bin/echo hello  there \n") }, command: "./e.sh a b" },
  { name: "#!/usr/bin/env finds the interpreter in PATH", files: { "v.sh": script('#!/usr/bin/env sh\necho "via env $1"\n') }, command: "./v.sh X" },
  { name: "an interpreter may itself be a script", files: { outer: script("#!./inner\n"), inner: script("#!/bin/echo x\n") }, command: "./outer a" },
  { name: "a text file without #! runs under sh", files: { "p.sh": script('echo "plain $0 $1"\n') }, command: "./p.sh b" },
  { name: "an empty executable file does nothing and succeeds", files: { empty: script("") }, command: "./empty; echo $?" },
  { name: "a script's exit status is the command's", files: { "x.sh": script("#!/bin/sh\nexit 3\n") }, command: "./x.sh; echo $?" },
  { name: "a script reads the caller's stdin", files: { "r.sh": script("#!/bin/sh\nread x\necho got $x\n") }, command: "echo piped | ./r.sh" },
  { name: "a script runs from a subdirectory by relative path", files: { "sub/t.sh": script("#!/bin/sh\necho in-sub\n") }, command: "sub/t.sh && cd sub && ./t.sh" },
  { name: "a script found in PATH", files: { "bin/tool": script("#!/bin/sh\necho tool ran\n") }, command: 'PATH="$PWD/bin:$PATH" tool' },
  {
    name: "PATH search passes over a match without an execute bit",
    files: { "b1/tool2": ["echo b1\n", 0o644], "b2/tool2": script("echo b2\n") },
    command: 'PATH="$PWD/b1:$PWD/b2:$PATH" tool2',
  },
  { name: "a file without an execute bit: Permission denied, 126", files: { "n.sh": ["#!/bin/sh\necho no\n", 0o644] }, command: "./n.sh; echo $?" },
  { name: "a directory: Is a directory, 126", files: { "d/f": ["", 0o644] }, command: "./d; echo $?" },
  { name: "binary data: Exec format error, 126", files: { bin: ["\0\x01\x02bin\n", 0o755] }, command: "./bin; echo $?" },
  { name: "a missing interpreter: required file not found, 127", files: { "b.sh": script("#!/nonexistent/x\necho no\n") }, command: "./b.sh; echo $?" },
  { name: "#!/bin/sh with CR LF names an interpreter that is not there", files: { "crlf.sh": script("#!/bin/sh\r\necho crlf\r\n") }, command: "./crlf.sh; echo $?" },
  { name: "a missing file: No such file or directory, 127", files: {}, command: "./nosuch; echo $?" },
  { name: "an unknown command: command not found, 127", files: {}, command: "nosuchcmd; echo $?" },
  { name: "a command outside PATH is not found", files: {}, command: "PATH=/nowhere ls; echo $?" },
];

const haveBash = spawnSync("bash", ["--version"]).status === 0;
const hostRoot = mkdtempSync(join(tmpdir(), "agentos-exec-"));
afterAll(() => rmSync(hostRoot, { recursive: true, force: true }));

function writeHost(dir: string, files: Case["files"]): void {
  for (const [path, [content, mode]] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, content, "latin1");
    chmodSync(full, mode);
  }
}

describe.skipIf(!haveBash)("running files by path, against host bash", () => {
  cases.forEach((c, i) => {
    it(c.name, async () => {
      const hostDir = join(hostRoot, String(i));
      mkdirSync(hostDir);
      writeHost(hostDir, c.files);
      // $0 "sh": bash then names itself so in its messages, as the VM's shell does.
      const host = spawnSync("bash", ["--norc", "--noprofile", "-c", c.command, "sh"], { cwd: hostDir, encoding: "utf8", env: { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" } });
      const expected = result(host.stdout, host.status ?? -1, host.stderr);

      const vm = await createVm();
      const dir = "/workspace/t";
      await vm.mkdir(dir);
      for (const [path, [content, mode]] of Object.entries(c.files)) {
        await vm.mkdir(join(dir, path, ".."), { recursive: true });
        await vm.writeFile(join(dir, path), Buffer.from(content, "latin1"));
        await vm.chmod(join(dir, path), mode);
      }
      expect(await vm.exec(c.command, { cwd: dir })).toEqual(expected);
    });
  });
});

describe("running files by path", () => {
  it("chmod +x makes a script runnable, chmod -x takes it back", async () => {
    const vm = await createVm();
    await vm.writeFile("/workspace/build.sh", "#!/bin/sh\necho built\n");
    expect(await vm.exec("./build.sh; echo $?", { cwd: "/workspace" })).toEqual(result("126\n", 0, "sh: line 1: ./build.sh: Permission denied\n"));
    expect(await vm.exec("chmod +x build.sh && ./build.sh", { cwd: "/workspace" })).toEqual(result("built\n"));
    expect(await vm.exec("chmod -x build.sh; ./build.sh", { cwd: "/workspace" })).toEqual(result("", 126, "sh: line 1: ./build.sh: Permission denied\n"));
  });

  it("a command whose /bin file is gone is not found; the shell itself still starts", async () => {
    const vm = await createVm();
    expect(await vm.exec("rm /bin/cat && cat /etc/hostname; echo $?")).toEqual(result("127\n", 0, "sh: line 1: cat: command not found\n"));
    expect(await vm.exec("echo still here")).toEqual(result("still here\n"));
  });

  it("a copy of a command's file runs that command, under any name (coreutils' multicall binary too)", async () => {
    const vm = await createVm();
    expect(await vm.exec("cp /bin/awk /tmp/k && /tmp/k 'BEGIN { print \"hello\" }'")).toEqual(result("hello\n"));
    expect(await vm.exec("cp /bin/echo /tmp/say && /tmp/say hello")).toEqual(result("hello\n"));
    expect(await vm.exec("cp /bin/echo /tmp/echo && /tmp/echo hello")).toEqual(result("hello\n"));
  });

  it("at most five scripts in a row, as on Linux (ELOOP)", async () => {
    const vm = await createVm();
    const files = ["#!/bin/echo end\n", "#!/w/s0\n", "#!/w/s1\n", "#!/w/s2\n", "#!/w/s3\n", "#!/w/s4\n", "#!/w/s5\n"];
    await vm.mkdir("/w");
    for (const [i, content] of files.entries()) {
      await vm.writeFile(`/w/s${i}`, content);
      await vm.chmod(`/w/s${i}`, 0o755);
    }
    // Host bash with the same files in /tmp/w: the same lines, with /tmp/w for /w.
    expect(await vm.exec("/w/s4 a")).toEqual(result("end /w/s0 /w/s1 /w/s2 /w/s3 /w/s4 a\n"));
    expect(await vm.exec("/w/s5; echo $?")).toEqual(result("126\n", 0, "sh: line 1: /w/s5: /w/s4: bad interpreter: Too many levels of symbolic links\n"));
  });

  it("a missing #!/usr/bin/env interpreter is env's error, 127", async () => {
    const vm = await createVm();
    await vm.writeFile("/tmp/e.sh", "#!/usr/bin/env nosuchinterp\n");
    await vm.chmod("/tmp/e.sh", 0o755);
    const r = await vm.exec("/tmp/e.sh; echo $?");
    // differs from GNU (`/usr/bin/env: ‘nosuchinterp’: No such file or directory`, with argv[0] as the kernel
    // passes it): env names itself by the basename of argv[0], as the VM's other commands do.
    expect(r).toEqual(result("127\n", 0, "env: ‘nosuchinterp’: No such file or directory\n"));
  });

  it("spawn runs a script by path, relative to its cwd, and fails with the errno of exec", async () => {
    const vm = await createVm();
    await vm.writeFile("/workspace/hi.sh", '#!/bin/sh\necho "hi $1"\n');
    await vm.chmod("/workspace/hi.sh", 0o755);
    let out = "";
    const p = vm.spawn("./hi.sh", ["there"], { cwd: "/workspace", onStdout: (d) => (out += Buffer.from(d).toString()) });
    p.closeStdin();
    expect(await p.wait()).toBe(0);
    expect(out).toBe("hi there\n");
    await vm.chmod("/workspace/hi.sh", 0o644);
    expect(() => vm.spawn("./hi.sh", [], { cwd: "/workspace" })).toThrow(expect.objectContaining({ code: "EACCES", path: "./hi.sh" }));
    expect(() => vm.spawn("nosuchcmd")).toThrow(expect.objectContaining({ code: "ENOENT", path: "nosuchcmd" }));
  });
});
