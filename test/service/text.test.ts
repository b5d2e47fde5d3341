/**
 * Service tests: text processing through `vm.exec`, the way an agent drives a shell.
 *
 * Every expectation is the full result (stdout, exit code, stderr) of GNU coreutils/bash on Linux with
 * LC_ALL=C for the same command, unless a comment `// differs from GNU: ...` says why the WebAssembly
 * binary (uutils coreutils, the shell, ...) answers differently on its own. `sort` is the TypeScript
 * implementation of src/commands/sort.ts and must always match GNU sort.
 */
import { describe, expect, it } from "vitest";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";

describe("cat, head, tail, wc", () => {
  it("cat concatenates stdin and files", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/a": "a\nb\n", "/tmp/c": "c\n" });
    expect(await vm.exec("printf 'x\\n' | cat /tmp/a - /tmp/c")).toEqual(result("a\nb\nx\nc\n"));
    expect(await vm.exec("cat", { stdin: "from stdin\n" })).toEqual(result("from stdin\n"));
  });

  it("head -n, -n -N, -c and the short -N form", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'l1\\nl2\\nl3\\nl4\\nl5\\n' | head -n 2")).toEqual(result("l1\nl2\n"));
    expect(await vm.exec("printf 'l1\\nl2\\nl3\\nl4\\nl5\\n' | head -n -2")).toEqual(result("l1\nl2\nl3\n"));
    expect(await vm.exec("printf 'abcdef' | head -c 3; printf 'x\\ny\\n' | head -1")).toEqual(result("abcx\n"));
  });

  it("tail -n, -n +N, -c and -c +N", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'l1\\nl2\\nl3\\nl4\\nl5\\n' | tail -n 2")).toEqual(result("l4\nl5\n"));
    expect(await vm.exec("printf 'l1\\nl2\\nl3\\nl4\\nl5\\n' | tail -n +3")).toEqual(result("l3\nl4\nl5\n"));
    expect(await vm.exec("printf 'abcdef' | tail -c 2; printf 'abc' | tail -c +2")).toEqual(result("efbc"));
  });

  it("wc on stdin", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'one two\\nthree\\n' | wc")).toEqual(result("      2       3      14\n"));
    expect(await vm.exec("printf 'one two\\nthree\\n' | wc -l; printf 'a b  c' | wc -w; printf 'héllo' | wc -c")).toEqual(
      result("2\n3\n6\n"),
    );
    expect(await vm.exec("printf 'short\\nlongest line\\n' | wc -L")).toEqual(result("12\n"));
  });
});

describe("cut, tr", () => {
  it("cut -d -f with lists and ranges", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'a:b:c\\nd:e:f\\n' | cut -d: -f1,3")).toEqual(result("a:c\nd:f\n"));
    expect(await vm.exec("printf 'a:b:c\\nd:e:f\\n' | cut -d: -f2-")).toEqual(result("b:c\ne:f\n"));
    expect(await vm.exec("printf 'a\\tb\\n' | cut -f2; printf 'a:b\\nnodelim\\n' | cut -d: -f2 -s")).toEqual(result("b\nb\n"));
  });

  it("cut -c, -b, --complement and --output-delimiter", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'abcdef\\n123456\\n' | cut -c2-4")).toEqual(result("bcd\n234\n"));
    expect(await vm.exec("printf 'abcdef\\n' | cut -c1,3,5; printf 'abcdef\\n' | cut -c4-; printf 'abcdef\\n' | cut -b-2")).toEqual(
      result("ace\ndef\nab\n"),
    );
    expect(await vm.exec("printf 'a,b,c\\n' | cut -d, -f2 --complement; printf 'a,b,c\\n' | cut -d, -f1,3 --output-delimiter=' '")).toEqual(
      result("a,c\na c\n"),
    );
  });

  it("tr with ranges and classes", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'hello\\n' | tr a-z A-Z")).toEqual(result("HELLO\n"));
    expect(await vm.exec("printf 'hello\\n' | tr 'a-y' 'b-z'; printf 'abc\\n' | tr '[:lower:]' '[:upper:]'")).toEqual(
      result("ifmmp\nABC\n"),
    );
  });

  it("tr -d, -s and -c", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'hello world\\n' | tr -d lo; printf 'a1b2c3\\n' | tr -d '0-9'")).toEqual(result("he wrd\nabc\n"));
    expect(await vm.exec("printf 'aaabbbccc  dd\\n' | tr -s 'a-c '; printf 'a  b   c\\n' | tr -s ' '")).toEqual(
      result("abc dd\na b c\n"),
    );
    expect(await vm.exec("printf 'hello, world!\\n' | tr -c 'a-z\\n' _")).toEqual(result("hello__world_\n"));
  });
});

