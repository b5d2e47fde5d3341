import { describe, expect, it } from "vitest";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";

// Every command starts in its working directory and resolves relative paths itself (README "Working
// directories and paths"): the binaries built in guests/ (guests/cwd), the scripts and node. Each behaviour is
// checked both through `cd X && cmd` in the shell and through exec's `cwd` option. Expected outputs are what
// bash + GNU tools print with LC_ALL=C.

const ROOT_LISTING = "bin\ndev\netc\nhome\ntmp\nusr\nworkspace\n";
const PASSWD = "root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/home/user:/bin/sh\n";

describe("new files go under the cwd", () => {
  it("creates a file with touch", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("touch new.txt; ls /workspace; test -e /new.txt || echo not-at-root", { cwd: "/workspace" }),
    ).toEqual(result("new.txt\nnot-at-root\n"));
    expect(await vm.exec("cd /tmp && touch other.txt && ls /tmp && ls /workspace")).toEqual(
      result("other.txt\nnew.txt\n"),
    );
  });

  it("creates a file with a shell redirection and reads it back", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo hello > out; cat out; cat /workspace/out", { cwd: "/workspace" })).toEqual(
      result("hello\nhello\n"),
    );
    await writeTree(vm, { "/home/user/out": "home\n" });
    expect(await vm.exec("cd /tmp && echo x > out && cat out && ls /tmp && cat /home/user/out")).toEqual(
      result("x\nout\nhome\n"),
    );
  });

  it("copies a file to a new name", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/a": "A\n" });
    expect(await vm.exec("cp a b; cat b; ls", { cwd: "/workspace" })).toEqual(result("A\na\nb\n"));
    expect(await vm.exec("cd /workspace && cp b c && cat c && ls")).toEqual(result("A\na\nb\nc\n"));
  });

  it("creates nested directories with mkdir -p", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("mkdir -p a/b && ls a && test -d /workspace/a/b && echo ok && test -e /a || echo not-at-root", {
        cwd: "/workspace",
      }),
    ).toEqual(result("b\nok\nnot-at-root\n"));
    expect(await vm.exec("cd /tmp; mkdir -p x/y; ls x; cd x; ls")).toEqual(result("y\ny\n"));
  });

  it("creates a directory named like a top-level one under the cwd", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("mkdir tmp && echo hi > tmp/f && cat tmp/f && ls /tmp && ls tmp", { cwd: "/workspace" }),
    ).toEqual(result("hi\nf\n"));
  });

  it("creates a file at an absolute path from a non-root cwd", async () => {
    const vm = await createVm();
    expect(await vm.exec("touch /rootfile && ls / | grep rootfile && ls", { cwd: "/workspace" })).toEqual(
      result("rootfile\n"),
    );
  });
});

