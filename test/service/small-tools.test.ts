import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentOs, ExecResult } from "../../src/index.js";
import { createVm, writeTree } from "../helpers.js";
import { hostHas } from "./host.js";

// The small tools the runtime runs as its own commands (workers/commands/): each case runs in the VM's
// /workspace and, where this machine has the same tool (the version named per tool), on the host in a
// directory holding the same files, with the same locale and stdin /dev/null: stdout, stderr and exit
// status must be equal. Without the host tool the table is skipped; the pinned cases below hold anyway.

const bytes = (n: number, f: (i: number) => number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => f(i));

/** A PNG of `w` x `h` (IHDR only): bit depth, color type, interlace. */
function pngOf(w: number, h: number, depth: number, color: number, interlace: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([depth, color, 0, 0, interlace], 8);
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, "latin1"), data, Buffer.alloc(4)]);
  };
  return Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), chunk("IHDR", ihdr), chunk("IEND", Buffer.alloc(0))]);
}

const hex = (s: string): Uint8Array => Buffer.from(s.replace(/\s/g, ""), "hex");
const JFIF = "ffd8 ffe0 0010 4a46 4946 0001 0200 0048 0048 0000";
/** A tar header for an empty a.txt, with its checksum. */
const tarOf = (ustar: string): Uint8Array => {
  const b = Buffer.alloc(1024);
  b.write("a.txt", 0, "latin1");
  b.write("0000644\0", 100, "latin1");
  b.write("00000000000\0", 124, "latin1");
  b.write(ustar, 257, "latin1");
  b.write("        ", 148, "latin1");
  const sum = b.subarray(0, 512).reduce((n, c) => n + c, 0);
  b.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return b;
};

