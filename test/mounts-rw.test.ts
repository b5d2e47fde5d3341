import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { createVm, result } from "./helpers.js";

// Read-write host mounts: what the VM changes lands in the host directory, and nothing outside it.

let host: string;
let shared: string;
let outside: string;

beforeEach(() => {
  host = mkdtempSync(join(tmpdir(), "agentos-rw-mount-"));
  shared = join(host, "shared");
  outside = join(host, "outside");
  mkdirSync(join(shared, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(shared, "a.txt"), "alpha\n");
  writeFileSync(join(shared, "sub/b.txt"), "beta\n");
  writeFileSync(join(outside, "secret"), "secret\n");
  symlinkSync("sub", join(shared, "inside-dir"));
  symlinkSync("../outside/secret", join(shared, "relative-escape"));
  symlinkSync(outside, join(shared, "absolute-escape"));
  symlinkSync(join(outside, "new-file"), join(shared, "dangling-escape"));
});
afterEach(() => rmSync(host, { recursive: true, force: true }));

const rw = () => createVm({ mounts: [{ path: "/mnt/rw", hostDir: shared, readOnly: false }] });
const hostText = (p: string) => readFileSync(join(shared, p), "utf8");
/** The outside directory as it was made: nothing the VM did may change it. */
const outsideUntouched = () => {
  expect(readdirSync(outside)).toEqual(["secret"]);
  expect(readFileSync(join(outside, "secret"), "utf8")).toBe("secret\n");
  expect(statSync(join(outside, "secret")).mode & 0o777).toBe(0o644);
};

describe("read-write host mounts", () => {
  it("commands create, write, append, truncate, rename, remove, chmod and touch files in the host directory", async () => {
    const vm = await rw();
    expect(await vm.exec("echo x > /mnt/rw/f && echo y >> /mnt/rw/f && cat /mnt/rw/f")).toEqual(result("x\ny\n"));
    expect(hostText("f")).toBe("x\ny\n");
    expect(await vm.exec("mkdir -p /mnt/rw/d/e && mv /mnt/rw/f /mnt/rw/d/e/g && ls -R /mnt/rw/d")).toEqual(
      result("/mnt/rw/d:\ne\n\n/mnt/rw/d/e:\ng\n"),
    );
    expect(hostText("d/e/g")).toBe("x\ny\n");
    expect(await vm.exec("cp -r /mnt/rw/d /mnt/rw/d2 && find /mnt/rw/d2 | sort")).toEqual(result("/mnt/rw/d2\n/mnt/rw/d2/e\n/mnt/rw/d2/e/g\n"));
    expect(hostText("d2/e/g")).toBe("x\ny\n");
    expect(await vm.exec("truncate -s 2 /mnt/rw/d2/e/g && cat /mnt/rw/d2/e/g")).toEqual(result("x\n"));
    expect(hostText("d2/e/g")).toBe("x\n");
    expect(await vm.exec("chmod 600 /mnt/rw/a.txt && stat -c %a /mnt/rw/a.txt")).toEqual(result("600\n"));
    expect(statSync(join(shared, "a.txt")).mode & 0o777).toBe(0o600);
    expect(await vm.exec("touch -d 2020-01-02T03:04:05Z /mnt/rw/a.txt && date -u -r /mnt/rw/a.txt +%FT%T")).toEqual(result("2020-01-02T03:04:05\n"));
    expect(statSync(join(shared, "a.txt")).mtime.toISOString()).toBe("2020-01-02T03:04:05.000Z");
    expect(await vm.exec("rm -rf /mnt/rw/d /mnt/rw/d2 && rmdir /mnt/rw/sub 2>&1; ls /mnt/rw")).toEqual(
      result("rmdir: failed to remove '/mnt/rw/sub': Directory not empty\na.txt\nabsolute-escape\ndangling-escape\ninside-dir\nrelative-escape\nsub\n"),
    );
    expect(existsSync(join(shared, "d"))).toBe(false);
  });

  it("the API writes, reads, lists, moves and deletes through the mount", async () => {
    const vm = await rw();
    await vm.writeFile("/mnt/rw/api.txt", "from the API\n");
    expect(hostText("api.txt")).toBe("from the API\n");
    await vm.mkdir("/mnt/rw/x/y", { recursive: true });
    await vm.move("/mnt/rw/api.txt", "/mnt/rw/x/y/moved.txt");
    expect(await vm.readFile("/mnt/rw/x/y/moved.txt", "utf8")).toBe("from the API\n");
    expect(await vm.readdir("/mnt/rw/x/y")).toEqual(["moved.txt"]);
    await vm.chmod("/mnt/rw/x/y/moved.txt", 0o640);
    expect(statSync(join(shared, "x/y/moved.txt")).mode & 0o777).toBe(0o640);
    await vm.delete("/mnt/rw/x", { recursive: true });
    expect(existsSync(join(shared, "x"))).toBe(false);
    await expect(vm.delete("/mnt/rw", { recursive: true })).rejects.toMatchObject({ code: "EPERM" });
    await expect(vm.mkdir("/mnt/rw/a.txt/z", { recursive: true })).rejects.toMatchObject({ code: "ENOTDIR", path: "/mnt/rw/a.txt/z" });
  });

  it("renaming across the mount's boundary is EXDEV, as between file systems on Linux", async () => {
    const vm = await rw();
    await vm.writeFile("/tmp/t", "t\n");
    await expect(vm.move("/tmp/t", "/mnt/rw/t")).rejects.toMatchObject({ code: "EXDEV", path: "/mnt/rw/t" });
    await expect(vm.move("/mnt/rw/a.txt", "/tmp/a.txt")).rejects.toMatchObject({ code: "EXDEV", path: "/tmp/a.txt" });
    expect(await vm.exec("cp /tmp/t /mnt/rw/t && rm /tmp/t && cat /mnt/rw/t")).toEqual(result("t\n"));
    expect(hostText("t")).toBe("t\n");
  });

  it("symlinks the VM makes must point inside the mount; an absolute one is stored relative to the link", async () => {
    const vm = await rw();
    expect(await vm.exec("ln -s a.txt /mnt/rw/l1 && ln -s /mnt/rw/a.txt /mnt/rw/sub/l2 && readlink /mnt/rw/l1 /mnt/rw/sub/l2 && cat /mnt/rw/sub/l2")).toEqual(
      result("a.txt\n../a.txt\nalpha\n"),
    );
    expect(readlinkSync(join(shared, "sub/l2"))).toBe("../a.txt");
    // Checked as the host resolves the link: through a host symlink to the mount's root, "../x" would leave it.
    symlinkSync(".", join(shared, "self"));
    expect(await vm.exec("ln -s ../a.txt /mnt/rw/inside-dir/l3 && cat /mnt/rw/sub/l3")).toEqual(result("alpha\n"));
    for (const [target, at] of [["/etc/passwd", "bad"], ["../outside/secret", "bad"], ["/mnt", "bad"], ["sub/../a.txt", "bad"], ["../x", "self/bad"], ["../../x", "sub/bad"]]) {
      expect(await vm.exec(`ln -s ${target} /mnt/rw/${at}`), target).toEqual(
        result("", 1, `ln: failed to create symbolic link '/mnt/rw/${at}': Permission denied\n`),
      );
    }
    expect(existsSync(join(shared, "sub/bad"))).toBe(false);
    expect(existsSync(join(shared, "bad"))).toBe(false);
  });

  describe("the read-only mounts' confinement attacks, with writes", () => {
    it("a symlink that leads out is never written through, created through or chmod'ed through", async () => {
      const vm = await rw();
      for (const cmd of [
        "echo pwned > /mnt/rw/relative-escape",
        "echo pwned >> /mnt/rw/relative-escape",
        "echo pwned > /mnt/rw/absolute-escape/secret",
        "echo pwned > /mnt/rw/absolute-escape/new-file",
        "echo pwned > /mnt/rw/dangling-escape",
        "truncate -s 0 /mnt/rw/relative-escape",
        "chmod 777 /mnt/rw/relative-escape",
        "touch /mnt/rw/relative-escape",
        "mkdir /mnt/rw/absolute-escape/d",
        "rm /mnt/rw/absolute-escape/secret",
        "mv /mnt/rw/absolute-escape/secret /mnt/rw/stolen",
        "mv /mnt/rw/a.txt /mnt/rw/absolute-escape/a.txt",
        "ln /mnt/rw/absolute-escape/secret /mnt/rw/hard",
        "ln -s x /mnt/rw/absolute-escape/l",
        "cp /mnt/rw/a.txt /mnt/rw/absolute-escape/",
      ]) {
        const r = await vm.exec(cmd);
        expect(r.exitCode, cmd).not.toBe(0);
        // The tools word it in their own ways (rm and mv report a failed lstat as a missing file); the errno is
        // checked through the API below.
        expect(r.stderr, cmd).not.toBe("");
      }
      await expect(vm.writeFile("/mnt/rw/relative-escape", "pwned")).rejects.toMatchObject({ code: "EACCES", path: "/mnt/rw/relative-escape" });
      await expect(vm.writeFile("/mnt/rw/absolute-escape/x", "pwned")).rejects.toMatchObject({ code: "EACCES", path: "/mnt/rw/absolute-escape/x" });
      await expect(vm.chmod("/mnt/rw/relative-escape", 0o777)).rejects.toMatchObject({ code: "EACCES" });
      await expect(vm.move("/mnt/rw/absolute-escape/secret", "/mnt/rw/stolen")).rejects.toMatchObject({ code: "EACCES" });
      await expect(vm.move("/mnt/rw/a.txt", "/mnt/rw/absolute-escape/a.txt")).rejects.toMatchObject({ code: "EACCES" });
      await expect(vm.delete("/mnt/rw/absolute-escape/secret")).rejects.toMatchObject({ code: "EACCES" });
      await expect(vm.mkdir("/mnt/rw/absolute-escape/d", { recursive: true })).rejects.toMatchObject({ code: "EACCES" });
      outsideUntouched();
      expect(readdirSync(shared).sort()).toEqual(["a.txt", "absolute-escape", "dangling-escape", "inside-dir", "relative-escape", "sub"]);
      // The links themselves are entries of the mount: removing one removes the link only.
      expect(await vm.exec("rm /mnt/rw/relative-escape /mnt/rw/absolute-escape && ls /mnt/rw")).toEqual(
        result("a.txt\ndangling-escape\ninside-dir\nsub\n"),
      );
      outsideUntouched();
    });

    it("links that stay inside are followed for writes", async () => {
      const vm = await rw();
      expect(await vm.exec("echo new > /mnt/rw/inside-dir/c.txt && echo more >> /mnt/rw/inside-dir/b.txt && cat /mnt/rw/sub/c.txt /mnt/rw/sub/b.txt")).toEqual(
        result("new\nbeta\nmore\n"),
      );
      expect(hostText("sub/b.txt")).toBe("beta\nmore\n");
    });

    it("'..' is resolved in the VM: writing to /mnt/rw/../x writes the VM's /mnt/x, not the host's", async () => {
      const vm = await rw();
      expect(await vm.exec("echo vm > /mnt/rw/../x && echo vm > /mnt/rw/sub/../../outside 2>&1; cat /mnt/x /mnt/outside")).toEqual(result("vm\nvm\n"));
      outsideUntouched();
      expect(readdirSync(host).sort()).toEqual(["outside", "shared"]);
    });

    it("a file with a hard link outside the mount is not written, truncated or chmod'ed through it", async () => {
      linkSync(join(outside, "secret"), join(shared, "hard-link"));
      const vm = await rw();
      expect(await vm.exec("cat /mnt/rw/hard-link")).toEqual(result("secret\n"));
      for (const cmd of ["echo pwned > /mnt/rw/hard-link", "echo pwned >> /mnt/rw/hard-link", "truncate -s 0 /mnt/rw/hard-link", "chmod 777 /mnt/rw/hard-link"]) {
        const r = await vm.exec(cmd);
        expect(r.exitCode, cmd).not.toBe(0);
        expect(r.stderr, cmd).toContain("Permission denied");
      }
      await expect(vm.writeFile("/mnt/rw/hard-link", "pwned")).rejects.toMatchObject({ code: "EACCES", path: "/mnt/rw/hard-link" });
      outsideUntouched();
      // Replacing the name is a change to the mount only.
      expect(await vm.exec("rm /mnt/rw/hard-link && echo mine > /mnt/rw/hard-link && cat /mnt/rw/hard-link")).toEqual(result("mine\n"));
      outsideUntouched();
    });

    it("a directory the host replaces by a symlink out between two writes is refused at the second", async () => {
      const vm = await rw();
      expect(await vm.exec("echo one > /mnt/rw/sub/f")).toEqual(result(""));
      renameSync(join(shared, "sub"), join(shared, "sub-moved"));
      symlinkSync(outside, join(shared, "sub"));
      const r = await vm.exec("echo two > /mnt/rw/sub/f; echo two > /mnt/rw/sub/secret; rm /mnt/rw/sub/secret; mkdir /mnt/rw/sub/d");
      expect(r.exitCode).toBe(1);
      expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(4);
      outsideUntouched();
      expect(hostText("sub-moved/f")).toBe("one\n");
    });

    it("FIFOs and devices are refused with EACCES, never opened blocking", async () => {
      execFileSync("mkfifo", [join(shared, "fifo")]);
      symlinkSync("/dev/zero", join(shared, "zero"));
      const vm = await rw();
      for (const p of ["/mnt/rw/fifo", "/mnt/rw/zero"]) {
        await expect(vm.writeFile(p, "x")).rejects.toMatchObject({ code: "EACCES", path: p });
        expect((await vm.exec(`echo x > ${p}`)).exitCode, p).toBe(1);
      }
      expect(lstatSync(join(shared, "fifo")).isFIFO()).toBe(true);
    });
  });

  it("the host's refusals reach the VM as errnos with the VM path", async () => {
    const vm = await rw();
    await expect(vm.delete("/mnt/rw/sub")).rejects.toMatchObject({ code: "ENOTEMPTY", path: "/mnt/rw/sub" });
    await expect(vm.mkdir("/mnt/rw/sub")).rejects.toMatchObject({ code: "EEXIST", path: "/mnt/rw/sub" });
    await expect(vm.writeFile("/mnt/rw/a.txt/x", "x")).rejects.toMatchObject({ code: "ENOTDIR", path: "/mnt/rw/a.txt/x" });
    await expect(vm.writeFile("/mnt/rw/nope/x", "x")).rejects.toMatchObject({ code: "ENOENT", path: "/mnt/rw/nope/x" });
    await expect(vm.writeFile("/mnt/rw/sub", "x")).rejects.toMatchObject({ code: "EISDIR", path: "/mnt/rw/sub" });
    await expect(vm.move("/mnt/rw/sub", "/mnt/rw/sub/inner")).rejects.toMatchObject({ code: "EINVAL" });
    const r = await vm.exec("rmdir /mnt/rw/sub; mkdir /mnt/rw/sub; rm /mnt/rw/sub");
    expect(r.stderr.split("\n")).toEqual([
      "rmdir: failed to remove '/mnt/rw/sub': Directory not empty",
      "mkdir: cannot create directory '/mnt/rw/sub': File exists",
      "rm: cannot remove '/mnt/rw/sub': Is a directory",
      "",
    ]);
  });

  // Run as root, the host ignores permission bits.
  it.skipIf(process.getuid?.() === 0)("host permission errors reach the VM as EACCES with the VM path", async () => {
    mkdirSync(join(shared, "locked"), { mode: 0o555 });
    writeFileSync(join(shared, "ro.txt"), "ro\n", { mode: 0o444 });
    const vm = await rw();
    await expect(vm.writeFile("/mnt/rw/locked/f", "x")).rejects.toMatchObject({ code: "EACCES", path: "/mnt/rw/locked/f" });
    await expect(vm.writeFile("/mnt/rw/ro.txt", "x")).rejects.toMatchObject({ code: "EACCES", path: "/mnt/rw/ro.txt" });
    await expect(vm.mkdir("/mnt/rw/locked/d")).rejects.toMatchObject({ code: "EACCES", path: "/mnt/rw/locked/d" });
    expect(await vm.exec("echo x > /mnt/rw/ro.txt")).toEqual(result("", 1, "sh: line 1: /mnt/rw/ro.txt: Permission denied\n"));
  });

  it("host bytes are not counted by the VM's file-system quota", async () => {
    const vm = await createVm({ mounts: [{ path: "/mnt/rw", hostDir: shared, readOnly: false }], limits: { maxFsBytes: 64 * 1024 } });
    const before = (await vm.exec("df -B1 --output=used / | tail -1")).stdout;
    await vm.writeFile("/mnt/rw/big", new Uint8Array(1024 * 1024));
    expect(statSync(join(shared, "big")).size).toBe(1024 * 1024);
    expect((await vm.exec("df -B1 --output=used / | tail -1")).stdout).toBe(before);
    await expect(vm.writeFile("/tmp/big", new Uint8Array(1024 * 1024))).rejects.toMatchObject({ code: "ENOSPC" });
  });

  it("two VMs write the same host directory and see each other's changes", async () => {
    const [a, b] = await Promise.all([rw(), rw()]);
    const appends = (who: string) => `i=0; while [ $i -lt 40 ]; do echo ${who}$i >> /mnt/rw/log; echo $i > /mnt/rw/${who}-$i; i=$((i+1)); done`;
    const [ra, rb] = await Promise.all([a.exec(appends("A")), b.exec(appends("B"))]);
    expect([ra, rb]).toEqual([result(""), result("")]);
    const lines = hostText("log").split("\n").filter(Boolean);
    const expected = [...Array(40).keys()].flatMap((i) => [`A${i}`, `B${i}`]);
    expect([...lines].sort()).toEqual([...expected].sort());
    // Each VM's appends stay in its own order.
    expect(lines.filter((l) => l.startsWith("A"))).toEqual(expected.filter((l) => l.startsWith("A")));
    expect(await a.exec("ls /mnt/rw | grep -c '^B-'")).toEqual(result("40\n"));
    expect(await b.exec("cat /mnt/rw/A-39")).toEqual(result("39\n"));
  });

  it("dispose() in the middle of writes stops them, leaves whole lines and no open host file", async () => {
    const vm = await AgentOs.create({ mounts: [{ path: "/mnt/rw", hostDir: shared, readOnly: false }] });
    let disposed: Promise<void> | undefined;
    const run = vm.exec("i=0; while [ $i -lt 100000 ]; do echo line$i >> /mnt/rw/log; [ $i = 20 ] && echo started; i=$((i+1)); done", {
      onStdout: () => {
        disposed ??= vm.dispose();
      },
    });
    const ended = await run.then(
      (r) => r.exitCode,
      (e: { code?: string }) => e.code,
    );
    await disposed;
    expect(ended).not.toBe(0);
    const lines = hostText("log").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.length).toBeLessThan(100000);
    expect(lines).toEqual(lines.map((_, i) => `line${i}`));
    const open = readdirSync("/proc/self/fd").flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/self/fd/${fd}`)];
      } catch {
        return [];
      }
    });
    expect(open.filter((p) => p.startsWith(shared))).toEqual([]);
    // The host directory is as usable as before.
    const next = await rw();
    expect(await next.exec("echo after >> /mnt/rw/log && tail -1 /mnt/rw/log")).toEqual(result("after\n"));
  });
});
