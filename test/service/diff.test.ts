import { describe, expect, it } from "vitest";
import type { AgentOs, ExecResult } from "../../src/index.js";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";
import { hostHas, onHost } from "./host.js";
import { cpuMsSince } from "../deadlines.js";

// diff and cmp are workers/commands/diff.ts and cmp.ts (GNU diffutils 3.8's behaviour). Each case of the
// tables runs in the VM with LC_ALL=C and, where this machine has GNU diffutils 3.8, on the host in a
// directory holding the same files (LC_ALL=C): stdout, stderr and exit status must be equal. Cases with
// -u/-c headers cut them off or use --label, since the files' times differ between the two; the pinned
// cases below hold without a host.

const big = (seed: number, n: number): string => {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(x % 7 === 0 ? `changed ${x % 100}` : `line ${i % 50}`);
  }
  return `${out.join("\n")}\n`;
};

const tree: Record<string, string> = {
  "a.txt": "apple\nbanana\ncherry\ndate\n",
  "b.txt": "apple\nblueberry\ncherry\ndate\nelderberry\n",
  "c.txt": "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n",
  "d.txt": "one\n2\nthree\nfour\nfive\nsix\nseven\neight\nnine\nTEN\neleven\ntwelve\nthirteen\n",
  "nonl.txt": "x\ny",
  "nl.txt": "x\ny\n",
  "ws1.txt": "a  b\n\tc\nend  \n\nq\n",
  "ws2.txt": "a b\n        c\nEND\nq\n",
  "crlf.txt": "x\r\ny\r\n",
  "lf.txt": "x\ny\n",
  "bin1": "a\0b",
  "bin2": "a\0c",
  "empty.txt": "",
  "dup1.txt": "a\nb\na\nb\na\n",
  "dup2.txt": "b\na\nb\na\nb\n",
  "blank1.txt": "a\n\nb\n",
  "blank2.txt": "a\nb\n\n",
  "big1.txt": big(1, 3000),
  "big2.txt": big(2, 3000),
  "tabs1.txt": "a\tb\tc\nlong line with many words in it to truncate\n",
  "tabs2.txt": "a\tb\td\nlong line with many words in it to truncate!\nextra\n",
  "c.c": "int x;\nint main(void)\n{\n  int a = 1;\n  int b = 2;\n  int c = 3;\n  int d = 4;\n  return a;\n}\n",
  "c2.c": "int x;\nint main(void)\n{\n  int a = 1;\n  int b = 2;\n  int c = 3;\n  int d = 5;\n  return a;\n}\n",
  "d1/f": "a\nb\n",
  "d2/f": "a\nc\n",
  "d1/only1": "o\n",
  "d2/only2": "p\n",
  "d1/sub/s": "s\n",
  "d2/sub/s": "t\n",
  "d1/same": "same\n",
  "d2/same": "same\n",
  "d1/x.log": "l\n",
  "d2/x.log": "m\n",
  "d1/kind": "file\n",
  "d2/kind/inner": "i\n",
  "ex.txt": "*.log\nsub\n",
};

const files = Object.fromEntries(Object.entries(tree).map(([name, content]) => [`/workspace/${name}`, content]));
const hostDiffutils = hostHas("diff --version && cmp --version", "(GNU diffutils) 3.8");

async function treeVm(): Promise<AgentOs> {
  const vm = await createVm();
  await writeTree(vm, files);
  return vm;
}

const run = (vm: AgentOs, command: string): Promise<ExecResult> => vm.exec(`cd /workspace && ${command}`, { env: { LC_ALL: "C", TZ: "UTC" } });

/** Runs each case in the VM and on the host, and expects the same result. */
function likeHost(cases: readonly string[]): void {
  for (const command of cases) {
    it.skipIf(!hostDiffutils)(`like the host: ${command}`, async () => {
      const vm = await treeVm();
      expect(await run(vm, command)).toEqual(onHost(files, command));
    });
  }
}

