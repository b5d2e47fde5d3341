/**
 * Service tests: file and directory handling through `vm.exec`, the way an agent drives a shell.
 *
 * Every expectation is the full result (stdout, exit code, stderr) of GNU coreutils/bash on Linux for
 * the same command, unless a comment `// differs from GNU: ...` says why the WebAssembly binary
 * (uutils coreutils, the shell, ...) answers differently on its own.
 */
import { describe, expect, it } from "vitest";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe("directories: mkdir, rmdir, rm -r", () => {
  it("mkdir -p creates nested directories and is idempotent", async () => {
    const vm = await createVm();
    expect(await vm.exec("mkdir -p /tmp/a/b/c && mkdir -p /tmp/a/b/c && ls -R /tmp/a")).toEqual(
      result("/tmp/a:\nb\n\n/tmp/a/b:\nc\n\n/tmp/a/b/c:\n"),
    );
    expect(await vm.exec("test -d /tmp/a/b/c && echo dir")).toEqual(result("dir\n"));
  });

  it("mkdir of an existing directory fails", async () => {
    const vm = await createVm();
    expect(await vm.exec("mkdir /tmp/a; mkdir /tmp/a; echo $?")).toEqual(
      result("1\n", 0, "mkdir: cannot create directory '/tmp/a': File exists\n"),
    );
  });

  it("rmdir removes empty directories, rmdir -p removes the parents too", async () => {
    const vm = await createVm();
    expect(await vm.exec("cd /tmp && mkdir e && rmdir e && mkdir -p p/q && rmdir -p p/q && ls -A")).toEqual(result(""));
  });

  it("rmdir refuses a directory that is not empty", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/full/x": "" });
    expect(await vm.exec("rmdir /tmp/full; echo $?; ls /tmp/full")).toEqual(
      result("1\nx\n", 0, "rmdir: failed to remove '/tmp/full': Directory not empty\n"),
    );
  });

  it("rm -r removes a whole tree", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/r/s/t.txt": "t\n", "/tmp/r/u.txt": "u\n", "/tmp/keep.txt": "k\n" });
    expect(await vm.exec("rm -r /tmp/r && ls -A /tmp")).toEqual(result("keep.txt\n"));
    expect(await vm.exec("cd /tmp && mkdir -p r2/s && touch r2/s/t && rm -r r2 && ls -A")).toEqual(result("keep.txt\n"));
  });

  it("rm without -r refuses a directory", async () => {
    const vm = await createVm();
    expect(await vm.exec("mkdir /tmp/d; rm /tmp/d; echo $?; ls -d /tmp/d")).toEqual(
      result("1\n/tmp/d\n", 0, "rm: cannot remove '/tmp/d': Is a directory\n"),
    );
  });
});

