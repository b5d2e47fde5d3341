import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentOs, AgentOsOptions, Limits } from "../src/index.js";
import { createVm, result } from "./helpers.js";
import { cpuMsSince } from "./deadlines.js";

/**
 * The file system is bounded and the VM protects itself: file data (maxFsBytes), inodes (maxFsInodes),
 * names (maxPathBytes, maxNameBytes, maxSymlinkDepth), /dev and the home directory, deep trees, and host
 * mounts that hold FIFOs. Each attack asserts the exact result where it is stable, that a file written
 * before reads back intact, that the VM still answers, and that the host's memory grew less than a bound.
 */

const MiB = 2 ** 20;
const SMALL_FS: Partial<Limits> = { maxFsBytes: 8 * MiB, maxVmMemoryBytes: 256 * MiB };
/**
 * Host RSS growth allowed per attack: with 8 MiB of files, what is left is memfs's metadata (20 MiB for a
 * 2,047-level tree), garbage not yet collected, workers and compiled code. Measured: 63 MiB at most on
 * Node 20. Node 24's V8 keeps the pages of collected garbage mapped for longer: 153 MiB for the deep tree,
 * of which a full collection leaves 17 MiB of heap (as on Node 20), so it gets more room.
 */
const RSS_BOUND = (Number(process.versions.node.split(".")[0]) >= 22 ? 192 : 128) * MiB;
const decode = (b: Uint8Array): string => new TextDecoder().decode(b);
/** What the shell's echo says when its write fails with ENOSPC. */
const ENOSPC_ECHO = "sh: line 1: echo: write error: No space left on device\n";

async function attacked(options: AgentOsOptions = { limits: SMALL_FS }): Promise<{ vm: AgentOs; survived: (precious?: boolean) => Promise<void> }> {
  const vm = await createVm(options);
  const before = `precious ${Math.random()}\n`;
  await vm.writeFile("/home/user/before.txt", before);
  // The commands the attacks use, compiled and their workers started, so that RSS measures the attack.
  await vm.exec("head -c 1 /dev/zero | wc -c >/dev/null; ls /dev >/dev/null");
  const rss = process.memoryUsage.rss();
  return {
    vm,
    survived: async (precious = true) => {
      expect(process.memoryUsage.rss() - rss).toBeLessThan(RSS_BOUND);
      expect(await vm.exec("echo alive")).toEqual(result("alive\n"));
      if (precious) expect(decode(await vm.readFile("/home/user/before.txt"))).toBe(before);
      expect(vm.stats().faults).toBe(0);
    },
  };
}

/**
 * File data the VM holds now: every regular file's size and every symlink's target (/bin → usr/bin), but for
 * the runtime's image layers (git's templates, Python's library, src/kernel/runtime-image.ts), whose bytes are shared by every VM
 * and count for none until it writes them.
 */
async function dataBytes(vm: AgentOs): Promise<number> {
  let n = 0;
  for (const e of await vm.readdirRecursive("/")) {
    // The shared layers' files (src/kernel/runtime-image.ts), which the VM's quota does not count.
    if (e.path.startsWith("/usr/share/git-core/templates/") || e.path.startsWith("/usr/lib/python3.13/") || e.path.startsWith("/usr/lib/node_modules/npm/")) continue;
    if (["/etc/ssl/certs/ca-certificates.crt", "/usr/lib/ssl/openssl.cnf", "/etc/pip.conf", "/usr/bin/npm", "/usr/bin/npx"].includes(e.path)) continue;
    n += e.type === "symlink" ? (await vm.lstat(e.path)).size : e.size;
  }
  return n;
}

