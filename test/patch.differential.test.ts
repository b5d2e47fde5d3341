import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, type Outcome } from "./host-twin.js";

/**
 * The VM's patch (guests/dist/patch.wasm, GNU patch 2.7.6) against the host's GNU patch: each case writes the
 * same files in a directory of its own at the same absolute path on both sides, then runs its command lines
 * one by one; every line's stdout, stderr and exit status must be identical, and so must the files afterwards
 * (listed with their modes and contents, .orig and .rej files included).
 */

const host = spawnSync("patch", ["--version"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? host.stdout.split("\n")[0]! : "";

const lines = (n: number, f = (i: number) => `line ${i}`): string => Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join("");
const ORIG = lines(20);
const NEW = ORIG.replace("line 5\n", "line five\n").replace("line 15\n", "line 15\nline 15b\n");
const UNIFIED = `--- a/f.txt\n+++ b/f.txt\n@@ -3,5 +3,5 @@\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n@@ -13,5 +13,6 @@\n line 13\n line 14\n line 15\n+line 15b\n line 16\n line 17\n`;
const CONTEXT = `*** a/f.txt\n--- b/f.txt\n***************\n*** 3,7 ****\n  line 3\n  line 4\n! line 5\n  line 6\n  line 7\n--- 3,7 ----\n  line 3\n  line 4\n! line five\n  line 6\n  line 7\n`;
const NORMAL = `5c5\n< line 5\n---\n> line five\n`;
const TWO_FILES = `--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n-line 1\n+line one\n line 2\n line 3\n--- a/g.txt\n+++ b/g.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+BETA\n`;
const NEW_FILE = `--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+brand\n+new\n`;
const DELETE_FILE = `--- a/g.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-alpha\n-beta\n`;
const GIT_STYLE = `diff --git a/f.txt b/f.txt\nindex 0000000..1111111 100644\n--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-line 1\n+LINE 1\n line 2\n`;
const NO_NEWLINE = `--- a/n.txt\n+++ b/n.txt\n@@ -1 +1 @@\n-old\n\\ No newline at end of file\n+new\n\\ No newline at end of file\n`;

interface Case {
  files: Record<string, string>;
  steps: string[];
}

const CASES: Record<string, Case> = {
  "unified diff from stdin with -p1": { files: { "f.txt": ORIG, "u.diff": UNIFIED }, steps: ["patch -p1 < u.diff"] },
  "unified diff with -i and a file operand": { files: { "f.txt": ORIG, "u.diff": UNIFIED }, steps: ["patch f.txt -i u.diff"] },
  "-p0 finds no file under a/": { files: { "f.txt": ORIG, "u.diff": UNIFIED }, steps: ["patch -p0 -f < u.diff"] },
  "context diff": { files: { "f.txt": ORIG, "c.diff": CONTEXT }, steps: ["patch -p1 < c.diff"] },
  "normal diff on a named file": { files: { "f.txt": ORIG, "n.diff": NORMAL }, steps: ["patch f.txt < n.diff"] },
  "--dry-run changes nothing": { files: { "f.txt": ORIG, "u.diff": UNIFIED }, steps: ["patch --dry-run -p1 < u.diff"] },
  "-R reverses an applied patch": { files: { "f.txt": NEW, "u.diff": UNIFIED }, steps: ["patch -R -p1 < u.diff"] },
  "applying twice: reversed patch detected, -N skips": {
    files: { "f.txt": ORIG, "u.diff": UNIFIED },
    steps: ["patch -p1 < u.diff", "patch -p1 -N < u.diff", "patch -p1 -f < u.diff"],
  },
  "-b keeps a .orig backup": { files: { "f.txt": ORIG, "u.diff": UNIFIED }, steps: ["patch -b -p1 < u.diff"] },
  "--backup --suffix": { files: { "f.txt": ORIG, "u.diff": UNIFIED }, steps: ["patch --backup --suffix=.bak -p1 < u.diff"] },
  "offset: hunks found lines away": { files: { "f.txt": `extra 1\nextra 2\nextra 3\n${ORIG}`, "u.diff": UNIFIED }, steps: ["patch -p1 < u.diff"] },
  "fuzz: a context line changed": { files: { "f.txt": ORIG.replace("line 3\n", "LINE 3\n"), "u.diff": UNIFIED }, steps: ["patch -p1 < u.diff"] },
  "-F0 refuses fuzz: a reject file": { files: { "f.txt": ORIG.replace("line 3\n", "LINE 3\n"), "u.diff": UNIFIED }, steps: ["patch -F0 -p1 < u.diff; echo status $?", "cat f.txt.rej"] },
  "a failing hunk: exit 1, .rej written, the other applied": {
    files: { "f.txt": ORIG.replace("line 5\n", "line 5 changed\n").replace("line 4\n", "line 4 changed\n").replace("line 6\n", "line 6 changed\n"), "u.diff": UNIFIED },
    steps: ["patch -p1 < u.diff"],
  },
  "-r names the reject file": {
    files: { "f.txt": lines(20, (i) => `other ${i}`), "u.diff": UNIFIED },
    steps: ["patch -p1 -r rejects.txt < u.diff"],
  },
  "two files in one patch": { files: { "f.txt": ORIG, "g.txt": "alpha\nbeta\n", "t.diff": TWO_FILES }, steps: ["patch -p1 < t.diff"] },
  "a new file from /dev/null": { files: { "c.diff": NEW_FILE }, steps: ["patch -p1 < c.diff"] },
  "a file deleted": { files: { "g.txt": "alpha\nbeta\n", "d.diff": DELETE_FILE }, steps: ["patch -p1 < d.diff"] },
  "git-style headers": { files: { "f.txt": ORIG, "g.diff": GIT_STYLE }, steps: ["patch -p1 < g.diff"] },
  "no newline at end of file": { files: { "n.txt": "old", "n.diff": NO_NEWLINE }, steps: ["patch -p1 < n.diff"] },
  "-d changes directory first": { files: { "sub/f.txt": ORIG, "u.diff": UNIFIED }, steps: ["patch -d sub -p1 < u.diff"] },
  "-o writes elsewhere": { files: { "f.txt": ORIG, "u.diff": UNIFIED }, steps: ["patch -o out.txt f.txt < u.diff"] },
  "-s is silent": { files: { "f.txt": ORIG, "u.diff": UNIFIED }, steps: ["patch -s -p1 < u.diff"] },
  "missing file to patch: exit 1 with -f": { files: { "u.diff": UNIFIED }, steps: ["patch -f -p1 < u.diff"] },
  "garbage input": { files: { "f.txt": ORIG, "junk": "this is not a patch\n" }, steps: ["patch -p1 < junk"] },
  "a bad option: exit 2": { files: {}, steps: ["patch --bogus", "patch -p1 -i missing.diff"] },
};

const names = Object.keys(CASES);
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

/** The case directory's files and their contents, as `find | sort` and `cat` give them on each side. */
const LIST = "find . -type f | sort | while read f; do echo \"== $f $(stat -c %A \"$f\")\"; cat \"$f\"; done";

describe.skipIf(!hostVersion).concurrent(`patch in the VM against the host's ${hostVersion} (${names.length} cases)`, () => {
  it.each(names)("%s", async (name) => {
    const c = CASES[name]!;
    const dir = join(twin.dir, name.replace(/[^a-z0-9]+/gi, "-"));
    mkdirSync(dir, { recursive: true });
    await twin.vm.mkdir(dir, { recursive: true });
    for (const [path, text] of Object.entries(c.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
      await twin.vm.mkdir(dirname(join(dir, path)), { recursive: true });
      await twin.vm.writeFile(join(dir, path), text);
    }
    const norm = (o: Outcome): Outcome => ({ stdout: o.stdout.replaceAll(dir, "$DIR"), stderr: o.stderr.replaceAll(dir, "$DIR"), exitCode: o.exitCode });
    for (const [i, step] of [...c.steps, LIST].entries()) {
      const command = `cd '${dir}' && ${step}`;
      expect(norm(await twin.inVm(command)), `step ${i}: ${step}`).toEqual(norm(twin.onHost(command)));
    }
  }, CASE_DEADLINE_MS * 2);
});
