import { describe, expect, it } from "vitest";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";

// Expected outputs are what bash 5.2 + GNU tools print with LC_ALL=C on Linux, unless a comment says
// "differs from GNU".

describe("pipelines", () => {
  it("runs a three-stage pipeline", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf 'c\\nb\\na\\nb\\n' | sort | uniq | tr a-z A-Z")).toEqual(result("A\nB\nC\n"));
  });

  it("runs a four-stage pipeline ending in awk", async () => {
    const vm = await createVm();
    expect(await vm.exec("seq 1 100 | grep 7 | sed 's/7/seven/' | awk '{n++} END {print n}'")).toEqual(
      result("19\n"),
    );
  });

  it("runs a pipeline whose middle stages stop reading early", async () => {
    const vm = await createVm();
    expect(await vm.exec("printf '%s\\n' one two three | sort -r | head -n 2 | tail -n 1")).toEqual(
      result("three\n"),
    );
  });

  it("ends a pipeline whose first stages write nothing to the pipe (builtins, functions, redirected output)", async () => {
    const vm = await createVm();
    expect(
      await vm.exec(
        "true | wc -l; echo hi 2>/dev/null 1>&2 | wc -l; : | : | cat | wc -c; echo x | { true; } | wc -l; f() { :; }; f | wc -l",
      ),
    ).toEqual(result("0\n0\n0\n0\n0\n"));
  });

  it("terminates `yes | head -n 3`", async () => {
    const vm = await createVm();
    expect(await vm.exec("yes | head -n 3")).toEqual(result("y\ny\ny\n"));
  });

  it("terminates an endless writer behind a three-stage pipeline", async () => {
    const vm = await createVm();
    expect(await vm.exec("yes abc | head -n 20000 | sort -u")).toEqual(result("abc\n"));
  });

  it("carries more than 64 KiB through a pipe", async () => {
    const vm = await createVm();
    expect(await vm.exec("head -c 100000 /dev/zero | wc -c")).toEqual(result("100000\n"));
  });
});

describe("redirections", () => {
  it("truncates with > and appends with >>", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo one > f; echo two >> f; cat f; echo three > f; cat f")).toEqual(
      result("one\ntwo\nthree\n"),
    );
  });

  it("sends stderr to a file with 2>", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat /nonexistent 2> err; echo $?; cat err")).toEqual(
      result("1\ncat: /nonexistent: No such file or directory\n"),
    );
  });

  it("merges stderr into stdout with 2>&1", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat /nonexistent > out 2>&1; cat out")).toEqual(
      result("cat: /nonexistent: No such file or directory\n"),
    );
    expect(await vm.exec("{ echo out; echo err >&2; } 2>&1 | sort")).toEqual(result("err\nout\n"));
  });

  it("reads stdin from a file with <", async () => {
    const vm = await createVm();
    await writeTree(vm, { "/home/user/in.txt": "abc\ndef\n" });
    expect(await vm.exec("wc -l < /etc/passwd")).toEqual(result("2\n"));
    expect(await vm.exec("cat < in.txt | tr a-z A-Z > out.txt; cat out.txt")).toEqual(result("ABC\nDEF\n"));
  });

  it("discards output sent to /dev/null", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo hidden > /dev/null; echo shown")).toEqual(result("shown\n"));
    expect(await vm.exec("{ echo out; echo err >&2; } 2>/dev/null")).toEqual(result("out\n"));
    expect(await vm.exec("cat /nonexistent >/dev/null 2>&1 || echo failed")).toEqual(result("failed\n"));
  });

  it("keeps stderr apart from stdout", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo out; echo err >&2")).toEqual(result("out\n", 0, "err\n"));
  });
});