describe("file data is bounded by maxFsBytes", () => {
  it("`head -c 3000000000 /dev/zero > f` stops at the limit with ENOSPC; deleting gives it all back", async () => {
    const { vm, survived } = await attacked();
    const room = 8 * MiB - (await dataBytes(vm));
    // After the walk, which entered the image layer's directories (their entries count in memory.files).
    const files = vm.stats().memory.files;
    const t0 = process.cpuUsage();
    expect(await vm.exec("head -c 3000000000 /dev/zero > /tmp/big")).toEqual(result("", 1, "head: error writing 'standard output': No space left on device\n"));
    expect(cpuMsSince(t0)).toBeLessThan(10_000);
    // POSIX's short write: what fitted is written, then ENOSPC.
    expect(await vm.exec("wc -c < /tmp/big")).toEqual(result(`${room}\n`));
    expect(await vm.exec("echo more >> /home/user/before.txt")).toEqual(result("", 1, ENOSPC_ECHO));
    expect(vm.stats().memory.files).toBeGreaterThan(files + room);
    expect(await vm.exec("rm /tmp/big")).toEqual(result(""));
    expect(vm.stats().memory.files).toBe(files);
    await survived();
  });

  it("a write that does not fit whole writes what fits, and the file holds exactly that", async () => {
    const { vm, survived } = await attacked();
    const room = 8 * MiB - (await dataBytes(vm));
    await vm.writeFile("/tmp/fill", new Uint8Array(room - 10));
    expect(await vm.exec("echo abcdefghijklmnopqrst > /tmp/p")).toEqual(result("", 1, ENOSPC_ECHO));
    expect(decode(await vm.readFile("/tmp/p"))).toBe("abcdefghij");
    await vm.delete("/tmp/fill");
    expect(await vm.exec("echo abcdefghijklmnopqrst > /tmp/p; cat /tmp/p")).toEqual(result("abcdefghijklmnopqrst\n"));
    await survived();
  });

  it("`truncate -s 100G` allocates nothing and fails with ENOSPC at once: files are not sparse", async () => {
    const { vm, survived } = await attacked();
    const files = vm.stats().memory.files;
    const t0 = performance.now();
    // GNU says "truncate: failed to truncate '/tmp/f' at 107374182400 bytes: …" when ftruncate fails (on
    // Linux the file would be sparse); uutils words any failure of open or set_len as "cannot open … for writing".
    expect(await vm.exec("truncate -s 100G /tmp/f")).toEqual(
      result("", 1, "truncate: cannot open '/tmp/f' for writing: No space left on device\n"),
    );
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(await vm.exec("wc -c < /tmp/f; truncate -s 1M /tmp/f; wc -c < /tmp/f; truncate -s 10 /tmp/f; wc -c < /tmp/f")).toEqual(
      result("0\n1048576\n10\n"),
    );
    expect(await vm.exec("head -c 10 /tmp/f | od -An -tx1")).toEqual(result(" 00 00 00 00 00 00 00 00 00 00\n"));
    await vm.delete("/tmp/f");
    expect(vm.stats().memory.files).toBe(files);
    await survived();
  });

  it("the API's writeFile fails with ENOSPC before changing anything; memory.files follows writes and deletes", async () => {
    const { vm, survived } = await attacked();
    await vm.writeFile("/tmp/keep", "kept\n");
    const files = vm.stats().memory.files;
    await expect(vm.writeFile("/tmp/keep", new Uint8Array(9 * MiB))).rejects.toMatchObject({
      code: "ENOSPC",
      path: "/tmp/keep",
      message: "ENOSPC: no space left on device (maxFsBytes 8388608), open '/tmp/keep'",
    });
    expect(decode(await vm.readFile("/tmp/keep"))).toBe("kept\n");
    expect(vm.stats().memory.files).toBe(files);
    await vm.writeFile("/tmp/keep", new Uint8Array(MiB));
    expect(vm.stats().memory.files).toBe(files - 5 + MiB);
    await vm.writeFile("/tmp/keep", "kept\n");
    expect(vm.stats().memory.files).toBe(files);
    await vm.writeFile("/tmp/other", new Uint8Array(MiB));
    expect(vm.stats().memory.files).toBeGreaterThan(files + MiB);
    await vm.delete("/tmp/other");
    expect(vm.stats().memory.files).toBe(files);
    const [batch] = await vm.writeFiles([{ path: "/tmp/a/b/c", content: new Uint8Array(9 * MiB) }]);
    expect(batch).toEqual({ path: "/tmp/a/b/c", success: false, error: "ENOSPC: no space left on device (maxFsBytes 8388608), open '/tmp/a/b/c'" });
    await survived();
  });

  it("overwriting, renaming over and removing trees give the space back", async () => {
    const { vm, survived } = await attacked();
    const files = vm.stats().memory.files;
    expect(
      await vm.exec(
        "mkdir -p /tmp/t/a/b && head -c 2500000 /dev/zero > /tmp/t/a/b/f && cp /tmp/t/a/b/f /tmp/t/g && " +
          "head -c 2500000 /dev/zero > /tmp/t/h && mv /tmp/t/h /tmp/t/g && ln -s a/b/f /tmp/t/l && ln /tmp/t/g /tmp/t/g2 && wc -c /tmp/t/l /tmp/t/g2",
      ),
    ).toEqual(result("2500000 /tmp/t/l\n2500000 /tmp/t/g2\n5000000 total\n"));
    // A third copy fits, a fourth does not.
    expect((await vm.exec("cp /tmp/t/g /tmp/t/x && cp /tmp/t/g /tmp/t/y")).exitCode).toBe(1);
    expect(await vm.exec("rm -r /tmp/t; ls /tmp")).toEqual(result(""));
    expect(vm.stats().memory.files).toBe(files);
    // The same through the API.
    await vm.mkdir("/tmp/u/v", { recursive: true });
    await vm.writeFile("/tmp/u/v/f", new Uint8Array(3 * MiB));
    await vm.writeFile("/tmp/u/g", new Uint8Array(3 * MiB));
    await vm.move("/tmp/u/g", "/tmp/u/v/f");
    await vm.delete("/tmp/u", { recursive: true });
    expect(vm.stats().memory.files).toBe(files);
    await survived();
  });
});

