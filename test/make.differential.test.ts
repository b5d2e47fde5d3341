import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * The VM's make (guests/dist/make.wasm, GNU make 4.3) against the host's GNU make: each case writes the same
 * makefiles in a directory of the same absolute path in the VM and on the host, then runs command lines one by
 * one through a shell; every line's stdout, stderr and exit status must be identical. Recipes run through each
 * side's /bin/sh (the VM's shell, the host's dash), so they use only what both print alike. Output of `-j`
 * runs, whose order is the jobs' race, is sorted. File times that decide what is out of date are set with
 * `touch -d`, never left to the clock. Where the VM's make differs by design the case records the VM's exact
 * outcome and says why.
 */

const host = spawnSync("make", ["--version"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? host.stdout.split("\n")[0]! : "";

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

interface Case {
  /** Files written before the first step, path (relative to the case's directory) → text. */
  files: Record<string, string>;
  steps: string[];
  /** Step index → what the VM prints there by design ($DIR: the case's directory). */
  vm?: Record<number, Partial<Outcome>>;
}

/** A makefile from lines; a line starting with ">" is a recipe line (a tab in its place). */
const mk = (...lines: string[]): string => lines.map((l) => (l.startsWith(">") ? `\t${l.slice(1)}` : l)).join("\n") + "\n";

const CASES: Record<string, Case> = {
  "a default goal, echoed recipes, automatic variables": {
    files: {
      Makefile: mk("all: one two", ">echo all: $@ from $^", "one:", ">echo making $@", "two: one", ">echo making $@ after $<", ">@echo silent line"),
    },
    steps: ["make", "make two", "make one two one"],
  },
  "-s, -n and @": {
    files: { Makefile: mk("all: a", ">echo all done", "a:", ">@echo quiet", ">echo loud > /dev/null", ">touch made-by-a") },
    steps: ["make -s", "rm -f made-by-a && make -n && ls", "make --just-print a", "make --silent a && ls"],
  },
  "variables: flavours, appends, overrides, the environment": {
    files: {
      Makefile: mk(
        "A = $(B) later",
        "B = first",
        "C := $(B) now",
        "B = second",
        "D ?= default",
        "E = one",
        "E += two",
        "override F = from-makefile",
        "G = from-makefile",
        "all:",
        ">@echo 'A=$(A) C=$(C) D=$(D) E=$(E) F=$(F) G=$(G)'",
        ">@echo 'origin: $(origin A) $(origin D) $(origin G) $(origin PATH) $(origin CC)'",
        ">@echo 'flavor: $(flavor A) $(flavor C) $(flavor NOPE)'",
      ),
    },
    steps: ["make", "make D=cmd F=cmd G=cmd", "D=env G=env make", "G=env make -e", "make 'E=$(B)x'"],
  },
  "pattern rules, static pattern rules, $*": {
    files: {
      Makefile: mk(
        "OBJS = a.o b.o",
        "prog: $(OBJS)",
        ">@echo link $@ from $^ && cat $^ > $@",
        "%.o: %.c",
        ">@echo compile $< to $@ stem $*",
        ">@sed s/src/obj/ $< > $@",
        "STATIC = x.out y.out",
        "$(STATIC): %.out: %.in",
        ">@echo static $@ from $< stem $*",
        ">@cp $< $@",
        "both: $(STATIC)",
      ),
      "a.c": "src a\n",
      "b.c": "src b\n",
      "x.in": "x\n",
      "y.in": "y\n",
    },
    steps: ["make && cat prog", "make", "make both && cat x.out y.out", "make nope.o"],
  },
  "automatic variables $? $+ $(@D) $(@F) $(<F)": {
    files: {
      Makefile: mk("out/file.txt: p1 p2 p1", ">@echo '@=$@ @D=$(@D) @F=$(@F) <=$< <F=$(<F) ^=$^ +=$+'", ">@echo '?=$?'", ">@mkdir -p $(@D) && touch $@"),
      p1: "",
      p2: "",
    },
    steps: [
      "touch -d '2020-01-01 00:00:00' p1 p2 && make",
      "touch -d '2020-01-02 00:00:00' out/file.txt && touch -d '2020-01-03 00:00:00' p2 && make",
      "make",
    ],
  },
  "text functions": {
    files: {
      Makefile: mk(
        "L = c.c b.h a.c b.c",
        "all:",
        ">@echo '$(subst .c,.o,$(L))|$(patsubst %.c,%.o,$(L))|$(L:.c=.x)|$(strip   a   b  )|$(findstring b.h,$(L))'",
        ">@echo '$(filter %.c,$(L))|$(filter-out %.c,$(L))|$(sort $(L) a.c)|$(word 2,$(L))|$(words $(L))|$(wordlist 2,3,$(L))'",
        ">@echo '$(firstword $(L))|$(lastword $(L))|$(dir src/a.c b)|$(notdir src/a.c b)|$(suffix a.c b.tar.gz c)|$(basename a.c b.tar.gz)'",
        ">@echo '$(addsuffix .o,a b)|$(addprefix src/,a b)|$(join a b c,1 2)|$(foreach x,1 2 3,<$(x)>)|$(if $(L),yes,no)|$(if ,yes,no)'",
        ">@echo '$(or ,,b,c)|$(and a,b,c)|$(and a,,c)|$(call swap,1,2)|$(value L)|$(abspath ./x/../y)'",
        "swap = $(2) $(1)",
      ),
    },
    steps: ["make | sed \"s|$PWD|PWD|\""],
  },
  "$(shell), !=, $(wildcard), $(eval)": {
    files: {
      Makefile: mk(
        "WHO := $(shell echo shell-says; echo second line)",
        "COUNT != printf '%s\\n' a b c | wc -l",
        "FILES := $(sort $(wildcard *.txt))",
        "STATUS := $(shell exit 3)",
        "define RULE",
        "gen-$(1):",
        ">@echo generated rule $(1)",
        "endef",
        "$(foreach n,x y,$(eval $(call RULE,$(n))))",
        "all: gen-x gen-y",
        ">@echo '$(WHO)|$(COUNT)|$(FILES)|$(.SHELLSTATUS)'",
        ">@echo '$(shell printf \"a\\nb\\n\")'",
      ),
      "b.txt": "",
      "a.txt": "",
    },
    steps: ["make"],
  },
  "include and -include": {
    files: {
      Makefile: mk("include vars.mk", "-include optional.mk", "all:", ">@echo $(FROM_INCLUDE) $(OPTIONAL)"),
      "vars.mk": "FROM_INCLUDE = included\n",
      "Makefile.bad": mk("include nosuch.mk", "all:", ">@echo never"),
    },
    steps: ["make", "echo 'OPTIONAL = optional' > optional.mk && make", "make -f Makefile.bad; echo status $?"],
  },
  "a failing recipe: Error messages and exit statuses": {
    files: {
      Makefile: mk("all: first second", "first:", ">@echo before", ">false", ">@echo never", "second:", ">@echo second", "three:", ">@exit 3", "sig:", ">@sh -c 'exit 130'"),
    },
    steps: ["make; echo status $?", "make second three; echo status $?", "make three second; echo status $?", "make sig; echo status $?"],
  },
  "-k keeps going, -i and - ignore errors": {
    files: {
      Makefile: mk(
        "all: bad1 good bad2",
        ">@echo all",
        "bad1:",
        ">@exit 1",
        "good:",
        ">@echo good",
        "bad2:",
        ">@exit 2",
        "ign:",
        ">-@exit 4",
        ">@echo after ignored",
      ),
    },
    steps: ["make -k; echo status $?", "make --keep-going bad2 good; echo status $?", "make -i; echo status $?", "make ign; echo status $?"],
  },
  "a program that does not exist": {
    files: { Makefile: mk("all:", ">nosuchprogram --flag", ">@echo never") },
    steps: ["make; echo status $?", "make -k; echo status $?"],
  },
  "-C, -f, -f - and -w": {
    files: {
      "sub/Makefile": mk("all:", ">@echo in sub: $(notdir $(CURDIR))"),
      "other.mk": mk("hello:", ">@echo hello from other.mk"),
    },
    steps: [
      "make -C sub",
      "make -C sub -s",
      "make -f other.mk",
      "make --file=other.mk hello",
      "printf 'x:\\n\\t@echo from stdin\\n' | make -f -",
      "make -w -f other.mk",
      "make -C no-such-dir; echo status $?",
    ],
  },
  "recursive make": {
    files: {
      Makefile: mk("all:", ">@echo top $(MAKELEVEL)", ">$(MAKE) -C sub", ">@$(MAKE) -s -C sub VAR=passed"),
      "sub/Makefile": mk("VAR ?= unset", "all:", ">@echo sub $(MAKELEVEL) $(VAR)"),
    },
    steps: ["make", "make -n"],
  },
  "a failing sub-make, exported variables, MAKEFLAGS in the makefile": {
    files: {
      Makefile: mk(
        "export GREETING = hello from make",
        "UNEXPORTED = not seen",
        "all:",
        ">@echo \"$$GREETING|$$UNEXPORTED|$$FROM_ENV\"",
        "recurse:",
        ">$(MAKE) -C sub",
        ">@echo never",
        "recurse-k:",
        ">-$(MAKE) -k -C sub",
        ">@echo after the sub-make",
      ),
      "sub/Makefile": mk("all: a b", "a:", ">@echo sub a; exit 4", "b:", ">@echo sub b"),
      "quiet.mk": mk("MAKEFLAGS += -s", "all:", ">echo silenced by MAKEFLAGS"),
    },
    steps: ["FROM_ENV=env make", "make recurse; echo status $?", "make recurse-k; echo status $?", "make -j2 recurse-k 2>&1 | sort; echo status ${PIPESTATUS[0]}", "make -f quiet.mk"],
  },
  "up to date, nothing to be done, rebuilds": {
    files: {
      Makefile: mk("out: in", ">@echo building $@", ">@cp in out", "all: out", "phony:", ".PHONY: phony", "phony:", ">@echo phony always runs"),
      in: "input\n",
    },
    steps: [
      "touch -d '2020-01-01 00:00:00' in && make",
      "touch -d '2020-01-02 00:00:00' out && make && make all",
      "touch -d '2020-01-03 00:00:00' in && make",
      "make phony phony",
      "make -B out",
      "make -q out; echo status $?; touch -d '2020-01-04 00:00:00' in; make -q out; echo status $?",
      "make -t out && make",
    ],
  },
  "no rule, no makefile, bad makefiles": {
    files: {
      "Makefile.sep": mk("all:", "    echo spaces, not a tab"),
      "Makefile.err": mk("$(error boom $(words a b))", "all:"),
      "Makefile.warn": mk("$(warning careful)", "$(info informed)", "all: missing", ">@echo never"),
      "Makefile.unterminated": mk("ifeq (a,a)", "all:"),
    },
    steps: [
      "make; echo status $?",
      "make -f Makefile.sep; echo status $?",
      "make -f Makefile.err; echo status $?",
      "make -f Makefile.warn; echo status $?",
      "make -f Makefile.unterminated; echo status $?",
      "make -f nosuch.mk; echo status $?",
      "make -f Makefile.warn nosuch; echo status $?",
    ],
  },
  "conditionals, define, target-specific variables": {
    files: {
      Makefile: mk(
        "MODE ?= debug",
        "ifeq ($(MODE),debug)",
        "CFLAGS = -g",
        "else ifeq ($(MODE),release)",
        "CFLAGS = -O2",
        "else",
        "CFLAGS = -unknown",
        "endif",
        "ifdef EXTRA",
        "CFLAGS += $(EXTRA)",
        "endif",
        "ifneq (,$(findstring g,$(CFLAGS)))",
        "HAS_G = yes",
        "endif",
        "define MULTI",
        "line one",
        "line two",
        "endef",
        "export MULTI",
        "all: special",
        ">@echo 'CFLAGS=$(CFLAGS) HAS_G=$(HAS_G)'",
        ">@echo \"$$MULTI\"",
        "special: CFLAGS += -target-only",
        "special:",
        ">@echo 'special CFLAGS=$(CFLAGS)'",
      ),
    },
    steps: ["make", "make MODE=release EXTRA=-Wall", "make MODE=other"],
  },
  "special targets: .DEFAULT_GOAL, .SILENT, .ONESHELL, .DEFAULT, .SUFFIXES": {
    files: {
      Makefile: mk(".DEFAULT_GOAL := second", "first:", ">echo first", "second:", ">echo second", ".SILENT: first"),
      "Makefile.one": mk(".ONESHELL:", "all:", ">@x=kept", ">echo \"$$x across lines\""),
      "Makefile.def": mk("all: anything", ".DEFAULT:", ">@echo default rule for $@"),
      "Makefile.suf": mk(".SUFFIXES: .up .low", ".up.low:", ">@tr A-Z a-z < $< > $@", "all: word.low", ">@cat word.low"),
      "word.up": "SHOUTED\n",
    },
    steps: ["make", "make first", "make -f Makefile.one", "make -f Makefile.def", "make -f Makefile.suf"],
  },
  "VPATH and vpath": {
    files: {
      Makefile: mk("VPATH = src", "vpath %.h include", "all: main.o", "main.o: main.c defs.h", ">@echo $@ from $^"),
      "src/main.c": "",
      "include/defs.h": "",
    },
    steps: ["make"],
  },
  "MAKEFLAGS, MAKECMDGOALS, CURDIR, MAKEFILE_LIST": {
    files: {
      Makefile: mk("include extra.mk", "all two:", ">@echo 'goals=$(MAKECMDGOALS) list=$(MAKEFILE_LIST) curdir=$(notdir $(CURDIR))'", ">@echo 'flags=$(MAKEFLAGS)'"),
      "extra.mk": "\n",
    },
    steps: ["make", "make -k all two", "make -s X=1"],
  },
  "-j: parallel jobs (output sorted)": {
    files: {
      Makefile: mk("all: j1 j2 j3 j4", ">@echo all after $^", "j1 j2 j3 j4:", ">@echo job $@ > $@.out && cat $@.out"),
      // bad waits for ok1 and ok2: which jobs a failure leaves unstarted would otherwise be the race's.
      "Makefile.fail": mk("all: ok1 bad ok2", "ok1 ok2:", ">@echo $@", "bad: ok1 ok2", ">@exit 1"),
    },
    steps: [
      "make -j2 | sort",
      "rm -f *.out && make -j4 all | sort && ls *.out",
      "make -j 3 -f Makefile.fail 2>&1 | sort; echo status ${PIPESTATUS[0]}",
      "make -j2 -k -f Makefile.fail 2>&1 | sort",
      "make -j2 -n | sort",
    ],
  },
  "--version and --help's first lines": {
    files: {},
    steps: ["make --version | head -1", "make --version | sed -n 2p", "make --help | head -3", "make --no-such-option 2> err; echo status $?; head -3 err"],
    // The platform make was built for, as configure names it.
    vm: { 1: { stdout: "Built for wasm32-unknown-wasi\n" } },
  },
};

let vm: AgentOs;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "make-diff-"));
  vm = await AgentOs.create();
  await vm.mkdir(root, { recursive: true });
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

