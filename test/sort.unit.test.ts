import { describe, it, expect } from "vitest";
import type { CommandContext } from "../src/commands/command.js";
import { sort } from "../src/commands/sort.js";
import { memoryCommandFs } from "./command-fs.js";
import { cpuMsSince } from "./deadlines.js";

interface Run {
  status: number;
  stdout: string;
  stderr: string;
  files: Map<string, string>;
}

/**
 * Runs `sort` against an in-memory file system. Text goes in and out as latin1 so that every byte is
 * visible as one character; directories are the paths listed in `dirs`.
 */
async function run(
  args: string[],
  stdin = "",
  files: Record<string, string> = {},
  dirs: string[] = [],
): Promise<Run> {
  const fs = new Map(Object.entries(files));
  let stdout = "";
  let stderr = "";
  let stdinLeft = Buffer.from(stdin, "latin1");
  const text = (d: Uint8Array | string): string =>
    typeof d === "string" ? d : Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString("latin1");
  const ctx: CommandContext = {
    argv: ["sort", ...args],
    env: {},
    cwd: "/",
    readStdin: async () => {
      if (stdinLeft.length === 0) return null;
      const chunk = stdinLeft;
      stdinLeft = Buffer.alloc(0);
      return chunk;
    },
    readAllStdin: async () => {
      const all = stdinLeft;
      stdinLeft = Buffer.alloc(0);
      return all;
    },
    writeStdout: (d) => void (stdout += text(d)),
    writeStderr: (d) => void (stderr += text(d)),
    fs: memoryCommandFs(fs, dirs),
    signal: new AbortController().signal,
  };
  const status = await sort(ctx);
  return { status, stdout, stderr, files: fs };
}

/** Sorts stdin with the given arguments and returns stdout, expecting success and no diagnostics. */
async function sorted(args: string[], stdin: string): Promise<string> {
  const r = await run(args, stdin);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout;
}

describe("sort: whole-line ordering", () => {
  it("sorts in byte order (C locale): upper case before lower case", async () => {
    expect(await sorted([], "b\na\nB\n")).toBe("B\na\nb\n");
  });

  it("-f folds case, and ties fall back to byte order", async () => {
    expect(await sorted(["-f"], "b\na\nB\n")).toBe("a\nB\nb\n");
    expect(await sorted(["--ignore-case"], "b\na\nB\n")).toBe("a\nB\nb\n");
  });

  it("-r reverses, including the last-resort comparison", async () => {
    expect(await sorted(["-r"], "b\na\nc\n")).toBe("c\nb\na\n");
    expect(await sorted(["-f", "-r"], "A\na\nB\n")).toBe("B\na\nA\n");
  });

  it("compares bytes, not UTF-16 code units", async () => {
    const utf8 = (s: string): string => Buffer.from(s, "utf8").toString("latin1");
    // U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80) in bytes, though not in UTF-16.
    expect(await sorted([], utf8("😀\nＡ\nz\n"))).toBe(utf8("z\nＡ\n😀\n"));
  });

  it("treats a final line without newline as a line and always terminates output lines", async () => {
    expect(await sorted([], "b\na")).toBe("a\nb\n");
  });

  it("gives empty output for empty input, and keeps empty lines", async () => {
    expect(await sorted([], "")).toBe("");
    expect(await sorted([], "b\n\na\n")).toBe("\na\nb\n");
  });

  it("-b ignores leading blanks", async () => {
    expect(await sorted(["-b"], "  b\na\n c\n")).toBe("a\n  b\n c\n");
  });

  it("-d keeps only letters, digits and blanks", async () => {
    expect(await sorted(["-d"], "b-c\n_a\nba\n")).toBe("_a\nba\nb-c\n");
  });

  it("-i ignores non-printing characters", async () => {
    expect(await sorted(["-i"], "b\x01\na\x02\na\x01\n")).toBe("a\x01\na\x02\nb\x01\n");
  });

  it("-z uses NUL as the line terminator, and newlines are ordinary bytes", async () => {
    expect(await sorted(["-z"], "b\0a\nx\0a\0")).toBe("a\0a\nx\0b\0");
  });
});

