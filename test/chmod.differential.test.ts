import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";

/**
 * The VM's chmod against GNU chmod on this machine: the same tree is laid out on the host (a temporary
 * directory, umask 022) and in the VM, the same command line runs in both, and the resulting modes, stdout,
 * stderr and exit status must be identical. Both run with LANG=C.UTF-8 unless a case says otherwise (GNU
 * quotes a mode in ‘’ there and a file name in ''). Host modes are read with stat(2), VM modes with
 * vm.stat(): the VM's `stat -c %a` (uutils) shows only whether the owner may write.
 */

const gnu = spawnSync("chmod", ["--version"], { encoding: "utf8" });
const haveGnuChmod = gnu.status === 0 && gnu.stdout.includes("GNU coreutils");

type Entry = { file: number } | { dir: number } | { symlink: string };

interface Case {
  /** Paths relative to the case's directory, parents before children. */
  tree: Record<string, Entry>;
  args: string[];
  env?: Record<string, string>;
  /** -R visits a directory's entries in directory order on the host and in name order in the VM. */
  sortStdout?: boolean;
}

interface Outcome {
  modes: Record<string, string>;
  exitCode: number;
  stdout: string;
  stderr: string;
}

const modeOf = (m: number): string => (m & 0o7777).toString(8);
const shellQuote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
const sorted = (text: string): string => text.split("\n").sort().join("\n");
/** Set modes children first: a directory without search permission cannot be set up below. */
const byDepth = (tree: Record<string, Entry>): Array<[string, Entry]> => Object.entries(tree).reverse();
const permsOf = (e: Entry): number | undefined => ("file" in e ? e.file : "dir" in e ? e.dir : undefined);
const regular = (tree: Record<string, Entry>): string[] => Object.keys(tree).filter((p) => !("symlink" in tree[p]!));

