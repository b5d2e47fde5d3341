import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { guestSources, type GuestManifest } from "../../guests/build.js";
import type { AgentOs } from "../../src/index.js";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";

// Expected values are what GNU grep 3.8 / findutils 4.9 / ripgrep 15 print on Linux (LC_ALL=C) for the
// same files. Where the WebAssembly binary differs for a reason of its own, the test says so in a
// `differs from GNU` comment and expects the binary's output.

const project: Record<string, string> = {
  "/workspace/src/app.ts":
    'import { helper } from "./util";\n' +
    "// TODO: remove debug\n" +
    "export function main(argv: string[]) {\n" +
    '  const debug = argv.includes("--debug");\n' +
    '  if (debug) console.log("debug on");\n' +
    "  return helper(argv.length);\n" +
    "}\n",
  "/workspace/src/util.ts":
    "export function helper(n: number) {\n" +
    "  return n * 2; // TODO: overflow?\n" +
    "}\n" +
    'export const VERSION = "1.2.3";\n',
  "/workspace/src/lib/math.ts":
    "export const add = (a: number, b: number) => a + b;\n" + "export const sub = (a: number, b: number) => a - b;\n",
  "/workspace/README.md": "# Demo\nRun with --debug for DEBUG output.\nSee src/app.ts.\n",
  "/workspace/notes.txt": "alpha\nbeta\ngamma\nAlpha\ndelta\nalphabet\n",
};

async function projectVm(): Promise<AgentOs> {
  const vm = await createVm();
  await writeTree(vm, project);
  return vm;
}

