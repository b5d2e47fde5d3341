import { describe, expect, it } from "vitest";
import type { AgentOs } from "../../src/index.js";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";
import { expectLikeHost, hostHas } from "./host.js";

// Expected values are what GNU sed 4.9 / GNU awk 5.2 / jq 1.6 / GNU diffutils 3.8 print on Linux
// (LC_ALL=C) for the same files. Where the WebAssembly binary differs for a reason of its own, the test
// says so in a `differs from GNU` comment and expects the binary's output.

const files: Record<string, string> = {
  "/workspace/lines.txt": "one\ntwo\nthree\nfour\nfive\nsix\n",
  "/workspace/config.ini": "# settings\nname=demo\nport=8080\n\ndebug=false\nhost=localhost\n",
  "/workspace/sales.csv":
    "region,product,amount\nnorth,apple,10\nsouth,pear,25\nnorth,pear,5\neast,apple,40\nsouth,apple,15\n",
  "/workspace/access.log":
    "GET /index.html 200 512\nPOST /api/login 401 64\nGET /about.html 200 1024\nGET /missing 404 0\nPOST /api/data 200 2048\n",
  "/workspace/data.json":
    JSON.stringify(
      { name: "agentos", version: "0.1.0", tags: ["wasm", "vm", "shell"], deps: { memfs: "4.80.1", piscina: "5.3.2" } },
      null,
      2,
    ) + "\n",
  "/workspace/users.json":
    JSON.stringify([
      { id: 1, name: "ann", age: 31, admin: true },
      { id: 2, name: "bob", age: 19, admin: false },
      { id: 3, name: "cy", age: 45, admin: false },
    ]) + "\n",
  "/workspace/a.txt": "apple\nbanana\ncherry\ndate\n",
  "/workspace/a2.txt": "apple\nbanana\ncherry\ndate\n",
  "/workspace/b.txt": "apple\nblueberry\ncherry\ndate\nelderberry\n",
};