describe("sort: numeric orderings", () => {
  it("-n handles negatives, decimals, -0 and non-numbers (as zero)", async () => {
    expect(await sorted(["-n"], "10\n-2\n3.5\n-2.5\n0\nabc\n.5\n-0\n")).toBe(
      "-2.5\n-2\n-0\n0\nabc\n.5\n3.5\n10\n",
    );
  });

  it("-n is exact beyond double precision", async () => {
    expect(await sorted(["-n"], "100000000000000000001\n100000000000000000000\n99999999999999999999.9\n")).toBe(
      "99999999999999999999.9\n100000000000000000000\n100000000000000000001\n",
    );
  });

  it("-nr and --numeric-sort --reverse", async () => {
    expect(await sorted(["-nr"], "2\n10\n1\n")).toBe("10\n2\n1\n");
    expect(await sorted(["--numeric-sort", "--reverse"], "2\n10\n1\n")).toBe("10\n2\n1\n");
  });

  it("-n -s keeps equal numbers in input order; without -s they fall back to byte order", async () => {
    expect(await sorted(["-n", "-s"], "1 b\n0\n1 a\n")).toBe("0\n1 b\n1 a\n");
    expect(await sorted(["-n"], "1 b\n0\n1 a\n")).toBe("0\n1 a\n1 b\n");
  });

  it("-h orders by SI suffix, then by number", async () => {
    expect(await sorted(["-h"], "1K\n2M\n512\n")).toBe("512\n1K\n2M\n");
    expect(await sorted(["-h"], "2M\n1K\n512\n1G\n-1K\n1.5K\n")).toBe("-1K\n512\n1K\n1.5K\n2M\n1G\n");
  });

  it("-g understands exponents, hex, inf and nan; non-numbers come first", async () => {
    expect(await sorted(["-g"], "1e3\n0x10\ninf\nnan\nabc\n-inf\n2\n")).toBe("abc\nnan\n-inf\n2\n0x10\n1e3\ninf\n");
  });

  it("-M orders month names, unknown names first", async () => {
    expect(await sorted(["-M"], "Mar\nfoo\njan\nDEC\nfeb\n")).toBe("foo\njan\nfeb\nMar\nDEC\n");
  });

  it("-V sorts versions naturally", async () => {
    expect(await sorted(["-V"], "file10\nfile2\nfile1\n")).toBe("file1\nfile2\nfile10\n");
    expect(await sorted(["--version-sort"], "1.10\n1.2\n1.2~rc1\n1.9\n")).toBe("1.2~rc1\n1.2\n1.9\n1.10\n");
  });
});