const TREE: Record<string, string | Uint8Array> = {
  "f.txt": "apple\nbanana\ncherry\n",
  "abc.txt": "abcdefghijklmnopqr",
  "sub/x.txt": "x",
  "bin.dat": Buffer.concat([bytes(256, (i) => i), new Uint8Array(64), Buffer.from("end")]),
  "z.dat": new Uint8Array(80),
  "t.txt": "a bb ccc\ndddd e f\n",
  "u.csv": "name,city,age\nJo,S\u00e3o Paulo,31\nAl,x\nBo,\u6771\u4eac,7\n",
  "n.txt": Array.from({ length: 30 }, (_, i) => `${i + 1}\n`).join(""),
  "w.txt": "  a b\n\tc d\n\n e\n",
  "long.txt": Array.from({ length: 24 }, (_, i) => `item-${i + 1}\n`).join(""),
  "tabs.tsv": "a\tb\tc\nlonger\t\tx\n",
  "bad.txt": Buffer.from("h\xc3\xa9 b\nccc d\n\xff x\na\x01 b\n", "latin1"),
  "e.txt": "",
  "r.txt": "hello\nw\u00f6rld\nlast",
  "a.txt": "abc\n\n  x y\n",
  "crlf.txt": "one\r\ntwo\r\n",
  "d/a.txt": "hello\n",
  "d/big.bin": "x".repeat(5000),
  "d/sub/c.txt": "c".repeat(4097),
  "d/sub/deep/e.txt": "e",
  "noexec": "echo hi\n",
  "ft/empty": "",
  "ft/a.txt": "hello\n",
  "ft/nonl.txt": "no newline",
  "ft/crlf.txt": "dos\r\nline\r\n",
  "ft/cr.txt": "a\rb\r",
  "ft/mixed.txt": "a\r\nb\n",
  "ft/u.txt": "café\n",
  "ft/bom.txt": "\ufeffbom\n",
  "ft/u16.txt": Buffer.from("\ufeffhi\n", "utf16le"),
  "ft/lat1.txt": Buffer.from("caf\xe9\n", "latin1"),
  "ft/ext.txt": Buffer.from("caf\x80\x81\n", "latin1"),
  "ft/esc.txt": "x\x1b[1mbold\n",
  "ft/long.txt": `${"a".repeat(400)}\n`,
  "ft/j.json": '{"a": 1}\n',
  "ft/arr.json": "[1, 2]\n",
  "ft/badj.json": '{"a":\n',
  "ft/s.py": "#!/usr/bin/env python3\nprint(1)\n",
  "ft/p2.py": "import os\nprint(1)\n",
  "ft/s.sh": "#!/bin/bash\necho\n",
  "ft/s2.sh": "#!/bin/sh\necho\n",
  "ft/s.js": "#!/usr/bin/env node\nconsole.log(1)\n",
  "ft/u.js": "#!/usr/bin/env node\nconsole.log('café')\n",
  "ft/s.pl": "#!/usr/bin/perl\nx\n",
  "ft/s.rb": "#!/usr/bin/env ruby\nx\n",
  "ft/s.zsh": "#!/bin/zsh\nx\n",
  "ft/other": "#!/usr/local/bin/foo -x\nx\n",
  "ft/c.c": "#include <stdio.h>\nint main(void) { return 0; }\n",
  "ft/h.html": "<!DOCTYPE html>\n<html><body></body></html>\n",
  "ft/x.xml": '<?xml version="1.0"?>\n<a/>\n',
  "ft/s.svg": '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n',
  "ft/t.ts": 'import { x } from "./y";\nexport const a = 1;\n',
  "ft/m.md": "# Title\n\nText\n",
  "ft/i.png": pngOf(16, 8, 8, 6, 0),
  "ft/g.png": pngOf(300, 200, 8, 0, 0),
  "ft/rgb.png": pngOf(300, 200, 8, 2, 1),
  "ft/pal.png": pngOf(300, 200, 4, 3, 0),
  "ft/ga.png": pngOf(300, 200, 16, 4, 0),
  "ft/i.jpg": hex(`${JFIF} ffc0 0011 08 0008 0010 03 012200 021101 031101 ffd9`),
  "ft/p.jpg": hex(`${JFIF} ffc2 0011 08 01e0 0280 03 012200 021101 031101 ffd9`),
  "ft/i.gif": Buffer.from("GIF89a\x10\x00\x20\x00\x00\x00\x00", "latin1"),
  "ft/old.gif": Buffer.from("GIF87a\x05\x01\x03\x00", "latin1"),
  "ft/d.pdf": Buffer.from("%PDF-1.4\n%\xe2\xe3\n1 0 obj\n", "latin1"),
  "ft/n.gz": hex("1f8b 0800 0000 0000 0003 cbc8 e402 007a 7a6f ed03 0000 00"),
  "ft/a.gz": Buffer.concat([hex("1f8b 0808 80f2 8a65 0203"), Buffer.from("a.txt\0"), hex("cb48 cdc9 c9e7 0200 2030 3a36 0600 0000")]),
  "ft/gnu.tar": tarOf("ustar  \0"),
  "ft/posix.tar": tarOf("ustar\x0000"),
  // Python's zipfile: a.txt stored, and deflated.
  "ft/z.zip": hex("504b03041400000000000000215820303a36060000000600000005000000612e74787468656c6c6f0a504b010214031400000000000000215820303a360600000006000000050000000000000000000000800100000000612e747874504b0506000000000100010033000000290000000000"),
  "ft/zd.zip": hex("504b03041400000008000000215830481d560b0000003c00000005000000612e747874cb48cdc9c9e7ca208b0400504b010214031400000008000000215830481d560b0000003c000000050000000000000000000000800100000000612e747874504b05060000000001000100330000002e0000000000"),
  "ft/w.wasm": hex("0061736d 01000000"),
  "ft/nul.bin": Buffer.from("x\0y", "latin1"),
  "badline.txt": Buffer.from("ok\na\xffb\nxy\n", "latin1"),
};