async function filesVm(): Promise<AgentOs> {
  const vm = await createVm();
  await writeTree(vm, files);
  return vm;
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe("sed", () => {
  // sed is uutils sed 0.3 (guests/sed/README.md); compared with the host's GNU sed 4.9 where it has one.
  const host = hostHas("sed --version", "(GNU sed) 4.9");

  it("-n 'Np' prints single lines and ranges", async () => {
    const vm = await filesVm();
    expect(await vm.exec("sed -n '3p' /workspace/lines.txt")).toEqual(result("three\n"));
    expect(await vm.exec("sed -n '2,4p' /workspace/lines.txt")).toEqual(result("two\nthree\nfour\n"));
    expect(await vm.exec("sed -n '$p' /workspace/lines.txt")).toEqual(result("six\n"));
    expect(await vm.exec("cd /workspace && sed -n 2p lines.txt a.txt")).toEqual(result("two\n"));
  });

  it("-e runs several scripts in order", async () => {
    const vm = await filesVm();
    expect(await vm.exec("sed -e 's/o/0/' -e 's/e/3/g' /workspace/lines.txt")).toEqual(
      result("0n3\ntw0\nthr33\nf0ur\nfiv3\nsix\n"),
    );
  });

  it("s///g replaces every occurrence, s///2 only the second", async () => {
    const vm = await filesVm();
    expect(await vm.exec("sed 's/o/O/g' /workspace/lines.txt")).toEqual(result("One\ntwO\nthree\nfOur\nfive\nsix\n"));
    expect(await vm.exec("sed 's/a/A/2' /workspace/a.txt")).toEqual(result("apple\nbanAna\ncherry\ndate\n"));
    expect(await vm.exec("sed 's#/#|#g' /workspace/access.log")).toEqual(
      result(
        "GET |index.html 200 512\nPOST |api|login 401 64\nGET |about.html 200 1024\nGET |missing 404 0\nPOST |api|data 200 2048\n",
      ),
    );
  });

  it("address ranges, by number and by pattern", async () => {
    const vm = await filesVm();
    expect(await vm.exec("sed '2,4d' /workspace/lines.txt")).toEqual(result("one\nfive\nsix\n"));
    expect(await vm.exec("sed -n '/two/,/four/p' /workspace/lines.txt")).toEqual(result("two\nthree\nfour\n"));
    expect(await vm.exec("sed -n '/an/!p' /workspace/a.txt")).toEqual(result("apple\ncherry\ndate\n"));
  });

  it("d deletes comments and blank lines", async () => {
    const vm = await filesVm();
    expect(await vm.exec("sed '/^#/d;/^$/d' /workspace/config.ini")).toEqual(
      result("name=demo\nport=8080\ndebug=false\nhost=localhost\n"),
    );
  });

  it("-i -e edits a file in place", async () => {
    const vm = await filesVm();
    expect(await vm.exec("cd /workspace && sed -i -e 's/port=8080/port=9090/' -e '/^#/d' config.ini")).toEqual(result(""));
    expect(text(await vm.readFile("/workspace/config.ini"))).toBe("name=demo\nport=9090\n\ndebug=false\nhost=localhost\n");
    expect(await vm.exec("ls -a /workspace")).toEqual(
      result(".\n..\na.txt\na2.txt\naccess.log\nb.txt\nconfig.ini\ndata.json\nlines.txt\nsales.csv\nusers.json\n"),
    );
  });

  it("-i with a suffix keeps a backup", async () => {
    const vm = await filesVm();
    expect(await vm.exec("sed -i.bak 's/false/true/' /workspace/config.ini")).toEqual(result(""));
    expect(text(await vm.readFile("/workspace/config.ini"))).toBe(
      "# settings\nname=demo\nport=8080\n\ndebug=true\nhost=localhost\n",
    );
    expect(text(await vm.readFile("/workspace/config.ini.bak"))).toBe(files["/workspace/config.ini"]);
  });

  it("-i followed by the script edits in place", async () => {
    const vm = await filesVm();
    expect(await vm.exec("sed -i 's/port=8080/port=9090/' /workspace/config.ini")).toEqual(result(""));
    expect(text(await vm.readFile("/workspace/config.ini"))).toBe(
      "# settings\nname=demo\nport=9090\n\ndebug=false\nhost=localhost\n",
    );
    await expectLikeHost(vm, files, host, "sed -i 's/a/A/g' a.txt b.txt && cat a.txt b.txt && ls", result(
      "Apple\nbAnAnA\ncherry\ndAte\nApple\nblueberry\ncherry\ndAte\nelderberry\n" +
        "a.txt\na2.txt\naccess.log\nb.txt\nconfig.ini\ndata.json\nlines.txt\nsales.csv\nusers.json\n",
    ));
  });

  it("-E groups and back-references", async () => {
    const vm = await filesVm();
    expect(await vm.exec("sed -E 's/^([a-z]+)=(.*)$/\\2 <- \\1/' /workspace/config.ini")).toEqual(
      result("# settings\ndemo <- name\n8080 <- port\n\nfalse <- debug\nlocalhost <- host\n"),
    );
    expect(await vm.exec("sed -E 's/(an)+/<&>/' /workspace/a.txt")).toEqual(result("apple\nb<anan>a\ncherry\ndate\n"));
    expect(await vm.exec("sed 's/\\(.*\\)=\\(.*\\)/[\\1]/' /workspace/config.ini")).toEqual(
      result("# settings\n[name]\n[port]\n\n[debug]\n[host]\n"),
    );
  });

  it("i, a, q, y and = commands", async () => {
    const vm = await filesVm();
    expect(await vm.exec("sed '1i header' /workspace/a.txt")).toEqual(result("header\napple\nbanana\ncherry\ndate\n"));
    expect(await vm.exec("sed '$a footer' /workspace/a.txt")).toEqual(result("apple\nbanana\ncherry\ndate\nfooter\n"));
    expect(await vm.exec("sed '3q' /workspace/lines.txt")).toEqual(result("one\ntwo\nthree\n"));
    expect(await vm.exec("sed 'y/abc/ABC/' /workspace/a.txt")).toEqual(result("Apple\nBAnAnA\nCherry\ndAte\n"));
    expect(await vm.exec("sed = /workspace/a.txt")).toEqual(result("1\napple\n2\nbanana\n3\ncherry\n4\ndate\n"));
  });

  it("works on a pipe, with \\n in the replacement", async () => {
    const vm = await filesVm();
    expect(await vm.exec("printf 'a b c\\n' | sed 's/ /\\n/g'")).toEqual(result("a\nb\nc\n"));
  });

  it("first~step addresses", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "sed -n '1~2p' lines.txt", result("one\nthree\nfive\n"));
    await expectLikeHost(vm, files, host, "sed '0~3d' lines.txt", result("one\ntwo\nfour\nfive\n"));
  });

  it("c on a range prints its text once, at the range's end", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "sed '2,3c changed' lines.txt", result("one\nchanged\nfour\nfive\nsix\n"));
    await expectLikeHost(vm, files, host, "sed '/two/,/four/c X' lines.txt", result("one\nX\nfive\nsix\n"));
    await expectLikeHost(vm, files, host, "sed -e '2,+1c X' -e '$c END' lines.txt", result("one\nX\nfour\nfive\nEND\n"));
  });

  it("relative paths, -s and several files, hold space", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "sed -n '$p' lines.txt a.txt", result("date\n"));
    await expectLikeHost(vm, files, host, "sed -s -n '$p' lines.txt a.txt", result("six\ndate\n"));
    await expectLikeHost(vm, files, host, "sed '1!G;h;$!d' a.txt", result("date\ncherry\nbanana\napple\n"));
    await expectLikeHost(vm, files, host, "sed -n '/^n/,+1p' config.ini", result("name=demo\nport=8080\n"));
    await expectLikeHost(vm, files, host, "sed '0,/a/s/a/A/' a.txt", result("Apple\nbanana\ncherry\ndate\n"));
  });

  it("a missing file: GNU's message, the other files, exit 2", async () => {
    const vm = await filesVm();
    const missing = "sed: can't read missing.txt: No such file or directory\n";
    await expectLikeHost(vm, files, host, "sed 's/x/y/' missing.txt", result("", 2, missing));
    await expectLikeHost(vm, files, host, "sed 's/a/A/' missing.txt a.txt", result("Apple\nbAnana\ncherry\ndAte\n", 2, missing));
    await expectLikeHost(vm, files, host, "sed -i '1d' missing.txt a.txt; echo $?; cat a.txt", result("2\nbanana\ncherry\ndate\n", 0, missing));
  });

  it("case conversion, and the wording that still differs from GNU sed", async () => {
    const vm = await filesVm();
    expect(await vm.exec("echo apple | sed 's/.*/\\U&/'")).toEqual(result("APPLE\n"));
    // differs from GNU: script errors have GNU's position but uutils' words. GNU: "…: unknown command: `k'".
    expect(await vm.exec("sed k /workspace/a.txt")).toEqual(result("", 1, "sed: -e expression #1, char 1: invalid command code `k'\n"));
  });
});

