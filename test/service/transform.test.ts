import { describe, expect, it } from "vitest";
import type { AgentOs } from "../../src/index.js";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";

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
    // differs from GNU: this sed takes the word after a bare -i as the backup suffix, so the script becomes
    // the suffix, the file name becomes the script, and it edits stdin ("-"). GNU sed exits 0 with no
    // output and the file then has port=9090.
    expect(await vm.exec("sed -i 's/port=8080/port=9090/' /workspace/config.ini")).toEqual(
      result("", 1, "sed: error Reading metadata of '-' for in-place edit: No such file or directory\n"),
    );
    expect(text(await vm.readFile("/workspace/config.ini"))).toBe(files["/workspace/config.ini"]);
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
    // differs from GNU: this sed has no first~step addresses. GNU prints "one\nthree\nfive\n".
    expect(await vm.exec("sed -n '1~2p' /workspace/lines.txt")).toEqual(
      result("", 1, "sed: <script argument 1>:1:2: error: invalid command code `~'\n"),
    );
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
    // differs from GNU: this awk ignores the 0 flag for %f (pads with spaces). GNU awk prints
    // "00042|  3.1|2.5  |003.1\n".
    expect(await vm.exec("awk 'BEGIN { printf \"%05d|%5.1f|%-5.1f|%05.1f\\n\", 42, 3.14159, 2.5, 3.14159 }'")).toEqual(
      result("00042|  3.1|2.5  |  3.1\n"),
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
    // differs from GNU: this awk (awk-rs) runs END after each input file. GNU awk prints "10\n".
    expect(await vm.exec("awk 'END {print NR}' /workspace/lines.txt /workspace/a.txt")).toEqual(result("6\n10\n"));
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
});

describe("jq", () => {
  it(".field, with and without -r", async () => {
    const vm = await filesVm();
    expect(await vm.exec("jq .name < /workspace/data.json")).toEqual(result('"agentos"\n'));
    expect(await vm.exec("jq -r .name < /workspace/data.json")).toEqual(result("agentos\n"));
    expect(await vm.exec("jq '.missing' < /workspace/data.json")).toEqual(result("null\n"));
    expect(await vm.exec("jq -e '.missing' < /workspace/data.json; echo status=$?")).toEqual(result("null\nstatus=1\n"));
  });

  it("reads the file named on the command line", async () => {
    const vm = await filesVm();
    // differs from GNU: this jq reads only stdin and rejects file arguments. jq prints "agentos\n".
    expect(await vm.exec("jq -r .name /workspace/data.json")).toEqual(
      result("", 2, "jq: unexpected argument: /workspace/data.json\n"),
    );
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
    // differs from GNU: this jq sorts the keys of parsed objects. jq prints
    // '{"id":1,"name":"ann","age":31,"admin":true}\n{"id":3,"name":"cy","age":45,"admin":false}\n'.
    expect(await vm.exec("jq -c '.[] | select(.age > 30)' < /workspace/users.json")).toEqual(
      result('{"admin":true,"age":31,"id":1,"name":"ann"}\n{"admin":false,"age":45,"id":3,"name":"cy"}\n'),
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
    // differs from GNU: this jq sorts object keys when pretty-printing. jq prints
    // '{\n  "name": "agentos",\n  "first": "wasm"\n}\n' and '{\n  "id": 2,\n  "name": "bob", ...'.
    expect(await vm.exec("jq '{name: .name, first: .tags[0]}' < /workspace/data.json")).toEqual(
      result('{\n  "first": "wasm",\n  "name": "agentos"\n}\n'),
    );
    expect(await vm.exec("jq '.[1]' < /workspace/users.json")).toEqual(
      result('{\n  "admin": false,\n  "age": 19,\n  "id": 2,\n  "name": "bob"\n}\n'),
    );
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

  it("--arg binds a variable", async () => {
    const vm = await filesVm();
    // differs from GNU: this jq parses --arg but does not bind $n. jq prints "2\n".
    expect(await vm.exec("jq --arg n bob -c '.[] | select(.name == $n) | .id' < /workspace/users.json")).toEqual(
      result("", 2, 'jq: compile error: [(File { code: ".[] | select(.name == $n) | .id", path: () }, [("$n", Var)])]\n'),
    );
  });

  it("rejects invalid JSON", async () => {
    const vm = await filesVm();
    // differs from GNU: message and exit code are this jq's own. jq 1.6 prints
    // "parse error: Invalid literal at line 1, column 4\n" and exits 4.
    expect(await vm.exec("echo 'not json' | jq .")).toEqual(
      result("", 2, "jq: invalid JSON input: expected ident at line 1 column 2\n"),
    );
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
    // differs from GNU: this diff writes no timestamps in the headers. GNU writes "--- a.txt\t<mtime>".
    expect(await vm.exec("cd /workspace && diff -u a.txt b.txt | head -n 2")).toEqual(result("--- a.txt\n+++ b.txt\n"));
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
    // differs from GNU: this diff marks changed lines with - and + instead of !. GNU prints
    // "*** 1,4 ****\n  apple\n! banana\n  cherry\n  date\n--- 1,5 ----\n  apple\n! blueberry\n  cherry\n  date\n+ elderberry\n".
    expect(await vm.exec("cd /workspace && diff -c a.txt b.txt | tail -n +4")).toEqual(
      result("*** 1,4 ****\n  apple\n- banana\n  cherry\n  date\n--- 1,5 ----\n  apple\n+ blueberry\n  cherry\n  date\n+ elderberry\n"),
    );
  });

  it("a missing final newline", async () => {
    const vm = await filesVm();
    // differs from GNU: this diff does not write "\ No newline at end of file". GNU prints
    // "1c1\n< x\n---\n> x\n\\ No newline at end of file\n".
    expect(await vm.exec("cd /workspace && printf 'x\\n' > c.txt && printf 'x' > d.txt && diff c.txt d.txt")).toEqual(
      result("1c1\n< x\n---\n> x\n", 1),
    );
  });

  it("a missing file", async () => {
    const vm = await filesVm();
    // differs from GNU: the message carries Rust's "(os error 44)"; GNU prints
    // "diff: missing.txt: No such file or directory\n" (exit 2 in both).
    expect(await vm.exec("cd /workspace && diff a.txt missing.txt")).toEqual(
      result("", 2, "diff: missing.txt: No such file or directory (os error 44)\n"),
    );
  });
});