describe("here-documents and here-strings", () => {
  it("expands variables and arithmetic in an unquoted here-document", async () => {
    const vm = await createVm();
    expect(await vm.exec("name=world; cat <<EOF\nhello $name\n$((1+2))\nEOF")).toEqual(
      result("hello world\n3\n"),
    );
  });

  it("keeps a here-document with a quoted delimiter literal", async () => {
    const vm = await createVm();
    expect(await vm.exec("name=world; cat <<'EOF'\nhello $name\n$((1+2))\nEOF")).toEqual(
      result("hello $name\n$((1+2))\n"),
    );
  });

  it("strips leading tabs with <<-", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat <<-EOF\n\tindented\n\t\tmore\n\tEOF")).toEqual(result("indented\nmore\n"));
  });

  it("pipes a here-document into another command", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat <<EOF | sort -r\nb\na\nc\nEOF")).toEqual(result("c\nb\na\n"));
  });

  it("feeds here-strings to commands", async () => {
    const vm = await createVm();
    expect(await vm.exec("tr a-z A-Z <<< 'here string'")).toEqual(result("HERE STRING\n"));
    expect(await vm.exec('x=abc; cat <<< "$x def"; cat <<< $((6*7))')).toEqual(result("abc def\n42\n"));
    expect(await vm.exec("grep -c x <<< $'x\\ny\\nx'")).toEqual(result("2\n"));
  });

  it("reads fields from a here-string", async () => {
    const vm = await createVm();
    expect(await vm.exec("read a b c <<< 'x y z w'; echo \"$a|$b|$c\"")).toEqual(result("x|y|z w\n"));
  });
});

describe("command substitution", () => {
  it("substitutes small outputs, nested and with backquotes", async () => {
    const vm = await createVm();
    expect(await vm.exec('x=$(echo hi); echo "[$x]"')).toEqual(result("[hi]\n"));
    expect(await vm.exec("echo $(echo a $(echo b $(echo c)))")).toEqual(result("a b c\n"));
    expect(await vm.exec("x=`echo back`; echo $x")).toEqual(result("back\n"));
    expect(await vm.exec("x=$(printf 'a\\n\\n\\n'); echo \"[$x]\"")).toEqual(result("[a]\n"));
  });

  it("captures a large output", async () => {
    const vm = await createVm();
    expect(await vm.exec("x=$(seq 1 50000); echo ${#x}")).toEqual(result("288893\n"));
  });

  it("captures the output of a pipeline reading a big file", async () => {
    const vm = await createVm();
    const big = Array.from({ length: 20000 }, (_, i) => `line ${i + 1}\n`).join("");
    await writeTree(vm, { "/tmp/big": big });
    expect(await vm.exec("x=$(cat /tmp/big | wc -l); echo $x")).toEqual(result("20000\n"));
  });

  it("keeps the exit status of the substituted command", async () => {
    const vm = await createVm();
    expect(await vm.exec("out=$(sh -c 'echo inner; exit 3'); echo \"$out $?\"")).toEqual(result("inner 3\n"));
  });
});

describe("loops", () => {
  it("runs for, while and until loops", async () => {
    const vm = await createVm();
    expect(await vm.exec("for i in 1 2 3; do echo item$i; done")).toEqual(result("item1\nitem2\nitem3\n"));
    expect(await vm.exec("i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done")).toEqual(result("0\n1\n2\n"));
    expect(await vm.exec("i=0; until [ $i -ge 3 ]; do echo $i; i=$((i+1)); done")).toEqual(result("0\n1\n2\n"));
  });

  it("runs C-style loops with break and continue", async () => {
    const vm = await createVm();
    expect(await vm.exec("for ((i=0; i<3; i++)); do echo $i; done")).toEqual(result("0\n1\n2\n"));
    expect(
      await vm.exec("for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done"),
    ).toEqual(result("1\n3\n"));
    expect(await vm.exec("n=0; while true; do n=$((n+1)); [ $n -ge 1000 ] && break; done; echo $n")).toEqual(
      result("1000\n"),
    );
  });

  it("pipes more than 64 KiB from a loop into wc", async () => {
    const vm = await createVm();
    expect(await vm.exec('for i in $(seq 1 10000); do echo "line number $i"; done | wc -l')).toEqual(
      result("10000\n"),
    );
    expect(await vm.exec('for i in $(seq 1 10000); do echo "line number $i"; done | wc -c')).toEqual(
      result("168894\n"),
    );
    // 20,000 loop iterations of the shell: seconds on a quiet machine, many more on a loaded one.
  });

  it("reads lines in a while loop inside a pipeline", async () => {
    const vm = await createVm();
    expect(await vm.exec("seq 1 5 | while read n; do echo $((n*n)); done | paste -sd+")).toEqual(
      result("1+4+9+16+25\n"),
    );
  });
});