describe("sort (TypeScript, must match GNU sort in the C locale)", () => {
  it("default byte order, and a last line without newline", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf '3\\n1\\n2\\n10\\n' | sort")).toEqual(result("1\n10\n2\n3\n"));
    expect(await vm.exec("printf 'B\\na\\nb\\nA\\n' | sort")).toEqual(result("A\nB\na\nb\n"));
    expect(await vm.exec("printf 'b\\na' | sort; printf '' | sort; echo rc=$?")).toEqual(result("a\nb\nrc=0\n"));
  });

  it("-n, -r and -nr", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf '3\\n1\\n2\\n10\\n' | sort -n")).toEqual(result("1\n2\n3\n10\n"));
    expect(await vm.exec("printf '3\\n1\\n2\\n10\\n' | sort -nr")).toEqual(result("10\n3\n2\n1\n"));
    expect(await vm.exec("printf 'b\\nB\\na\\n' | sort -r")).toEqual(result("b\na\nB\n"));
    expect(await vm.exec("printf -- '-1.5\\n2\\n-10\\n0.5\\n1e2\\n  10\\n' | sort -n")).toEqual(
      result("-10\n-1.5\n0.5\n1e2\n2\n  10\n"),
    );
  });

  it("-k and -t, with several keys", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'b 2\\na 3\\nc 1\\n' | sort -k2")).toEqual(result("c 1\nb 2\na 3\n"));
    expect(await vm.exec("printf 'b:2\\na:3\\nc:1\\n' | sort -t: -k2 -n")).toEqual(result("c:1\nb:2\na:3\n"));
    expect(await vm.exec("printf 'b,2\\na,10\\nc,1\\na,2\\n' | sort -t, -k2,2n -k1,1")).toEqual(result("c,1\na,2\nb,2\na,10\n"));
    expect(await vm.exec("printf 'x:1:b\\ny:1:a\\nz:0:c\\n' | sort -t: -k2,2n -k3,3r")).toEqual(result("z:0:c\nx:1:b\ny:1:a\n"));
    expect(await vm.exec("printf 'one\\ntwo\\nthree\\n' | sort -k1.2,1.2")).toEqual(result("three\none\ntwo\n"));
    expect(await vm.exec("printf 'a b 3\\nc d 1\\ne f 2\\n' | sort -k3nr")).toEqual(result("a b 3\ne f 2\nc d 1\n"));
  });

  it("-u, also with a key", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'b\\na\\nb\\na\\n' | sort -u")).toEqual(result("a\nb\n"));
    expect(await vm.exec("printf 'a b\\na a\\nb a\\n' | sort -k2,2 -u")).toEqual(result("a a\na b\n"));
    expect(await vm.exec("printf '0.5\\n.5\\n0.50\\n' | sort -n -u")).toEqual(result("0.5\n"));
  });

  it("-f folds case, -fu keeps the first of equal lines", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'B\\na\\nb\\nA\\n' | sort -f")).toEqual(result("A\na\nB\nb\n"));
    expect(await vm.exec("printf 'apple\\nBanana\\ncherry\\nApple\\n' | sort -fu")).toEqual(result("apple\nBanana\ncherry\n"));
    expect(await vm.exec("printf 'a\\nB\\nc\\nD\\n' | sort -f -r")).toEqual(result("D\nc\nB\na\n"));
  });

  it("-h human sizes and -V versions", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf '1M\\n1K\\n1G\\n100\\n2K\\n1k\\n' | sort -h")).toEqual(result("100\n1K\n1k\n2K\n1M\n1G\n"));
    expect(await vm.exec("printf 'v1.10\\nv1.2\\nv1.9\\n' | sort -V")).toEqual(result("v1.2\nv1.9\nv1.10\n"));
    expect(await vm.exec("printf 'file10\\nfile2\\nfile1\\nFile3\\n1.2.3a\\n1.2.10\\n1.2\\n' | sort -V")).toEqual(
      result("1.2\n1.2.3a\n1.2.10\nFile3\nfile1\nfile2\nfile10\n"),
    );
  });

  it("-s keeps input order among equal keys; without it the whole line breaks ties", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'b 1\\na 2\\nb 0\\na 1\\n' | sort -s -k1,1")).toEqual(result("a 2\na 1\nb 1\nb 0\n"));
    expect(await vm.exec("printf 'b 1\\na 2\\nb 0\\na 1\\n' | sort -k1,1")).toEqual(result("a 1\na 2\nb 0\nb 1\n"));
    expect(await vm.exec("printf 'b 2\\na 2\\nc 1\\n' | sort -k2,2nr -s")).toEqual(result("b 2\na 2\nc 1\n"));
    expect(await vm.exec("printf 'b 2\\na 2\\nc 1\\n' | sort -k2,2n -r")).toEqual(result("c 1\nb 2\na 2\n"));
  });

  it("-c and -C check the order", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'a\\nc\\nb\\n' | sort -c; echo $?")).toEqual(result("1\n", 0, "sort: -:3: disorder: b\n"));
    expect(await vm.exec("printf 'a\\nb\\n' | sort -c; echo $?")).toEqual(result("0\n"));
    expect(await vm.exec("printf '1\\n3\\n2\\n' | sort -C; echo $?")).toEqual(result("1\n"));
    expect(await vm.exec("printf 'x\\nx\\ny\\n' | sort -cu; echo $?")).toEqual(result("1\n", 0, "sort: -:2: disorder: x\n"));
    await writeTree(vm, { "/tmp/f": "b\na\n" });
    expect(await vm.exec("cd /tmp && sort -c f")).toEqual(result("", 1, "sort: f:2: disorder: a\n"));
  });

  it("-o writes the output file, even over the input", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "c\nb\na\n", "/tmp/n": "3\n10\n2\n" });
    expect(await vm.exec("cd /tmp && sort -o f f && cat f && sort -n -o out n && cat out")).toEqual(result("a\nb\nc\n2\n3\n10\n"));
  });

  it("-g, -M, -d, -b and -z", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'inf\\n-inf\\nnan\\n1\\n' | sort -g")).toEqual(result("nan\n-inf\n1\ninf\n"));
    expect(await vm.exec("printf 'Mar\\nJan\\nfoo\\nDEC\\n feb\\n' | sort -M")).toEqual(result("foo\nJan\n feb\nMar\nDEC\n"));
    expect(await vm.exec("printf 'a-b\\nab\\na_b\\naB\\n' | sort -d")).toEqual(result("aB\na-b\na_b\nab\n"));
    expect(await vm.exec("printf '  b\\na\\n c\\n' | sort -b")).toEqual(result("a\n  b\n c\n"));
    expect(await vm.exec("printf 'b\\0a\\0' | sort -z | od -c")).toEqual(result("0000000   a  \\0   b  \\0\n0000004\n"));
  });

  it("several files, and -m of sorted files", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f1": "b\na\n", "/tmp/f2": "d\nc\n", "/tmp/s1": "a\nc\n", "/tmp/s2": "b\nd\n" });
    expect(await vm.exec("sort /tmp/f1 /tmp/f2; sort -m /tmp/s1 /tmp/s2")).toEqual(result("a\nb\nc\nd\na\nb\nc\nd\n"));
  });

  it("errors: a missing file, an invalid option, a zero field", async () => {
    const vm = await createVm();
    expect(await vm.exec("sort /tmp/nope")).toEqual(result("", 2, "sort: cannot read: /tmp/nope: No such file or directory\n"));
    expect(await vm.exec("printf 'x\\n' | sort -q")).toEqual(
      result("", 2, "sort: invalid option -- 'q'\nTry 'sort --help' for more information.\n"),
    );
    expect(await vm.exec("printf 'x\\n' | sort -k0")).toEqual(
      result("", 2, "sort: field number is zero: invalid field specification '0'\n"),
    );
  });
});