describe("inodes are bounded by maxFsInodes", () => {
  it("creating a file, directory or symlink past the limit is ENOSPC; deleting makes room again", async () => {
    // The inodes a new VM uses, as df counts them (an image layer's entries count once the VM has entered
    // their directory, so a walk of the tree would count more).
    const probe = await createVm();
    const df = (await probe.exec("df -i /")).stdout.split("\n")[1]!.split(/\s+/);
    const layout = Number(df[2]);
    const { vm, survived } = await attacked({ limits: { ...SMALL_FS, maxFsInodes: layout + 21 } });
    // before.txt took one: 20 are left.
    for (let i = 0; i < 20; i++) await vm.writeFile(`/tmp/f${i}`, "");
    await expect(vm.writeFile("/tmp/x", "")).rejects.toMatchObject({ code: "ENOSPC", message: `ENOSPC: no space left on device (maxFsInodes ${layout + 21}), open '/tmp/x'` });
    await expect(vm.mkdir("/tmp/d")).rejects.toMatchObject({ code: "ENOSPC" });
    expect(await vm.exec("echo > /tmp/x")).toEqual(result("", 1, "sh: line 1: /tmp/x: No space left on device\n"));
    expect(await vm.exec("mkdir /tmp/d")).toEqual(result("", 1, "mkdir: cannot create directory '/tmp/d': No space left on device\n"));
    expect(await vm.exec("ln -s f0 /tmp/l")).toEqual(result("", 1, "ln: failed to create symbolic link '/tmp/l': No space left on device\n"));
    // A hard link is a name, not an inode.
    expect(await vm.exec("ln /tmp/f0 /tmp/hard && echo linked")).toEqual(result("linked\n"));
    expect(await vm.exec("rm /tmp/f1 /tmp/f2 && mkdir /tmp/d && echo > /tmp/d/x && ls /tmp/d")).toEqual(result("x\n"));
    await survived();
  });
});