describe("files: cp, mv, rm", () => {
  it("cp copies a file and leaves the original", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/a.txt": "alpha\n" });
    expect(await vm.exec("cp /tmp/a.txt /tmp/b.txt && echo more >> /tmp/b.txt && cat /tmp/a.txt /tmp/b.txt")).toEqual(
      result("alpha\nalpha\nmore\n"),
    );
  });

  it("cp into a directory keeps the name, or takes a new one", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "hi\n" });
    expect(await vm.exec("cd /tmp && mkdir d && cp f d && cp f d/h && ls d && cat d/h")).toEqual(result("f\nh\nhi\n"));
  });

  it("cp -r copies a tree given by absolute paths", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/t/src/a": "1\n", "/tmp/t/src/sub/b": "2\n" });
    expect(await vm.exec("mkdir /tmp/t/dst && cp -r /tmp/t/src /tmp/t/dst && find /tmp/t/dst | sort && cat /tmp/t/dst/src/sub/b")).toEqual(
      result("/tmp/t/dst\n/tmp/t/dst/src\n/tmp/t/dst/src/a\n/tmp/t/dst/src/sub\n/tmp/t/dst/src/sub/b\n2\n"),
    );
  });

  it("cp -r copies a tree given by relative paths after cd", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/t/s/t/u": "q\n" });
    expect(await vm.exec("cd /tmp/t && cp -r s s2 && cat s2/t/u && find s2 | sort")).toEqual(result("q\ns2\ns2/t\ns2/t/u\n"));
  });

  it("mv renames a file over an existing one", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/w/a": "old\n", "/tmp/w/b": "new\n" });
    expect(await vm.exec("cd /tmp/w && mv b a && cat a && ls")).toEqual(result("new\na\n"));
  });

  it("mv moves a file into a directory and a directory into another", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/t/d1/f": "1\n", "/tmp/t/g": "2\n" });
    expect(await vm.exec("mkdir /tmp/t/d2 && mv /tmp/t/g /tmp/t/d1 && mv /tmp/t/d1 /tmp/t/d2 && find /tmp/t | sort")).toEqual(
      result("/tmp/t\n/tmp/t/d2\n/tmp/t/d2/d1\n/tmp/t/d2/d1/f\n/tmp/t/d2/d1/g\n"),
    );
    expect(await vm.exec("cd /tmp/t && mv d2 d3 && cat d3/d1/g")).toEqual(result("2\n"));
  });

  it("rm removes files; rm -f ignores missing ones", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/w/a": "", "/tmp/w/b": "", "/tmp/w/c": "" });
    expect(await vm.exec("cd /tmp/w && rm a && rm -f b nonexistent && echo $? && ls")).toEqual(result("0\nc\n"));
  });

  it("rm of a missing file fails", async () => {
    const vm = await createVm();
    expect(await vm.exec("rm /tmp/nope")).toEqual(result("", 1, "rm: cannot remove '/tmp/nope': No such file or directory\n"));
  });
});

describe("symbolic links", () => {
  it("ln -s, readlink, and reading and appending through the link", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/orig.txt": "data\n" });
    expect(
      await vm.exec("cd /tmp && ln -s orig.txt lnk && readlink lnk && cat lnk && echo more >> lnk && cat orig.txt"),
    ).toEqual(result("orig.txt\ndata\ndata\nmore\n"));
    expect(await vm.exec("stat -c '%N %F' /tmp/lnk")).toEqual(result("'/tmp/lnk' -> 'orig.txt' symbolic link\n"));
  });

  it("a chain of links resolves with readlink -f (absolute path)", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "hi\n" });
    expect(await vm.exec("ln -s /tmp/f /tmp/l1 && ln -s /tmp/l1 /tmp/l2 && cat /tmp/l2 && readlink /tmp/l2 && readlink -f /tmp/l2")).toEqual(
      result("hi\n/tmp/l1\n/tmp/f\n"),
    );
  });

  it("a link to a directory can be used as the directory", async () => {
    const vm = await createVm();
    expect(await vm.exec("cd /tmp && mkdir d && ln -s d dl && touch dl/x && ls d && ls dl")).toEqual(result("x\nx\n"));
  });

  it("a dangling link exists as a link only", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("cd /tmp && ln -s missing dang; test -L dang && echo link; test -e dang || echo broken; cat dang; echo $?"),
    ).toEqual(result("link\nbroken\n1\n", 0, "cat: dang: No such file or directory\n"));
  });

  it("a hard link shares the content", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "hi\n" });
    expect(await vm.exec("ln /tmp/f /tmp/hard && echo x >> /tmp/hard && cat /tmp/f && stat -c %h /tmp/f")).toEqual(
      result("hi\nx\n2\n"),
    );
  });
});