describe("sort: keys", () => {
  it("-k2,2n -t, sorts on the second comma-separated field", async () => {
    expect(await sorted(["-k2,2n", "-t,"], "b,3\na,10\nc,2\n")).toBe("c,2\nb,3\na,10\n");
  });

  it("accepts -t ',' as a separate argument and long forms", async () => {
    expect(await sorted(["-t", ",", "-k", "2,2n"], "b,3\na,10\nc,2\n")).toBe("c,2\nb,3\na,10\n");
    expect(await sorted(["--field-separator=,", "--key=2,2n"], "b,3\na,10\nc,2\n")).toBe("c,2\nb,3\na,10\n");
  });

  it("-k2 without -t: leading blanks belong to the field and the key runs to end of line", async () => {
    // Keys are "  b 2", " a 10" and "\tc 1": blanks are compared too.
    expect(await sorted(["-k2"], "x  b 2\ny a 10\nz\tc 1\n")).toBe("z\tc 1\nx  b 2\ny a 10\n");
  });

  it("-k with character positions", async () => {
    expect(await sorted(["-k1.3,1.4"], "ab1234\nac0111\naa9999\n")).toBe("ac0111\nab1234\naa9999\n");
  });

  it("several keys with per-key modifiers (-k2,2nr -k1,1)", async () => {
    expect(await sorted(["-k2,2nr", "-k1,1"], "a 2 x\nb 10 y\nc 2 z\na 10 q\n")).toBe("a 10 q\nb 10 y\na 2 x\nc 2 z\n");
  });

  it("-k3,3nr with a tab separator", async () => {
    expect(await sorted(["-t", "\t", "-k3,3nr"], "a\tx\t1\nb\ty\t30\nc\tz\t4\n")).toBe("b\ty\t30\nc\tz\t4\na\tx\t1\n");
  });

  it("the b modifier skips blanks before the key", async () => {
    expect(await sorted(["-k2b,2"], "a  2\nb 1\n")).toBe("b 1\na  2\n");
    expect(await sorted(["-k2,2"], "a  2\nb 1\n")).toBe("a  2\nb 1\n");
  });

  it("a global -r applies to keys without modifiers and to the last resort", async () => {
    expect(await sorted(["-r", "-k1,1"], "1\n2\n10\n")).toBe("2\n10\n1\n");
  });

  it("-s disables the last-resort comparison", async () => {
    expect(await sorted(["-s", "-k2,2n"], "b 1\na 1\nc 0\n")).toBe("c 0\nb 1\na 1\n");
    expect(await sorted(["-k2,2n"], "b 1\na 1\nc 0\n")).toBe("c 0\na 1\nb 1\n");
  });
});