describe("names: maxPathBytes, maxNameBytes, maxSymlinkDepth", () => {
  it("a path or a name too long is ENAMETOOLONG, for the API and for commands", async () => {
    const { vm, survived } = await attacked();
    const name256 = "n".repeat(256);
    const path4097 = `/tmp/${"a/".repeat(2045)}bc`;
    expect(Buffer.byteLength(path4097)).toBe(4097);
    for (const call of [
      () => vm.writeFile(`/tmp/${name256}`, "x"),
      () => vm.readFile(`/tmp/${name256}`),
      () => vm.mkdir(path4097, { recursive: true }),
      () => vm.stat(path4097),
      () => vm.exec("true", { cwd: path4097 }),
    ])
      await expect(call()).rejects.toMatchObject({ code: "ENAMETOOLONG" });
    await expect(vm.writeFile(`/tmp/${"é".repeat(128)}`, "x")).rejects.toMatchObject({
      code: "ENAMETOOLONG",
      message: `ENAMETOOLONG: file name too long (maxNameBytes 255), open '/tmp/${"é".repeat(128)}'`,
    });
    await vm.writeFile(`/tmp/${"n".repeat(255)}`, "255 is fine\n");
    expect(await vm.exec(`cat /tmp/${"n".repeat(255)}; touch /tmp/${name256}`)).toEqual(
      // GNU: "touch: cannot touch '/tmp/nnn…': File name too long"; uutils touch stats the file first and
      // reports that failure as "setting times of", and uucore words ENAMETOOLONG "Filename too long".
      result("255 is fine\n", 1, `touch: setting times of '/tmp/${name256}': Filename too long\n`),
    );
    expect(await vm.exec(`cat ${path4097}`)).toEqual(result("", 1, `cat: ${path4097}: Filename too long\n`));
    await survived();
  });

  it("symlink loops and chains longer than maxSymlinkDepth are ELOOP", async () => {
    const { vm, survived } = await attacked({ limits: { ...SMALL_FS, maxSymlinkDepth: 8 } });
    expect(await vm.exec("cd /tmp && ln -s loop1 loop2 && ln -s loop2 loop1 && cat loop1")).toEqual(
      result("", 1, "cat: loop1: Symbolic link loop\n"),
    );
    await expect(vm.readFile("/tmp/loop1")).rejects.toMatchObject({
      code: "ELOOP",
      message: "ELOOP: too many levels of symbolic links (maxSymlinkDepth 8), open '/tmp/loop1'",
    });
    // c0 -> /etc/hostname, c1 -> c0, …: reading c7 follows 8 links, c8 follows 9.
    expect(
      await vm.exec("cd /tmp && ln -s /etc/hostname c0 && for i in 1 2 3 4 5 6 7 8; do ln -s c$((i-1)) c$i; done; cat c7; cat c8"),
    ).toEqual(result("agentos\n", 1, "cat: c8: Symbolic link loop\n"));
    expect(decode(await vm.readFile("/tmp/c7"))).toBe("agentos\n");
    await expect(vm.stat("/tmp/c8")).rejects.toMatchObject({ code: "ELOOP" });
    expect((await vm.lstat("/tmp/c8")).isSymbolicLink).toBe(true);
    // A directory symlink in the middle of a path counts too.
    expect(await vm.exec("ln -s . /tmp/dot && cat /tmp/dot/dot/dot/c0")).toEqual(result("agentos\n"));
    await survived();
  });
});