describe("relative paths", () => {
  it("resolves ./x and ../x against the cwd", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/sub/x": "X\n", "/workspace/y": "Y\n" });
    expect(await vm.exec("cat ./x ../y; ls ..", { cwd: "/workspace/sub" })).toEqual(result("X\nY\nsub\ny\n"));
    expect(await vm.exec("cd /workspace/sub && cat ./x ../y && ls ..")).toEqual(result("X\nY\nsub\ny\n"));
  });

  it("lists the cwd with a bare ls", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/b.txt": "", "/workspace/a.txt": "", "/workspace/d/c": "" });
    expect(await vm.exec("ls", { cwd: "/workspace" })).toEqual(result("a.txt\nb.txt\nd\n"));
    expect(await vm.exec("cd /workspace/d && ls")).toEqual(result("c\n"));
  });

  it("lists / and .. from a non-root cwd", async () => {
    const vm = await createVm();
    expect(await vm.exec("ls /", { cwd: "/workspace" })).toEqual(result(ROOT_LISTING));
    expect(await vm.exec("cd /workspace && ls / && ls -d /")).toEqual(result(ROOT_LISTING + "/\n"));
    expect(await vm.exec("ls ..", { cwd: "/workspace" })).toEqual(result(ROOT_LISTING));
  });

  it("resolves a relative path whose first component is also a top-level directory", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/bin/x": "bin-x\n", "/workspace/etc/y": "etc-y\n" });
    expect(await vm.exec("cat bin/x; cat etc/y; cat /etc/passwd", { cwd: "/workspace" })).toEqual(
      result("bin-x\netc-y\n" + PASSWD),
    );
    expect(await vm.exec("cd /workspace && ls bin etc && cat bin/x etc/y && cat /etc/passwd")).toEqual(
      result("bin:\nx\n\netc:\ny\n" + "bin-x\netc-y\n" + PASSWD),
    );
    expect(await vm.exec("cd etc && cat y && pwd", { cwd: "/workspace" })).toEqual(result("etc-y\n/workspace/etc\n"));
  });

  it("tells relative and absolute arguments apart on one command line", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/etc/y": "etc-y\n" });
    expect(await vm.exec("head -n 1 etc/y /etc/passwd", { cwd: "/workspace" })).toEqual(
      result("==> etc/y <==\netc-y\n\n==> /etc/passwd <==\nroot:x:0:0:root:/root:/bin/sh\n"),
    );
  });

  it("does not fall back to / for a relative path named on the command line", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat etc/passwd", { cwd: "/workspace" })).toEqual(
      result("", 1, "cat: etc/passwd: No such file or directory\n"),
    );
    expect(await vm.exec("cat etc/passwd")).toEqual(result("", 1, "cat: etc/passwd: No such file or directory\n"));
  });

  it("reads the absolute path, not the one under the cwd", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/tmp/f": "workspace-tmp\n", "/tmp/f": "root-tmp\n" });
    expect(await vm.exec("cat /tmp/f; cat tmp/f", { cwd: "/workspace" })).toEqual(
      result("root-tmp\nworkspace-tmp\n"),
    );
    expect(await vm.exec("cd /workspace && cat /tmp/f && cat tmp/f")).toEqual(result("root-tmp\nworkspace-tmp\n"));
  });

  it("strings tells tmp/f from /tmp/f on one command line", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/tmp/f": "workspace-tmp\n", "/tmp/f": "root-tmp\n" });
    expect(await vm.exec("strings tmp/f /tmp/f", { cwd: "/workspace" })).toEqual(result("workspace-tmp\nroot-tmp\n"));
    expect(await vm.exec("cat tmp/f /tmp/f", { cwd: "/workspace" })).toEqual(result("workspace-tmp\nroot-tmp\n"));
  });

  it("rg, which keeps its cwd, tells etc/ from /etc/passwd on one command line", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/etc/passwd": "mine\n" });
    const system = "/etc/passwd:root:x:0:0:root:/root:/bin/sh\n/etc/passwd:user:x:1000:1000:user:/home/user:/bin/sh\n";
    expect(await vm.exec("rg -H . /etc/passwd etc/", { cwd: "/workspace" })).toEqual(result(system + "etc/passwd:mine\n"));
    expect(await vm.exec("rg -H . /etc/passwd ./etc/", { cwd: "/workspace" })).toEqual(result(system + "./etc/passwd:mine\n"));
  });

  it("cp, which keeps its cwd, copies a system file into a same-named directory", async () => {
    const vm = await createVm();
    expect(await vm.exec("mkdir etc && cp /etc/passwd etc/ && wc -l etc/passwd", { cwd: "/workspace" })).toEqual(
      result("2 etc/passwd\n"),
    );
  });

  it("copies into an absolute directory when the cwd has one of the same name", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/a.txt": "a", "/workspace/tmp/x": "" });
    expect(await vm.exec("cp a.txt /tmp && ls /tmp && ls tmp", { cwd: "/workspace" })).toEqual(result("a.txt\nx\n"));
  });

  it("gives child processes of a command the same cwd", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/etc/y": "etc-y\n" });
    expect(await vm.exec("echo etc/y | xargs cat; echo x | xargs sh -c pwd", { cwd: "/workspace" })).toEqual(
      result("etc-y\n/workspace\n"),
    );
  });

  it("realpath of a relative file is under the cwd", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/a": "" });
    expect(await vm.exec("realpath a", { cwd: "/workspace" })).toEqual(result("/workspace/a\n"));
    expect(await vm.exec("realpath /workspace/a", { cwd: "/workspace" })).toEqual(result("/workspace/a\n"));
  });
});