describe("awk", () => {
  it("prints fields", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk '{print $2}' /workspace/access.log")).toEqual(
      result("/index.html\n/api/login\n/about.html\n/missing\n/api/data\n"),
    );
    expect(await vm.exec("awk '{print $NF}' /workspace/access.log")).toEqual(result("512\n64\n1024\n0\n2048\n"));
  });

  it("-F sets the field separator", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk -F, 'NR>1 {print $1}' /workspace/sales.csv")).toEqual(result("north\nsouth\nnorth\neast\nsouth\n"));
    expect(await vm.exec("awk -F= '/=/ {print $1}' /workspace/config.ini")).toEqual(result("name\nport\ndebug\nhost\n"));
  });

  it("sums a column", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk -F, 'NR>1 {s+=$3} END {print s}' /workspace/sales.csv")).toEqual(result("95\n"));
    expect(await vm.exec("echo '3 4' | awk '{print $1 * $2, $1 / $2, $1 % $2}'")).toEqual(result("12 0.75 3\n"));
  });

  it("printf formats", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk -F, 'NR>1 {printf \"%-6s %5.2f\\n\", $2, $3}' /workspace/sales.csv")).toEqual(
      result("apple  10.00\npear   25.00\npear    5.00\napple  40.00\napple  15.00\n"),
    );
    expect(await vm.exec("awk '{ printf \"%s|\", $0 } END { print \"\" }' /workspace/lines.txt")).toEqual(
      result("one|two|three|four|five|six|\n"),
    );
  });

  it("printf with a zero-padded float", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk 'BEGIN { printf \"%05d|%5.1f|%-5.1f|%05.1f\\n\", 42, 3.14159, 2.5, 3.14159 }'")).toEqual(
      result("00042|  3.1|2.5  |003.1\n"),
    );
  });

  it("arrays and for-in (sorted)", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk -F, 'NR>1 {t[$1]+=$3} END {for (k in t) print k, t[k]}' /workspace/sales.csv | sort")).toEqual(
      result("east 40\nnorth 15\nsouth 40\n"),
    );
    expect(
      await vm.exec("awk -F, 'NR>1 {n[$2]++} END {for (p in n) printf \"%s=%d\\n\", p, n[p]}' /workspace/sales.csv | sort"),
    ).toEqual(result("apple=3\npear=2\n"));
  });

  it("NR and NF", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk '{print NR\": \"NF}' /workspace/access.log")).toEqual(result("1: 4\n2: 4\n3: 4\n4: 4\n5: 4\n"));
    expect(await vm.exec("awk 'NR==2, NR==4' /workspace/lines.txt")).toEqual(result("two\nthree\nfour\n"));
  });

  it("BEGIN and END", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk 'BEGIN {print \"start\"} {n++} END {print n\" lines\"}' /workspace/lines.txt")).toEqual(
      result("start\n6 lines\n"),
    );
    expect(await vm.exec("awk 'FNR==1 {print FILENAME}' /workspace/lines.txt /workspace/a.txt")).toEqual(
      result("/workspace/lines.txt\n/workspace/a.txt\n"),
    );
  });

  it("END runs once after several files", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk 'END {print NR}' /workspace/lines.txt /workspace/a.txt")).toEqual(result("10\n"));
  });

  it("conditions select records", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk '$3 >= 400 {print $2, $3}' /workspace/access.log")).toEqual(result("/api/login 401\n/missing 404\n"));
    expect(await vm.exec("awk '$1 == \"POST\"' /workspace/access.log")).toEqual(
      result("POST /api/login 401 64\nPOST /api/data 200 2048\n"),
    );
    expect(await vm.exec("awk -F, 'NR>1 && $3 > 10 {c++} END {print c}' /workspace/sales.csv")).toEqual(result("3\n"));
    expect(await vm.exec("awk 'length($0) > 3' /workspace/lines.txt")).toEqual(result("three\nfour\nfive\n"));
    expect(await vm.exec("awk -v min=1000 '$4 > min {print $2}' /workspace/access.log")).toEqual(result("/about.html\n/api/data\n"));
  });

  it("string functions and OFS", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk '{ sub(/o/, \"0\"); print }' /workspace/lines.txt")).toEqual(result("0ne\ntw0\nthree\nf0ur\nfive\nsix\n"));
    expect(await vm.exec("awk '{ gsub(/[aeiou]/, \"\"); print }' /workspace/lines.txt")).toEqual(result("n\ntw\nthr\nfr\nfv\nsx\n"));
    expect(await vm.exec("awk '{print substr($0, 2, 3)}' /workspace/lines.txt")).toEqual(result("ne\nwo\nhre\nour\nive\nix\n"));
    expect(await vm.exec("awk '{ split($2, p, \"/\"); print p[2] }' /workspace/access.log")).toEqual(
      result("index.html\napi\nabout.html\nmissing\napi\n"),
    );
    expect(await vm.exec("awk '{ $2 = toupper($2); print }' /workspace/access.log")).toEqual(
      result("GET /INDEX.HTML 200 512\nPOST /API/LOGIN 401 64\nGET /ABOUT.HTML 200 1024\nGET /MISSING 404 0\nPOST /API/DATA 200 2048\n"),
    );
    expect(await vm.exec("awk 'BEGIN { OFS=\"-\" } { $1=$1; print }' /workspace/access.log")).toEqual(
      result("GET-/index.html-200-512\nPOST-/api/login-401-64\nGET-/about.html-200-1024\nGET-/missing-404-0\nPOST-/api/data-200-2048\n"),
    );
  });

  // awk is goawk (guests/awk/README.md); compared with the host's awk (mawk here) where POSIX defines the
  // result, in /workspace with relative paths.
  const host = hostHas("awk 'BEGIN { print \"ok\" }'", "ok");
  it.each([
    ["awk '{s+=$4} END {print s}' access.log a.txt", "3648\n"],
    ["awk 'END {print NR, FNR, FILENAME}' lines.txt a.txt", "10 4 a.txt\n"],
    ["awk 'FNR==1 {print FILENAME, NR}' lines.txt a.txt", "lines.txt 1\na.txt 7\n"],
    ["awk -F, -v OFS=';' 'NR>1 {$1=$1; print}' sales.csv", "north;apple;10\nsouth;pear;25\nnorth;pear;5\neast;apple;40\nsouth;apple;15\n"],
    ["awk 'BEGIN {printf \"%5s|%-5s|%.2s|%c|%c\\n\", \"ab\", \"cd\", \"xyz\", 65, \"hello\"}'", "   ab|cd   |xy|A|h\n"],
    ["awk 'BEGIN {printf \"%d %i %o %x %X %e %g %%\\n\", 42.9, -3, 8, 255, 255, 1234.5, 0.0001}'", "42 -3 10 ff FF 1.234500e+03 0.0001 %\n"],
    ["awk 'BEGIN {printf \"%05d|%5.1f|%-5.1f|%05.1f|%+d\\n\", 42, 3.14159, 2.5, 3.14159, 5}'", "00042|  3.1|2.5  |003.1|+5\n"],
    ["awk 'NR==1 {getline; print \"after getline:\", $0} NR==3 {getline line; print \"var:\", line, NR}' lines.txt", "after getline: two\nvar: four 4\n"],
    ["awk 'BEGIN {while ((getline l < \"a.txt\") > 0) n++; print n, l; close(\"a.txt\"); print (getline l < \"nosuch\")}'", "4 date\n-1\n"],
    ["awk 'BEGIN {n = split(\"a:b::c\", p, \":\"); print n, p[1], p[3] == \"\", p[4]}'", "4 a 1 c\n"],
    ["awk 'BEGIN {n = split(\"a1b22c333d\", p, /[0-9]+/); print n, p[1] p[2] p[3] p[4]}'", "4 abcd\n"],
    ["awk '{n = gsub(/[aeiou]/, \"<&>\"); print n, $0}' a.txt", "2 <a>ppl<e>\n3 b<a>n<a>n<a>\n1 ch<e>rry\n2 d<a>t<e>\n"],
    ["awk '{sub(/e/, \"\\\\&\", $1); print}' a.txt", "appl&\nbanana\nch&rry\ndat&\n"],
    ["awk '{if (match($0, /an+/)) print RSTART, RLENGTH; else print RSTART, RLENGTH}' a.txt", "0 -1\n2 2\n0 -1\n0 -1\n"],
    ["awk 'BEGIN {s=\"hello\"; print substr(s, -1) \"|\" substr(s, 4) \"|\" substr(s, 2, 100) \"|\" substr(s, 10) \"|\"}'", "hello|lo|ello||\n"],
    ["awk '{print toupper(substr($0,1,1)) tolower(substr($0,2)), length($0), length}' a.txt", "Apple 5 5\nBanana 6 6\nCherry 6 6\nDate 4 4\n"],
    ["awk -F, 'NR>1 {t[$1]+=$3} END {delete t[\"east\"]; print (\"east\" in t), (\"north\" in t), t[\"north\"], length(t)}' sales.csv", "0 1 15 2\n"],
    ["awk 'BEGIN {a[1,2]=3; for (k in a) {split(k, p, SUBSEP); print p[1], p[2], a[k]}; if ((1,2) in a) print \"yes\"}'", "1 2 3\nyes\n"],
    ["awk 'function fact(n) {return n <= 1 ? 1 : n * fact(n-1)} function fill(arr, n,  i) {for (i=1;i<=n;i++) arr[i]=i*i} BEGIN {print fact(10); fill(sq, 4); print sq[3], length(sq), i \"\"}'", "3628800\n9 4 \n"],
    ["awk -v pat='^[a-c]' '$0 ~ pat && $0 !~ \"y$\"' a.txt", "apple\nbanana\n"],
    ["awk '/^#/ {next} NF {print NR\": \"$0}' config.ini", "2: name=demo\n3: port=8080\n5: debug=false\n6: host=localhost\n"],
    ["awk '{print} NR==2 {exit 3} END {print \"end\"}' lines.txt; echo \"status=$?\"", "one\ntwo\nend\nstatus=3\n"],
    ["awk '{print $1 > \"out.txt\"} END {close(\"out.txt\"); print \"x\" >> \"out.txt\"}' access.log && cat out.txt", "GET\nPOST\nGET\nGET\nPOST\nx\n"],
    ["awk 'BEGIN {print x+0, \"[\" x \"]\", length(x), (x == 0), (x == \"\")}'", "0 [] 0 1 1\n"],
    ["echo '10 9 abc 10.0' | awk '{print ($1 > $2), ($1 == $4), ($3 > $1), (\"10\" < \"9\"), (10 < 9), ($1 < \"9\")}'", "1 1 1 1 0 1\n"],
    ["printf 'BEGIN { print \"b\", v } { print v, $0 }\\n' > p.awk && echo x | awk -v v=0 -f p.awk v=1 a.txt v=2 -", "b 0\n1 apple\n1 banana\n1 cherry\n1 date\n2 x\n"],
    ["awk -- '{print NR}' a.txt", "1\n2\n3\n4\n"],
    ["echo 'a b c d' | awk '{NF=2; print; $5=\"e\"; print; print NF}'", "a b\na b   e\n5\n"],
    ["printf 'a\\nb\\n\\n\\nc\\nd\\n' | awk 'BEGIN {RS=\"\"} {print NR\": \"$1\"-\"$NF}'", "1: a-b\n2: c-d\n"],
    ["printf ' a  b\\tc \\n' | awk '{print NF, $1}'; echo 'a1b22c' | awk -F'[0-9]+' '{print NF, $2}'", "3 a\n3 b\n"],
    ["awk 'BEGIN {x = 3.14159265; print x; OFMT=\"%.2f\"; print x, x \"\"; CONVFMT=\"%.3f\"; y = x \"\"; print y; print 17 \"\"}'", "3.14159\n3.14 3.14159\n3.142\n17\n"],
    ["awk 'BEGIN {print index(\"foobar\", \"bar\"), sprintf(\"%03d-%s\", 7, \"x\"), int(-3.7), int(\"4abc\"), 2^10, 7%3, -7%3, 1e3}'", "4 007-x -3 4 1024 1 -1 1000\n"],
    ["awk 'BEGIN {for (i = 0; i < 10; i++) {if (i == 2) continue; if (i == 5) break; s = s i}; do {j++} while (j < 3); while (k < 4) k++; print s, j, k}'", "0134 3 4\n"],
    ["awk 1 nosuch 2>/dev/null; echo \"status=$?\"", "status=2\n"],
    ["echo 'a b' | awk '{$0 = \"x y z\"; print NF, $3; $2 = \"\"; print; print NF}'", "3 z\nx  z\n3\n"],
    ["awk '/^(one|six)$/' lines.txt", "one\nsix\n"],
    ["awk -v s='a\\tb' 'BEGIN {print s; print length(s)}'", "a\tb\n3\n"],
    ["awk 'BEGIN {while (\"x\" ~ /y/) ; print substr(\"hello\", 2, 3), 1 == 1.0, \"a\" < \"b\", 2 < 10, \"2\" < \"10\"}'", "ell 1 1 1 0\n"],
    ["awk '{ $3 = sprintf(\"%06.2f\", $3 / 7) } 1' access.log", "GET /index.html 028.57 512\nPOST /api/login 057.29 64\nGET /about.html 028.57 1024\nGET /missing 057.71 0\nPOST /api/data 028.57 2048\n"],
    ["awk 'NR % 2 == 0 { print NR, $0 }' lines.txt", "2 two\n4 four\n6 six\n"],
    ["awk '{ n[length($0)]++ } END { for (l = 1; l <= 6; l++) if (l in n) print l, n[l] }' lines.txt", "3 3\n4 2\n5 1\n"],
    ["echo 'a:b' | awk -F: '{print $2}' -", "b\n"],
  ])("like the host: %s", async (command, stdout) => {
    await expectLikeHost(await filesVm(), files, host, command, result(stdout));
  });

  it("says what gawk says of a file it cannot open, with status 2", async () => {
    const vm = await filesVm();
    // mawk: "mawk: cannot open nosuch (No such file or directory)", also status 2.
    expect(await vm.exec("cd /workspace && awk 1 a.txt nosuch lines.txt")).toEqual(
      result("apple\nbanana\ncherry\ndate\n", 2, "awk: fatal: cannot open file `nosuch' for reading: No such file or directory\n"),
    );
  });

  it("prints integral numbers whole, as gawk (mawk prints 4.99995e+09)", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk 'BEGIN { print 4999950000, 2^53, 0.1 + 0.2 }'")).toEqual(result("4999950000 9007199254740992 0.3\n"));
  });

  it("substr from position 0 counts from 1, as mawk (gawk prints \"h\")", async () => {
    const vm = await filesVm();
    expect(await vm.exec("awk 'BEGIN { print substr(\"hello\", 0, 2) }'")).toEqual(result("he\n"));
  });

  it("cannot start commands: pipes and system() fail at once, with a message", async () => {
    const vm = await filesVm();
    // Go's os/exec does not work on wasip1. Output to the pipe is dropped, getline from it reads nothing.
    expect(await vm.exec("cd /workspace && awk '{ print | \"sort -r\" } END { print \"done\" }' a.txt")).toEqual(
      result("done\n", 0, "error connecting to stdin pipe: pipe: Not implemented on wasip1\n"),
    );
    expect(await vm.exec("awk 'BEGIN { r = (\"date\" | getline d); print r, \"[\" d \"]\" }'")).toEqual(
      result("0 []\n", 0, "error connecting to stdout pipe: pipe: Not implemented on wasip1\n"),
    );
    expect(await vm.exec("awk 'BEGIN { print system(\"echo hi\") }'")).toEqual(
      result("-1\n", 0, "fork/exec /bin/sh: Not implemented on wasip1\n"),
    );
  });
});

