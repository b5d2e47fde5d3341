import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AgentOs, type AgentOsOptions, type CommandContext } from "../src/index.js";

/**
 * The Oils project's shell spec tests (test/oils-spec/, vendored from github.com/oils-for-unix/oils,
 * Apache-2.0) as a differential test of the VM's bash against the host's GNU bash 5.2.
 *
 * A case runs as `exec` runs a command, `bash -c CODE sh` (Oils' own runner, test/sh_spec.py, gives the code
 * to bash on stdin instead; bash parses and runs it a command at a time either way), in a fresh directory
 * that is also $TMP, with stdin at end of file, $SH the shell under test and $REPO_ROOT a directory holding
 * the spec/testdata files the cases use. Both sides get the same paths (under /tmp/oils-spec) and the same
 * environment, so a case that prints a path or a variable prints the same thing. The helpers of Oils'
 * spec/bin (argv.py and friends, Python programs there) are TypeScript commands in the VM and small
 * Python 3 programs on the host that print what Oils' Python 2 ones print.
 *
 * Compared: stdout and the exit status (as Oils compares; stderr's wording is not). bash's answers are in
 * test/oils-spec/bash-reference.json, written by scripts/oils-spec-reference.ts (run it after changing the
 * vendored files): each case ran twice on the host, and a case whose two runs differ is skipped there,
 * with the reason.
 */

export const SPEC_DIR = new URL("./oils-spec/", import.meta.url).pathname;
export const REFERENCE_FILE = join(SPEC_DIR, "bash-reference.json");

/** The spec files (test/oils-spec/<name>.test.sh) the shell is measured on. */
export const SPEC_FILES = [
  "alias", "arith", "array", "array-assoc", "assign", "background", "brace-expansion", "builtin-cd",
  "builtin-echo", "builtin-getopts", "builtin-printf", "builtin-read", "builtin-set", "builtin-trap", "case_",
  "command-parsing", "command-sub", "dbracket", "errexit", "exit-status", "extglob-files", "extglob-match",
  "func-parsing", "glob", "here-doc", "if_", "loop", "pipeline", "posix", "process-sub", "quote", "redirect",
  "sh-func", "sh-options", "subshell", "var-op-len", "var-op-patsub", "var-op-slice", "var-op-strip",
  "var-op-test", "vars-special", "word-split",
] as const;

/** Everything a case sees lives under here, on the host and in the VM alike. */
export const ROOT = "/tmp/oils-spec";
export const REPO_ROOT = `${ROOT}/repo`;
export const BIN = `${ROOT}/bin`;
export const HOME = `${ROOT}/home`;
/** The files of Oils' spec/testdata the cases use (test/oils-spec/testdata), with whether they are executable. */
export const TESTDATA: Record<string, boolean> = {
  "getopts-1523.sh": false, "builtin-trap-usr1.sh": true, "builtin-trap-int.sh": true, "builtin-trap-exit.sh": true,
  "echo.sh": true, "echo.si": false, "echo.sz": false, "continue.sh": false, "break.sh": false, "return.sh": false,
  "utf8-chars.txt": false,
};
/** A case that runs longer than this has hung (a deadline for hangs, not a measure of speed). */
export const CASE_DEADLINE_MS = 60_000;

export interface SpecCase {
  file: string;
  /** `file: description`, with ` (2)` and so on for a description the file repeats. */
  key: string;
  /** The case's position in its file (0-based): its directory's name. */
  index: number;
  code: string;
}

/** What a case did: its stdout and exit status (-1: it did not end within CASE_DEADLINE_MS). */
export interface Outcome {
  stdout: string;
  status: number;
  /** Not compared (bash's wording differs from shell to shell); kept for reports. */
  stderr?: string;
}

/** The reference answer of one case: bash's outcome, or why the case is skipped. */
export type Reference = (Omit<Outcome, "stderr"> & { sha256: string }) | { sha256: string; skip: string };

export interface ReferenceFile {
  bash: string;
  oils: string;
  cases: Record<string, Reference>;
}

export const codeHash = (code: string): string => createHash("sha256").update(code).digest("hex").slice(0, 16);

/**
 * The cases of a spec file, split as Oils' test/sh_spec.py splits them: `#### description` starts a case,
 * `## key: value` lines and `## STDOUT:` … `## END` blocks are its expectations (not used here), lines
 * starting with `#` are dropped everywhere, blank lines count inside code only, and `## code: …` gives
 * the code on one line.
 */