describe("diff", () => {
  likeHost([
    // formats
    "diff a.txt b.txt",
    "diff c.txt d.txt",
    "diff -u a.txt b.txt | tail -n +3",
    "diff -U1 c.txt d.txt | tail -n +3",
    "diff --unified=0 c.txt d.txt | tail -n +3",
    "diff -c a.txt b.txt | tail -n +3",
    "diff -C 1 c.txt d.txt | tail -n +3",
    "diff --label A --label B -u a.txt b.txt",
    "diff --label A --label B -c c.txt d.txt",
    "diff -e c.txt d.txt",
    "diff -p --label x --label y -u c.c c2.c",
    "diff -F '^int' --label x --label y -c c.c c2.c",
    "diff -T a.txt b.txt",
    "diff -y a.txt b.txt",
    "diff -y -W 50 a.txt b.txt",
    "diff -y --suppress-common-lines -W 60 c.txt d.txt",
    "diff -y -W 40 tabs1.txt tabs2.txt",
    "diff -y -t -W 40 tabs1.txt tabs2.txt",
    "diff -y nonl.txt nl.txt",
    "diff --left-column -y a.txt b.txt",
    // hunks as GNU chooses them
    "diff dup1.txt dup2.txt",
    "diff -u dup1.txt dup2.txt | tail -n +3",
    "diff big1.txt big2.txt | md5sum",
    "diff -u big1.txt big2.txt | tail -n +3 | md5sum",
    "diff -d big1.txt big2.txt | md5sum",
    // missing newlines, empty files
    "diff nonl.txt nl.txt",
    "diff -u nonl.txt nl.txt | tail -n +3",
    "diff empty.txt a.txt",
    "diff a.txt empty.txt",
    "diff -u empty.txt a.txt | tail -n +3",
    "diff -c nl.txt empty.txt | tail -n +3",
    // what to ignore
    "diff ws1.txt ws2.txt",
    "diff -w ws1.txt ws2.txt",
    "diff -b ws1.txt ws2.txt",
    "diff -bi ws1.txt ws2.txt",
    "diff -E ws1.txt ws2.txt",
    "diff -Z ws1.txt ws2.txt",
    "diff -i a.txt b.txt",
    "diff -B blank1.txt blank2.txt; echo $?",
    "diff -I '^a' blank1.txt blank2.txt",
    "diff crlf.txt lf.txt",
    "diff --strip-trailing-cr crlf.txt lf.txt; echo $?",
    // binary files, -q, -s
    "diff bin1 bin2",
    "diff -q bin1 bin2",
    "diff -a bin1 bin2",
    "diff -q a.txt b.txt",
    "diff -s a.txt a.txt",
    // directories
    "diff d1 d2",
    "diff -r d1 d2",
    "diff -ru d1 d2 | grep -v '^[-+][-+][-+] '",
    "diff -rq d1 d2",
    "diff -rN d1 d2",
    "diff -r --unidirectional-new-file d1 d2",
    "diff -r -x '*.log' d1 d2",
    "diff -rq d1 d2 --exclude=sub",
    "diff -r -X ex.txt d1 d2",
    "diff -rs d1 d2",
    "diff -r d1/ d2/",
    "diff d1 a.txt",
    "diff d1/f d2",
    // stdin, errors
    "cat a.txt | diff - b.txt",
    "cat a.txt | diff -u - b.txt | tail -n +3",
    "diff missing.txt a.txt",
    "diff -N missing.txt a.txt",
    "diff a.txt",
    "diff a.txt b.txt c.txt",
    "diff --foo a.txt b.txt",
    "diff -W",
    "diff -e nonl.txt nl.txt",
  ]);

  it("writes the mtime with nanoseconds and the zone of TZ in -u and -c headers", async () => {
    const vm = await treeVm();
    await run(vm, "touch -d '2024-01-15 10:30:00.123' a.txt b.txt");
    expect(await run(vm, "diff -u a.txt b.txt | head -2")).toEqual(
      result("--- a.txt\t2024-01-15 10:30:00.123000000 +0000\n+++ b.txt\t2024-01-15 10:30:00.123000000 +0000\n"),
    );
    expect(await run(vm, "TZ=America/New_York diff -u a.txt b.txt | head -1")).toEqual(result("--- a.txt\t2024-01-15 05:30:00.123000000 -0500\n"));
    // -c in the C locale writes ctime's form; elsewhere the same form as -u.
    expect(await run(vm, "diff -c a.txt b.txt | head -1")).toEqual(result("*** a.txt\tMon Jan 15 10:30:00 2024\n"));
    expect(await run(vm, "LC_ALL=C.UTF-8 diff -c a.txt b.txt | head -1")).toEqual(result("*** a.txt\t2024-01-15 10:30:00.123000000 +0000\n"));
  });

  it("echoes the options in the header of each pair of a directory", async () => {
    const vm = await treeVm();
    expect(await run(vm, "diff -r --exclude=only1 -x 'k*' -U1 d1 d2 | grep '^diff'")).toEqual(
      result("diff -r '--exclude=only1' -x 'k*' -U1 d1/f d2/f\ndiff -r '--exclude=only1' -x 'k*' -U1 d1/sub/s d2/sub/s\ndiff -r '--exclude=only1' -x 'k*' -U1 d1/x.log d2/x.log\n"),
    );
  });

  it("pinned results", async () => {
    const vm = await treeVm();
    expect(await run(vm, "diff a.txt b.txt")).toEqual(result("2c2\n< banana\n---\n> blueberry\n4a5\n> elderberry\n", 1));
    expect(await run(vm, "diff -y -W 50 a.txt b.txt")).toEqual(
      result("apple\t\t\tapple\nbanana\t\t      |\tblueberry\ncherry\t\t\tcherry\ndate\t\t\tdate\n\t\t      >\telderberry\n", 1),
    );
    expect(await run(vm, "diff -r d1 d2 | head -5")).toEqual(result("diff -r d1/f d2/f\n2c2\n< b\n---\n> c\n"));
    expect(await run(vm, "diff bin1 bin2")).toEqual(result("Binary files bin1 and bin2 differ\n", 1));
    expect(await run(vm, "diff missing.txt a.txt")).toEqual(result("", 2, "diff: missing.txt: No such file or directory\n"));
  });

  it("is fast on files of 10k lines", async () => {
    const vm = await treeVm();
    const lines = (tag: string): string => Array.from({ length: 10_000 }, (_, i) => (i % 97 === 0 ? `${tag} ${i}` : `line ${i}`)).join("\n");
    await writeTree(vm, { "/workspace/l1.txt": `${lines("x")}\n`, "/workspace/l2.txt": `${lines("y")}\n` });
    const started = process.cpuUsage();
    expect(await run(vm, "diff l1.txt l2.txt | grep -c '^[0-9]'")).toEqual(result("104\n"));
    expect(cpuMsSince(started)).toBeLessThan(10_000);
  });
});