describe("uniq, nl, tac, rev", () => {
  it("uniq, -c, -d, -u", async () => {
    const vm = await createVm();
    const input = "printf 'a\\na\\nb\\nc\\nc\\nc\\n'";
    expect(await vm.exec(`${input} | uniq`)).toEqual(result("a\nb\nc\n"));
    expect(await vm.exec(`${input} | uniq -c`)).toEqual(result("      2 a\n      1 b\n      3 c\n"));
    expect(await vm.exec(`${input} | uniq -d`)).toEqual(result("a\nc\n"));
    expect(await vm.exec(`${input} | uniq -u`)).toEqual(result("b\n"));
  });

  it("uniq only merges adjacent lines; -i and -f", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'a\\na\\nb\\na\\n' | uniq; printf 'A\\na\\n' | uniq -i")).toEqual(result("a\nb\na\nA\n"));
    expect(await vm.exec("printf 'x 1\\ny 1\\nz 2\\n' | uniq -f1 -c")).toEqual(result("      2 x 1\n      1 z 2\n"));
  });

  it("nl numbers non-empty lines; -ba, -w, -s, -v, -i, -n", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'a\\n\\nb\\n' | nl")).toEqual(result("     1\ta\n       \n     2\tb\n"));
    expect(await vm.exec("printf 'a\\n\\nb\\n' | nl -ba -w3 -s': '")).toEqual(result("  1: a\n  2: \n  3: b\n"));
    expect(await vm.exec("printf 'a\\nb\\nc\\n' | nl -v 10 -i 5; printf 'a\\nb\\n' | nl -n rz -w 4")).toEqual(
      result("    10\ta\n    15\tb\n    20\tc\n0001\ta\n0002\tb\n"),
    );
  });

  it("tac reverses the lines of a file", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "a\nb\nc\n", "/tmp/g": "x\ny\n" });
    expect(await vm.exec("tac /tmp/f /tmp/g")).toEqual(result("c\nb\na\ny\nx\n"));
  });

  it("tac reverses the lines of its standard input, a last line without newline, and other separators", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "x\ny\n" });
    expect(await vm.exec("printf 'a\\nb\\nc\\n' | tac")).toEqual(result("c\nb\na\n"));
    expect(await vm.exec("printf 'a\\nb\\nc' | tac")).toEqual(result("cb\na\n"));
    expect(await vm.exec("printf 'q\\n' | tac /tmp/f - /tmp/f")).toEqual(result("y\nx\nq\ny\nx\n"));
    expect(await vm.exec("printf 'a,b,c' | tac -s ,; printf 'a,b,c,' | tac -b -s ,")).toEqual(result("cb,a,,,c,ba"));
    expect(await vm.exec("seq 100000 | tac | head -2")).toEqual(result("100000\n99999\n"));
  });

  it("tac reports a missing file and a bad option as GNU does", async () => {
    const vm = await createVm();
    expect(await vm.exec("tac /nosuch; echo $?")).toEqual(
      result("1\n", 0, "tac: failed to open '/nosuch' for reading: No such file or directory\n"),
    );
    expect(await vm.exec("tac --bogus")).toEqual(result("", 1, "tac: unrecognized option '--bogus'\nTry 'tac --help' for more information.\n"));
  });

  it("rev reverses each line", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'abc\\nxyz\\n\\n' | rev")).toEqual(result("cba\nzyx\n\n"));
    expect(await vm.exec("printf 'ab' | rev")).toEqual(result("ba"));
  });
});

