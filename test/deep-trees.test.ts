import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sys } from "../src/abi/syscalls.js";
import { OFlags, ROOT_PREOPEN_FD } from "../src/abi/wasi.js";
import type { AgentOs, ExecResult } from "../src/index.js";
import { createVm, result } from "./helpers.js";
import { Guest, kernel } from "./net-harness.js";
import { hostHasGnu } from "./tools-harness.js";

// The VM bounds how deep a tree grows: no entry's path may pass limits.maxPathBytes, whichever way the
// tree is made (one `mkdir -p`, a shell loop of `mkdir d; cd d`, a name relative to a directory fd, a
// rename of a tree below another, `cp -r`, the API). Linux has no such bound (PATH_MAX bounds one path
// argument, and `mkdir -p` or relative steps go deeper), but the VM's programs name files by whole paths
// (WASI's libc makes every relative path absolute) and so could not reach deeper files anyway. What the VM
// lets grow, the tools that walk trees handle whole, as GNU's do: find, du, chmod -R, cp -r, mv and
// rm -rf, and the API's recursive calls. The trees here are made at the bound of a VM with a small
// maxPathBytes, and a maxOpenFds below their depth (rm once held a directory open per level).

const LIMITS = { maxPathBytes: 1023, maxOpenFds: 64 };
/** Directories below `deep` in /tmp/w, so that its deepest path, `…/d/f`, is exactly maxPathBytes long. */
const LEVELS = (LIMITS.maxPathBytes - "/tmp/w/deep".length - "/f".length) / 2;
const chain = (n: number): string => Array(n).fill("d").join("/");
/** The tree, relative to its parent: directories, files at some levels, a link, the file at the bottom. */
const TREE = {
  dirs: `deep/${chain(LEVELS)}`,
  files: [`deep/${chain(LEVELS)}/f`, ...[1, 100, 250, 400].map((n) => `deep/${chain(n)}/g`)],
  link: { path: `deep/${chain(200)}/up`, target: ".." },
};

async function vmWithTree(): Promise<AgentOs> {
  const vm = await createVm({ limits: LIMITS });
  await vm.mkdir(`/tmp/w/${TREE.dirs}`, { recursive: true });
  for (const f of TREE.files) await vm.writeFile(`/tmp/w/${f}`, `${f.length}\n`);
  expect(await vm.exec(`ln -s ${TREE.link.target} ${TREE.link.path}`, { cwd: "/tmp/w" })).toEqual(result(""));
  return vm;
}

function hostTree(): string {
  const dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "agentos-deep-"));
  mkdirSync(join(dir, TREE.dirs), { recursive: true });
  for (const f of TREE.files) writeFileSync(join(dir, f), `${f.length}\n`);
  symlinkSync(TREE.link.target, join(dir, TREE.link.path));
  return dir;
}

function onHost(cwd: string, command: string): ExecResult {
  const r = spawnSync("bash", ["--norc", "--noprofile", "-c", command], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" },
    maxBuffer: 64 * 2 ** 20,
  });
  return { exitCode: r.status ?? 128, stdout: r.stdout, stderr: r.stderr };
}

/** `d/d/…/d` of `n` levels, shortened for messages: "<d×n>". */
const shown = (s: string): string => s.replace(/(?:d\/){8,}d?/g, (m) => `<d×${(m.length + (m.endsWith("/") ? 0 : 1)) / 2}>${m.endsWith("/") ? "/" : ""}`);

