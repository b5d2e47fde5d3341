import { describe, expect, it } from "vitest";
import { createVm, result, writeTree } from "./helpers.js";

/**
 * Permission bits: chmod (the runtime's own, with GNU's semantics) sets exactly what it is asked, new files
 * and directories get the modes of umask 022, `umask` reports that fixed mask, and the API has `chmod`.
 * Modes are read with vm.stat, `chmod -c`/`-v`, `stat` and `ls -l`, which all show the real bits.
 */

const TRY = "Try 'chmod --help' for more information.\n";

describe("chmod sets the bits it is asked for", () => {
  it("octal and symbolic modes persist, as vm.stat and chmod -c show", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/f": "x" });
    expect(await vm.exec("chmod 600 f && chmod u+x f && chmod -c g=u,o+r f && chmod -c g+rx f", { cwd: "/w" })).toEqual(
      result("mode of 'f' changed from 0700 (rwx------) to 0774 (rwxrwxr--)\n"),
    );
    expect((await vm.stat("/w/f")).mode).toBe(0o100774);
    expect(await vm.exec("chmod -v a-x,u+s f", { cwd: "/w" })).toEqual(
      result("mode of 'f' changed from 0774 (rwxrwxr--) to 4664 (rwSrw-r--)\n"),
    );
  });

  it("stat -c '%a %A', ls -l and vm.stat show the whole mode", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/f": "x", "/w/g": "x" });
    expect(await vm.exec("chmod 400 f && chmod 640 g && stat -c '%a %A' f g; ls -l f g | cut -c1-10", { cwd: "/w" })).toEqual(
      result("400 -r--------\n640 -rw-r-----\n-r--------\n-rw-r-----\n"),
    );
    expect((await vm.stat("/w/f")).mode).toBe(0o100400);
    expect((await vm.stat("/w/g")).mode).toBe(0o100640);
  });

  it("the bits are enforced for the VM's user: no read without r, no write without w", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/f": "secret\n" });
    const r = await vm.exec("chmod 200 f; cat f; chmod 444 f; echo more >> f || echo refused; cat f", { cwd: "/w" });
    expect(r.stdout).toBe("refused\nsecret\n");
    expect(r.stderr).toBe("cat: f: Permission denied\nsh: line 1: f: Permission denied\n");
    await expect(vm.writeFile("/w/f", "x")).rejects.toMatchObject({ code: "EACCES", path: "/w/f" });
  });

  it("directories: setuid/setgid stay unless named, X adds x to directories and executables only", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/d/f": "x", "/w/d/run": "x" });
    await vm.chmod("/w/d/run", 0o744);
    expect(await vm.exec("chmod g+s d && chmod 750 d && chmod -c 00750 d && chmod -R go=rX d", { cwd: "/w" })).toEqual(
      result("mode of 'd' changed from 2750 (rwxr-s---) to 0750 (rwxr-x---)\n"),
    );
    expect((await vm.stat("/w/d")).mode).toBe(0o40755);
    expect((await vm.stat("/w/d/f")).mode).toBe(0o100644);
    expect((await vm.stat("/w/d/run")).mode).toBe(0o100755);
  });

  it("a symlink on the command line is followed; one met by -R is left alone", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/d/f": "x", "/w/t": "x" });
    expect(await vm.exec("ln -s ../t d/l && ln -s d dl && chmod -Rv 700 dl", { cwd: "/w" })).toEqual(
      result(
        "mode of 'dl' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\n" +
          "mode of 'dl/f' changed from 0644 (rw-r--r--) to 0700 (rwx------)\n" +
          "neither symbolic link 'dl/l' nor referent has been changed\n",
      ),
    );
    expect((await vm.stat("/w/t")).mode).toBe(0o100644);
    expect((await vm.lstat("/w/dl")).mode).toBe(0o120777);
  });

  it("-w as an option is a mode, and GNU's warning when the umask kept bits", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/f": "x" });
    await vm.chmod("/w/f", 0o666);
    expect(await vm.exec("chmod -w f", { cwd: "/w" })).toEqual(result("", 1, "chmod: f: new permissions are r--rw-rw-, not r--r--r--\n"));
    expect(await vm.exec("chmod -- -w f; chmod a-w f", { cwd: "/w" })).toEqual(result(""));
    expect((await vm.stat("/w/f")).mode).toBe(0o100444);
  });

  it("GNU's messages and exit statuses", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/f": "x" });
    const run = (cmd: string) => vm.exec(cmd, { cwd: "/w" });
    expect(await run("chmod 644 nope")).toEqual(result("", 1, "chmod: cannot access 'nope': No such file or directory\n"));
    expect(await run("chmod 644 f/")).toEqual(result("", 1, "chmod: cannot access 'f/': Not a directory\n"));
    expect(await run("chmod -f 644 nope")).toEqual(result("", 1));
    expect(await run("chmod u+q f")).toEqual(result("", 1, `chmod: invalid mode: ‘u+q’\n${TRY}`));
    expect(await run("chmod")).toEqual(result("", 1, `chmod: missing operand\n${TRY}`));
    expect(await run("chmod 644")).toEqual(result("", 1, `chmod: missing operand after ‘644’\n${TRY}`));
    expect(await run("chmod -y f")).toEqual(result("", 1, `chmod: invalid option -- 'y'\n${TRY}`));
    expect(await run("chmod --reference=nope f")).toEqual(result("", 1, "chmod: failed to get attributes of 'nope': No such file or directory\n"));
    expect(await run("ln -s nowhere dangling; chmod 644 dangling")).toEqual(result("", 1, "chmod: cannot operate on dangling symlink 'dangling'\n"));
    expect(await run("chmod 000 /dev/null")).toEqual(result("", 1, "chmod: changing permissions of '/dev/null': Operation not permitted\n"));
    // The root belongs to the VM (as on Linux, to root): without search permission no path would work.
    expect(await run("chmod 700 /; chmod -R --preserve-root 755 /")).toEqual(
      result(
        "",
        1,
        "chmod: changing permissions of '/': Operation not permitted\n" +
          "chmod: it is dangerous to operate recursively on '/'\nchmod: use --no-preserve-root to override this failsafe\n",
      ),
    );
    expect(await vm.exec("echo alive")).toEqual(result("alive\n"));
  });
});