describe("jq", () => {
  // jq is jaq 3 (guests/jq/README.md); compared with the host's jq 1.6 where they agree.
  const host = hostHas("jq --version", "jq-1.6");

  it(".field, with and without -r", async () => {
    const vm = await filesVm();
    expect(await vm.exec("jq .name < /workspace/data.json")).toEqual(result('"agentos"\n'));
    expect(await vm.exec("jq -r .name < /workspace/data.json")).toEqual(result("agentos\n"));
    expect(await vm.exec("jq '.missing' < /workspace/data.json")).toEqual(result("null\n"));
    expect(await vm.exec("jq -e '.missing' < /workspace/data.json; echo status=$?")).toEqual(result("null\nstatus=1\n"));
  });

  it("reads the files named on the command line, relative to the working directory", async () => {
    const vm = await filesVm();
    expect(await vm.exec("jq -r .name /workspace/data.json")).toEqual(result("agentos\n"));
    await expectLikeHost(vm, files, host, "jq -r .name data.json", result("agentos\n"));
    await expectLikeHost(vm, files, host, "jq -c 'if type == \"array\" then length else .name end' data.json users.json", result('"agentos"\n3\n'));
    await expectLikeHost(vm, files, host, "cat users.json | jq -c 'length' - data.json", result("3\n4\n"));
  });

  it(".[] iterates", async () => {
    const vm = await filesVm();
    expect(await vm.exec("jq '.tags[]' < /workspace/data.json")).toEqual(result('"wasm"\n"vm"\n"shell"\n'));
    expect(await vm.exec("jq -r '.tags[]' < /workspace/data.json")).toEqual(result("wasm\nvm\nshell\n"));
    expect(await vm.exec("cat /workspace/users.json | jq '.[] | .name'")).toEqual(result('"ann"\n"bob"\n"cy"\n'));
  });

  it("select filters", async () => {
    const vm = await filesVm();
    expect(await vm.exec("jq -r '.[] | select(.admin) | .name' < /workspace/users.json")).toEqual(result("ann\n"));
    expect(await vm.exec("jq -c '[.[] | select(.age < 40) | {id, name}]' < /workspace/users.json")).toEqual(
      result('[{"id":1,"name":"ann"},{"id":2,"name":"bob"}]\n'),
    );
    expect(await vm.exec("jq -c 'map(select(.admin | not)) | length' < /workspace/users.json")).toEqual(result("2\n"));
  });

  it("select on input objects keeps their key order", async () => {
    const vm = await filesVm();
    await expectLikeHost(
      vm,
      files,
      host,
      "jq -c '.[] | select(.age > 30)' < users.json",
      result('{"id":1,"name":"ann","age":31,"admin":true}\n{"id":3,"name":"cy","age":45,"admin":false}\n'),
    );
  });

  it("map, add and sort_by", async () => {
    const vm = await filesVm();
    expect(await vm.exec("jq -c 'map(.name)' < /workspace/users.json")).toEqual(result('["ann","bob","cy"]\n'));
    expect(await vm.exec("jq 'map(.age) | add' < /workspace/users.json")).toEqual(result("95\n"));
    expect(await vm.exec("jq -c 'sort_by(.age) | reverse | map(.id)' < /workspace/users.json")).toEqual(result("[3,1,2]\n"));
    expect(await vm.exec("jq -c 'group_by(.admin) | map(length)' < /workspace/users.json")).toEqual(result("[2,1]\n"));
    expect(await vm.exec("jq -c '.tags | map(ascii_upcase)' < /workspace/data.json")).toEqual(result('["WASM","VM","SHELL"]\n'));
  });

  it("-c, keys and length", async () => {
    const vm = await filesVm();
    expect(await vm.exec("jq -c .tags < /workspace/data.json")).toEqual(result('["wasm","vm","shell"]\n'));
    expect(await vm.exec("jq 'keys' < /workspace/data.json")).toEqual(result('[\n  "deps",\n  "name",\n  "tags",\n  "version"\n]\n'));
    expect(await vm.exec("jq -c 'keys' < /workspace/data.json")).toEqual(result('["deps","name","tags","version"]\n'));
    expect(await vm.exec("jq '.tags | length' < /workspace/data.json")).toEqual(result("3\n"));
    expect(await vm.exec("jq length < /workspace/users.json")).toEqual(result("3\n"));
    expect(await vm.exec("jq '.deps' < /workspace/data.json")).toEqual(result('{\n  "memfs": "4.80.1",\n  "piscina": "5.3.2"\n}\n'));
  });

  it("builds objects and strings", async () => {
    const vm = await filesVm();
    expect(await vm.exec("jq -c '{name, count: (.tags | length)}' < /workspace/data.json")).toEqual(
      result('{"name":"agentos","count":3}\n'),
    );
    expect(await vm.exec("jq -c 'map({n: .name, adult: (.age >= 21)})' < /workspace/users.json")).toEqual(
      result('[{"n":"ann","adult":true},{"n":"bob","adult":false},{"n":"cy","adult":true}]\n'),
    );
    expect(await vm.exec("jq -r '.deps | to_entries[] | \"\\(.key)@\\(.value)\"' < /workspace/data.json")).toEqual(
      result("memfs@4.80.1\npiscina@5.3.2\n"),
    );
    expect(await vm.exec("jq -r '.tags | join(\",\")' < /workspace/data.json")).toEqual(result("wasm,vm,shell\n"));
    expect(await vm.exec("jq -r '.[] | [.id, .name] | @tsv' < /workspace/users.json")).toEqual(result("1\tann\n2\tbob\n3\tcy\n"));
    expect(await vm.exec("jq -r '.[] | [.id, .name] | @csv' < /workspace/users.json")).toEqual(result('1,"ann"\n2,"bob"\n3,"cy"\n'));
  });

  it("pretty-prints objects in their key order", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "jq '{name: .name, first: .tags[0]}' data.json", result('{\n  "name": "agentos",\n  "first": "wasm"\n}\n'));
    await expectLikeHost(vm, files, host, "jq '.[1]' users.json", result('{\n  "id": 2,\n  "name": "bob",\n  "age": 19,\n  "admin": false\n}\n'));
  });

  it("-n, update assignment and -S", async () => {
    const vm = await filesVm();
    expect(await vm.exec("jq -n '[1,2,3] | map(. * 2)'")).toEqual(result("[\n  2,\n  4,\n  6\n]\n"));
    expect(await vm.exec("echo '{\"a\":1,\"b\":[1,2]}' | jq -c '.b += [3]'")).toEqual(result('{"a":1,"b":[1,2,3]}\n'));
    expect(await vm.exec("jq '.version |= \"0.2.0\" | .version' < /workspace/data.json")).toEqual(result('"0.2.0"\n'));
    expect(await vm.exec("jq -S . < /workspace/data.json")).toEqual(
      result(
        '{\n  "deps": {\n    "memfs": "4.80.1",\n    "piscina": "5.3.2"\n  },\n  "name": "agentos",\n  "tags": [\n    "wasm",\n    "vm",\n    "shell"\n  ],\n  "version": "0.1.0"\n}\n',
      ),
    );
  });

  it("--arg, --argjson and --args bind variables", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "jq --arg n bob -c '.[] | select(.name == $n) | .id' users.json", result("2\n"));
    await expectLikeHost(vm, files, host, "jq --argjson n 3 -r '.[] | select(.id == $n) | .name' users.json", result("cy\n"));
    await expectLikeHost(vm, files, host, "jq -n --arg a 1 --argjson b 2 -c '[$a, $b]'", result('["1",2]\n'));
    await expectLikeHost(vm, files, host, "jq -nc '$ARGS.positional' --args x y", result('["x","y"]\n'));
  });

  it("-s slurps all inputs into one array, from stdin or several files", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "printf '1 2\\n3' | jq -sc .", result("[1,2,3]\n"));
    await expectLikeHost(vm, files, host, "jq -s 'map(type)' -c data.json users.json", result('["object","array"]\n'));
    await expectLikeHost(vm, files, host, "jq -s 'length' users.json users.json", result("2\n"));
    await expectLikeHost(vm, files, host, "jq -n '[inputs | length]' -c users.json data.json", result("[3,4]\n"));
    await expectLikeHost(vm, files, host, "cat data.json | jq -sc 'map(length)' users.json -", result("[3,4]\n"));
  });

  it("paths through null create objects and arrays", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "jq -c '.deps.extra.x = 1 | .deps' data.json", result('{"memfs":"4.80.1","piscina":"5.3.2","extra":{"x":1}}\n'));
    await expectLikeHost(vm, files, host, "jq -nc '.a.b += 1, (.c[2] = true), ([1] | .[3] = 4)'", result('{"a":{"b":1}}\n{"c":[null,null,true]}\n[1,null,null,4]\n'));
    await expectLikeHost(vm, files, host, "jq -nc '{} | setpath([\"x\", 1]; 0)'", result('{"x":[null,0]}\n'));
  });

  it("prints computed numbers as jq does", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "jq 'map(.age) | add / length' users.json", result("31.666666666666668\n"));
    await expectLikeHost(vm, files, host, "jq -nc '[10 / 2, 7 / 2, 2.5 * 2, 1e17 * 1, 0.00001 * 1, 1e300 * 1e300, 1 / 3]'",
      result("[5,3.5,5,1e+17,1e-05,1.7976931348623157e+308,0.3333333333333333]\n"));
    await expectLikeHost(vm, files, host, "jq -n '[1, 2] | add / 2 | tostring'", result('"1.5"\n'));
    // differs from jq 1.6: literals are printed as written (jq 1.7 keeps literals too). jq 1.6 prints "[1,300,1e+20]\n".
    expect(await vm.exec("echo '[1.0, 3.0e2, 100000000000000000000]' | jq -c .")).toEqual(result("[1.0,3.0e2,100000000000000000000]\n"));
  });

  it("--tab, --indent and -S", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "jq --tab .deps data.json", result('{\n\t"memfs": "4.80.1",\n\t"piscina": "5.3.2"\n}\n'));
    await expectLikeHost(vm, files, host, "jq --indent 1 .tags data.json", result('[\n "wasm",\n "vm",\n "shell"\n]\n'));
    await expectLikeHost(vm, files, host, "jq --indent 0 .deps data.json", result('{"memfs":"4.80.1","piscina":"5.3.2"}\n'));
    await expectLikeHost(vm, files, host, "jq -Sc '.[0]' users.json", result('{"admin":true,"age":31,"id":1,"name":"ann"}\n'));
  });

  it("-e sets the exit status from the last output", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "jq -e '.[0].admin' users.json; echo status=$?", result("true\nstatus=0\n"));
    await expectLikeHost(vm, files, host, "jq -e '.[].admin' users.json; echo status=$?", result("true\nfalse\nfalse\nstatus=1\n"));
    await expectLikeHost(vm, files, host, "jq -e 'empty' users.json; echo status=$?", result("status=4\n"));
  });

  it("errors: a missing file, a runtime error, a bad filter", async () => {
    const vm = await filesVm();
    // differs from jq: jq goes on with the next file (exit 2 at the end); this jq stops at the missing one.
    await expectLikeHost(vm, files, host, "jq . missing.json", result("", 2, "jq: error: Could not open file missing.json: No such file or directory\n"));
    await expectLikeHost(vm, files, host, "jq '.name.x' data.json", result("", 5, 'jq: error (at data.json:13): Cannot index string with string "x"\n'));
    await expectLikeHost(vm, files, host, "jq '.[0]' data.json", result("", 5, "jq: error (at data.json:13): Cannot index object with number\n"));
    // differs from jq: jaq's report of a syntax error draws the filter (exit 3 in both).
    const bad = await vm.exec("jq -n '.[0'");
    expect([bad.exitCode, bad.stdout, bad.stderr.split("\n")[0]]).toEqual([3, "", "Error: expected closing bracket"]);
  });

  it("rejects invalid JSON", async () => {
    const vm = await filesVm();
    await expectLikeHost(vm, files, host, "echo 'not json' | jq .", result("", 4, "parse error: Invalid literal at line 1, column 4\n"));
    await expectLikeHost(vm, files, host, "echo '{\"a\":' > bad.json && jq . bad.json", result("", 4, "parse error: Unfinished JSON term at EOF at line 2, column 0\n"));
  });
});