describe("the VM protects itself", () => {
  it("/dev cannot be removed, renamed, replaced or chmod'ed; the devices keep working", async () => {
    const { vm, survived } = await attacked();
    expect(await vm.exec("rm /dev/null")).toEqual(result("", 1, "rm: cannot remove '/dev/null': Permission denied\n"));
    // One line per device; /dev itself then stays because it is not empty.
    expect(await vm.exec("rm -rf /dev")).toEqual(
      result("", 1, ["null", "random", "urandom", "zero"].map((d) => `rm: cannot remove '/dev/${d}': Permission denied\n`).join("")),
    );
    // uutils mv prints the bare error (GNU, where the rename fails: "mv: cannot move '/dev/null' to '/tmp/n':
    // Operation not permitted"), with WASI's errno number.
    expect(await vm.exec("mv /dev/null /tmp/n")).toEqual(result("", 1, "mv: Operation not permitted (os error 63)\n"));
    expect(await vm.exec("echo x > /tmp/n; mv /tmp/n /dev/null")).toEqual(result("", 1, "mv: Operation not permitted (os error 63)\n"));
    expect(await vm.exec("chmod 000 /dev/null")).toEqual(result("", 1, "chmod: changing permissions of '/dev/null': Operation not permitted\n"));
    expect(await vm.exec("mkdir /dev/d; touch /dev/new; ln /dev/null /tmp/hard")).toEqual(
      result(
        "",
        1,
        // The kernel answers EPERM to both; uutils touch shows it as "Permission denied", like EACCES (Rust's
        // io::ErrorKind has one kind for both).
        "mkdir: cannot create directory '/dev/d': Operation not permitted\n" +
          "touch: cannot touch '/dev/new': Permission denied\n" +
          "ln: failed to create hard link '/tmp/hard' => '/dev/null': Cross-device link\n",
      ),
    );
    // Through a symlink it is the same device, and the same protection.
    expect(await vm.exec("ln -s /dev /tmp/d && ln -s /dev/null /tmp/n2 && echo gone > /tmp/n2 && cat /tmp/n2; rm /tmp/d/zero")).toEqual(
      result("", 1, "rm: cannot remove '/tmp/d/zero': Permission denied\n"),
    );
    expect(await vm.exec("echo hi > /dev/null; cat /dev/null; head -c 5 /dev/zero | wc -c; head -c 4 /dev/urandom | wc -c; ls /dev")).toEqual(
      result("5\n4\nnull\nrandom\nurandom\nzero\n"),
    );
    for (const call of [
      () => vm.delete("/dev/null"),
      () => vm.delete("/dev", { recursive: true }),
      () => vm.move("/dev/zero", "/tmp/z"),
      () => vm.move("/tmp/n", "/dev/zero"),
      () => vm.mkdir("/dev/x"),
      () => vm.writeFile("/dev/new", "x"),
    ])
      await expect(call()).rejects.toMatchObject({ code: "EPERM" });
    await vm.writeFile("/dev/null", "discarded");
    expect(await vm.readFile("/dev/null")).toEqual(new Uint8Array(0));
    expect((await vm.stat("/dev/null")).mode).toBe(0o20666);
    await survived();
  });

  it("`rm -rf /home/user` leaves a VM whose next exec runs in a new /home/user", async () => {
    const { vm, survived } = await attacked();
    expect(await vm.exec("rm -rf /home/user; echo x")).toEqual(result("x\n"));
    expect(await vm.exec("pwd; ls -A")).toEqual(result("/home/user\n"));
    expect(await vm.exec("cd / && rm -rf /home && echo > /home")).toEqual(result(""));
    // A file took its name: commands run in / rather than not at all.
    expect(await vm.exec("pwd")).toEqual(result("/\n"));
    await vm.delete("/home");
    expect(await vm.exec("pwd")).toEqual(result("/home/user\n"));
    await survived(false);
  });

  for (const execRouter of [true, false]) {
    it(`\`rm -rf /\` and \`rm -rf /*\` leave a VM that answers (execRouter: ${execRouter})`, async () => {
      const host = mkdtempSync(join(tmpdir(), "agentos-limits-"));
      try {
        writeFileSync(join(host, "kept.txt"), "kept\n");
        const { vm, survived } = await attacked({ limits: SMALL_FS, execRouter, mounts: [{ path: "/mnt/h", hostDir: host }] });
        expect(await vm.exec("rm -rf /")).toEqual(
          result("", 1, "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n"),
        );
        // The four devices, then the mounted file (read-only); /mnt stays as the mount's parent.
        expect(await vm.exec("rm -rf /*")).toEqual(
          result(
            "",
            1,
            ["null", "random", "urandom", "zero"].map((d) => `rm: cannot remove '/dev/${d}': Permission denied\n`).join("") +
              "rm: cannot remove '/mnt/h/kept.txt': Read-only file system\n",
          ),
        );
        expect(await vm.readdir("/")).toEqual(["dev", "mnt"]);
        await survived(false);
        expect(await vm.exec("echo alive; pwd; cat /mnt/h/kept.txt; ls /dev")).toEqual(
          result("alive\n/home/user\nkept\nnull\nrandom\nurandom\nzero\n"),
        );
      } finally {
        rmSync(host, { recursive: true, force: true });
      }
    });
  }
});