describe("functions", () => {
  it("passes arguments and returns a status", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("f() { echo \"args=$# first=$1 second=$2\"; return 3; }; f a 'b c'; echo rc=$?"),
    ).toEqual(result("args=2 first=a second=b c\nrc=3\n"));
  });

  it("uses local variables and recursion through command substitution", async () => {
    const vm = await createVm();
    expect(await vm.exec("f() { local x=$1; echo $((x * 2)); }; y=$(f 21); echo $y")).toEqual(result("42\n"));
    expect(
      await vm.exec(
        "fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 10",
      ),
    ).toEqual(result("3628800\n"));
  });
});

describe("arrays", () => {
  it("indexes, counts and expands an array", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("a=(x y 'z w'); echo ${a[1]}; echo ${#a[@]}; for e in \"${a[@]}\"; do echo \"<$e>\"; done"),
    ).toEqual(result("y\n3\n<x>\n<y>\n<z w>\n"));
  });

  it("appends to and assigns sparse elements of an array", async () => {
    const vm = await createVm();
    expect(
      await vm.exec(
        "a=(); a+=(one); a+=(two three); echo ${#a[@]} ${a[2]} ${a[-1]}; a[5]=six; echo ${#a[@]} ${!a[@]}",
      ),
    ).toEqual(result("3 three three\n4 0 1 2 5\n"));
  });
});

describe("arithmetic", () => {
  it("evaluates $(( )) and (( ))", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo $((3 * (4 + 5) % 7)) $((2**10)) $((17 / 5))")).toEqual(result("6 1024 3\n"));
    expect(
      await vm.exec("x=5; ((x += 3)); echo $x; echo $(( x > 7 ? 1 : 0 )); echo $((0x10 + 010))"),
    ).toEqual(result("8\n1\n24\n"));
  });
});

describe("exit statuses", () => {
  it("sets $?", async () => {
    const vm = await createVm();
    expect(await vm.exec("false; echo $?; true; echo $?; (exit 5); echo $?")).toEqual(result("1\n0\n5\n"));
  });

  it("chains with && and ||", async () => {
    const vm = await createVm();
    expect(await vm.exec("true && echo yes || echo no; false && echo yes || echo no")).toEqual(
      result("yes\nno\n"),
    );
  });

  it("reports every status of a pipeline in PIPESTATUS", async () => {
    const vm = await createVm();
    expect(await vm.exec("false | true; echo ${PIPESTATUS[@]} $?")).toEqual(result("1 0 0\n"));
  });

  it("set -o pipefail gives a pipeline the status of its last failing command", async () => {
    const vm = await createVm();
    expect(await vm.exec("false | true; echo $?; set -o pipefail; false | true; echo $?")).toEqual(result("0\n1\n"));
  });

  it("makes `exit N` the exit code of exec", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo before; exit 42; echo after")).toEqual(result("before\n", 42));
    expect(await vm.exec("sh -c 'exit 300'; echo $?")).toEqual(result("44\n"));
  });

  it("answers 127 for an unknown command", async () => {
    const vm = await createVm();
    // As `bash -c` says it, under the shell's name.
    expect(await vm.exec("nosuchcmd arg")).toEqual(result("", 127, "sh: line 1: nosuchcmd: command not found\n"));
    // Also where stderr goes into a pipe or a file, and inside a command substitution.
    expect(await vm.exec("nosuchcmd 2>&1 | cat; x=$(nosuchcmd 2>&1); echo \"[$x]\"")).toEqual(
      result("sh: line 1: nosuchcmd: command not found\n[sh: line 1: nosuchcmd: command not found]\n"),
    );
  });
});

describe("nested sh -c", () => {
  it("passes $0 and positional parameters and propagates the exit code", async () => {
    const vm = await createVm();
    expect(await vm.exec("sh -c 'echo \"inner $0 $1\"; exit 7' zero one; echo rc=$?")).toEqual(
      result("inner zero one\nrc=7\n"),
    );
  });

  it("keeps quoted arguments intact", async () => {
    const vm = await createVm();
    expect(await vm.exec("sh -c 'printf \"%s|\" \"$@\"; echo' _ 'a b' \"c'd\" 'e\"f'")).toEqual(
      result("a b|c'd|e\"f|\n"),
    );
  });

  it("propagates exit codes through several levels", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("sh -c 'sh -c \"echo deep; exit 9\"; echo mid=$?; exit 4'; echo outer=$?"),
    ).toEqual(result("deep\nmid=9\nouter=4\n"));
    expect(await vm.exec("sh -c \"sh -c 'exit 5'\"")).toEqual(result("", 5));
  });
});