describe("ls and touch", () => {
  it("ls lists a directory with files in C order, one per line when not a terminal", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/d/b": "", "/tmp/d/a": "", "/tmp/d/C": "", "/tmp/d/sub/x": "" });
    expect(await vm.exec("ls /tmp/d")).toEqual(result("C\na\nb\nsub\n"));
    expect(await vm.exec("ls -r /tmp/d")).toEqual(result("sub\nb\na\nC\n"));
  });

  it("ls -a and -A show hidden files, -1 one per line", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/h/.hidden": "", "/tmp/h/vis": "" });
    expect(await vm.exec("cd /tmp/h && ls && ls -a && ls -A && ls -1a")).toEqual(
      result("vis\n.\n..\n.hidden\nvis\n.hidden\nvis\n.\n..\n.hidden\nvis\n"),
    );
  });

  it("ls -d and ls of several directories", async () => {
    const vm = await createVm();
    expect(await vm.exec("cd /tmp && mkdir -p one/two && ls -d one one/two && ls one one/two")).toEqual(
      result("one\none/two\none:\ntwo\n\none/two:\n"),
    );
  });

  it("ls -R from the current directory", async () => {
    const vm = await createVm();
    expect(await vm.exec("cd /tmp && mkdir -p a/b && touch a/f a/b/g && cd a && ls -R")).toEqual(
      result(".:\nb\nf\n\n./b:\ng\n"),
    );
  });

  it("touch creates new files, touch -c does not", async () => {
    const vm = await createVm();
    expect(await vm.exec("cd /tmp && touch x y z && touch -c nope && ls && wc -c x")).toEqual(result("x\ny\nz\n0 x\n"));
  });
});

describe("modes and metadata", () => {
  it("chmod 444 and 644, read back with stat -c '%a %n'", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "hi\n" });
    expect(await vm.exec("cd /tmp && chmod 444 f && stat -c '%a %n' f && chmod 644 f && stat -c '%a %n' f")).toEqual(
      result("444 f\n644 f\n"),
    );
  });

  it("chmod 600, 755 and u+x", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "hi\n" });
    expect(
      await vm.exec("cd /tmp && chmod -c 600 f && stat -c %a f && chmod -c u+x f && stat -c %a f && chmod -c 755 f && stat -c '%a %A' f"),
    ).toEqual(
      result(
        "mode of 'f' changed from 0644 (rw-r--r--) to 0600 (rw-------)\n600\n" +
          "mode of 'f' changed from 0600 (rw-------) to 0700 (rwx------)\n700\n" +
          "mode of 'f' changed from 0700 (rwx------) to 0755 (rwxr-xr-x)\n755 -rwxr-xr-x\n",
      ),
    );
    expect((await vm.stat("/tmp/f")).mode).toBe(0o100755);
  });

  it("stat -c shows size and type", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/s/f": "abc\n" });
    expect(await vm.exec("cd /tmp/s && stat -c '%s %F %n' f && stat -c '%F %n' /tmp/s")).toEqual(
      result("4 regular file f\ndirectory /tmp/s\n"),
    );
  });

  it("du reports the size of a file and a directory", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/d/f": "x".repeat(5000) });
    // As GNU du on tmpfs; on ext4 `du -s` says 12, with the directory's own 4 KiB block (the VM's
    // directories take none).
    expect(await vm.exec("du /tmp/d/f && du -s /tmp/d")).toEqual(result("8\t/tmp/d/f\n8\t/tmp/d\n"));
  });
});