describe("sort: -u, -m, -o and inputs", () => {
  it("-u removes duplicate lines", async () => {
    expect(await sorted(["-u"], "a\nb\nA\na\nB\n")).toBe("A\nB\na\nb\n");
  });

  it("-u compares keys only: -uf is case-insensitive, -u -k keeps the first line of a run", async () => {
    expect(await sorted(["-uf"], "a\nb\nA\na\nB\n")).toBe("a\nb\n");
    expect(await sorted(["-u", "-k1,1"], "a 2\na 1\nb 0\n")).toBe("a 2\nb 0\n");
    expect(await sorted(["-nu"], "1\n01\n1.0\n2\n")).toBe("1\n2\n");
  });

  it("reads several files and - for stdin, in order", async () => {
    const r = await run(["f1", "-", "f2"], "b\n", { f1: "c\na", f2: "d\n" });
    expect(r.stdout).toBe("a\nb\nc\nd\n");
    expect(r.status).toBe(0);
  });

  it("-m merges its inputs without sorting them (unsorted inputs stay as merged)", async () => {
    const r = await run(["-m", "f1", "f2"], "", { f1: "a\nc\n", f2: "b\nd\n" });
    expect(r.stdout).toBe("a\nb\nc\nd\n");
    const unsorted = await run(["-m", "f1", "-"], "2\n4\n", { f1: "3\n1\n" });
    expect(unsorted.stdout).toBe("2\n3\n1\n4\n");
  });

  it("-o may overwrite one of its inputs", async () => {
    const r = await run(["-o", "data", "data"], "", { data: "3\n1\n2\n" });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.files.get("data")).toBe("1\n2\n3\n");
    const r2 = await run(["-n", "--output=out", "data"], "", { data: "10\n9\n" });
    expect(r2.files.get("out")).toBe("9\n10\n");
  });

  it("-o into a missing directory fails", async () => {
    const r = await run(["-o", "/nonexistent/x"], "a\n");
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("sort: open failed: /nonexistent/x: No such file or directory\n");
  });

  it("a missing file is an error and nothing is written", async () => {
    const r = await run(["f1", "nope"], "", { f1: "a\n" });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("sort: cannot read: nope: No such file or directory\n");
  });

  it("a directory is a read failure", async () => {
    const r = await run(["dir"], "", {}, ["dir"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("sort: read failed: dir: Is a directory\n");
  });
});

describe("sort: -c and -C", () => {
  it("-c reports the first disorder and exits 1", async () => {
    const r = await run(["-c"], "a\nc\nb\n");
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("sort: -:3: disorder: b\n");
    const r2 = await run(["-c"], "b\na\n");
    expect(r2.stderr).toBe("sort: -:2: disorder: a\n");
  });

  it("-c names the file and uses the options", async () => {
    const r = await run(["-c", "-n", "f"], "", { f: "1\n10\n9\n" });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("sort: f:3: disorder: 9\n");
    expect((await run(["-cn", "f"], "", { f: "1\n9\n10\n" })).status).toBe(0);
  });

  it("-c succeeds on sorted input; -cu rejects duplicates", async () => {
    expect(await run(["-c"], "a\nb\nb\n")).toMatchObject({ status: 0, stderr: "" });
    expect(await run(["-cu"], "a\nb\nb\n")).toMatchObject({ status: 1, stderr: "sort: -:3: disorder: b\n" });
  });

  it("-C is quiet", async () => {
    expect(await run(["-C"], "b\na\n")).toMatchObject({ status: 1, stderr: "", stdout: "" });
    expect(await run(["--check=quiet"], "a\nb\n")).toMatchObject({ status: 0, stderr: "" });
  });
});

describe("sort: usage errors", () => {
  it("rejects an unknown option", async () => {
    const r = await run(["-x"], "a\n");
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("sort: invalid option -- 'x'\nTry 'sort --help' for more information.\n");
    expect((await run(["--bogus"])).stderr).toBe(
      "sort: unrecognized option '--bogus'\nTry 'sort --help' for more information.\n",
    );
  });

  it("rejects bad key specifications", async () => {
    expect(await run(["-k0"])).toMatchObject({
      status: 2,
      stderr: "sort: field number is zero: invalid field specification '0'\n",
    });
    expect((await run(["-k1.0"])).stderr).toBe("sort: character offset is zero: invalid field specification '1.0'\n");
    expect((await run(["-k2x"])).stderr).toBe(
      "sort: stray character in field spec: invalid field specification '2x'\n",
    );
    expect((await run(["-k"])).stderr).toBe(
      "sort: option requires an argument -- 'k'\nTry 'sort --help' for more information.\n",
    );
  });

  it("rejects incompatible orderings and bad tabs", async () => {
    expect(await run(["-ng"])).toMatchObject({ status: 2, stderr: "sort: options '-gn' are incompatible\n" });
    expect((await run(["-t", "ab"])).stderr).toBe("sort: multi-character tab 'ab'\n");
    expect((await run(["-t,", "-t:"])).stderr).toBe("sort: incompatible tabs\n");
  });

  it("rejects -c with more than one file", async () => {
    expect(await run(["-c", "a", "b"])).toMatchObject({
      status: 2,
      stderr: "sort: extra operand 'b' not allowed with -c\n",
    });
  });

  it("treats arguments after -- as files", async () => {
    const r = await run(["--", "-n"], "", { "-n": "b\na\n" });
    expect(r.stdout).toBe("a\nb\n");
  });
});

describe("sort: performance", () => {
  it("sorts 100k numeric lines quickly", async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => String(((i * 7919) % 100_003) - 50_000));
    const input = lines.join("\n") + "\n";
    const start = process.cpuUsage();
    const out = await sorted(["-n"], input);
    const elapsed = cpuMsSince(start);
    const expected = lines.map(Number).sort((a, b) => a - b).join("\n") + "\n";
    expect(out).toBe(expected);
    // CPU time, not wall-clock time, so that a loaded machine does not fail it; it typically takes well under 100 ms.
    expect(elapsed).toBeLessThan(1000);
  });
});
