import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { createVm, result } from "./helpers.js";

let host: string;

beforeAll(() => {
  host = mkdtempSync(join(tmpdir(), "agentos-mount-"));
  mkdirSync(join(host, "shared/sub"), { recursive: true });
  mkdirSync(join(host, "outside"));
  writeFileSync(join(host, "shared/a.txt"), "alpha\n");
  writeFileSync(join(host, "shared/sub/b.txt"), "beta\n");
  writeFileSync(join(host, "outside/secret"), "secret\n");
  symlinkSync("sub/b.txt", join(host, "shared/inside-link"));
  symlinkSync("../outside/secret", join(host, "shared/relative-escape"));
  symlinkSync(join(host, "outside"), join(host, "shared/absolute-escape"));
  symlinkSync("/etc/passwd", join(host, "shared/etc-passwd"));
});
afterAll(() => rmSync(host, { recursive: true, force: true }));

const mounted = () => createVm({ mounts: [{ path: "/mnt/host", hostDir: join(host, "shared"), readOnly: true }] });

describe("host directory mounts", () => {
  it("shows the host directory's files to commands and to the API", async () => {
    const vm = await mounted();
    expect(await vm.exec("cat /mnt/host/a.txt sub/b.txt inside-link", { cwd: "/mnt/host" })).toEqual(
      result("alpha\nbeta\nbeta\n"),
    );
    expect(await vm.exec("find /mnt/host -name '*.txt' | sort")).toEqual(result("/mnt/host/a.txt\n/mnt/host/sub/b.txt\n"));
    expect(await vm.exec("ls /mnt/host")).toEqual(
      result("a.txt\nabsolute-escape\netc-passwd\ninside-link\nrelative-escape\nsub\n"),
    );
    expect(await vm.exec("wc -c < /mnt/host/a.txt")).toEqual(result("6\n"));
    expect(new TextDecoder().decode(await vm.readFile("/mnt/host/sub/b.txt"))).toBe("beta\n");
    expect((await vm.stat("/mnt/host/a.txt")).size).toBe(6);
    expect(await vm.readdir("/mnt/host/sub")).toEqual(["b.txt"]);
    expect(await vm.readdir("/mnt")).toEqual(["host"]);
  });

  it("symlinks that lead out of the mounted directory are refused with EACCES", async () => {
    const vm = await mounted();
    for (const link of ["relative-escape", "absolute-escape/secret", "etc-passwd"]) {
      const r = await vm.exec(`cat /mnt/host/${link}`);
      expect(r.exitCode, link).toBe(1);
      expect(r.stdout, link).toBe("");
      await expect(vm.readFile(`/mnt/host/${link}`)).rejects.toMatchObject({ code: "EACCES", path: `/mnt/host/${link}` });
    }
    // The link itself can be looked at; what it points to cannot be reached.
    expect(await vm.exec("readlink /mnt/host/etc-passwd")).toEqual(result("/etc/passwd\n"));
    for (const cmd of ["ls /mnt/host/absolute-escape/", "find /mnt/host/absolute-escape/", "cat /mnt/host/absolute-escape/*"])
      expect((await vm.exec(cmd)).stdout, cmd).not.toContain("secret");
  });

  it("'..' is resolved in the VM: it cannot climb out of the mount onto the host", async () => {
    const vm = await mounted();
    expect(await vm.exec("cat /mnt/host/../../etc/hostname")).toEqual(result("agentos\n"));
    expect((await vm.exec("cat /mnt/host/../outside/secret")).exitCode).toBe(1);
    await expect(vm.readFile("/mnt/host/../outside/secret")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("is read-only: changes fail with EROFS and the host directory is untouched", async () => {
    const vm = await mounted();
    for (const cmd of ["echo x > /mnt/host/new", "rm /mnt/host/a.txt", "mkdir /mnt/host/d", "mv /mnt/host/a.txt /tmp/", "touch /mnt/host/a.txt"]) {
      expect((await vm.exec(cmd)).exitCode, cmd).not.toBe(0);
    }
    await expect(vm.writeFile("/mnt/host/a.txt", "changed")).rejects.toMatchObject({ code: "EROFS", path: "/mnt/host/a.txt" });
    await expect(vm.delete("/mnt/host", { recursive: true })).rejects.toMatchObject({ code: "EROFS" });
    await expect(vm.mkdir("/mnt/host/d")).rejects.toMatchObject({ code: "EROFS" });
    expect(await vm.exec("cat /mnt/host/a.txt; ls /mnt/host/sub")).toEqual(result("alpha\nb.txt\n"));
  });

  it("a command sees the host's changes made since the last one, in a listing's stats too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentos-mount-changing-"));
    try {
      writeFileSync(join(dir, "f"), "12345");
      symlinkSync("f", join(dir, "link"));
      const vm = await createVm({ mounts: [{ path: "/mnt/c", hostDir: dir }] });
      // ls -l stats every entry it lists; -L follows the link to the file.
      const sizes = "ls -l /mnt/c | awk 'NR > 1 { print $5, $9 }'; ls -lL /mnt/c | awk 'NR > 1 { print $5, $9 }'";
      expect(await vm.exec(sizes)).toEqual(result("5 f\n1 link\n5 f\n5 link\n"));
      writeFileSync(join(dir, "f"), "1234567890");
      writeFileSync(join(dir, "g"), "");
      expect(await vm.exec(sizes)).toEqual(result("10 f\n0 g\n1 link\n10 f\n0 g\n10 link\n"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects a missing host directory and a relative mount path", async () => {
    await expect(AgentOs.create({ mounts: [{ path: "/m", hostDir: join(host, "nope") }] })).rejects.toMatchObject({
      code: "ENOENT",
    });
    await expect(AgentOs.create({ mounts: [{ path: "m", hostDir: host }] })).rejects.toMatchObject({ code: "EINVAL" });
  });
});