describe("reading files: cat, head, tail, wc", () => {
  it("cat of several files, and -n numbers across them", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f1": "a\nb\n", "/tmp/f2": "c\n" });
    expect(await vm.exec("cat /tmp/f1 /tmp/f2")).toEqual(result("a\nb\nc\n"));
    expect(await vm.exec("cat -n /tmp/f1 /tmp/f2")).toEqual(result("     1\ta\n     2\tb\n     3\tc\n"));
  });

  it("cat -b, -s and -A", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "a\n\n\nb\tc\n" });
    expect(await vm.exec("cat -b /tmp/f; cat -s /tmp/f; cat -A /tmp/f")).toEqual(
      result("     1\ta\n\n\n     2\tb\tc\na\n\nb\tc\na$\n$\n$\nb^Ic$\n"),
    );
  });

  it("cat of a missing file", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat /tmp/nope; echo $?")).toEqual(result("1\n", 0, "cat: /tmp/nope: No such file or directory\n"));
  });

  it("head and tail with -n and -c", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "1\n2\n3\n4\n5\n" });
    expect(await vm.exec("cd /tmp && head -n 2 f; head -c 4 f; tail -n 2 f; tail -c 4 f; tail -n +4 f; head -n -3 f")).toEqual(
      result("1\n2\n1\n2\n4\n5\n4\n5\n4\n5\n1\n2\n"),
    );
  });

  it("head and tail of several files print headers", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/a": "1\n2\n3\n", "/tmp/b": "4\n5\n6\n" });
    expect(await vm.exec("cd /tmp && head -n 1 a b; tail -n 1 a b")).toEqual(
      result("==> a <==\n1\n\n==> b <==\n4\n==> a <==\n3\n\n==> b <==\n6\n"),
    );
  });

  it("wc -l, -w, -c of a file", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "one two three\nfour\n" });
    expect(await vm.exec("cd /tmp && wc -l f; wc -w f; wc -c f; wc f; wc -l < f")).toEqual(
      result("2 f\n4 f\n19 f\n 2  4 19 f\n2\n"),
    );
  });

  it("wc of several files prints a total", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/x": "a\n", "/tmp/y": "b\nc\n" });
    expect(await vm.exec("cd /tmp && wc -l x y")).toEqual(result("1 x\n2 y\n3 total\n"));
  });
});

describe("paths: basename, dirname, realpath, pwd, mktemp", () => {
  it("basename and dirname", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("basename /home/user/file.tar.gz .gz; basename -s .txt a/b.txt; basename a/b/; basename -a /x/y /z/w; dirname /home/user/file.tar.gz; dirname file; dirname /; dirname a/b/"),
    ).toEqual(result("file.tar\nb\nb\ny\nw\n/home/user\n.\n/\na\n"));
  });

  it("realpath of absolute paths", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/t/f": "" });
    expect(await vm.exec("realpath /tmp/t/../t/f; realpath -m /a/../b/./c")).toEqual(result("/tmp/t/f\n/b/c\n"));
  });

  it("realpath and readlink -f of absolute and relative paths", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/t/q/r/f": "" });
    await vm.exec("ln -s /tmp/t/q/r/f /tmp/t/link");
    expect(await vm.exec("realpath /tmp/t/q/../q/r/f && readlink -f /tmp/t/link")).toEqual(
      result("/tmp/t/q/r/f\n/tmp/t/q/r/f\n"),
    );
    expect(await vm.exec("cd /tmp/t/q/r && realpath f && realpath ../.. && readlink -f .")).toEqual(
      result("/tmp/t/q/r/f\n/tmp/t\n/tmp/t/q/r\n"),
    );
  });

  it("/bin/pwd and the shell's pwd builtin both print the working directory", async () => {
    const vm = await createVm();
    expect(await vm.exec("cd /tmp && /bin/pwd && pwd")).toEqual(result("/tmp\n/tmp\n"));
  });

  it("mktemp creates a file and mktemp -d a directory", async () => {
    const vm = await createVm();
    expect(
      await vm.exec(
        't=$(mktemp) && test -f "$t" && echo file; d=$(mktemp -d) && test -d "$d" && echo dir; case "$t" in /tmp/tmp.??????????) echo named;; esac; ls /tmp | wc -l',
      ),
    ).toEqual(result("file\ndir\nnamed\n2\n"));
    expect(await vm.exec("t=$(mktemp /workspace/foo.XXXXXX) && echo ${#t} && ls /workspace | cut -c1-4")).toEqual(
      result("21\nfoo.\n"),
    );
  });
});