describe("the VM's depth bound is the same whichever way a tree grows", () => {
  /** The deepest directory below /tmp/w/NAME (NAME of 1 byte) whose path is within the bound: "/tmp/w/x" and 507 times "/d". */
  const deepest = (LIMITS.maxPathBytes - "/tmp/w/x".length) >> 1;

  it("mkdir -p of one long path, and a shell loop of mkdir d; cd d, stop at the same depth", async () => {
    const vm = await createVm({ limits: LIMITS });
    await vm.mkdir("/tmp/w");
    const opts = { cwd: "/tmp/w", env: { LC_ALL: "C" } };
    const one = await vm.exec(`mkdir -p x/${chain(deepest + 50)}; echo $?; find x -type d | wc -l`, opts);
    expect(shown(one.stdout + one.stderr)).toBe(shown(`1\n${deepest + 1}\nmkdir: cannot create directory 'x/${chain(deepest + 1)}': Filename too long\n`));
    const loop = await vm.exec("mkdir s && cd s && while mkdir d && cd d; do :; done; pwd | wc -c; cd /tmp/w; find s -type d | wc -l", opts);
    expect(loop).toEqual(result(`${LIMITS.maxPathBytes}\n${deepest + 1}\n`, 0, "mkdir: cannot create directory 'd': Filename too long\n"));
  });

  it("a directory made relative to a directory fd (mkdirat) is held to it, though each name is one byte", () => {
    const k = kernel(LIMITS);
    const g = new Guest(k);
    const start = `tmp/w/x/${chain(deepest - 10)}`;
    k.vfs.mkdir(`/${start}`, true);
    let dir = g.ok(Sys.OPEN, [ROOT_PREOPEN_FD, OFlags.DIRECTORY, 0, 1, 0], start).out[0]!;
    let made = 0;
    for (;;) {
      const r = g.now(Sys.MKDIR, [dir], "d");
      if (r.code !== "OK") {
        expect(r.code).toBe("ENAMETOOLONG");
        break;
      }
      made++;
      dir = g.ok(Sys.OPEN, [dir, OFlags.DIRECTORY, 0, 1, 0], "d").out[0]!;
    }
    expect(made).toBe(10);
    expect([k.vfs.exists(`/tmp/w/x/${chain(deepest)}`), k.vfs.exists(`/tmp/w/x/${chain(deepest + 1)}`)]).toEqual([true, false]);
  });

  it("mv of a tree below another fails as a whole when its deepest path would pass it; cp -r copies what fits and names what does not", async () => {
    const vm = await createVm({ limits: LIMITS });
    await vm.mkdir("/tmp/w");
    const opts = { cwd: "/tmp/w", env: { LC_ALL: "C" } };
    expect(shown((await vm.exec(`mkdir -p a/${chain(300)} b/${chain(300)} && mv a b/${chain(300)}/; echo $?; ls; find a | wc -l`, opts)).stdout)).toBe("1\na\nb\n301\n");
    expect(shown((await vm.exec(`mv a b/${chain(300)}/ 2>&1`, opts)).stdout)).toBe(shown(`mv: cannot move 'a' to 'b/${chain(300)}/a': Filename too long\n`));
    await vm.mkdir(`/tmp/w/x/${chain(deepest)}`, { recursive: true });
    const copied = await vm.exec("cp -r x longer; echo $?; find longer -type d | wc -l", opts);
    // GNU cp says the same of a directory past PATH_MAX, in glibc's words ("File name too long").
    expect(shown(copied.stdout + copied.stderr)).toBe(
      shown(`1\n${deepest - 1}\ncp: cannot create directory 'longer/${chain(deepest - 1)}': Filename too long\n`),
    );
  });

  it("the API: mkdir and writeFile past it are ENAMETOOLONG; a tree at it is listed, moved and deleted whole", async () => {
    const vm = await createVm({ limits: LIMITS });
    await expect(vm.mkdir(`/tmp/w/x/${chain(deepest + 1)}`, { recursive: true })).rejects.toMatchObject({ code: "ENAMETOOLONG" });
    await vm.mkdir(`/tmp/w/x/${chain(deepest)}`, { recursive: true });
    await expect(vm.writeFile(`/tmp/w/x/${chain(deepest)}/f`, "x")).rejects.toMatchObject({ code: "ENAMETOOLONG" });
    await vm.writeFile(`/tmp/w/x/${chain(deepest - 1)}/f`, "x");
    expect((await vm.readdirRecursive("/tmp/w")).length).toBe(deepest + 2);
    await vm.move("/tmp/w/x", "/tmp/w/y");
    await expect(vm.move("/tmp/w/y", "/tmp/w/longer")).rejects.toMatchObject({ code: "ENAMETOOLONG" });
    await vm.delete("/tmp/w/y", { recursive: true });
    expect(await vm.readdir("/tmp/w")).toEqual([]);
  });
});

describe("a tree at the VM's depth bound", () => {
  it("is as deep as the bound lets it: every path within maxPathBytes", async () => {
    const vm = await vmWithTree();
    expect(await vm.exec("find deep | awk '{ n++; if (length($0) > m) m = length($0) } END { print n, m }'", { cwd: "/tmp/w" })).toEqual(
      result(`${LEVELS + 1 + TREE.files.length + 1} ${LIMITS.maxPathBytes - "/tmp/w/".length}\n`),
    );
  });

  describe.skipIf(!hostHasGnu())("the tools handle it whole, as GNU's handle the same tree", () => {
    let host: string;
    beforeAll(() => void (host = hostTree()));
    afterAll(() => rmSync(host, { recursive: true, force: true }));

    // Each step runs in the VM and in GNU bash on the host, on the tree as the steps before left it; outputs
    // are sorted or summed where GNU walks in the host's directory order. A directory has no size of its own
    // in the VM (du shows what files take), so du is compared by the entries it visits.
    const steps: Array<[string, string]> = [
      ["find", "find deep | sort | md5sum; find deep -type f | sort; find deep -depth | tail -n1; find -L deep -name g 2>&1 | sort | md5sum"],
      ["du", "du -a deep | cut -f2 | sort | md5sum; du -s deep/d/d >/dev/null; echo $?"],
      ["chmod -R", "chmod -R g+w deep; echo $?; find deep -perm -g+w | wc -l; chmod -R -v go-w deep | wc -l; find deep -perm /g+w | wc -l"],
      ["cp -r", "cp -r deep copy; echo $?; find copy | sed s/^copy/deep/ | sort | md5sum; cmp copy/$(cd deep && find . -name f) deep/$(cd deep && find . -name f) && echo same"],
      ["mv", "mv copy cpy2; echo $?; find cpy2 | wc -l; ls"],
      ["rm -rf", "rm -rf deep cpy2; echo $?; ls -A"],
    ];
    it("find, du, chmod -R, cp -r, mv and rm -rf, one after the other", async () => {
      const vm = await vmWithTree();
      for (const [tool, command] of steps) {
        const inVm = await vm.exec(command, { cwd: "/tmp/w", env: { LC_ALL: "C" } });
        expect(inVm, `${tool}: the VM and GNU differ`).toEqual(onHost(host, command));
        expect(inVm.exitCode, tool).toBe(0);
      }
    });
  });
});