function onHost(c: Case): Outcome {
  const dir = mkdtempSync(join(tmpdir(), "chmod-diff-"));
  try {
    for (const [path, e] of Object.entries(c.tree)) {
      if ("file" in e) writeFileSync(join(dir, path), "x");
      else if ("dir" in e) mkdirSync(join(dir, path));
      else symlinkSync(e.symlink, join(dir, path));
    }
    for (const [path, e] of byDepth(c.tree)) if (permsOf(e) !== undefined) chmodSync(join(dir, path), permsOf(e)!);
    const r = spawnSync("sh", ["-c", 'umask 022; exec chmod "$@"', "chmod", ...c.args], {
      cwd: dir,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", LANG: "C.UTF-8", ...c.env },
      encoding: "utf8",
    });
    const modes = Object.fromEntries(regular(c.tree).map((p) => [p, modeOf(statSync(join(dir, p)).mode)]));
    return { modes, exitCode: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  } finally {
    removeTree(dir);
  }
}

/** rm -rf, after giving back what a case took away (a user who is not root cannot empty a directory without w and x). */
function removeTree(dir: string): void {
  chmodSync(dir, 0o700);
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeTree(join(dir, e.name));
  rmSync(dir, { recursive: true, force: true });
}

let vm: AgentOs;
let caseNo = 0;

async function inVm(c: Case): Promise<Outcome> {
  const dir = `/tmp/case${caseNo++}`;
  await vm.mkdir(dir);
  for (const [path, e] of Object.entries(c.tree)) {
    if ("file" in e) await vm.writeFile(`${dir}/${path}`, "x");
    else if ("dir" in e) await vm.mkdir(`${dir}/${path}`);
    else expect((await vm.exec(`ln -s ${shellQuote(e.symlink)} ${shellQuote(path)}`, { cwd: dir })).exitCode).toBe(0);
  }
  for (const [path, e] of byDepth(c.tree)) if (permsOf(e) !== undefined) await vm.chmod(`${dir}/${path}`, permsOf(e)!);
  const r = await vm.exec(`chmod ${c.args.map(shellQuote).join(" ")}`, { cwd: dir, ...(c.env ? { env: c.env } : {}) });
  const modes: Record<string, string> = {};
  for (const p of regular(c.tree)) {
    const st = await vm.stat(`${dir}/${p}`);
    modes[p] = modeOf(st.mode);
    // The host reads modes as root; the VM's user needs search permission to look below a directory.
    if (st.isDirectory) await vm.chmod(`${dir}/${p}`, (st.mode & 0o7777) | 0o700);
  }
  return { modes, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

async function compare(c: Case): Promise<void> {
  const expected = onHost(c);
  const actual = await inVm(c);
  if (c.sortStdout) {
    expected.stdout = sorted(expected.stdout);
    actual.stdout = sorted(actual.stdout);
  }
  expect({ args: c.args, ...actual }).toEqual({ args: c.args, ...expected });
}

/** Mode arguments, each tried on files and directories from every initial mode below. */
const MODES: string[] = [
  // octal: 1–4 digits keep a directory's setuid/setgid bits unless they set them, 5 digits clear them
  "0", "7", "17", "400", "600", "644", "755", "777", "000", "0644", "0755", "00755", "000644",
  "1777", "2755", "4755", "6755", "7777", "04755", "02750", "1", "10000", "8", "0o755", "99",
  // symbolic, no who: the umask (022) filters the change
  "+x", "-x", "+w", "-w", "+r", "-r", "=r", "=", "=rwx", "+X", "-X", "=X", "+s", "-s", "+t", "-t", "+rwxXst",
  // symbolic with who
  "u+x", "u-x", "g+w", "o-r", "a+x", "a-w", "u=", "go-rwx", "ug+rw", "a=rX", "u+X", "g-X", "a+rX",
  "u+s", "g+s", "u-s", "g-s", "o+t", "a-t", "ugo=rwx", "u=rw,go=r", "u=rwx,g=rx,o=", "a+rwx,o-w", "u+rwx,g-rwx",
  // copying another class's bits
  "g=u", "o=g", "u=o", "go=u", "a=u", "u+g", "g-o", "o+u,u-w",
  // several operations, and octal after an operator
  "+r+w-x", "u=r+w", "g=u-w", "u+x,g+x,o+x", "+r,-w", "=7", "+7", "-7", "=755", "+4000", "-022",
  // invalid
  "u+7", "u+xz", "ux", "z", "", ",", "u+r,", "a=rw,", "+8", "=0,",
  // a mode written as options (GNU warns when the umask kept it from doing what it says)
  "-w", "-x", "-r", "-rw", "-s", "-t", "-X", "-755", "-w,+x", "-u", "-Rw", "-z",
];

const INITIAL = [0o644, 0o755, 0o600, 0o000, 0o6711, 0o3775];

describe.skipIf(!haveGnuChmod)("chmod: the same result as GNU chmod", () => {
  beforeAll(async () => {
    vm = await AgentOs.create();
  });
  afterAll(async () => {
    await vm?.dispose();
  });

  it("covers at least 60 mode arguments", () => {
    expect(MODES.length).toBeGreaterThanOrEqual(60);
  });

  it.each(MODES.map((m) => [m]))("mode %j on files and directories", async (mode) => {
    for (const initial of INITIAL) {
      await compare({ tree: { f: { file: initial } }, args: [mode, "f"] });
      await compare({ tree: { d: { dir: initial } }, args: ["-v", mode, "d"] });
    }
  });

  it.each([
    ["-v", "644", "f"],
    ["-c", "644", "f"],
    ["-c", "600", "f"],
    ["--changes", "u+x", "f"],
    ["--verb", "640", "f"],
    ["--verbose", "=", "d"],
    ["-vf", "u+s", "f", "d"],
    ["-v", "--", "-w", "f"],
    ["--", "-x", "f"],
    ["f", "-w"],
    ["-w", "-x", "f"],
    ["-v", "-r,u+r", "f", "d"],
    ["--reference=d", "f"],
    ["--reference", "f", "d"],
    ["-v", "--reference=f", "d", "f"],
    ["--reference=nope", "f"],
    ["--reference=f", "644", "d"],
    ["-v", "644", "nope", "f"],
    ["644", "nope"],
    ["-f", "644", "nope"],
    ["-fv", "644", "nope"],
    ["644", "f/"],
    ["644", "f/x"],
    ["644", "d/"],
    ["644", ""],
    ["644", "it's"],
    ["644", "a b"],
    ["-v", "u+x", "ln"],
    ["644", "dangling"],
    ["-v", "644", "dangling"],
    ["-R", "go-w", "d"],
    ["-vR", "u=rwX,go=rX", "d"],
    ["-cR", "a+X", "d"],
    ["-R", "755", "f"],
    ["-R", "--preserve-root", "755", "d"],
    ["--no-preserve-root", "-Rc", "o-rwx", "d"],
    ["644"],
    ["-w"],
    [],
    ["-v"],
    ["--reference=f"],
    ["zz"],
    ["--foo", "644", "f"],
    ["--re=f", "d"],
    ["--ver", "f"],
    ["--verbose=1", "644", "f"],
    ["--reference"],
    ["-q", "644", "f"],
    ["-Rvz", "644", "f"],
  ])("chmod %s", async (...args) => {
    await compare({
      tree: { f: { file: 0o640 }, d: { dir: 0o2775 }, "d/e": { dir: 0o700 }, "d/e/g": { file: 0o664 }, ln: { symlink: "f" }, dangling: { symlink: "nowhere" }, "it's": { file: 0o600 }, "a b": { file: 0o600 } },
      args,
      sortStdout: args.some((a) => /^-[a-zA-Z]*R/.test(a)),
    });
  });

  it("a symlink met while recursing is left alone, and -v says so", async () => {
    await compare({ tree: { d: { dir: 0o755 }, "d/l": { symlink: "../f" }, f: { file: 0o600 } }, args: ["-Rv", "a+rwx", "d"] });
  });

  it("a symlink to a directory on the command line is followed, also with -R", async () => {
    await compare({ tree: { d: { dir: 0o755 }, "d/f": { file: 0o644 }, l: { symlink: "d" } }, args: ["-Rv", "go-rx", "l"], sortStdout: true });
  });

  it("LANG=C quotes the mode in ASCII quotes", async () => {
    await compare({ tree: { f: { file: 0o644 } }, args: ["zz", "f"], env: { LANG: "C" } });
    await compare({ tree: { f: { file: 0o644 } }, args: ["644"], env: { LANG: "C" } });
  });
});