describe("writing files: truncate, redirections, the file API", () => {
  it("truncate shrinks, extends and creates files", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("cd /tmp && truncate -s 5 z && od -An -c z && printf abcdef > g && truncate -s 3 g && cat g && truncate -s +2 g && wc -c g"),
    ).toEqual(result("  \\0  \\0  \\0  \\0  \\0\nabc5 g\n"));
  });

  it("> and >> write files that the API reads back", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'a\\nb\\n' > /tmp/o.txt; echo c >> /tmp/o.txt; printf 'x' > /workspace/y.txt")).toEqual(result(""));
    expect(text(await vm.readFile("/tmp/o.txt"))).toBe("a\nb\nc\n");
    expect(Buffer.from(await vm.readFile("/workspace/y.txt")).toString()).toBe("x");
    expect(await vm.exec("echo over > /tmp/o.txt")).toEqual(result(""));
    expect(text(await vm.readFile("/tmp/o.txt"))).toBe("over\n");
  });

  it("stderr redirected to a file with 2> and 2>>", async () => {
    const vm = await createVm();
    expect(await vm.exec("cd /tmp && { echo out; echo err >&2; } > o 2> e; cat nope 2>> e; cat o")).toEqual(result("out\n"));
    expect(text(await vm.readFile("/tmp/e"))).toBe("err\ncat: nope: No such file or directory\n");
  });

  it("2>&1 and 1>&2 work into a pipe, a file, and onto the exec's own stdout and stderr", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat /tmp/nope 2>&1 | tr a-z A-Z")).toEqual(result("CAT: /TMP/NOPE: NO SUCH FILE OR DIRECTORY\n"));
    expect(await vm.exec("cat /tmp/nope > /tmp/log 2>&1; cat /tmp/log")).toEqual(
      result("cat: /tmp/nope: No such file or directory\n"),
    );
    expect(await vm.exec("cat /tmp/nope 2>&1")).toEqual(result("cat: /tmp/nope: No such file or directory\n", 1));
    expect(await vm.exec("echo builtin >&2 2>&1; cat /etc/hostname 1>&2")).toEqual(result("", 0, "builtin\nagentos\n"));
  });

  it("a here-document written to a file", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat > /tmp/h.txt <<'EOF'\nline $HOME\nsecond\nEOF\nwc -l /tmp/h.txt")).toEqual(result("2 /tmp/h.txt\n"));
    expect(text(await vm.readFile("/tmp/h.txt"))).toBe("line $HOME\nsecond\n");
  });

  it("files written by the API, nested directories included, are read by commands", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/proj/src/main.ts": "let a = 1;\nlet b = 2;\n", "/workspace/proj/README": "hello\n" });
    expect(await vm.exec("cd /workspace && find proj | sort && wc -l proj/src/main.ts && cat proj/README")).toEqual(
      result("proj\nproj/README\nproj/src\nproj/src/main.ts\n2 proj/src/main.ts\nhello\n"),
    );
  });

  it("binary content written by the API is read byte for byte", async () => {
    const vm = await createVm();
    await vm.writeFile("/tmp/bin.dat", new Uint8Array([0, 1, 127, 128, 255, 10]));
    expect(await vm.exec("od -An -tx1 /tmp/bin.dat && wc -c < /tmp/bin.dat")).toEqual(result(" 00 01 7f 80 ff 0a\n6\n"));
    expect(await vm.exec("cp /tmp/bin.dat /tmp/copy.dat")).toEqual(result(""));
    expect([...(await vm.readFile("/tmp/copy.dat"))]).toEqual([0, 1, 127, 128, 255, 10]);
  });

  it("exec with a cwd option resolves relative paths there", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/proj/notes.txt": "n\n" });
    expect(await vm.exec("pwd && cat notes.txt && mkdir out && touch out/a && ls", { cwd: "/workspace/proj" })).toEqual(
      result("/workspace/proj\nn\nnotes.txt\nout\n"),
    );
    expect(await vm.exists("/workspace/proj/out/a")).toBe(true);
  });
});