describe("cmp", () => {
  likeHost([
    "cmp a.txt b.txt",
    "cmp a.txt a.txt; echo $?",
    "cmp -l a.txt b.txt",
    "cmp -lb a.txt b.txt",
    "cmp -b a.txt b.txt",
    "cmp nl.txt nonl.txt",
    "cmp nonl.txt nl.txt",
    "cmp c.txt d.txt",
    "cmp -s a.txt b.txt; echo $?",
    "cmp --silent a.txt a.txt; echo $?",
    "cmp empty.txt a.txt",
    "cmp a.txt missing",
    "cmp -n 3 a.txt b.txt; echo $?",
    "cmp -i 2 a.txt b.txt",
    "cmp -i 1:2 a.txt b.txt",
    "cmp a.txt b.txt 1 1",
    "cmp bin1 bin2",
    "cmp -b bin1 bin2",
    "cat a.txt | cmp - b.txt",
    "cmp a.txt",
    "cmp d1 a.txt",
    "cmp -n x a.txt b.txt",
    "cmp --foo",
    "printf '\\x01\\x80\\xff' > k1; printf '\\x02\\x81\\xfe' > k2; cmp -lb k1 k2; cmp -b k1 k2",
  ]);

  it("pinned results", async () => {
    const vm = await treeVm();
    expect(await run(vm, "cmp a.txt b.txt")).toEqual(result("a.txt b.txt differ: char 8, line 2\n", 1));
    expect(await run(vm, "LC_ALL=C.UTF-8 cmp a.txt b.txt")).toEqual(result("a.txt b.txt differ: byte 8, line 2\n", 1));
    expect(await run(vm, "cmp nl.txt nonl.txt")).toEqual(result("", 1, "cmp: EOF on nonl.txt after byte 3, in line 2\n"));
    expect(await run(vm, "cmp a.txt missing")).toEqual(result("", 2, "cmp: missing: No such file or directory\n"));
  });
});