describe("paste, fold, expand", () => {
  it("paste side by side, with -d, and -s", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "1\n2\n", "/tmp/g": "a\nb\n", "/tmp/y": "1\n2\n3\n" });
    expect(await vm.exec("cd /tmp && paste f g; paste -d, f g; paste -s f; paste -d'|' g y")).toEqual(
      result("1\ta\n2\tb\n1,a\n2,b\n1\t2\na|1\nb|2\n|3\n"),
    );
    expect(await vm.exec("printf '1\\n2\\n3\\n' | paste -sd+; printf '1\\n2\\n3\\n4\\n' | paste - -")).toEqual(
      result("1+2+3\n1\t2\n3\t4\n"),
    );
  });

  it("fold -w, -s and -b", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'abcdefghij\\n' | fold -w 3")).toEqual(result("abc\ndef\nghi\nj\n"));
    expect(await vm.exec("printf 'the quick brown fox\\n' | fold -w 10 -s")).toEqual(result("the quick \nbrown fox\n"));
    expect(await vm.exec("printf 'abcdef' | fold -b -w 4")).toEqual(result("abcd\nef"));
  });

  it("expand and unexpand", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'a\\tb\\n' | expand; printf 'a\\tb\\n' | expand -t 4")).toEqual(result("a       b\na   b\n"));
    expect(await vm.exec("printf '\\tx\\n  \\ty\\n' | expand -t 2; printf 'a\\tbc\\td\\n' | expand -t 3,6")).toEqual(
      result("  x\n    y\na  bc d\n"),
    );
    expect(await vm.exec("printf '        x\\n' | unexpand; printf '        x       y\\n' | unexpand -a | od -c")).toEqual(
      result("\tx\n0000000  \\t   x  \\t   y  \\n\n0000005\n"),
    );
  });
});

