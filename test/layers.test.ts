// Image layers (AgentOs.create({ layers }), src/kernel/image.ts): read-only trees shared by every VM, shown in
// the root below what the VM writes, copied up on write, hidden by a removal, never changed by a VM. Compared
// with the host where there is one: an image made from a tar archive shows what GNU tar extracts from it.
import { execFileSync } from "node:child_process";
import { chmodSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AgentOs, Image } from "../src/index.js";

const base = Image.fromFiles({
  "/usr/lib/app/a.txt": "lower a\n",
  "/usr/lib/app/conf/settings.ini": { data: "x=1\n", mode: 0o600 },
  "/usr/lib/app/run": { data: "#!/bin/sh\necho run from the image: $1\n", mode: 0o755 },
  "/usr/lib/app/link": { symlink: "a.txt" },
  "/usr/lib/app/gone-below": { directory: true },
  "/opt/empty": { directory: true, mode: 0o700 },
});
const top = Image.fromFiles({
  "/usr/lib/app/a.txt": "top a\n",
  "/usr/lib/app/b.txt": "top b\n",
  "/usr/lib/app/gone-below": "a file over the lower directory\n",
});

const tmp = mkdtempSync(join(tmpdir(), "agentos-layers-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function withVm<T>(options: Parameters<typeof AgentOs.create>[0], fn: (vm: AgentOs) => Promise<T>): Promise<T> {
  const vm = await AgentOs.create(options);
  try {
    return await fn(vm);
  } finally {
    await vm.dispose();
  }
}

describe("image layers", { concurrent: true }, () => {
  it("show their files, modes and symlinks; a higher layer's entry hides a lower one's, directories merge", async () => {
    await withVm({ layers: [base, top] }, async (vm) => {
      expect(await vm.exec("cd /usr/lib/app && stat -c '%n %a %F %s' a.txt b.txt conf conf/settings.ini gone-below link run /opt/empty && cat a.txt link && ./run x")).toEqual({
        exitCode: 0,
        stdout: [
          "a.txt 644 regular file 6",
          "b.txt 644 regular file 6",
          "conf 755 directory 0",
          "conf/settings.ini 600 regular file 4",
          "gone-below 644 regular file 32",
          "link 777 symbolic link 5",
          "run 755 regular file 38",
          "/opt/empty 700 directory 0",
          "top a",
          "top a",
          "run from the image: x",
          "",
        ].join("\n"),
        stderr: "",
      });
      // The VM's own layout is still there, above the images.
      expect((await vm.exec("ls /usr/lib/app; ls -d /tmp /home/user /usr/bin/ls")).stdout).toBe("a.txt\nb.txt\nconf\ngone-below\nlink\nrun\n/home/user\n/tmp\n/usr/bin/ls\n");
    });
  });

  it("copy a file up when a VM writes it, hide what it removes, and change nothing for another VM or the image", async () => {
    await withVm({ layers: [base, top] }, async (one) => {
      await withVm({ layers: [base, top] }, async (two) => {
        const script = [
          "cd /usr/lib/app",
          "echo more >> a.txt",
          "rm b.txt",
          "rm -r conf",
          "mv run moved",
          "chmod 640 moved",
          ": > gone-below",
          "echo new > /usr/lib/app/new.txt",
          "ls",
          "cat a.txt; wc -c < gone-below; stat -c '%a' moved",
        ].join("; ");
        expect(await one.exec(script)).toEqual({ exitCode: 0, stdout: "a.txt\ngone-below\nlink\nmoved\nnew.txt\ntop a\nmore\n0\n640\n", stderr: "" });
        expect(await two.exec("cd /usr/lib/app; ls; cat a.txt b.txt conf/settings.ini")).toEqual({
          exitCode: 0,
          stdout: "a.txt\nb.txt\nconf\ngone-below\nlink\nrun\ntop a\ntop b\nx=1\n",
          stderr: "",
        });
      });
    });
    expect(new TextDecoder().decode(top.root.entries!.get("usr")!.entries!.get("lib")!.entries!.get("app")!.entries!.get("a.txt")!.data)).toBe("top a\n");
  });

  it("cost a VM its entries, not their bytes: a file larger than the VM's file-system quota reads, and writing it is ENOSPC", async () => {
    const big = Image.fromFiles({ "/data/big.bin": new Uint8Array(4 << 20).fill(0x61) });
    await withVm({ layers: [big], limits: { maxFsBytes: 1 << 20 } }, async (vm) => {
      const before = vm.stats().memory.files;
      expect(await vm.exec("wc -c < /data/big.bin; head -c 3 /data/big.bin; echo")).toEqual({ exitCode: 0, stdout: "4194304\naaa\n", stderr: "" });
      expect(vm.stats().memory.files - before).toBeLessThan(64 << 10);
      const r = await vm.exec("echo x >> /data/big.bin");
      expect([r.exitCode, r.stderr]).toEqual([1, "sh: line 1: /data/big.bin: No space left on device\n"]);
      expect((await vm.exec("wc -c < /data/big.bin")).stdout).toBe("4194304\n");
    });
  });

  it("are read by guest node as files (fs.readFileSync, fs.statSync)", async () => {
    await withVm({ layers: [base] }, async (vm) => {
      const r = await vm.exec(`node -e "const fs=require('fs');console.log(fs.readFileSync('/usr/lib/app/a.txt','utf8').trim(), fs.statSync('/usr/lib/app/run').mode.toString(8))"`);
      expect(r).toEqual({ exitCode: 0, stdout: "lower a 100755\n", stderr: "" });
    });
  });

  it("of a host directory show its files, permissions, times and symlinks as the host has them", async () => {
    const dir = join(tmp, "tree");
    mkdirSync(join(dir, "sub/deeper"), { recursive: true });
    writeFileSync(join(dir, "sub/deeper/f.txt"), "deep\n");
    writeFileSync(join(dir, "tool"), "#!/bin/sh\necho tool\n");
    chmodSync(join(dir, "tool"), 0o750);
    symlinkSync("sub/deeper/f.txt", join(dir, "ln"));
    utimesSync(join(dir, "sub/deeper/f.txt"), 1_000_000, 1_000_000);
    const image = Image.fromDirectory(dir);
    // Sizes of files and symlinks only: the VM's directories have size 0.
    const listing = "find . -printf '%p %M\\n' | sort; find . ! -type d -printf '%p %s\\n' | sort; stat -c '%Y' sub/deeper/f.txt";
    const host = execFileSync("sh", ["-c", `cd ${dir} && ${listing.replaceAll("find .", "find . -mindepth 1")}`], { encoding: "utf8" });
    await withVm({ layers: [image] }, async (vm) => {
      const r = await vm.exec(`cd / && ${listing.replaceAll("find .", "find ./sub ./tool ./ln")}`);
      expect(r.stdout).toBe(host);
      expect((await vm.exec("/tool; cat /ln")).stdout).toBe("tool\ndeep\n");
    });
  });

  it("of a tar archive (gzip, long names, symlinks, hard links) show what GNU tar extracts from it", async () => {
    const src = join(tmp, "tar-src");
    const long = `${"d".repeat(60)}/${"n".repeat(70)}.txt`;
    mkdirSync(join(src, "pkg", "d".repeat(60)), { recursive: true });
    writeFileSync(join(src, "pkg", long), "long name\n");
    writeFileSync(join(src, "pkg/script.sh"), "echo script\n");
    chmodSync(join(src, "pkg/script.sh"), 0o755);
    linkSync(join(src, "pkg/script.sh"), join(src, "pkg/hard"));
    symlinkSync("script.sh", join(src, "pkg/soft"));
    const archive = join(tmp, "pkg.tar.gz");
    execFileSync("tar", ["-czf", archive, "-C", src, "pkg"]);
    const out = join(tmp, "tar-out");
    mkdirSync(out);
    execFileSync("tar", ["-xzf", archive, "-C", out]);
    const describe = "find pkg -printf '%p %M %Ts\\n' | sort; find pkg ! -type d -printf '%p %s\\n' | sort; cat pkg/hard pkg/soft";
    const host = execFileSync("sh", ["-c", `cd ${out} && ${describe}`], { encoding: "utf8" });
    await withVm({ layers: [Image.fromTar(readFileSync(archive))] }, async (vm) => {
      expect((await vm.exec(`cd / && ${describe}`)).stdout).toBe(host);
    });
  });

  it("deferred: loaded when a lookup first enters its directory, once for every VM", async () => {
    let loads = 0;
    const deferred = Image.deferred("/opt/big", () => {
      loads++;
      return Image.fromFiles({ "/lib/x.txt": "deferred x\n", "/README": "read me\n" });
    });
    await withVm({ layers: [deferred] }, async (vm) => {
      expect((await vm.exec("ls /opt && ls / | grep -c opt")).stdout).toBe("big\n1\n");
      expect(loads).toBe(0);
      expect(await vm.exec("ls /opt/big && cat /opt/big/lib/x.txt")).toEqual({ exitCode: 0, stdout: "README\nlib\ndeferred x\n", stderr: "" });
      expect(loads).toBe(1);
    });
    await withVm({ layers: [deferred] }, async (vm) => {
      expect((await vm.exec("cat /opt/big/README")).stdout).toBe("read me\n");
    });
    expect(loads).toBe(1);
  });

  it("are checked: a bad option is a TypeError, a bad path or archive an EINVAL that names it", async () => {
    await expect(AgentOs.create({ layers: [{} as Image] })).rejects.toThrow(TypeError);
    expect(() => Image.fromFiles({ "rel/x": "" })).toThrow(expect.objectContaining({ code: "EINVAL", path: "rel/x" }));
    expect(() => Image.fromFiles({ "/a/../../x": "" })).toThrow(expect.objectContaining({ code: "EINVAL", path: "/a/../../x" }));
    expect(() => Image.fromFiles({ "/x": { data: "", mode: 0o10000 } })).toThrow(TypeError);
    expect(() => Image.fromTar(new Uint8Array(1024).fill(7))).toThrow(expect.objectContaining({ code: "EINVAL" }));
  });
});