describe("grep", () => {
  it("-n prints line numbers", async () => {
    const vm = await projectVm();
    expect(await vm.exec("grep -n debug /workspace/src/app.ts")).toEqual(
      result('2:// TODO: remove debug\n4:  const debug = argv.includes("--debug");\n5:  if (debug) console.log("debug on");\n'),
    );
  });

  it("-i matches regardless of case", async () => {
    const vm = await projectVm();
    expect(await vm.exec("grep -i alpha /workspace/notes.txt")).toEqual(result("alpha\nAlpha\nalphabet\n"));
    expect(await vm.exec("grep -ci ALPHA /workspace/notes.txt")).toEqual(result("3\n"));
  });

  it("-v inverts the match, and exits 1 when every line matched", async () => {
    const vm = await projectVm();
    expect(await vm.exec("grep -vn l /workspace/notes.txt")).toEqual(result("2:beta\n3:gamma\n"));
    expect(await vm.exec("grep -v a /workspace/notes.txt")).toEqual(result("", 1));
  });

  it("-c counts per file after cd, with relative file names", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && grep -c TODO src/app.ts src/util.ts src/lib/math.ts")).toEqual(
      result("src/app.ts:1\nsrc/util.ts:1\nsrc/lib/math.ts:0\n"),
    );
    expect(await vm.exec("cd /workspace/src && grep -c export *.ts lib/*.ts")).toEqual(
      result("app.ts:1\nutil.ts:2\nlib/math.ts:2\n"),
    );
  });

  it("-E takes extended regular expressions", async () => {
    const vm = await projectVm();
    expect(await vm.exec("grep -E '^(beta|delta)$' /workspace/notes.txt")).toEqual(result("beta\ndelta\n"));
    expect(await vm.exec("grep -E 'a{2}|mm' /workspace/notes.txt")).toEqual(result("gamma\n"));
    // A basic regular expression with \| alternation
    expect(await vm.exec("grep 'x\\|TODO' /workspace/src/app.ts")).toEqual(
      result("// TODO: remove debug\nexport function main(argv: string[]) {\n"),
    );
  });

  it("-o prints only the matched parts", async () => {
    const vm = await projectVm();
    // differs from GNU: this grep has no -o. GNU prints
    // "/workspace/src/app.ts:TODO: remove\n/workspace/src/util.ts:TODO: overflow\n" with exit 0.
    expect(await vm.exec("grep -o 'TODO: [a-z]*' /workspace/src/app.ts /workspace/src/util.ts")).toEqual(
      result("", 2, "grep: invalid option -- 'o'\n"),
    );
  });

  it("-l lists the files that match, from globs after cd", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && grep -l export src/*.ts src/lib/*.ts")).toEqual(
      result("src/app.ts\nsrc/util.ts\nsrc/lib/math.ts\n"),
    );
    expect(await vm.exec("grep -L TODO /workspace/src/app.ts /workspace/src/lib/math.ts")).toEqual(
      result("/workspace/src/lib/math.ts\n"),
    );
  });

  it("-r searches a directory tree", async () => {
    const vm = await projectVm();
    // differs from GNU: this grep has no -r. GNU prints (in directory order)
    // "src/util.ts:2:  return n * 2; // TODO: overflow?\nsrc/app.ts:2:// TODO: remove debug\n" with exit 0.
    expect(await vm.exec("cd /workspace && grep -rn TODO src")).toEqual(result("", 2, "grep: invalid option -- 'r'\n"));
    // The usual way around it works: find + a loop, or a glob.
    expect(await vm.exec("cd /workspace && grep -n TODO src/*.ts")).toEqual(
      result("src/app.ts:2:// TODO: remove debug\nsrc/util.ts:2:  return n * 2; // TODO: overflow?\n"),
    );
  });

  it("-w matches whole words only", async () => {
    const vm = await projectVm();
    expect(await vm.exec("grep -w alpha /workspace/notes.txt")).toEqual(result("alpha\n"));
    expect(await vm.exec("grep -x alpha /workspace/notes.txt")).toEqual(result("alpha\n"));
  });

  it("-F takes the pattern literally", async () => {
    const vm = await projectVm();
    expect(await vm.exec("grep -F 'n * 2' /workspace/src/util.ts")).toEqual(result("  return n * 2; // TODO: overflow?\n"));
    expect(await vm.exec("grep -F '1.2.3' /workspace/src/util.ts")).toEqual(result('export const VERSION = "1.2.3";\n'));
  });

  it("exits 1 with no output when nothing matches", async () => {
    const vm = await projectVm();
    expect(await vm.exec("grep nomatch /workspace/notes.txt")).toEqual(result("", 1));
    expect(await vm.exec('grep nomatch /workspace/notes.txt /workspace/README.md; echo "status=$?"')).toEqual(
      result("status=1\n"),
    );
  });

  it("prefixes each line with its file name when searching several files", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && grep TODO src/app.ts src/util.ts")).toEqual(
      result("src/app.ts:// TODO: remove debug\nsrc/util.ts:  return n * 2; // TODO: overflow?\n"),
    );
    expect(await vm.exec("cd /workspace && grep -n TODO src/app.ts src/util.ts")).toEqual(
      result("src/app.ts:2:// TODO: remove debug\nsrc/util.ts:2:  return n * 2; // TODO: overflow?\n"),
    );
  });

  it("-h and -H override the file name prefix", async () => {
    const vm = await projectVm();
    // differs from GNU: this grep accepts -h and -H but ignores them (the prefix depends only on the
    // number of files). GNU prints "// TODO: remove debug\n  return n * 2; // TODO: overflow?\n" for -h
    // and "/workspace/src/app.ts:// TODO: remove debug\n" for -H.
    expect(await vm.exec("grep -h TODO /workspace/src/app.ts /workspace/src/util.ts")).toEqual(
      result("/workspace/src/app.ts:// TODO: remove debug\n/workspace/src/util.ts:  return n * 2; // TODO: overflow?\n"),
    );
    expect(await vm.exec("grep -H TODO /workspace/src/app.ts")).toEqual(result("// TODO: remove debug\n"));
  });

  it("reports a missing file", async () => {
    const vm = await projectVm();
    // differs from GNU: the message carries Rust's "(os error 44)" and the exit code is 1; GNU prints
    // "grep: /workspace/missing.txt: No such file or directory\n" and exits 2.
    expect(await vm.exec("grep alpha /workspace/missing.txt")).toEqual(
      result("", 1, "grep: /workspace/missing.txt: No such file or directory (os error 44)\n"),
    );
  });

  it("reads a pipe, and -q, -e, -m work", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cat /workspace/notes.txt | grep -n a")).toEqual(
      result("1:alpha\n2:beta\n3:gamma\n4:Alpha\n5:delta\n6:alphabet\n"),
    );
    expect(await vm.exec("grep -q gamma /workspace/notes.txt && echo found")).toEqual(result("found\n"));
    expect(await vm.exec("grep -e beta -e delta /workspace/notes.txt")).toEqual(result("beta\ndelta\n"));
    expect(await vm.exec("grep -m 2 a /workspace/notes.txt")).toEqual(result("alpha\nbeta\n"));
  });
});

describe("find", () => {
  it("find . | sort lists the whole tree after cd", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && find . | sort")).toEqual(
      result(".\n./README.md\n./notes.txt\n./src\n./src/app.ts\n./src/lib\n./src/lib/math.ts\n./src/util.ts\n"),
    );
  });

  it("-name matches the base name with a glob", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && find . -name '*.ts' | sort")).toEqual(
      result("./src/app.ts\n./src/lib/math.ts\n./src/util.ts\n"),
    );
    expect(await vm.exec("cd /workspace && find src -name '*.ts' | wc -l")).toEqual(result("3\n"));
  });

  it("-type f and -type d", async () => {
    const vm = await projectVm();
    expect(await vm.exec("find /workspace -type f | sort")).toEqual(
      result(
        "/workspace/README.md\n/workspace/notes.txt\n/workspace/src/app.ts\n/workspace/src/lib/math.ts\n/workspace/src/util.ts\n",
      ),
    );
    expect(await vm.exec("find /workspace -type d | sort")).toEqual(result("/workspace\n/workspace/src\n/workspace/src/lib\n"));
    expect(await vm.exec("cd /workspace && find src -mindepth 1 -type d")).toEqual(result("src/lib\n"));
  });

  it("-maxdepth limits the descent", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && find . -maxdepth 1 | sort")).toEqual(result(".\n./README.md\n./notes.txt\n./src\n"));
    expect(await vm.exec("cd /workspace && find . -maxdepth 1 -type f | sort")).toEqual(result("./README.md\n./notes.txt\n"));
    expect(await vm.exec("cd /workspace/src && find .. -maxdepth 1 -type d | sort")).toEqual(result("..\n../src\n"));
  });

  it("-newer selects files modified after a reference file", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/old.txt": "old\n" });
    expect(await vm.exec("touch /workspace/new.txt")).toEqual(result(""));
    // differs from GNU: this find has no -newer. GNU prints "./new.txt\n" with exit 0.
    expect(await vm.exec("cd /workspace && find . -type f -newer old.txt")).toEqual(
      result("", 1, "find: unknown option: -newer\n"),
    );
  });

  it("-path matches the whole path", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && find src -path '*/lib/*'")).toEqual(result("src/lib/math.ts\n"));
    expect(await vm.exec("cd /workspace && find src/lib ../workspace/src/lib -type f")).toEqual(
      result("src/lib/math.ts\n../workspace/src/lib/math.ts\n"),
    );
  });

  it("-path with * spanning several directories", async () => {
    const vm = await projectVm();
    // differs from GNU: in this find, * in -path does not match "/". GNU prints
    // "./src/app.ts\n./src/lib/math.ts\n./src/util.ts\n" and "./src/lib/math.ts\n".
    expect(await vm.exec("cd /workspace && find . -path './src/*' -name '*.ts' | sort")).toEqual(
      result("./src/app.ts\n./src/util.ts\n"),
    );
    expect(await vm.exec("cd /workspace && find . -name '*.ts' -path '*lib*'")).toEqual(result(""));
  });

  it("-exec runs a command per file", async () => {
    const vm = await projectVm();
    // differs from GNU: this find has no -exec. GNU prints
    // "2 ./src/lib/math.ts\n3 ./README.md\n4 ./src/util.ts\n6 ./notes.txt\n7 ./src/app.ts\n".
    expect(await vm.exec("cd /workspace && find . -type f -exec wc -l {} \\; | sort")).toEqual(
      result("", 0, "find: unknown option: -exec\n"),
    );
  });

  it("-iname, -not and -o", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && find . -iname 'readme*'")).toEqual(result("./README.md\n"));
    expect(await vm.exec("cd /workspace && find . -type f -not -name '*.ts' | sort")).toEqual(result("./README.md\n./notes.txt\n"));
    expect(await vm.exec("cd /workspace && find . -name '*.md' -o -name '*.txt' | sort")).toEqual(
      result("./README.md\n./notes.txt\n"),
    );
  });

  it("reports a start path that does not exist", async () => {
    const vm = await projectVm();
    // differs from GNU: this find does not check that its start path exists; it prints the path and
    // exits 0. GNU prints nothing on stdout, "find: '/workspace/nope': No such file or directory\n" on
    // stderr, and exits 1.
    expect(await vm.exec("find /workspace/nope")).toEqual(result("/workspace/nope\n"));
  });
});

describe("xargs", () => {
  it("passes absolute paths from find to grep", async () => {
    const vm = await projectVm();
    expect(await vm.exec("find /workspace/src -name '*.ts' | sort | xargs grep -c TODO")).toEqual(
      result("/workspace/src/app.ts:1\n/workspace/src/lib/math.ts:0\n/workspace/src/util.ts:1\n"),
    );
    expect(await vm.exec("printf 'a\\nb\\nc\\n' | xargs echo")).toEqual(result("a b c\n"));
  });

  it("runs commands in the shell's directory after cd (relative paths)", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && find src -name '*.ts' | sort | xargs grep -l TODO")).toEqual(
      result("src/app.ts\nsrc/util.ts\n"),
    );
    expect(await vm.exec("cd /workspace && echo src/util.ts | xargs cat")).toEqual(result(project["/workspace/src/util.ts"]!));
    // differs from GNU: uutils wc prints its untranslated message key "wc-total"; GNU prints " 13 total".
    expect(await vm.exec("cd /workspace && find src -name '*.ts' | sort | xargs wc -l")).toEqual(
      result("  7 src/app.ts\n  2 src/lib/math.ts\n  4 src/util.ts\n 13 wc-total\n"),
    );
  });

  it("-n 1 runs one command per argument", async () => {
    const vm = await projectVm();
    expect(await vm.exec("printf 'a b c\\n' | xargs -n 1 echo item")).toEqual(result("item a\nitem b\nitem c\n"));
    expect(await vm.exec("printf '/workspace/src/util.ts\\n/workspace/README.md\\n' | xargs -n 1 head -n 1")).toEqual(
      result("export function helper(n: number) {\n# Demo\n"),
    );
    expect(await vm.exec("cd /workspace && find src -type f | sort | xargs -n 1 basename")).toEqual(
      result("app.ts\nmath.ts\nutil.ts\n"),
    );
  });

  it("-I {} substitutes each input line", async () => {
    const vm = await projectVm();
    expect(await vm.exec("printf 'one\\ntwo\\n' | xargs -I {} echo 'got {} here'")).toEqual(
      result("got one here\ngot two here\n"),
    );
  });

  it("-I {} with sh -c and relative paths after cd", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && ls src/*.ts | xargs -I {} sh -c 'echo {}; wc -l < {}'")).toEqual(
      result("src/app.ts\n7\nsrc/util.ts\n4\n"),
    );
  });
});

// rg is ripgrep 15.2.0 built from crates.io for wasm32-wasip1 (guests/ripgrep, guests/dist/rg.wasm). The host
// has no ripgrep: the expected values were written by hand from ripgrep's documented behaviour (14 and 15 are
// the same here) and checked against the binary. Its stdout is never a terminal in an exec, so there are no
// line numbers (unless -n), no headings and no colours, and `path:line` when more than one file is searched;
// paths found by walking the working directory have no `./` in front.
describe("rg", () => {
  it("the committed rg.wasm is the build of the current guests/ripgrep sources", () => {
    const dist = new URL("../../guests/dist/", import.meta.url).pathname;
    const manifest = JSON.parse(readFileSync(`${dist}manifest.json`, "utf8")) as GuestManifest;
    const built = manifest.guests.rg!;
    expect(built.sources, "guests/ripgrep changed: run pnpm build:guests").toEqual(guestSources("ripgrep"));
    expect(createHash("sha256").update(readFileSync(`${dist}rg.wasm`)).digest("hex")).toBe(built.sha256);
    expect(built.crates).toMatchObject({ ripgrep: "15.2.0", "grep-cli": "0.1.12 patched" });
  });

  it("searches a directory: path:line, no line numbers when stdout is not a terminal", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && rg TODO src | sort")).toEqual(
      result("src/app.ts:// TODO: remove debug\nsrc/util.ts:  return n * 2; // TODO: overflow?\n"),
    );
    expect(await vm.exec("rg --version | head -1")).toEqual(result("ripgrep 15.2.0\n"));
  });

  it("searches the working directory when no path is given and stdin is /dev/null", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && rg --sort path TODO")).toEqual(
      result("src/app.ts:// TODO: remove debug\nsrc/util.ts:  return n * 2; // TODO: overflow?\n"),
    );
    expect(await vm.exec("cd /workspace && rg -g '*.md' debug")).toEqual(result("README.md:Run with --debug for DEBUG output.\n"));
    expect(await vm.exec("cd /workspace/src && rg -l overflow")).toEqual(result("util.ts\n"));
    expect(await vm.exec("cd /workspace/src && rg overflow < /dev/null")).toEqual(result("util.ts:  return n * 2; // TODO: overflow?\n"));
  });

  it("reads stdin when no path is given and stdin is a pipe or a file; - names stdin", async () => {
    const vm = await projectVm();
    expect(await vm.exec("printf 'alpha\\nbeta\\n' | rg beta")).toEqual(result("beta\n"));
    expect(await vm.exec("cd /workspace && rg beta < notes.txt")).toEqual(result("beta\n"));
    expect(await vm.exec("cd /workspace && rg gamma", { stdin: "gamma ray\n" })).toEqual(result("gamma ray\n"));
    expect(await vm.exec("cd /workspace && echo beta | rg -H beta - notes.txt")).toEqual(result("<stdin>:beta\nnotes.txt:beta\n"));
  });

  it("-n prints line numbers", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && rg -n --sort path TODO src")).toEqual(
      result("src/app.ts:2:// TODO: remove debug\nsrc/util.ts:2:  return n * 2; // TODO: overflow?\n"),
    );
    expect(await vm.exec("cd /workspace && rg -n beta < notes.txt")).toEqual(result("2:beta\n"));
  });

  it("--files lists the files it would search", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && rg --files --sort path")).toEqual(
      result("README.md\nnotes.txt\nsrc/app.ts\nsrc/lib/math.ts\nsrc/util.ts\n"),
    );
    expect(await vm.exec("cd /workspace && rg --files src/lib")).toEqual(result("src/lib/math.ts\n"));
  });

  it("-t and -g filter files by type and glob", async () => {
    const vm = await projectVm();
    await writeTree(vm, { "/workspace/web/index.js": "export const debug = true;\n" });
    expect(await vm.exec("cd /workspace && rg -t js debug")).toEqual(result("web/index.js:export const debug = true;\n"));
    expect(await vm.exec("cd /workspace && rg -l -T ts --sort path debug")).toEqual(result("README.md\nweb/index.js\n"));
    expect(await vm.exec("cd /workspace && rg -g '*.txt' --sort path alpha")).toEqual(result("notes.txt:alpha\nnotes.txt:alphabet\n"));
    expect(await vm.exec("cd /workspace && rg -l -g '*.ts' --sort path TODO .")).toEqual(result("./src/app.ts\n./src/util.ts\n"));
  });

  it("-l lists matching files, -c counts matching lines of the files that match", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && rg -l --sort path export")).toEqual(result("src/app.ts\nsrc/lib/math.ts\nsrc/util.ts\n"));
    expect(await vm.exec("cd /workspace && rg -c --sort path TODO src")).toEqual(result("src/app.ts:1\nsrc/util.ts:1\n"));
    expect(await vm.exec("cd /workspace && rg -c a notes.txt")).toEqual(result("6\n"));
  });

  it("-i, -w, -o", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && rg -i alpha notes.txt")).toEqual(result("alpha\nAlpha\nalphabet\n"));
    expect(await vm.exec("cd /workspace && rg -w alpha notes.txt")).toEqual(result("alpha\n"));
    expect(await vm.exec("cd /workspace && rg -o --sort path 'TODO: [a-z]+' src")).toEqual(
      result("src/app.ts:TODO: remove\nsrc/util.ts:TODO: overflow\n"),
    );
  });

  it("-A prints context after a match, -- between groups", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && rg -A1 -e beta -e delta notes.txt")).toEqual(result("beta\ngamma\n--\ndelta\nalphabet\n"));
    expect(await vm.exec("cd /workspace && rg -n -A1 -e beta -e delta notes.txt")).toEqual(
      result("2:beta\n3-gamma\n--\n5:delta\n6-alphabet\n"),
    );
  });

  it("exits 0 on a match, 1 on none, 2 on an error", async () => {
    const vm = await projectVm();
    expect(await vm.exec("cd /workspace && rg -q beta notes.txt; echo status=$?")).toEqual(result("status=0\n"));
    expect(await vm.exec("cd /workspace && rg nomatch src; echo status=$?")).toEqual(result("status=1\n"));
    expect(await vm.exec("cd /workspace && rg nomatch")).toEqual(result("", 1));
    // differs from ripgrep on Linux: the errno in "(os error N)" is WASI's (44), not Linux's (2).
    expect(await vm.exec("cd /workspace && rg x nosuch")).toEqual(
      result("", 2, "rg: nosuch: IO error for operation on nosuch: No such file or directory (os error 44)\n"),
    );
    expect(await vm.exec("cd /workspace && rg beta nosuch notes.txt")).toEqual(
      result("notes.txt:beta\n", 2, "rg: nosuch: IO error for operation on nosuch: No such file or directory (os error 44)\n"),
    );
    expect(await vm.exec("rg '(' /workspace/notes.txt")).toEqual(result("", 2, "rg: regex parse error:\n    (?:()\n    ^\nerror: unclosed group\n"));
  });

  it("has no working directory of its own: the kernel's rule for relative paths applies", async () => {
    const vm = await projectVm();
    // The files it walks from the working directory reach the kernel as `src/app.ts` (no `./`), which
    // README "Relative paths" resolves against the cwd. differs from ripgrep: a pattern written like an
    // absolute path of a directory in the cwd is taken for a path on the command line (rule 3), so /src/…
    // is opened instead; ripgrep exits 1 here. With `.` the names keep their `./` and are right.
    expect(await vm.exec("cd /workspace && rg -l /src/")).toEqual(
      result(
        "",
        2,
        "rg: src/app.ts: No such file or directory (os error 44)\n" +
          "rg: src/lib/math.ts: No such file or directory (os error 44)\n" +
          "rg: src/util.ts: No such file or directory (os error 44)\n",
      ),
    );
    expect(await vm.exec("cd /workspace && rg -l /src/ .")).toEqual(result("", 1));
    expect(await vm.exec("cd /workspace/src && rg -l --sort path export ../src lib")).toEqual(result("../src/app.ts\n../src/lib/math.ts\n../src/util.ts\nlib/math.ts\n"));
  });

  it("-j with more than one thread fails: WebAssembly has no threads", async () => {
    const vm = await projectVm();
    // differs from ripgrep: the ignore crate's parallel walker is a stub outside Unix and Windows. One thread
    // (the default here, since available_parallelism fails) works.
    expect(await vm.exec("cd /workspace && rg -j2 TODO src")).toEqual(result("", 2, "rg: unsupported platform\n"));
    expect(await vm.exec("cd /workspace && rg -j1 -c TODO src/app.ts")).toEqual(result("1\n"));
  });
});

describe("tree and fd", () => {
  const small = { "/workspace/p/src/a.ts": "a", "/workspace/p/src/b.js": "b", "/workspace/p/README.md": "r" };

  it("tree draws the directory as GNU tree does", async () => {
    const vm = await createVm();
    await writeTree(vm, small);
    const drawn = "├── README.md\n└── src\n    ├── a.ts\n    └── b.js\n\n1 directory, 3 files\n";
    expect(await vm.exec("cd /workspace/p && tree")).toEqual(result(`.\n${drawn}`));
    expect(await vm.exec("tree /workspace/p")).toEqual(result(`/workspace/p\n${drawn}`));
    expect(await vm.exec("cd /workspace/p && tree -L 1 .")).toEqual(result(".\n├── README.md\n└── src\n\n1 directory, 1 file\n"));
  });

  it("fd finds files by name, extension and type", async () => {
    const vm = await createVm();
    await writeTree(vm, small);
    expect(await vm.exec("fd -t f . /workspace/p | sort")).toEqual(
      result("/workspace/p/README.md\n/workspace/p/src/a.ts\n/workspace/p/src/b.js\n"),
    );
    // differs from fd run natively (no "./" in front): the binary has no cwd of its own and searches "." as given.
    expect(await vm.exec("cd /workspace/p && fd -e ts")).toEqual(result("./src/a.ts\n"));
    expect(await vm.exec("cd /workspace/p && fd | sort")).toEqual(result("./README.md\n./src\n./src/a.ts\n./src/b.js\n"));
  });
});