describe("deep trees never overflow the host's stack", () => {
  it("10,000 levels through the API: ENAMETOOLONG; 2,047 levels: listed, moved and deleted", async () => {
    const { vm, survived } = await attacked();
    const files = vm.stats().memory.files;
    await expect(vm.mkdir(`/d${"/d".repeat(9999)}`, { recursive: true })).rejects.toMatchObject({ code: "ENAMETOOLONG" });
    const deepest = `/t${"/d".repeat(2046)}`;
    await vm.mkdir(deepest, { recursive: true });
    await vm.writeFile(`${deepest}/f`, "deep\n");
    expect((await vm.readdirRecursive("/t")).length).toBe(2047);
    await vm.move("/t", "/u");
    expect(decode(await vm.readFile(`/u${deepest.slice(2)}/f`))).toBe("deep\n");
    // Deeper would put a path past maxPathBytes.
    await expect(vm.move("/u", "/home/user/u")).rejects.toMatchObject({ code: "ENAMETOOLONG" });
    await vm.delete("/u", { recursive: true });
    expect(vm.stats().memory.files).toBe(files);
    await survived();
  });

  it("a shell loop nesting directories stops at ENAMETOOLONG; find, mv and rm -rf then work or fail with an errno", async () => {
    const { vm, survived } = await attacked({ limits: { ...SMALL_FS, maxPathBytes: 600 } });
    const r = await vm.exec("for i in $(seq 10000); do mkdir d && cd d || break; done; pwd | wc -c", { cwd: "/tmp" });
    // 600 bytes: "/tmp" and 298 times "/d".
    expect(r).toEqual(result("601\n", 0, "mkdir: cannot create directory 'd': Filename too long\n"));
    expect(await vm.exec("find /tmp -name d | wc -l")).toEqual(result("298\n"));
    expect(await vm.exec("mv /tmp/d /tmp/e && ls /tmp")).toEqual(result("e\n"));
    expect(await vm.exec("rm -rf /tmp/e; ls /tmp")).toEqual(result(""));
    await survived();
  });
});

describe("host mounts never block the kernel", () => {
  let host: string;
  let server: Server;
  beforeAll(async () => {
    host = mkdtempSync(join(tmpdir(), "agentos-fifo-"));
    await new Promise<void>((resolve, reject) =>
      spawn("mkfifo", [join(host, "fifo")]).on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo: ${code}`)))),
    );
    symlinkSync("fifo", join(host, "fifo-link"));
    writeFileSync(join(host, "a.txt"), "alpha\n");
    server = createServer();
    await new Promise<void>((resolve) => server.listen(join(host, "sock"), resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(host, { recursive: true, force: true });
  });

  it("a FIFO or a socket in a mounted directory is refused with EACCES at once, for commands and the API", async () => {
    const { vm, survived } = await attacked({ limits: SMALL_FS, mounts: [{ path: "/mnt/h", hostDir: host }] });
    // Were an open to block, this writer would release it after 5 s, and the test would fail, not hang.
    const watchdog = spawn("sh", ["-c", `sleep 5; echo > ${join(host, "fifo")}`]);
    try {
      const t0 = performance.now();
      expect(await vm.exec("wc -c < /mnt/h/fifo")).toEqual(
        result("", 1, "sh: line 1: /mnt/h/fifo: Permission denied\n"),
      );
      expect((await vm.exec("cat /mnt/h/fifo-link")).exitCode).toBe(1);
      expect((await vm.exec("cat < /mnt/h/sock")).exitCode).toBe(1);
      for (const p of ["/mnt/h/fifo", "/mnt/h/fifo-link", "/mnt/h/sock"])
        await expect(vm.readFile(p)).rejects.toMatchObject({ code: "EACCES", path: p });
      expect(await vm.readFiles(["/mnt/h/fifo", "/mnt/h/a.txt"])).toEqual([
        { path: "/mnt/h/fifo", content: null, error: "EACCES: not a regular file or directory on the host, open '/mnt/h/fifo'" },
        { path: "/mnt/h/a.txt", content: new TextEncoder().encode("alpha\n") },
      ]);
      expect(await vm.exec("cat /mnt/h/a.txt; ls /mnt/h")).toEqual(result("alpha\na.txt\nfifo\nfifo-link\nsock\n"));
      expect(performance.now() - t0).toBeLessThan(4000);
    } finally {
      watchdog.kill();
    }
    await survived();
  });
});
