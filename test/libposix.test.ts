import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";

/**
 * guests/libposix, the POSIX layer every C guest (git) is linked with, through guests/wasi-probe/libposix.c:
 * spawn with a working directory and pipes, waitpid, exec emulated as spawn and exit, system, popen both ways,
 * dup2 onto a free fd and onto stdout, fork's ENOSYS, st_mode with permission bits through stat, lstat and
 * fstat, open's mode for a file it creates, chmod and fchmod, realpath through a symlink, mkstemp, the user's passwd entry and isatty.
 */
describe("libposix", () => {
  it("gives a C program POSIX processes, fds, modes and users on the VM's imports", async () => {
    const wasm = join(import.meta.dirname, "../guests/wasi-probe/libposix-probe.wasm");
    const vm = await AgentOs.create({ commands: { "libposix-probe": { wasm } } });
    try {
      await vm.mkdir("/home/user/w/sub", { recursive: true });
      const r = await vm.exec("cd w && libposix-probe", {});
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split("\n")).toEqual([
        "cwd: /home/user/w",
        "child in /home/user/w/sub",
        "spawn: reaped 1, exited 1, status 3",
        "waitpid again: -1 errno ECHILD",
        "spawn missing: -1 errno ENOENT",
        "pipes: PIPED",
        "from system",
        "system: 5",
        "popen r: popen read",
        "pclose: 0",
        "POPEN WRITE",
        "pclose w: 0",
        "dup2 free: 20",
        "dup2 stdout: into the file",
        "fork: -1 errno ENOSYS",
        "exec child",
        "exec: status 4",
        "stat: mode 100750 uid 1000 size 14",
        "lstat link: symlink",
        "stat dir: mode 40755",
        "fstat: mode 100600",
        "stat missing: -1 errno ENOENT",
        "open O_EXCL 0777: mode 100755",
        "open new 0600: mode 100600",
        "open existing 0755: mode 100600",
        "realpath: /home/user/w/dup2.txt",
        "mkstemp: 1 mode 100600",
        "user: user 1000 /home/user /bin/sh",
        "isatty: 0",
        "getppid: 1",
        "",
      ]);
    } finally {
      await vm.dispose();
    }
  });
});