describe("seq, printf, echo", () => {
  it("seq with steps, separators, widths and formats", async () => {
    const vm = await createVm();
    expect(await vm.exec("seq 3; seq 2 2 8; seq -s, 5; seq -w 8 10")).toEqual(
      result("1\n2\n3\n2\n4\n6\n8\n1,2,3,4,5\n08\n09\n10\n"),
    );
    expect(await vm.exec("seq 5 -1 1; seq -f '%03g' 3; seq 0.1 0.1 0.3; seq 1 0.5 2")).toEqual(
      result("5\n4\n3\n2\n1\n001\n002\n003\n0.1\n0.2\n0.3\n1.0\n1.5\n2.0\n"),
    );
  });

  it("printf conversions", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf '%s=%d\\n' a 1 b 2")).toEqual(result("a=1\nb=2\n"));
    expect(await vm.exec("printf '%5.2f|%-4s|%x|%o|%e\\n' 3.14159 ab 255 8 1234.5")).toEqual(result(" 3.14|ab  |ff|10|1.234500e+03\n"));
    expect(await vm.exec("printf '%5s|%-5s|%.2s\\n' ab cd efgh; printf '%d %i %u\\n' 42 -7 3; printf '%#x %#o %X\\n' 255 8 255")).toEqual(
      result("   ab|cd   |ef\n42 -7 3\n0xff 010 FF\n"),
    );
    expect(await vm.exec("printf '%03d %c %%\\n' 7 xyz; printf '%10.3f|\\n' 2.5; printf '%+d % d\\n' 5 5")).toEqual(
      result("007 x %\n     2.500|\n+5  5\n"),
    );
  });

  it("printf reuses the format, and handles %b and escapes", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf '%s-%s\\n' a b c")).toEqual(result("a-b\nc-\n"));
    expect(await vm.exec("printf '%b\\n' 'a\\tb'; printf '%s\\n' \"x y\" z")).toEqual(result("a\tb\nx y\nz\n"));
    expect(await vm.exec("printf 'no newline'; printf '\\n%s\\n' done; printf '%%s\\n'; printf '\\x41\\101\\n'")).toEqual(
      result("no newline\ndone\n%s\nAA\n"),
    );
  });

  it("printf with an invalid number", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf '%d\\n' abc; echo $?")).toEqual(result("0\n1\n", 0, "sh: line 1: printf: abc: invalid number\n"));
  });

  it("echo, echo -n, -e and -E", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo a b  c; echo \"a  b\"; echo -n abc; echo")).toEqual(result("a b c\na  b\nabc\n"));
    expect(await vm.exec("echo -e 'col1\\tcol2'; echo -e 'x\\\\y'; echo -e '\\x41\\0101'; echo -E 'a\\nb'; echo 'a\\tb'")).toEqual(
      result("col1\tcol2\nx\\y\nAA\na\\nb\na\\tb\n"),
    );
    expect(await vm.exec("echo -ne 'p\\nq'")).toEqual(result("p\nq"));
  });
});

