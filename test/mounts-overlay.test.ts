import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { createVm, result } from "./helpers.js";

// Overlay mounts: the host directory is a read-only lower layer, the VM's changes stay in the VM, and diff()
// reads them back. The table gives, per operation, what the VM shows and what diff() reports, as overlayfs
// behaves (a copy-up on a write, a whiteout on a removal, an opaque directory when one is made over a removed
// one, a rename as a removal and an addition).

let host: string;
let lower: string;
/** Every file of the lower directory with its content: it must never change. */
let snapshot: string;

const tree = (dir: string): string =>
  (readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
    .sort()
    .map((p) => {
      const st = statSync(join(dir, p), { throwIfNoEntry: false });
      return `${p} ${st?.mode.toString(8)} ${st?.mtimeMs} ${st?.isFile() ? readFileSync(join(dir, p), "utf8") : ""}`;
    })
    .join("\n");

beforeAll(() => {
  host = mkdtempSync(join(tmpdir(), "agentos-overlay-"));
  lower = join(host, "lower");
  mkdirSync(join(lower, "sub/deep"), { recursive: true });
  mkdirSync(join(host, "outside"));
  writeFileSync(join(host, "outside/secret"), "secret\n");
  writeFileSync(join(lower, "a.txt"), "alpha\n");
  writeFileSync(join(lower, "sub/b.txt"), "beta\n");
  writeFileSync(join(lower, "sub/deep/c.txt"), "gamma\n");
  writeFileSync(join(lower, "big"), new Uint8Array(256 * 1024).fill(0x61));
  symlinkSync("sub/b.txt", join(lower, "link"));
  symlinkSync("/etc/hostname", join(lower, "absolute-link"));
  symlinkSync("../outside/secret", join(lower, "climbing-link"));
  for (const p of ["a.txt", "sub/b.txt", "sub/deep/c.txt", "big"]) utimesSync(join(lower, p), 1e9, 1e9);
  snapshot = tree(host);
});
afterAll(() => rmSync(host, { recursive: true, force: true }));

const overlay = () => createVm({ mounts: [{ path: "/mnt/o", hostDir: lower, overlay: true }] });
const none = { added: [], modified: [], deleted: [] };

interface Row {
  op: string;
  /** Run with /mnt/o as the working directory. */
  cmd: string;
  stdout: string;
  exitCode?: number;
  diff: { added?: string[]; modified?: string[]; deleted?: string[] };
}

const o = (...paths: string[]) => paths.map((p) => `/mnt/o/${p}`);

const table: Row[] = [
  { op: "read a lower file", cmd: "cat a.txt sub/deep/c.txt", stdout: "alpha\ngamma\n", diff: {} },
  { op: "list and stat", cmd: "ls; stat -c '%n %s %a' a.txt sub/b.txt big", stdout: "a.txt\nabsolute-link\nbig\nclimbing-link\nlink\nsub\na.txt 6 644\nsub/b.txt 5 644\nbig 262144 644\n", diff: {} },
  { op: "find walks the merged tree", cmd: "find . | sort", stdout: ".\n./a.txt\n./absolute-link\n./big\n./climbing-link\n./link\n./sub\n./sub/b.txt\n./sub/deep\n./sub/deep/c.txt\n", diff: {} },
  { op: "append (copy-up)", cmd: "echo more >> a.txt; cat a.txt; stat -c %s a.txt", stdout: "alpha\nmore\n11\n", diff: { modified: o("a.txt") } },
  { op: "overwrite in place (copy-up)", cmd: "printf A | dd of=a.txt conv=notrunc status=none; cat a.txt", stdout: "Alpha\n", diff: { modified: o("a.txt") } },
  { op: "truncate to zero (O_TRUNC, nothing copied)", cmd: ": > a.txt; wc -c < a.txt", stdout: "0\n", diff: { modified: o("a.txt") } },
  { op: "truncate -s", cmd: "truncate -s 2 sub/b.txt; cat sub/b.txt", stdout: "be", diff: { modified: o("sub/b.txt") } },
  { op: "chmod (metadata only)", cmd: "chmod 600 a.txt; stat -c %a a.txt; cat a.txt", stdout: "600\nalpha\n", diff: { modified: o("a.txt") } },
  { op: "chmod a directory", cmd: "chmod 700 sub; stat -c %a sub", stdout: "700\n", diff: { modified: o("sub") } },
  {
    op: "fstat of an open lower file shows the VM's inode",
    cmd: `chmod 700 a.txt; node -e "const fs = require('fs'); const st = fs.fstatSync(fs.openSync('a.txt')); console.log((st.mode & 0o777).toString(8), st.size, st.ino === fs.statSync('a.txt').ino)"`,
    stdout: "700 6 true\n",
    diff: { modified: o("a.txt") },
  },
  { op: "touch -d (times)", cmd: "touch -d 2020-01-01T00:00:00Z a.txt; date -u -r a.txt +%F", stdout: "2020-01-01\n", diff: { modified: o("a.txt") } },
  { op: "unlink (whiteout)", cmd: "rm a.txt; ls; cat a.txt 2>/dev/null || echo gone", stdout: "absolute-link\nbig\nclimbing-link\nlink\nsub\ngone\n", diff: { deleted: o("a.txt") } },
  { op: "rm -rf a lower directory (one whiteout)", cmd: "rm -rf sub; ls", stdout: "a.txt\nabsolute-link\nbig\nclimbing-link\nlink\n", diff: { deleted: o("sub") } },
  { op: "rmdir a lower directory that is not empty", cmd: "rmdir sub/deep", stdout: "", exitCode: 1, diff: {} },
  { op: "remove, then create again", cmd: "rm a.txt; echo again > a.txt; cat a.txt", stdout: "again\n", diff: { modified: o("a.txt") } },
  { op: "directory made over a removed one (opaque)", cmd: "rm -rf sub; mkdir sub; ls -A sub", stdout: "", diff: { deleted: o("sub/b.txt", "sub/deep") } },
  { op: "create a file in a lower directory", cmd: "echo n > sub/n; ls sub", stdout: "b.txt\ndeep\nn\n", diff: { added: o("sub/n") } },
  { op: "rename a file", cmd: "mv a.txt z.txt; cat z.txt", stdout: "alpha\n", diff: { added: o("z.txt"), deleted: o("a.txt") } },
  {
    op: "rename a directory (its lower contents move with it)",
    cmd: "mv sub moved; cat moved/deep/c.txt",
    stdout: "gamma\n",
    diff: { added: o("moved", "moved/b.txt", "moved/deep", "moved/deep/c.txt"), deleted: o("sub") },
  },
  { op: "rename over a lower file", cmd: "mv sub/b.txt a.txt; cat a.txt", stdout: "beta\n", diff: { modified: o("a.txt"), deleted: o("sub/b.txt") } },
  { op: "hard link, then write through it (one copy-up)", cmd: "ln a.txt h; echo x >> h; cat a.txt; stat -c %h a.txt", stdout: "alpha\nx\n2\n", diff: { added: o("h"), modified: o("a.txt") } },
  { op: "new symlink", cmd: "ln -s sub/b.txt l2; cat l2", stdout: "beta\n", diff: { added: o("l2") } },
  { op: "lower symlinks resolve in the VM", cmd: "cat link absolute-link; cat climbing-link 2>/dev/null || echo refused", stdout: "beta\nagentos\nrefused\n", diff: {} },
  { op: "cp -r out of the overlay", cmd: "cp -r sub /tmp/s && cat /tmp/s/deep/c.txt", stdout: "gamma\n", diff: {} },
  { op: "cp -r into the overlay", cmd: "mkdir /tmp/t && echo t > /tmp/t/f && cp -r /tmp/t sub/t && cat sub/t/f", stdout: "t\n", diff: { added: o("sub/t", "sub/t/f") } },
  { op: "mv from the VM's memory into the overlay (same file system)", cmd: "echo m > /tmp/m && mv /tmp/m m && cat m", stdout: "m\n", diff: { added: o("m") } },
];

describe("overlay mounts", () => {
  describe("operation → outcome, as overlayfs", () => {
    for (const row of table) {
      it(row.op, async () => {
        const vm = await overlay();
        const r = await vm.exec(row.cmd, { cwd: "/mnt/o" });
        expect(r.stdout).toBe(row.stdout);
        expect(r.exitCode).toBe(row.exitCode ?? 0);
        expect(await vm.diff("/mnt/o")).toEqual({ ...none, ...row.diff });
        expect(tree(host)).toBe(snapshot);
      });
    }
  });

  it("the API sees the merged tree and its changes", async () => {
    const vm = await overlay();
    expect(await vm.readFile("/mnt/o/sub/b.txt", "utf8")).toBe("beta\n");
    expect((await vm.stat("/mnt/o/big")).size).toBe(256 * 1024);
    await vm.writeFile("/mnt/o/sub/b.txt", "changed\n");
    await vm.delete("/mnt/o/sub/deep", { recursive: true });
    await vm.mkdir("/mnt/o/new/dir", { recursive: true });
    await vm.move("/mnt/o/a.txt", "/mnt/o/new/a.txt");
    expect(await vm.readdir("/mnt/o/sub")).toEqual(["b.txt"]);
    expect(await vm.readFile("/mnt/o/new/a.txt", "utf8")).toBe("alpha\n");
    expect(await vm.diff("/mnt/o")).toEqual({
      added: o("new", "new/a.txt", "new/dir"),
      modified: o("sub/b.txt"),
      deleted: o("a.txt", "sub/deep"),
    });
    expect(tree(host)).toBe(snapshot);
  });

  it("the quota counts what the VM wrote, not the lower bytes", async () => {
    const vm = await createVm({ mounts: [{ path: "/mnt/o", hostDir: lower, overlay: true }], limits: { maxFsBytes: 64 * 1024 } });
    expect(await vm.exec("wc -c < /mnt/o/big && cp /mnt/o/a.txt /mnt/o/a2")).toEqual(result("262144\n"));
    // Appending copies the 256 KiB up: more than the VM may hold.
    const r = await vm.exec("echo x >> /mnt/o/big");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("No space left on device");
    expect(await vm.exec("wc -c < /mnt/o/big; : > /mnt/o/big; wc -c < /mnt/o/big")).toEqual(result("262144\n0\n"));
    expect(tree(host)).toBe(snapshot);
  });

  it("two VMs on one lower directory see only their own changes", async () => {
    const [a, b] = await Promise.all([overlay(), overlay()]);
    expect(await a.exec("echo A > /mnt/o/a.txt && rm /mnt/o/sub/b.txt")).toEqual(result(""));
    expect(await b.exec("cat /mnt/o/a.txt /mnt/o/sub/b.txt")).toEqual(result("alpha\nbeta\n"));
    expect(await b.diff("/mnt/o")).toEqual(none);
    expect(tree(host)).toBe(snapshot);
  });

  it("a lower directory the host replaces by a symlink out before the VM reads it is refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentos-overlay-swap-"));
    try {
      mkdirSync(join(dir, "lower/sub"), { recursive: true });
      mkdirSync(join(dir, "outside"));
      writeFileSync(join(dir, "outside/secret"), "secret\n");
      const vm = await createVm({ mounts: [{ path: "/mnt/o", hostDir: join(dir, "lower"), overlay: true }] });
      expect(await vm.exec("ls /mnt/o")).toEqual(result("sub\n"));
      renameSync(join(dir, "lower/sub"), join(dir, "lower/sub-moved"));
      symlinkSync(join(dir, "outside"), join(dir, "lower/sub"));
      await expect(vm.readdir("/mnt/o/sub")).rejects.toMatchObject({ code: "EACCES", path: "/mnt/o/sub" });
      expect((await vm.exec("cat /mnt/o/sub/secret")).exitCode).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("diff() of a path that is no overlay mount is EINVAL; an overlay takes no readOnly", async () => {
    const vm = await overlay();
    await expect(vm.diff("/tmp")).rejects.toMatchObject({ code: "EINVAL", path: "/tmp" });
    await expect(vm.diff("/mnt/o/sub")).rejects.toMatchObject({ code: "EINVAL" });
    await expect(vm.delete("/mnt/o", { recursive: true })).rejects.toMatchObject({ code: "EPERM" });
    await expect(AgentOs.create({ mounts: [{ path: "/m", hostDir: lower, overlay: true, readOnly: false }] })).rejects.toMatchObject({ code: "EINVAL" });
  });
});