describe("environment", () => {
  it("passes exec's env option to the shell and its commands", async () => {
    const vm = await createVm();
    expect(await vm.exec("printenv X; echo $X", { env: { X: "from-env" } })).toEqual(
      result("from-env\nfrom-env\n"),
    );
  });

  it("exports variables to child commands", async () => {
    const vm = await createVm();
    expect(await vm.exec("export Y=exported; printenv Y; sh -c 'echo $Y'")).toEqual(
      result("exported\nexported\n"),
    );
    expect(await vm.exec("export A=1; env | grep '^A='; A=2 printenv A; echo $A")).toEqual(
      result("A=1\n2\n1\n"),
    );
  });

  it("gives an empty environment with env -i", async () => {
    const vm = await createVm();
    expect(await vm.exec("env -i env; echo rc=$?")).toEqual(result("rc=0\n"));
    expect(await vm.exec("env -i printenv; echo rc=$?")).toEqual(result("rc=0\n"));
    expect(await vm.exec("env -i A=b env; env -i printenv HOME; echo rc=$?")).toEqual(result("A=b\nrc=1\n"));
  });

  it("unsets and expands variables", async () => {
    const vm = await createVm();
    expect(
      await vm.exec('echo "${#HOME} ${HOME:1:4} ${HOME##*/} ${HOME%/*} ${UNSET:-def} ${HOME/home/HOME}"'),
    ).toEqual(result("10 home user /home def /HOME/user\n"));
    expect(await vm.exec('unset HOME; echo "[$HOME]"; printenv HOME; echo $?')).toEqual(result("[]\n1\n"));
  });
});

describe("cd, case and test", () => {
  it("changes directory and resolves relative paths", async () => {
    const vm = await createVm();
    expect(await vm.exec("mkdir -p d/e; cd d; echo hi > e/f; cd e; cat f; pwd")).toEqual(
      result("hi\n/home/user/d/e\n"),
    );
    expect(await vm.exec("cd /tmp && pwd && cd .. && pwd && cd -")).toEqual(result("/tmp\n/\n/tmp\n"));
  });

  it("matches case patterns", async () => {
    const vm = await createVm();
    expect(
      await vm.exec("for w in apple banana cherry; do case $w in a*) echo A;; b*|c*) echo BC;; esac; done"),
    ).toEqual(result("A\nBC\nBC\n"));
    expect(await vm.exec("case foo.txt in *.sh) echo shell;; *.txt) echo text;; *) echo other;; esac")).toEqual(
      result("text\n"),
    );
  });

  it("evaluates test and [ ]", async () => {
    const vm = await createVm();
    expect(
      await vm.exec(
        "[ 3 -gt 2 ] && echo gt; test -z '' && echo empty; [ -d /tmp ] && echo dir; [ -f /tmp ] || echo notfile",
      ),
    ).toEqual(result("gt\nempty\ndir\nnotfile\n"));
    expect(await vm.exec("test 1 -eq 2; echo $?; [ -n x ]; echo $?; [ abc != abd ] && [ ! -e /etc/nope ]")).toEqual(
      result("1\n0\n"),
    );
  });
});

describe("stdin", () => {
  it("feeds the stdin option to the command", async () => {
    const vm = await createVm();
    expect(await vm.exec("wc -c", { stdin: "abc" })).toEqual(result("3\n"));
    expect(await vm.exec('while read -r line; do echo "got: $line"; done', { stdin: "a b\nc\n" })).toEqual(
      result("got: a b\ngot: c\n"),
    );
  });

  it("passes binary stdin through cat unchanged", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat | od -An -tx1", { stdin: new Uint8Array([0, 1, 2, 255, 254, 10, 128]) })).toEqual(
      result(" 00 01 02 ff fe 0a 80\n"),
    );
    const big = new Uint8Array(Array.from({ length: 100000 }, (_, i) => (i * 7) % 256));
    expect(await vm.exec("cat | cksum", { stdin: big })).toEqual(result("1731109147 100000\n"));
  });

  it("reads /dev/null when no stdin is given", async () => {
    const vm = await createVm();
    expect(await vm.exec("cat; echo rc=$?")).toEqual(result("rc=0\n"));
  });
});