export function parseSpecFile(file: string, text: string): SpecCase[] {
  const cases: SpecCase[] = [];
  const seen = new Map<string, number>();
  let current: { name: string; code: string[]; codeKey?: string; inBlock: boolean; codeDone: boolean } | undefined;
  const finish = (): void => {
    if (!current) return;
    const code = current.codeKey !== undefined ? `${current.codeKey}\n` : current.code.join("");
    const n = (seen.get(current.name) ?? 0) + 1;
    seen.set(current.name, n);
    const key = `${file}: ${current.name}${n > 1 ? ` (${n})` : ""}`;
    cases.push({ file, key, index: cases.length, code });
  };
  const lines = text.split(/(?<=\n)/);
  for (const line of lines) {
    if (line.startsWith("####")) {
      finish();
      current = { name: line.slice(4).trim(), code: [], inBlock: false, codeDone: false };
      continue;
    }
    if (!current) continue; // file-level metadata
    const meta = /^##\s+(?:(?:OK(?:-\d)?|BUG(?:-\d)?|N-I)\s+[\w+/]+\s+)?([\w-]+):\s*(.*)$/.exec(line.replace(/\n$/, ""));
    if (meta) {
      if (current.code.length > 0) current.codeDone = true;
      if (meta[1] === "STDOUT" || meta[1] === "STDERR") current.inBlock = true;
      else if (meta[1] === "code") current.codeKey = meta[2];
      continue;
    }
    if (/^##\s+END/.test(line)) {
      current.inBlock = false;
      continue;
    }
    if (line.trimStart().startsWith("#")) continue;
    if (current.inBlock || current.codeDone) continue;
    if (current.code.length === 0 && line.trim() === "") continue;
    current.code.push(line);
  }
  finish();
  return cases;
}

/** Every case of the measured files, in file order. */
export function allCases(): SpecCase[] {
  return SPEC_FILES.flatMap((f) => parseSpecFile(f, readFileSync(join(SPEC_DIR, `${f}.test.sh`), "utf8")));
}

export const caseDir = (c: SpecCase): string => `${ROOT}/cases/${c.file}/${c.index}`;

/** The whole environment of a case's bash, on both sides (the VM's defaults, with Oils' variables). */
export function caseEnv(c: SpecCase): Record<string, string> {
  const dir = caseDir(c);
  return {
    HOME,
    USER: "user",
    LOGNAME: "user",
    SHELL: "/bin/sh",
    PATH: `${BIN}:/usr/local/bin:/usr/bin:/bin`,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    PWD: dir,
    TMP: dir,
    SH: "bash",
    REPO_ROOT,
  };
}

export function readReference(): ReferenceFile {
  return JSON.parse(readFileSync(REFERENCE_FILE, "utf8")) as ReferenceFile;
}

// ---- the helpers of Oils' spec/bin ----