describe("diff", () => {
  it("identical files: exit 0 and no output", async () => {
    const vm = await filesVm();
    expect(await vm.exec("diff /workspace/a.txt /workspace/a2.txt")).toEqual(result(""));
    expect(await vm.exec("cd /workspace && diff -u a.txt a2.txt; echo status=$?")).toEqual(result("status=0\n"));
    expect(await vm.exec("cd /workspace && diff -i a.txt a2.txt && echo same")).toEqual(result("same\n"));
  });

  it("different files: exit 1 with a normal diff", async () => {
    const vm = await filesVm();
    const normal = "2c2\n< banana\n---\n> blueberry\n4a5\n> elderberry\n";
    expect(await vm.exec("diff /workspace/a.txt /workspace/b.txt")).toEqual(result(normal, 1));
    expect(await vm.exec("cd /workspace && diff a.txt b.txt")).toEqual(result(normal, 1));
    expect(await vm.exec("cd /workspace && diff lines.txt a.txt")).toEqual(
      result("1,6c1,4\n< one\n< two\n< three\n< four\n< five\n< six\n---\n> apple\n> banana\n> cherry\n> date\n", 1),
    );
  });

  it("-u hunks", async () => {
    const vm = await filesVm();
    expect(await vm.exec("cd /workspace && diff -u a.txt b.txt | tail -n +3")).toEqual(
      result("@@ -1,4 +1,5 @@\n apple\n-banana\n+blueberry\n cherry\n date\n+elderberry\n"),
    );
  });

  it("-u headers", async () => {
    const vm = await filesVm();
    // GNU's headers: the name, a tab and the mtime with nanoseconds and the zone (UTC unless TZ says otherwise).
    await vm.exec("cd /workspace && touch -d '2024-01-15 10:30:00.123' a.txt b.txt");
    expect(await vm.exec("cd /workspace && diff -u a.txt b.txt | head -n 2")).toEqual(
      result("--- a.txt\t2024-01-15 10:30:00.123000000 +0000\n+++ b.txt\t2024-01-15 10:30:00.123000000 +0000\n"),
    );
  });

  it("-q and a diff against stdin", async () => {
    const vm = await filesVm();
    expect(await vm.exec("cd /workspace && diff -q a.txt b.txt")).toEqual(result("Files a.txt and b.txt differ\n", 1));
    expect(await vm.exec("cd /workspace && sed 's/banana/BANANA/' a.txt | diff a.txt -")).toEqual(
      result("2c2\n< banana\n---\n> BANANA\n", 1),
    );
  });

  it("-c context format", async () => {
    const vm = await filesVm();
    expect(await vm.exec("cd /workspace && diff -c a.txt b.txt | tail -n +4")).toEqual(
      result("*** 1,4 ****\n  apple\n! banana\n  cherry\n  date\n--- 1,5 ----\n  apple\n! blueberry\n  cherry\n  date\n+ elderberry\n"),
    );
  });

  it("a missing final newline", async () => {
    const vm = await filesVm();
    expect(await vm.exec("cd /workspace && printf 'x\\n' > c.txt && printf 'x' > d.txt && diff c.txt d.txt")).toEqual(
      result("1c1\n< x\n---\n> x\n\\ No newline at end of file\n", 1),
    );
  });

  it("a missing file", async () => {
    const vm = await filesVm();
    expect(await vm.exec("cd /workspace && diff a.txt missing.txt")).toEqual(result("", 2, "diff: missing.txt: No such file or directory\n"));
  });
});