describe("comm, join", () => {
  it("comm and its column options", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "a\nb\nc\n", "/tmp/g": "b\nc\nd\n" });
    expect(await vm.exec("cd /tmp && comm f g")).toEqual(result("a\n\t\tb\n\t\tc\n\td\n"));
    expect(await vm.exec("cd /tmp && comm -12 f g; comm -3 f g; comm -23 f g; comm -13 f g")).toEqual(
      result("b\nc\na\n\td\na\nd\n"),
    );
    expect(await vm.exec("cd /tmp && comm --output-delimiter=: f g")).toEqual(result("a\n::b\n::c\n:d\n"));
  });

  it("join on the first field, with -t, -a, -v, -o and -e", async () => {
    const vm = await createVm();
    await writeTree(vm, {
      "/tmp/f": "1 a\n2 b\n3 c\n",
      "/tmp/g": "1 x\n3 y\n4 z\n",
      "/tmp/c1": "1,a\n2,b\n",
      "/tmp/c2": "1,x\n2,y\n",
    });
    expect(await vm.exec("cd /tmp && join f g")).toEqual(result("1 a x\n3 c y\n"));
    expect(await vm.exec("cd /tmp && join -t, c1 c2")).toEqual(result("1,a,x\n2,b,y\n"));
    expect(await vm.exec("cd /tmp && join -a1 f g; join -v2 f g; join -o 1.2,2.2 f g")).toEqual(
      result("1 a x\n2 b\n3 c y\n4 z\na x\nc y\n"),
    );
    expect(await vm.exec("cd /tmp && join -e X -o 1.1,2.2,1.3 f g")).toEqual(result("1 x X\n3 y X\n"));
  });

  it("join of unsorted input", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "k1 a\nk2 b\n", "/tmp/g": "k2 y\nk1 x\n" });
    expect(await vm.exec("cd /tmp && join f g")).toEqual(
      result("k2 b y\n", 1, "join: g:2: is not sorted: k1 x\njoin: input is not in sorted order\n"),
    );
  });
});