describe("tree operations", () => {
  it("finds files under .", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/a.txt": "", "/workspace/sub/b.txt": "", "/workspace/sub/c.md": "" });
    expect(await vm.exec("find . -name '*.txt' | sort", { cwd: "/workspace" })).toEqual(
      result("./a.txt\n./sub/b.txt\n"),
    );
    expect(await vm.exec("cd /workspace && find sub -type f | sort")).toEqual(result("sub/b.txt\nsub/c.md\n"));
  });

  it("copies a directory tree with cp -r", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/dir/sub/f": "F\n", "/workspace/dir/g": "G\n" });
    expect(await vm.exec("cp -r dir copy && find copy | sort && cat copy/sub/f", { cwd: "/workspace" })).toEqual(
      result("copy\ncopy/g\ncopy/sub\ncopy/sub/f\nF\n"),
    );
  });

  it("removes a relative file", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/f": "x", "/workspace/g": "y", "/tmp/f": "root" });
    expect(await vm.exec("rm f && ls && test -e /workspace/f || echo gone", { cwd: "/workspace" })).toEqual(
      result("g\ngone\n"),
    );
    expect(await vm.exec("cd /workspace && rm g && ls && cat /tmp/f")).toEqual(result("root"));
  });

  it("renames a relative file", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/a.txt": "a\n" });
    expect(await vm.exec("mv a.txt b.txt && ls && cat b.txt", { cwd: "/workspace" })).toEqual(result("b.txt\na\n"));
  });
});

describe("the exec cwd option", () => {
  it("sets pwd and PWD", async () => {
    const vm = await createVm();
    expect(await vm.exec("pwd; echo $PWD", { cwd: "/workspace" })).toEqual(result("/workspace\n/workspace\n"));
    expect(await vm.exec("pwd", { cwd: "/tmp" })).toEqual(result("/tmp\n"));
    expect(await vm.exec("pwd")).toEqual(result("/home/user\n"));
  });

  it("rejects a cwd that does not exist", async () => {
    const vm = await createVm();
    await expect(vm.exec("pwd", { cwd: "/nope" })).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("a trailing slash names a directory", () => {
  it("on a regular file it is ENOTDIR, as on Linux; on a directory or a new name it works", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/t/f": "hi\n" });
    await vm.mkdir("/tmp/t/d");
    expect(await vm.exec("cat /tmp/t/f/")).toEqual(result("", 1, "cat: /tmp/t/f/: Not a directory\n"));
    expect(await vm.exec("cat /tmp/t/f/.")).toEqual(result("", 1, "cat: /tmp/t/f/.: Not a directory\n"));
    expect(await vm.exec("[ -f /tmp/t/f/ ] && echo file || echo no; [ -d /tmp/t/d/ ] && echo dir")).toEqual(result("no\ndir\n"));
    expect(await vm.exec("stat -c %F /tmp/t/d/; cd /tmp/t && ls d/ && mkdir new/ && ls -d new")).toEqual(result("directory\nnew\n"));
    expect(await vm.exec("ls /tmp/t/f/; echo $?")).toEqual(result("2\n", 0, "ls: cannot access '/tmp/t/f/': Not a directory\n"));
    // differs from GNU ("rm: cannot remove '/tmp/t/f/': Not a directory"): uutils rm reports any failure of
    // its lstat as "No such file or directory" (rm.rs, "TODO: actually print out the specific error").
    expect(await vm.exec("rm /tmp/t/f/; cat /tmp/t/f")).toEqual(
      result("hi\n", 0, "rm: cannot remove '/tmp/t/f/': No such file or directory\n"),
    );
  });
});