// bash for the host's step lines (the VM's `exec` shell is bash-compatible); recipes run through /bin/sh on both.
function onHost(dir: string, step: string): Outcome {
  const r = spawnSync("bash", ["-c", step], { cwd: dir, env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: dir, LANG: "C" }, encoding: "utf8", timeout: RUN_DEADLINE_MS });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
}

async function inVm(dir: string, step: string): Promise<Outcome> {
  const r = await vm.exec(step, { cwd: dir, env: { HOME: dir, LANG: "C" }, timeout: RUN_DEADLINE_MS });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

const names = Object.keys(CASES);
const total = Object.values(CASES).reduce((n, c) => n + c.steps.length, 0);

describe.skipIf(!hostVersion).concurrent(`make in the VM against the host's ${hostVersion} (${names.length} cases, ${total} command lines)`, () => {
  it.each(names)("%s", async (name) => {
    const c = CASES[name]!;
    const dir = join(root, name.replace(/[^a-z0-9]+/gi, "-"));
    mkdirSync(dir, { recursive: true });
    await vm.mkdir(dir, { recursive: true });
    for (const [path, text] of Object.entries(c.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
      await vm.mkdir(dirname(join(dir, path)), { recursive: true });
      await vm.writeFile(join(dir, path), text);
    }
    const norm = (o: Outcome): Outcome => ({ stdout: o.stdout.replaceAll(dir, "$DIR"), stderr: o.stderr.replaceAll(dir, "$DIR"), exitCode: o.exitCode });
    for (const [i, step] of c.steps.entries()) {
      const expected = norm(onHost(dir, step));
      const got = norm(await inVm(dir, step));
      const mine = c.vm?.[i];
      expect(got, `step ${i}: ${step}`).toEqual(mine ? { ...expected, ...mine } : expected);
    }
  }, CASE_DEADLINE_MS * 4);
});

/**
 * `-j2` runs two recipes at once, shown without a clock: `waiter` (started first, so it has make's stdin)
 * reads a line that the test writes only once `signaller` has printed; with one job at a time `signaller`
 * could not start before `waiter` ended, and the run would never finish.
 */
describe("make -j", () => {
  it("runs recipes side by side", async () => {
    const dir = join(root, "jobs-side-by-side");
    await vm.mkdir(dir, { recursive: true });
    await vm.writeFile(join(dir, "Makefile"), mk("all: waiter signaller", ">@echo all done", "waiter:", ">@read line; echo \"waiter read $$line\"", "signaller:", ">@echo signaller started"));
    const p = vm.spawn("make", ["-j2", "-C", dir, "--no-print-directory"]);
    let out = "";
    p.onStdout((chunk) => {
      out += Buffer.from(chunk).toString();
      if (out.includes("signaller started\n") && !out.includes("waiter read")) {
        p.writeStdin("go\n");
        p.closeStdin();
      }
    });
    expect(await p.wait()).toBe(0);
    expect(out).toBe("signaller started\nwaiter read go\nall done\n");
  }, CASE_DEADLINE_MS);

  // Each recipe is a VM process: `make -j` (no limit) of more targets than the VM may run at once waits for
  // room as processes exit (guests/make/wasi.c) instead of failing.
  it("without a number runs more targets than the VM's process limit, as room frees", async () => {
    const small = await AgentOs.create({ limits: { maxProcesses: 6 } });
    try {
      const targets = Array.from({ length: 20 }, (_, i) => `t${i}`);
      await small.writeFile("/tmp/Makefile", mk(`all: ${targets.join(" ")}`, ">@cat *.out | wc -l", `${targets.join(" ")}:`, ">@echo $@ > $@.out"));
      expect(await small.exec("make -j -s", { cwd: "/tmp" })).toMatchObject({ exitCode: 0, stdout: "20\n", stderr: "" });
    } finally {
      await small.dispose();
    }
  }, CASE_DEADLINE_MS);
});