describe("encodings and digests", () => {
  it("base64 encodes, wraps and decodes back", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'The quick brown fox jumps over the lazy dog' | base64")).toEqual(
      result("VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==\n"),
    );
    expect(await vm.exec("printf 'aGVsbG8gd29ybGQK' | base64 -d; printf 'x' | base64 | base64 -d")).toEqual(result("hello world\nx"));
    expect(await vm.exec("head -c 60 /dev/zero | base64 -w 40")).toEqual(
      result("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"),
    );
  });

  it("base64 round trip of binary content through files", async () => {
    const vm = await createVm();
    await vm.writeFile("/tmp/bin", new Uint8Array([0, 255, 10, 128, 7]));
    expect(await vm.exec("cd /tmp && base64 bin > enc && cat enc && base64 -d enc > dec && od -An -tx1 dec")).toEqual(
      result("AP8KgAc=\n 00 ff 0a 80 07\n"),
    );
    expect([...(await vm.readFile("/tmp/dec"))]).toEqual([0, 255, 10, 128, 7]);
  });

  it("md5sum, sha1sum, sha256sum and sha512sum of known content", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'hello\\n' | md5sum; printf 'hello\\n' | sha256sum")).toEqual(
      result("b1946ac92492d2347c6235b4d2611184  -\n5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  -\n"),
    );
    expect(await vm.exec("printf '' | md5sum; printf 'abc' | sha1sum; printf 'abc' | sha512sum | cut -c1-32")).toEqual(
      result("d41d8cd98f00b204e9800998ecf8427e  -\na9993e364706816aba3e25717850c26c9cd0d89d  -\nddaf35a193617abacc417349ae204131\n"),
    );
  });

  it("md5sum of files and md5sum -c", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/tmp/f": "hello\n" });
    expect(await vm.exec("cd /tmp && md5sum f && md5sum f > sums && md5sum -c sums")).toEqual(
      result("b1946ac92492d2347c6235b4d2611184  f\nf: OK\n"),
    );
    expect(await vm.exec("cd /tmp && echo bad > f && md5sum -c sums")).toEqual(
      result("f: FAILED\n", 1, "md5sum: WARNING: 1 computed checksum did NOT match\n"),
    );
  });

  it("cksum and sum", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'abc' | cksum; printf 'abc' | sum")).toEqual(result("1219131554 3\n16556     1\n"));
  });

  it("od -c and od -An -tx1 and other types", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'hi\\tx\\n' | od -c")).toEqual(result("0000000   h   i  \\t   x  \\n\n0000005\n"));
    expect(await vm.exec("printf 'hi\\n' | od -An -tx1")).toEqual(result(" 68 69 0a\n"));
    expect(await vm.exec("printf 'AB\\n\\001\\377' | od -c")).toEqual(result("0000000   A   B  \\n 001 377\n0000005\n"));
    expect(await vm.exec("printf 'ABCD' | od -An -tx2; printf 'hi' | od -An -to1; printf 'ABC' | od -An -td1")).toEqual(
      result(" 4241 4443\n 150 151\n   65   66   67\n"),
    );
    expect(await vm.exec("printf 'ab\\n' | od -Ax -tx1z")).toEqual(
      result("000000 61 62 0a                                         >ab.<\n000003\n"),
    );
  });
});

describe("pipelines an agent writes", () => {
  it("word frequencies", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/words.txt": "the cat and the dog\nthe end\n" });
    expect(
      await vm.exec("tr -s ' ' '\\n' < /workspace/words.txt | sort | uniq -c | sort -k1,1nr -k2 | head -n 3"),
    ).toEqual(result("      3 the\n      1 and\n      1 cat\n"));
  });

  it("tee writes a copy while the pipeline goes on", async () => {
    const vm = await createVm();
    expect(await vm.exec("cd /tmp && printf 'foo\\nbar\\n' | tee t1 | tr a-z A-Z && cat t1")).toEqual(result("FOO\nBAR\nfoo\nbar\n"));
    expect(await vm.exec("cd /tmp && printf 'a\\n' | tee -a t1 t2 > /dev/null && cat t1 t2")).toEqual(result("foo\nbar\na\na\n"));
  });

  it("columns of a CSV: cut, sort -t, head", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/workspace/data.csv": "name,age\nbob,25\nalice,30\ncarol,22\n" });
    expect(await vm.exec("cd /workspace && tail -n +2 data.csv | sort -t, -k2,2nr | cut -d, -f1 | head -n 2")).toEqual(
      result("alice\nbob\n"),
    );
    expect(await vm.exec("cd /workspace && cut -d, -f2 data.csv | tail -n +2 | paste -sd+")).toEqual(result("25+30+22\n"));
  });
});