describe("output capture", () => {
  it("returns an output written in many small chunks intact", async () => {
    const vm = await createVm();
    // About 4 KB in 400 writes: each run must return exactly what was written.
    for (let i = 0; i < 5; i++) {
      expect(await vm.exec("for i in $(seq 1 400); do echo 123456789; done")).toEqual(
        result("123456789\n".repeat(400)),
      );
    }
  });
});

describe("which", () => {
  it("prints where PATH finds a command, nothing and status 1 for one it does not (as Debian's which)", async () => {
    const vm = await createVm();
    // /bin is /usr/bin (merged /usr, as on Debian), so -a finds each command twice, as Debian's which does.
    expect(await vm.exec("which ls; which -a cat sh")).toEqual(result("/usr/bin/ls\n/usr/bin/cat\n/bin/cat\n/usr/bin/sh\n/bin/sh\n"));
    expect(await vm.exec("which nosuchtool; echo $?; which /bin/cat ./nope; echo $?; which; echo $?")).toEqual(
      result("1\n/bin/cat\n1\n1\n"),
    );
    expect(await vm.exec("if which rg >/dev/null; then echo have rg; fi; which nosuchtool || echo missing")).toEqual(
      result("have rg\nmissing\n"),
    );
  });

  it("finds only executable files", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo 'echo hi' > /usr/local/bin/tool; which tool; echo $?; chmod +x /usr/local/bin/tool; which tool")).toEqual(
      result("1\n/usr/local/bin/tool\n"),
    );
  });
});

describe("what the shell asks the file system", () => {
  it("`[ -x ]` looks at the mode bits and `command -v` at PATH", async () => {
    const vm = await createVm();
    expect(await vm.exec("[ -x /nonexistent ] && echo yes; command -v nosuchtool; echo $?")).toEqual(result("1\n"));
    expect(await vm.exec("touch /tmp/t; [ -x /tmp/t ] || echo no; chmod +x /tmp/t; [ -x /tmp/t ] && echo yes; command -v ls")).toEqual(
      result("no\nyes\n/usr/bin/ls\n"),
    );
    // which looks (an executable regular file along PATH).
    expect(await vm.exec("which nosuchtool; echo $?")).toEqual(result("1\n"));
  });

  it("env gives the command it runs its stdin", async () => {
    const vm = await createVm();
    expect(await vm.exec("seq 3 | env cat; seq 3 | cat")).toEqual(result("1\n2\n3\n1\n2\n3\n"));
  });
});

describe("signals and traps", () => {
  it("a trapped signal runs its trap between commands; exit in the trap ends the shell with its status", async () => {
    const vm = await createVm();
    const sh = vm.spawn("sh", ["-c", "trap 'echo term; exit 7' TERM; echo ready; while :; do sleep 0.05; done"], {
      onStdout: (chunk) => {
        if (new TextDecoder().decode(chunk).includes("ready")) sh.kill("SIGTERM");
      },
    });
    expect(await sh.wait()).toBe(7);
  });

  it("an ignored signal does not end the shell; SIGKILL and an exec's timeout still do", async () => {
    const vm = await createVm();
    expect(await vm.exec("trap '' TERM; kill -TERM $$; echo alive")).toEqual(result("alive\n"));
    const r = await vm.exec("trap '' TERM HUP INT; sleep 5", { timeout: 300 });
    expect(r.exitCode).toBe(124);
    expect(await vm.exec("trap 'echo no' TERM; kill -KILL $$; echo not")).toEqual(result("", 137));
  });

  it("a trap set by one routed command does not catch a signal sent during the next", async () => {
    const vm = await createVm();
    expect(await vm.exec("trap 'echo caught' TERM; echo set")).toEqual(result("set\n"));
    expect(await vm.exec("kill -TERM $$; echo not")).toEqual(result("", 143));
    expect(await vm.exec("echo next")).toEqual(result("next\n"));
  });
});