/** Python 2's repr of a byte string: what Oils' argv.py prints for each argument. */
export function pythonRepr(bytes: Uint8Array): string {
  const s = Buffer.from(bytes).toString("latin1");
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const b = ch.charCodeAt(0);
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** argv.py, printenv.py and stdout_stderr.py as commands of the VM. */
export const VM_HELPERS: Record<string, (ctx: CommandContext) => number> = {
  "argv.py": (ctx) => {
    ctx.writeStdout(`[${ctx.argv.slice(1).map((a) => pythonRepr(utf8(a))).join(", ")}]\n`);
    return 0;
  },
  "printenv.py": (ctx) => {
    ctx.writeStdout(ctx.argv.slice(1).map((n) => `${ctx.env[n] ?? "None"}\n`).join(""));
    return 0;
  },
  "stdout_stderr.py": (ctx) => {
    ctx.writeStdout(`${ctx.argv[1] ?? "STDOUT"}\n`);
    ctx.writeStderr(`${ctx.argv[2] ?? "STDERR"}\n`);
    return ctx.argv[3] === undefined ? 0 : Number.parseInt(ctx.argv[3], 10) & 255;
  },
};

/** read_from_fd.py needs the fds it was started with, which a TypeScript command does not see: a script. */
export const READ_FROM_FD = `#!/bin/sh
for fd in "$@"; do printf '%s: ' "$fd"; eval "cat <&$fd"; done
`;

/** The same helpers on the host, for Python 3 (`python` is the interpreter's path). */
export function hostHelpers(python: string): Record<string, string> {
  const head = `#!${python}\nimport os, sys\n`;
  return {
    "argv.py": `${head}print('[' + ', '.join(repr(os.fsencode(a))[1:] for a in sys.argv[1:]) + ']')\n`,
    "printenv.py": `${head}for n in sys.argv[1:]: print(os.environ.get(n))\n`,
    "stdout_stderr.py": `${head}a = sys.argv + [None] * 4\nprint(a[1] or 'STDOUT')\nprint(a[2] or 'STDERR', file=sys.stderr)\nsys.exit(int(a[3]) if a[3] else 0)\n`,
    "read_from_fd.py": `${head}for a in sys.argv[1:]:\n    sys.stdout.write('%d: ' % int(a)); sys.stdout.flush()\n    os.write(1, os.read(int(a), 1024))\n`,
  };
}

// ---- running cases in the VM ----

/** VMs that run spec cases, each several at once through the public API. */
export class SpecVms {
  private constructor(private readonly vms: AgentOs[]) {}

  /** `commands`: more commands for the VMs, e.g. `{ sh: { wasm }, bash: { wasm } }` to try another build of the shell. */
  static async create(count = 3, commands: AgentOsOptions["commands"] = {}): Promise<SpecVms> {
    const files: Record<string, string> = { [`${BIN}/read_from_fd.py`]: READ_FROM_FD, [`${HOME}/.keep`]: "" };
    for (const name of Object.keys(TESTDATA)) files[`${REPO_ROOT}/spec/testdata/${name}`] = readFileSync(join(SPEC_DIR, "testdata", name), "utf8");
    const vms = await Promise.all(
      Array.from({ length: count }, async () => {
        const vm = await AgentOs.create({ commands: { ...VM_HELPERS, ...commands }, files });
        await vm.chmod(`${BIN}/read_from_fd.py`, 0o755);
        for (const [name, x] of Object.entries(TESTDATA)) if (x) await vm.chmod(`${REPO_ROOT}/spec/testdata/${name}`, 0o755);
        await vm.delete(`${HOME}/.keep`);
        // Started before the cases, so that none waits for the shells to compile and start.
        await Promise.all([0, 1, 2, 3].map(() => vm.exec("bash -c :")));
        return vm;
      }),
    );
    return new SpecVms(vms);
  }

  /** Runs the cases (each in a fresh directory), `vms × 4` at a time; `done` hears of each as it ends. */
  async runAll(cases: SpecCase[], done?: (c: SpecCase, o: Outcome, ms: number) => void): Promise<Map<string, Outcome>> {
    const results = new Map<string, Outcome>();
    let next = 0;
    const worker = async (vm: AgentOs): Promise<void> => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const started = performance.now();
        const o = await this.run(vm, c);
        results.set(c.key, o);
        done?.(c, o, performance.now() - started);
      }
    };
    await Promise.all(this.vms.flatMap((vm) => [0, 1, 2, 3].map(() => worker(vm))));
    return results;
  }

  /** Per VM: the last case that uses a fixed path of the spec's own (see run). */
  private readonly sharedPathCases = new Map<AgentOs, Promise<unknown>>();

  private async run(vm: AgentOs, c: SpecCase): Promise<Outcome> {
    // Cases that work in the spec's fixed directory (`/tmp/oil-spec-test/pwd`; one of them removes it) would
    // meet in it when run side by side in one VM: they run one after another.
    if (c.code.includes("/tmp/oil-spec-test")) {
      const before = this.sharedPathCases.get(vm) ?? Promise.resolve();
      const mine = before.then(() => this.runNow(vm, c));
      this.sharedPathCases.set(vm, mine.catch(() => undefined));
      return mine;
    }
    return this.runNow(vm, c);
  }

  private async runNow(vm: AgentOs, c: SpecCase): Promise<Outcome> {
    const dir = caseDir(c);
    await vm.mkdir(dir, { recursive: true });
    const r = await vm.exec(c.code, { cwd: dir, env: caseEnv(c), timeout: CASE_DEADLINE_MS });
    const timedOut = r.exitCode === 124 && r.stderr.endsWith(`agentos: timed out after ${CASE_DEADLINE_MS} ms\n`);
    return { stdout: r.stdout, status: timedOut ? -1 : r.exitCode, stderr: r.stderr };
  }

  async dispose(): Promise<void> {
    await Promise.all(this.vms.map((vm) => vm.dispose()));
  }
}

/** Whether the VM's outcome is bash's. */
export const sameAsBash = (ref: Reference, o: Outcome): boolean => !("skip" in ref) && ref.stdout === o.stdout && ref.status === o.status;