describe("creation modes are those of umask 022", () => {
  it("directories 0755 and files 0644, from the API and from commands", async () => {
    const vm = await createVm();
    await vm.mkdir("/w");
    await vm.mkdir("/w/api-p/q", { recursive: true });
    await vm.writeFile("/w/api-f", "x");
    await vm.writeFiles([{ path: "/w/batch/a/b", content: "x" }]);
    expect(await vm.exec("mkdir d && mkdir -p p/q/r && touch t && echo x > r && echo x >> a", { cwd: "/w" })).toEqual(result(""));
    const modes: Record<string, string> = {};
    for (const e of await vm.readdirRecursive("/w")) modes[e.path.slice(3)] = ((await vm.stat(e.path)).mode).toString(8);
    expect(modes).toEqual({
      "api-p": "40755", "api-p/q": "40755", "api-f": "100644", batch: "40755", "batch/a": "40755", "batch/a/b": "100644",
      d: "40755", p: "40755", "p/q": "40755", "p/q/r": "40755", t: "100644", r: "100644", a: "100644",
    });
    expect((await vm.stat("/w")).mode).toBe(0o40755);
  });

  it("the root layout: directories 0755, /tmp 1777, command stubs 0755, files 0644", async () => {
    const vm = await createVm();
    const modes: Record<string, string> = {};
    for (const p of ["/", "/dev", "/tmp", "/bin", "/usr/bin", "/usr/local/bin", "/etc", "/home/user", "/workspace", "/bin/ls", "/bin/chmod", "/etc/passwd"])
      modes[p] = ((await vm.stat(p)).mode & 0o7777).toString(8);
    expect(modes).toEqual({
      "/": "755", "/dev": "755", "/tmp": "1777", "/bin": "755", "/usr/bin": "755", "/usr/local/bin": "755", "/etc": "755",
      "/home/user": "755", "/workspace": "755", "/bin/ls": "755", "/bin/chmod": "755", "/etc/passwd": "644",
    });
  });

  it("cp gives a new file the source's mode and leaves an existing file's mode alone", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/run": "x", "/w/old": "y" });
    expect(await vm.exec("chmod 750 run && chmod 600 old && cp run new && cp run old && cp -r /w /w2", { cwd: "/w" })).toEqual(result(""));
    expect((await vm.stat("/w/new")).mode).toBe(0o100750);
    expect((await vm.stat("/w/old")).mode).toBe(0o100600);
    expect((await vm.stat("/w2/run")).mode).toBe(0o100750);
  });
});

describe("umask", () => {
  it("prints the fixed mask in bash's forms", async () => {
    const vm = await createVm();
    expect(await vm.exec("umask; umask -S; umask -p; umask -p -S")).toEqual(
      result("0022\nu=rwx,g=rx,o=rx\numask 0022\numask -S u=rwx,g=rx,o=rx\n"),
    );
  });

  it("accepts the mask it has, and refuses to change it", async () => {
    const vm = await createVm();
    expect(await vm.exec("umask 022 && umask 0022 && umask u=rwx,g=rx,o=rx && umask -S 22")).toEqual(result("u=rwx,g=rx,o=rx\n"));
    expect(await vm.exec("umask 077")).toEqual(
      result("", 1, "umask: cannot set the mask to 0077: the file mode creation mask is fixed at 0022 in this VM\n"),
    );
    expect(await vm.exec("umask 999; umask g=rwX; umask -x")).toEqual(
      result(
        "",
        2,
        "umask: 999: octal number out of range\numask: `X': invalid symbolic mode character\n" +
          "umask: -x: invalid option\numask: usage: umask [-p] [-S] [mode]\n",
      ),
    );
  });
});

describe("vm.chmod", () => {
  it("sets the permission bits, following symlinks", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/w/f": "x" });
    await vm.chmod("/w/f", 0o4751);
    expect((await vm.stat("/w/f")).mode).toBe(0o104751);
    expect(await vm.exec("ln -s f l && chmod -v 640 l", { cwd: "/w" })).toEqual(
      result("mode of 'l' changed from 4751 (rwsr-x--x) to 0640 (rw-r-----)\n"),
    );
    await vm.chmod("/w/l", 0o600);
    expect((await vm.stat("/w/f")).mode).toBe(0o100600);
  });

  it("fails like chmod(2), with code and path", async () => {
    const vm = await createVm();
    await expect(vm.chmod("/nope", 0o644)).rejects.toMatchObject({ code: "ENOENT", syscall: "chmod", path: "/nope" });
    await expect(vm.chmod("/dev/null", 0o600)).rejects.toMatchObject({ code: "EPERM", path: "/dev/null" });
    await expect(vm.chmod("/", 0o700)).rejects.toMatchObject({ code: "EPERM", path: "/" });
    await expect(vm.chmod("tmp", 0o700)).rejects.toMatchObject({ code: "EINVAL" });
    for (const bad of [-1, 0o10000, 1.5, "755", Number.NaN])
      await expect(vm.chmod("/tmp", bad as number)).rejects.toMatchObject({ name: "TypeError", code: "ERR_INVALID_ARG_VALUE" });
    expect((await vm.stat("/tmp")).mode).toBe(0o41777);
  });
});