/** bash on the host in a directory holding TREE, with `env`, stdin /dev/null. */
function onHost(command: string, env: Record<string, string>): ExecResult {
  const dir = mkdtempSync(join(tmpdir(), "agentos-small-"));
  try {
    for (const [path, content] of Object.entries(TREE)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    const r = spawnSync("bash", ["--norc", "--noprofile", "-c", `cd "$1" && ${command}`, "bash", dir], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", ...env },
      encoding: "utf8",
    });
    return { exitCode: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function treeVm(): Promise<AgentOs> {
  const vm = await createVm();
  await writeTree(
    vm,
    Object.fromEntries(Object.entries(TREE).map(([path, content]) => [`/workspace/${path}`, content])),
  );
  return vm;
}

/** Runs every case in the VM and on the host (when it has the tool), expecting the same results. */
function likeHost(tool: string, hostCheck: [string, string], cases: readonly string[], env: Record<string, string> = { LC_ALL: "C" }): void {
  it(`runs ${cases.length} command lines like the host's ${tool}`, async (ctx) => {
    if (!hostHas(...hostCheck)) return ctx.skip();
    const vm = await treeVm();
    for (const command of cases) {
      const vmResult = await vm.exec(`cd /workspace && ${command}`, { env });
      expect(vmResult, command).toEqual(onHost(command, env));
    }
  });
}

describe("xxd", () => {
  likeHost("xxd 2022-01-14", ["xxd -v", "xxd 2022-01-14"], [
    "xxd f.txt",
    "xxd abc.txt",
    "xxd bin.dat",
    "xxd -p f.txt",
    "xxd -p bin.dat",
    "xxd -u -p bin.dat | head -2",
    "xxd -p -c 0 f.txt",
    "xxd -p f.txt | xxd -r -p | od -c",
    "xxd f.txt | xxd -r",
    "xxd f.txt out.hex && xxd -r out.hex back && cat back",
    "printf '0: 41 42\\nxx garbage\\n4: 43\\n' | xxd -r | od -c",
    "printf '4142\\n 43 44 zz 45\\n' | xxd -r -p | od -c",
    "printf '00: 41\\n' | xxd -r -s 3 | od -c",
    "xxd -c 8 -g 3 -u f.txt",
    "xxd -c8 f.txt",
    "xxd -cols 5 f.txt",
    "xxd -g 0 f.txt",
    "xxd -l 7 f.txt",
    "xxd -len 3 f.txt",
    "xxd -s 5 f.txt",
    "xxd --seek 2 f.txt",
    "xxd -s -4 f.txt",
    "xxd -s 5 -l 3 < f.txt",
    "xxd -i f.txt",
    "xxd -i < f.txt",
    "xxd -i -C sub/x.txt",
    "xxd -i -n my_var f.txt",
    "xxd -b f.txt",
    "xxd -b -c 2 -g 2 abc.txt",
    "xxd -e abc.txt",
    "xxd -e -g 2 abc.txt",
    "xxd -e -g 3 abc.txt",
    "xxd -a z.dat",
    "xxd -a bin.dat",
    "xxd -d -c 4 -l 9 f.txt",
    "xxd -o 0x100 -l 4 f.txt",
    "echo hi | xxd",
    "echo hi | xxd -",
    "printf '' | xxd; echo $?",
    "xxd -l 0 f.txt",
    "xxd missing.txt",
    "xxd sub",
    "xxd -c 300 f.txt",
    "xxd -z f.txt",
    "xxd a b c",
    // Not `xxd -v`: it names agentos-vm, not the host's program, by design (test/versions.test.ts).
  ]);

  it("dumps, plain-dumps and reverts", async () => {
    const vm = await treeVm();
    expect(await vm.exec("cd /workspace && xxd f.txt")).toEqual({
      exitCode: 0,
      stdout: "00000000: 6170 706c 650a 6261 6e61 6e61 0a63 6865  apple.banana.che\n00000010: 7272 790a                                rry.\n",
      stderr: "",
    });
    expect((await vm.exec("cd /workspace && xxd -p f.txt | xxd -r -p")).stdout).toBe("apple\nbanana\ncherry\n");
    expect(await vm.exec("cd /workspace && xxd missing.txt")).toEqual({ exitCode: 2, stdout: "", stderr: "xxd: missing.txt: No such file or directory\n" });
  });
});

describe("column", () => {
  const cases = [
    "column -t t.txt",
    "column -t -s, u.csv",
    "column -t -s , -o ' | ' u.csv",
    "column -t -N NAME,CITY,AGE -s, u.csv",
    "column -t -N A,B -d t.txt",
    "column n.txt",
    "column -x n.txt",
    "column -c 40 n.txt",
    "column -c 40 -x long.txt",
    "column long.txt",
    "column w.txt | od -c",
    "column -t w.txt | od -c",
    "column -t bad.txt",
    "column bad.txt",
    "column -t -s $'\\t' tabs.tsv | od -c",
    "column -t -L t.txt w.txt | od -c",
    "column missing.txt",
    "column -t missing.txt t.txt; echo $?",
    "column -t missing.txt e.txt; echo $?",
    "column t.txt missing.txt; echo $?",
    "column -N X t.txt",
    "column -c abc t.txt",
    "column -Q",
    "column -t -s",
    "printf 'a,,b\\nc,d\\n' | column -t -s, | od -c",
    "printf 'a b c d\\n' | column -t -l 2",
    "printf 'a b c\\nd e f\\n' | column -t -N X,Y,Z -R Y -H 1",
    "printf 'x y\\n' | column -c 0",
    "COLUMNS=30 column n.txt",
    "column -t -o '' t.txt",
    "column < n.txt | head -2",
    // Not `column -V`: it names agentos-vm, not the host's program, by design (test/versions.test.ts).
  ];
  likeHost("column (util-linux 2.38)", ["column -V", "util-linux 2.38"], cases);
  likeHost("column (util-linux 2.38), in C.UTF-8", ["column -V", "util-linux 2.38"], cases.filter((c) => /bad|u\.csv|w\.txt/.test(c)), { LC_ALL: "C.UTF-8" });

  it("escapes what does not decode in the locale, and makes tables", async () => {
    const vm = await treeVm();
    expect(await vm.exec("cd /workspace && column -t -s, u.csv", { env: { LC_ALL: "C" } })).toEqual({
      exitCode: 0,
      stdout: "name  city                      age\nJo    S\\xc3\\xa3o Paulo          31\nAl    x                         \nBo    \\xe6\\x9d\\xb1\\xe4\\xba\\xac  7\n",
      stderr: "",
    });
    expect((await vm.exec("cd /workspace && column -t -s, u.csv", { env: { LC_ALL: "C.UTF-8" } })).stdout).toBe(
      "name  city       age\nJo    São Paulo  31\nAl    x          \nBo    東京       7\n",
    );
    expect(await vm.exec("cd /workspace && column missing.txt")).toEqual({ exitCode: 1, stdout: "", stderr: "column: missing.txt: No such file or directory\n" });
  });
});

describe("rev", () => {
  const cases = [
    "rev f.txt",
    "rev r.txt; echo $?",
    "rev a.txt crlf.txt | od -c",
    "rev missing.txt",
    "rev f.txt missing.txt a.txt; echo $?",
    "rev badline.txt; echo $?",
    "printf 'hello\\nworld\\n' | rev",
    "printf 'no newline' | rev",
    "rev < f.txt",
    "rev - < f.txt",
    "rev sub; echo $?",
    "rev -x",
    "rev --help",
    // Not `rev -V`: it names agentos-vm, not the host's program, by design (test/versions.test.ts).
    "rev f.txt | rev",
    "printf '' | rev; echo $?",
  ];
  likeHost("rev (util-linux 2.38)", ["rev -V", "util-linux 2.38"], cases);
  likeHost("rev (util-linux 2.38), in C.UTF-8", ["rev -V", "util-linux 2.38"], cases, { LC_ALL: "C.UTF-8" });

  it("reverses characters in UTF-8, keeps a last line without newline, and reports a missing file", async () => {
    const vm = await treeVm();
    expect(await vm.exec("cd /workspace && rev r.txt", { env: { LC_ALL: "C.UTF-8" } })).toEqual({ exitCode: 0, stdout: "olleh\ndlröw\ntsal", stderr: "" });
    expect(await vm.exec("cd /workspace && rev r.txt", { env: { LC_ALL: "C" } })).toEqual({
      exitCode: 1,
      stdout: "olleh\n",
      stderr: "rev: r.txt: 1: Invalid or incomplete multibyte or wide character\n",
    });
    expect(await vm.exec("cd /workspace && rev missing.txt")).toEqual({ exitCode: 1, stdout: "", stderr: "rev: cannot open missing.txt: No such file or directory\n" });
  });
});

describe("du", () => {
  // Files only: a directory takes no blocks and has no size of its own in the VM (as stat and ls -l
  // say), where a host's file system gives it some; the pinned cases below cover directories.
  likeHost("du (GNU coreutils 9.1)", ["du --version", "GNU coreutils) 9.1"], [
    "du f.txt",
    "du -b f.txt",
    "du -h d/big.bin",
    "du -a d/sub/deep/e.txt d/a.txt",
    "du -sh missing",
    "du missing f.txt; echo $?",
    "du -s -a d",
    "du -s -d 1 d",
    "du -s -d 0 f.txt",
    "du -d x d",
    "du --apparent-size -s f.txt d/big.bin",
    "du -b f.txt f.txt",
    "du -k f.txt",
    "du -m f.txt",
    "du -h f.txt d/big.bin d/sub/c.txt",
    "du --si d/big.bin",
    "du -BM f.txt",
    "du -B1 f.txt",
    "du -0 f.txt | od -c",
    "du -b -L f.txt",
    "du -c -h f.txt d/big.bin",
    "du -Q",
    "du -lb f.txt",
    "du -sh e.txt",
  ]);

  it("counts 4 KiB blocks per file and none for a directory, in name order", async () => {
    const vm = await treeVm();
    const run = (command: string) => vm.exec(`cd /workspace && ${command}`);
    expect(await run("du d")).toEqual({ exitCode: 0, stdout: "4\td/sub/deep\n12\td/sub\n24\td\n", stderr: "" });
    expect((await run("du -a d")).stdout).toBe("4\td/a.txt\n8\td/big.bin\n8\td/sub/c.txt\n4\td/sub/deep/e.txt\n4\td/sub/deep\n12\td/sub\n24\td\n");
    expect((await run("du -sh d")).stdout).toBe("24K\td\n");
    expect((await run("du -sb d")).stdout).toBe("9104\td\n");
    expect((await run("du -hd1 d")).stdout).toBe("12K\td/sub\n24K\td\n");
    expect((await run("du -abc d/sub")).stdout).toBe("4097\td/sub/c.txt\n1\td/sub/deep/e.txt\n1\td/sub/deep\n4098\td/sub\n4098\ttotal\n");
    expect((await run("du -S d")).stdout).toBe("4\td/sub/deep\n8\td/sub\n12\td\n");
    expect((await run("du --max-depth=0 d d")).stdout).toBe("24\td\n");
    expect((await run("stat -c %b d/big.bin d")).stdout).toBe("16\n0\n");
    expect(await run("du -sh missing")).toEqual({ exitCode: 1, stdout: "", stderr: "du: cannot access 'missing': No such file or directory\n" });
  });
});

describe("env", () => {
  const cases = [
    "env -i A=1 B=2 env",
    "env X=hello sh -c 'echo $X'",
    "env -u LC_ALL sh -c 'echo ${LC_ALL-unset}'",
    "env | grep -c '^LC_ALL=C$'",
    "env -i A=1 B=2 C=3 env -u B",
    "env nonexistent-command",
    "env -i nonexistent-command",
    "env sub; echo $?",
    "env ./noexec; echo $?",
    "env -u A=B true",
    "env -C /nonexist true",
    "env -C sub",
    "env -0 true",
    "env -z",
    "env -i A=1 -0; echo $?",
    "env -i A=1 B=2 -0 | od -c",
    "env -i - A=1",
    "env -i A=1 sh -c 'exit 7'; echo $?",
    "env -C sub pwd | sed 's|.*/||'",
    "echo piped | env cat",
    "env -S'echo a  \"b c\"'",
    "env -i A=1 env -v B=2 true",
    // Not `env --version`: it names agentos-vm, not GNU coreutils, by design (test/versions.test.ts).
    "env -i PATH=/usr/bin:/bin A=x printenv A",
    "env -- true; echo $?",
    "env TZ=UTC printenv TZ",
  ];
  likeHost("env (GNU coreutils 9.1)", ["env --version", "GNU coreutils) 9.1"], cases);
  likeHost("env (GNU coreutils 9.1), in C.UTF-8", ["env --version", "GNU coreutils) 9.1"], cases.filter((c) => /nonexistent|noexec|A=B/.test(c)), { LC_ALL: "C.UTF-8" });

  it("runs the command with its stdin and the changed environment, and exits with its status", async () => {
    const vm = await treeVm();
    expect(await vm.exec("seq 2 | env -i A=1 sh -c 'cat; echo $A; exit 3'")).toEqual({ exitCode: 3, stdout: "1\n2\n1\n", stderr: "" });
    expect(await vm.exec("X=1 env -u X sh -c 'echo ${X-unset}'")).toEqual({ exitCode: 0, stdout: "unset\n", stderr: "" });
    expect(await vm.exec("env nope", { env: { LC_ALL: "C" } })).toEqual({ exitCode: 127, stdout: "", stderr: "env: 'nope': No such file or directory\n" });
    expect(await vm.exec("env nope", { env: { LC_ALL: "C.UTF-8" } })).toEqual({ exitCode: 127, stdout: "", stderr: "env: ‘nope’: No such file or directory\n" });
  });
});

describe("file", () => {
  const everything = "ft/*";
  likeHost("file 5.44", ["file --version", "file-5.44"], [
    `file ${everything}`,
    `file -i ${everything}`,
    `file --mime-type ${everything}`,
    `file --mime-encoding ft/a.txt ft/u.txt ft/i.png`,
    "file -b ft/a.txt",
    "file -b -i ft/i.png",
    "file ft/i.png",
    "file package.json ft/s.py; echo $?",
    "file sub && file -i sub",
    "ln -s a.txt ft/link && ln -s nowhere ft/broken && file ft/link ft/broken && file -i ft/link ft/broken && file -L ft/link ft/broken",
    "file missing; echo $?",
    "printf 'x\\n' | file -",
    "file -F '#' ft/a.txt",
    "file -N ft/a.txt ft/u.txt",
    "file",
    "file -Q",
  ]);

  it("names text, scripts and images in file's words", async () => {
    const vm = await treeVm();
    const run = async (command: string) => (await vm.exec(`cd /workspace/ft && ${command}`)).stdout;
    expect(await run("file a.txt nonl.txt crlf.txt u.txt")).toBe(
      "a.txt:    ASCII text\nnonl.txt: ASCII text, with no line terminators\ncrlf.txt: ASCII text, with CRLF line terminators\nu.txt:    Unicode text, UTF-8 text\n",
    );
    expect(await run("file -b j.json s.py s.sh s.js i.png empty")).toBe(
      "JSON text data\nPython script, ASCII text executable\nBourne-Again shell script, ASCII text executable\nNode.js script executable, ASCII text\nPNG image data, 16 x 8, 8-bit/color RGBA, non-interlaced\nempty\n",
    );
    expect(await run("file -b i.jpg i.gif d.pdf n.gz gnu.tar z.zip w.wasm")).toBe(
      "JPEG image data, JFIF standard 1.02, aspect ratio, density 72x72, segment length 16, baseline, precision 8, 16x8, components 3\n" +
        "GIF image data, version 89a, 16 x 32\nPDF document, version 1.4\ngzip compressed data, from Unix, original size modulo 2^32 3\n" +
        "POSIX tar archive (GNU)\nZip archive data, at least v2.0 to extract, compression method=store\nWebAssembly (wasm) binary module version 0x1 (MVP)\n",
    );
    expect(await run("file --mime-type a.txt i.png; file missing")).toBe("a.txt: text/plain\ni.png: image/png\nmissing: cannot open `missing' (No such file or directory)\n");
  });
});

describe("bc", () => {
  likeHost("bc 1.07.1", ["bc --version", "bc 1.07.1"], [
    "printf '%s\\n' '1/0' | bc",
    "printf '%s\\n' 'x=5; 1/0' | bc",
    "printf '%s\\n' '2+3\n1/0' | bc",
    "printf '%s\\n' 'a=1/0' | bc",
    "printf '%s\\n' '1%0' | bc",
    "printf '%s\\n' '(1+2)/0' | bc",
    "printf '%s\\n' '1+1/0' | bc",
    "printf '%s\\n' 'define f(x){return(x/0)}\nf(3)' | bc",
    "printf '%s\\n' 'scale=-1' | bc",
    "printf '%s\\n' 'obase=1' | bc",
    "printf '%s\\n' 'ibase=40' | bc",
    "printf '%s\\n' '2^0.5' | bc",
    "printf '%s\\n' '1 +' | bc",
    "printf '%s\\n' 'sqrt(-1)' | bc",
    "printf '%s\\n' 'print \"a\\n\", 1, \"\\n\"' | bc",
    "printf '%s\\n' '\"hi\\n\"' | bc",
    "printf '%s\\n' 'length(123.45); scale(1.500)' | bc",
    "printf '%s\\n' 'x' | bc",
    "printf '%s\\n' 'a[3]=2; a[3]+1' | bc",
    "printf '%s\\n' 'quit' | bc",
    "printf '%s\\n' '2^-2' | bc",
    "printf '%s\\n' 'scale=3; 2^-2' | bc",
    "printf '%s\\n' '-3%2' | bc",
    "printf '%s\\n' '10^70' | bc",
    "printf '%s\\n' '2^300' | bc",
    "printf '%s\\n' 'obase=16; 255; 1.5; -10.25' | bc",
    "printf '%s\\n' 'obase=2; 10' | bc",
    "printf '%s\\n' 'obase=20; 12345' | bc",
    "printf '%s\\n' 'ibase=16; FF; A' | bc",
    "printf '%s\\n' 'ibase=2; 101; A; 11.1' | bc",
    "printf '%s\\n' '.5*2; -0.5; 0.000' | bc",
    "printf '%s\\n' '3 > 2; 2 == 2; !0; 1 && 0; 0 || 3' | bc",
    "printf '%s\\n' 'x=5; x++; x; --x; x+=3; x' | bc",
    "printf '%s\\n' 'i=0; while (i<3) { i; i=i+1 }' | bc",
    "printf '%s\\n' 'for (i=0;i<3;i++) i' | bc",
    "printf '%s\\n' 'if (1) 5 else 6' | bc",
    "printf '%s\\n' 'halt; 5' | bc",
    "printf '%s\\n' 'print 1,2,\"\\n\"' | bc",
    "printf '%s\\n' 'print \"a\\tb\\q\\n\"' | bc",
    "printf '%s\\n' 'limits' | bc",
    "printf '%s\\n' 'define f(n) { if (n<2) return (1); return (n*f(n-1)); }\nf(10)' | bc",
    "printf '%s\\n' 'define g() { auto x; x=2; return x*3 }\ng()' | bc",
    "printf '%s\\n' 'scale=5; 1/3; -1/3' | bc",
    "printf '%s\\n' '1 ++ 2' | bc",
    "printf '%s\\n' '@' | bc",
    "printf '%s\\n' 'x[1] = 5; x[1]++ ; x[1]' | bc",
    "printf '%s\\n' '5; last; .' | bc",
    "printf '%s\\n' 'scale=2; 7 % 3.3' | bc",
    "printf '%s\\n' 'if (0) 1 else 2; 3' | bc",
    "printf '%s\\n' 'define v() { print \"in\\n\" }\nv()' | bc",
    "printf '%s\\n' 'length(0.001); scale(-0.5); length(0)' | bc",
    "printf '%s\\n' 'scale = 10; sqrt(2); sqrt(16)' | bc",
    "printf '%s\\n' 'break' | bc",
    "printf '%s\\n' '2 + 3 * 4' | bc",
    "printf '%s\\n' 'scale=4; 10 / 3' | bc",
    "printf '%s\\n' '2^10' | bc",
    "printf '%s\\n' '/* c */ 1 # x\n2' | bc",
    "printf '%s\\n' 'a=2\nb=3\na*b' | bc",
    "printf '%s\\n' 'scale=20; 1/7' | bc",
    "printf '%s\\n' 'obase=16; 2^100' | bc",
    "echo 'e(1); s(1); c(1); a(1); l(2); j(1,2)' | bc -l",
    "echo 'scale=5; e(2); l(10); sqrt(3); s(0.5); c(2); a(0.3); e(-1)' | bc -l",
    "echo 'scale=40; a(1)*4' | bc -l",
    "echo 'e(10); l(0.001); s(100)' | bc -l",
    "echo '4*a(1)' | bc -lq",
    "bc missing.bc; echo $?",
    "bc -x",
    "echo 3 | bc -q",
    "printf '%s\\n' 'j(0,1); j(2,3.5); j(-3,2)' | bc -l",
    "printf '%s\\n' 'scale=50; 4*a(1); e(1)' | bc -l",
    "printf '%s\\n' 's(-2); c(-1); a(-0.5); l(0.5); e(0)' | bc -l",
    "printf '%s\\n' 'scale=0; e(1); l(100)' | bc -l",
    "printf '%s\\n' 'obase=16; e(1)' | bc -l",
    "printf '%s\\n' 'x = 10\nwhile (x > 0) {\n  x = x - 3\n  x\n}' | bc",
    "printf '%s\\n' 'define p(a[], n) { auto i, s; for (i=0;i<n;i++) s += a[i]; return s }\nb[0]=1; b[1]=2; b[2]=3\np(b[], 3)' | bc",
    "printf '%s\\n' 'define fib(n) {\n if (n < 2) return n\n return fib(n-1) + fib(n-2)\n}\nfib(15)' | bc",
    "printf '%s\\n' 'obase=8; 64; -9' | bc",
    "printf '%s\\n' 'obase=100; 123456.78' | bc",
    "printf '%s\\n' 'scale=30; 2/3' | bc",
    "printf '%s\\n' '99999999999999999999999999999999999999999999999999999999999999999999999999999 * 3' | bc",
    "printf '%s\\n' 'for (i=1; i<=3; i++) { if (i == 2) continue; print i, \"\\n\" }' | bc",
    "printf '%s\\n' 'for (;;) { i++; if (i > 3) break }; i' | bc",
    "printf '%s\\n' 'x=2;x^=3;x;x%=3;x;x/=2;x;x*=5;x;x-=1;x' | bc",
    "printf '%s\\n' 'a=3; b=-a; b; -b' | bc",
    "printf '%s\\n' '1==1 && 2<3 || 0' | bc",
    "printf '%s\\n' 'a[0]=1; a[1]+=5; a[1]' | bc",
    "printf '%s\\n' '1.5 * 1.25; 1.50 + 0.5; 10 / 4; scale=1; 10/4' | bc",
    "printf '%s\\n' 'ibase=16; obase=A; FF.8' | bc",
    "printf '%s\\n' 'sqrt(0.0004)' | bc",
    "printf '%s\\n' '-0' | bc",
    "printf '%s\\n' '5 - 5.00' | bc",
    "printf '%s\\n' 'if (1) 1/0' | bc",
    "printf '%s\\n' 'x=1; while (x) { x=0; 1/0 }' | bc",
    "printf '%s\\n' 'for (i=0;i<1;i++) 1/0' | bc",
    "printf '%s\\n' '1 && 1/0' | bc",
    "printf '%s\\n' '0 || 1/0' | bc",
    "printf '%s\\n' 'a[2]=1/0' | bc",
    "printf '%s\\n' 'x=2; x/=0' | bc",
    "printf '%s\\n' 'print 1/0' | bc",
    "printf '%s\\n' 'define f(x) { auto y; y = x; return (y/0) }\nf(2)' | bc",
    "printf '%s\\n' 'define f(x) { if (x) return (1/0); }\nf(1)' | bc",
    "printf '%s\\n' 'x++; 1/0' | bc",
    "printf '%s\\n' '\"s\"; 1/0' | bc",
    "printf '%s\\n' 'sqrt(4)/0' | bc",
    "printf '%s\\n' 'length(5)/0' | bc",
    "printf '%s\\n' 'scale(1)%0' | bc",
    "printf '%s\\n' '-1/0' | bc",
    "printf '%s\\n' '!1/0' | bc",
    "printf '%s\\n' 'a[1]++; 1/0' | bc",
    "printf '%s\\n' 'x+=1; 1/0' | bc",
    "printf '%s\\n' '12345/0' | bc",
    "printf '%s\\n' '2^-1/0' | bc",
    "printf '1+1\\n' > p.bc && bc p.bc < /dev/null",
    "printf 'x=4\\n' > p.bc && echo 'x*2' | bc p.bc",
  ]);

  it("computes with bc's scale rules, bases, functions and its runtime messages", async () => {
    const vm = await treeVm();
    const bcOf = async (program: string, options = "") => vm.exec(`bc ${options}`, { stdin: program });
    expect(await bcOf("2 + 3 * 4\n")).toEqual({ exitCode: 0, stdout: "14\n", stderr: "" });
    expect((await bcOf("scale=4; 10 / 3\n", "-l")).stdout).toBe("3.3333\n");
    expect((await bcOf("obase=16; 255; -10.25\nibase=2; 101\n")).stdout).toBe("FF\n-A.40\n5\n");
    expect((await bcOf("define f(n) { if (n < 2) return (1); return (n * f(n - 1)) }\nf(20)\n")).stdout).toBe("2432902008176640000\n");
    expect((await bcOf("4*a(1)\n", "-l")).stdout).toBe("3.14159265358979323844\n");
    expect((await bcOf("10^70\n")).stdout).toBe(`1${"0".repeat(67)}\\\n000\n`);
    expect(await bcOf("1 / 0\n2\n")).toEqual({ exitCode: 0, stdout: "2\n", stderr: "Runtime error (func=(main), adr=3): Divide by zero\n" });
  });
});

describe("df", () => {
  it("shows the VM's file system with the VM's own limits and what its quota counts as used", async () => {
    const vm = await createVm({ limits: { maxFsBytes: 10 * 1024 * 1024, maxFsInodes: 5000 } });
    const before = await vm.exec("df -B1 --output=used,iused");
    const [usedBefore, iusedBefore] = before.stdout.split("\n")[1]!.trim().split(/\s+/).map(Number) as [number, number];
    await vm.writeFile("/tmp/x", "a".repeat(100_000));
    expect(await vm.exec("df --output=source,fstype,size,target")).toEqual({ stdout: "Filesystem     Type  1K-blocks Mounted on\nagentos        tmpfs     10240 /\n", stderr: "", exitCode: 0 });
    const after = await vm.exec("df -B1 --output=used,iused");
    expect(after.stdout.split("\n")[1]!.trim().split(/\s+/).map(Number)).toEqual([usedBefore + 100_000, iusedBefore + 1]);
    expect((await vm.exec("df --output=itotal")).stdout).toBe("Inodes\n  5000\n");
    expect(await vm.exec("df nope")).toEqual({ stdout: "", stderr: "df: nope: No such file or directory\n", exitCode: 1 });
    await vm.dispose();
  });
});
