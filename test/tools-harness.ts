import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, closeSync, constants, existsSync, lutimesSync, openSync, statSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { Socket } from "node:net";
import { dirname, join } from "node:path";
import { AgentOs, type ExecResult } from "../src/index.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";

/**
 * The harness of the GNU differential suite of the VM's tools (test/tools.differential.test.ts, and
 * scratch/tools-report.mts for a readable report): one command line runs in the VM, in /workspace, and in
 * GNU bash with GNU coreutils, grep, sed, findutils, diffutils, tar and gzip on this host, in a copy of
 * the same fixture tree; stdout, stderr and the exit status are compared as they are (no normalisation).
 *
 * The host's copy is on tmpfs (/dev/shm) where there is one, written so that directories list their
 * entries in name order, as the VM does (GNU find and grep -r print in directory order).
 *
 * Both sides run with LC_ALL=C and TZ=UTC, stdin /dev/null unless the case gives some, stdout and stderr
 * pipes. Every case gets a pristine tree on both sides.
 *
 * Times: the API cannot set a file's times, and touching every path in the VM would cost a process per
 * case, so the fixture has no fixed mtime. Instead the host copy takes the VM's times: after the VM's tree is
 * written, every path's mtime is read with vm.lstat() and set on the host copy with utimes/lutimes. `ls -l`
 * dates, `ls -t` and `find -newer` then see the same times on both sides. The fixture is written in two
 * generations a few milliseconds apart, so that some files really are newer than others.
 */

/** A case: a command line, with what it reads on stdin. */
export interface ToolCase {
  cmd: string;
  stdin?: string;
}

/** The cases of one tool; the host must have every command in `requires` (default: the tool itself). */
export interface ToolGroup {
  tool: string;
  requires?: string[];
  cases: Array<string | ToolCase>;
}

export const caseOf = (c: string | ToolCase): ToolCase => (typeof c === "string" ? { cmd: c } : c);

// ---- the fixture ----

const INDEX_TS = `import { add, multiply } from "./lib/math";
import { slugify } from "./lib/strings";
import { loadConfig } from "./lib/deep/nested/config";

// TODO: read the port from the environment
const PORT = 3000;

export function main(args: string[]): number {
  const config = loadConfig();
  // FIXME: handle a missing config file
  console.log(\`Starting \${config.name} on port \${PORT}\`);
  return add(args.length, multiply(2, 3)) + slugify(config.name).length;
}

main(process.argv.slice(2));
`;

const UTILS_TS = `export const VERSION = "1.4.2";

// TODO: replace with a real logger
export function log(message: string): void {
  console.log("[app] " + message);
}

export function debounce(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

export function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === "";
}
`;

const MATH_TS = `export function add(a: number, b: number): number {
  return a + b;
}

export function multiply(a: number, b: number): number {
  return a * b;
}

// FIXME: division by zero returns Infinity
export function divide(a: number, b: number): number {
  return a / b;
}
`;

const STRINGS_TS = `// TODO: support unicode slugs
export function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
`;

const CONFIG_TS = `export interface Config {
  name: string;
  port: number;
  debug: boolean;
}

export function loadConfig(): Config {
  // TODO: read config.json
  return { name: "demo app", port: 3000, debug: false };
}
`;

const APP_JS = `const express = require("express");
const app = express();

// TODO: add authentication middleware
app.get("/", (req, res) => {
  res.send("Hello World");
});

app.get("/health", (req, res) => {
  res.json({ status: "ok" });
});

app.listen(3000, () => console.log("listening on 3000"));
`;

const LEGACY_JS = `var count = 0;
var name = "legacy";

function increment() {
  count = count + 1;
  return count;
}

// FIXME: global state
var result = increment();
console.log(name, result);
`;

const MAIN_PY = `#!/usr/bin/env python3
"""Command line entry point."""
import sys


def parse_args(argv):
    # TODO: use argparse
    return argv[1:]


def main():
    args = parse_args(sys.argv)
    for arg in args:
        print(arg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;

const PACKAGE_JSON = `{
  "name": "demo-app",
  "version": "1.4.2",
  "description": "A small demo project",
  "main": "dist/index.js",
  "scripts": {
    "build": "tsc -p .",
    "test": "vitest run",
    "lint": "eslint src"
  },
  "dependencies": {
    "express": "^4.18.2",
    "left-pad": "^1.3.0"
  },
  "devDependencies": {
    "typescript": "^5.3.3",
    "vitest": "^1.2.0"
  },
  "private": true
}
`;

const TSCONFIG_JSON = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "strict": true,
    "outDir": "dist"
  },
  "include": ["src"]
}
`;

const CONFIG_JSON = `{"name":"demo app","port":3000,"debug":false,"tags":["web","api","demo"],"owner":{"name":"Ada","email":"ada@example.com"},"features":[{"name":"auth","enabled":true},{"name":"cache","enabled":false},{"name":"metrics","enabled":true}],"limits":null}
`;

const USERS_CSV = `id,name,email,age,city
1,Alice,alice@example.com,34,Berlin
2,Bob,bob@example.com,27,Paris
3,Carol,carol@example.com,45,London
4,Dave,dave@example.com,27,Berlin
5,Eve,eve@example.com,31,São Paulo
6,Frank,frank@example.com,52,Paris
7,Grace,grace@example.com,38,Tokyo
8,Heidi,heidi@example.com,29,Berlin
`;

const APP_LOG = `2024-01-15 10:00:01 INFO server started on port 3000
2024-01-15 10:00:02 INFO connected to database
2024-01-15 10:00:05 INFO GET / 200
2024-01-15 10:00:05 INFO GET / 200
2024-01-15 10:00:06 WARN slow query: 1200ms
2024-01-15 10:00:07 INFO GET /health 200
2024-01-15 10:00:09 ERROR failed to fetch user 42: timeout
2024-01-15 10:00:09 ERROR failed to fetch user 42: timeout
2024-01-15 10:00:10 INFO GET / 200
2024-01-15 10:00:11 INFO GET /api/users 200
2024-01-15 10:00:12 WARN deprecated endpoint /v1/users
2024-01-15 10:00:13 INFO GET / 200
2024-01-15 10:00:15 ERROR database connection lost
2024-01-15 10:00:16 INFO reconnecting
2024-01-15 10:00:17 INFO connected to database
2024-01-15 10:00:18 INFO GET /health 200
`;

const ERROR_LOG = `ERROR failed to fetch user 42: timeout
ERROR failed to fetch user 42: timeout
ERROR database connection lost
`;

const README_MD = `# Demo App

A small demo project — used for testing. Café, naïve, Ünïcödé ✓.

## Usage

    npm run build
    npm test

## TODO

- [ ] write docs
- [x] add tests
`;

const GUIDE_MD = `# Guide

Start with \`npm install\`, then run \`npm run build\`.
See also: the FAQ.
`;

const UNICODE_TXT = `naïve café
Αλφα Βήτα Γάμμα
日本語のテキスト
emoji: 😀 🚀
straße
`;

const WORDS_TXT = `banana
apple
cherry
apple
date
banana
apple
elderberry
fig
cherry
Banana
grape
`;

const NUMBERS_TXT = `10
2
33
-5
4.5
100
2
0
-12
7
`;

const SIZES_TXT = `1.5K
512
2M
1G
3K
900M
10
`;

const FRUITS_A = `apple
banana
cherry
date
fig
`;

const FRUITS_B = `banana
cherry
elderberry
fig
grape
`;

const ORDERS_TXT = `1 widget 3
2 gadget 1
2 gizmo 5
4 widget 2
7 doohickey 4
9 sprocket 6
`;

const NAMES_TXT = `1 Alice
2 Bob
3 Carol
4 Dave
5 Eve
6 Frank
7 Grace
8 Heidi
`;

const LOGO = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x10,
  0x00, 0x00, 0x00, 0x10, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0xf3, 0xff, 0x61, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
  0x44, 0xae, 0x42, 0x60, 0x82, 0x00, 0xff, 0x7f, 0x80, 0x41, 0x42, 0x43, 0x0a, 0x00, 0x01, 0x02, 0x03, 0xfe, 0xed, 0xfa,
  0xce, 0xde, 0xad, 0xbe, 0xef,
]);

/** The first generation of files (path relative to /workspace → content). */
const GEN1: Record<string, string | Uint8Array> = {
  "tsconfig.json": TSCONFIG_JSON,
  "README.md": README_MD,
  ".gitignore": "node_modules/\ndist/\n*.log\n.env\n",
  ".env": "API_URL=http://localhost:3000\nDEBUG=false\nSECRET=changeme\n",
  "src/utils.ts": UTILS_TS,
  "src/app.js": APP_JS,
  "src/legacy.js": LEGACY_JS,
  "src/main.py": MAIN_PY,
  "src/lib/math.ts": MATH_TS,
  "src/lib/deep/nested/config.ts": CONFIG_TS,
  "docs/guide/intro.md": GUIDE_MD,
  "data/users.csv": USERS_CSV,
  "data/config.json": CONFIG_JSON,
  "data/words.txt": WORDS_TXT,
  "data/numbers.txt": NUMBERS_TXT,
  "data/sizes.txt": SIZES_TXT,
  "data/fruits-a.txt": FRUITS_A,
  "data/fruits-b.txt": FRUITS_B,
  "data/orders.txt": ORDERS_TXT,
  "data/report.tsv": "name\tqty\tprice\nwidget\t3\t9.99\ngadget\t10\t24.50\ngizmo\t1\t199.00\n",
  "data/names.txt": NAMES_TXT,
  "logs/error.log": ERROR_LOG,
  "notes/meeting notes.txt": "Meeting notes\n- ship v1.5\n- TODO: update the changelog\n",
  "notes/unicode.txt": UNICODE_TXT,
  "v1/app.conf": "port=3000\nhost=localhost\ndebug=false\nworkers=4\n",
  "v1/README": "version 1\n",
  "v2/app.conf": "port=8080\nhost=localhost\ndebug=true\nworkers=4\n",
  "v2/README": "version 1\n",
  "v2/CHANGES": "switched to port 8080\n",
  "node_modules/left-pad/index.js": "// TODO: deprecate\nmodule.exports = function leftPad(s, n) { return s.padStart(n); };\n",
  "node_modules/left-pad/package.json": '{"name":"left-pad","version":"1.3.0"}\n',
  "assets/logo.png": LOGO,
  "empty.txt": "",
  "no-newline.txt": "first line\nlast line without newline",
  // last: the files newer than package.json are those of the second generation (and the symlinks)
  "package.json": PACKAGE_JSON,
};

/** The second generation, written a few milliseconds after the first (see `find -newer package.json`). */
const GEN2: Record<string, string | Uint8Array> = {
  "src/index.ts": INDEX_TS,
  "src/lib/strings.ts": STRINGS_TS,
  "logs/app.log": APP_LOG,
  "notes/todo.md": "# TODO\n\n1. fix the flaky test\n2. FIXME: remove legacy.js\n",
};

const EMPTY_DIRS = ["tmp", "build/cache"];
const SYMLINKS: Array<[link: string, target: string]> = [
  ["link-to-index.ts", "src/index.ts"],
  ["lib", "src/lib"],
  ["dangling-link", "nowhere.txt"],
];

/** Every path of the fixture, parents before children ("" is /workspace itself). */
function allPaths(): string[] {
  const set = new Set<string>([""]);
  for (const p of [...Object.keys(GEN1), ...Object.keys(GEN2), ...EMPTY_DIRS, ...SYMLINKS.map(([l]) => l)]) {
    const parts = p.split("/");
    for (let i = 1; i <= parts.length; i++) set.add(parts.slice(0, i).join("/"));
  }
  return [...set].sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const shellQuote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

// ---- the host ----

let hostTools: Map<string, boolean> | undefined;

/** Whether this host has the command (as bash finds it). */
export function hostHas(command: string): boolean {
  hostTools ??= new Map();
  let have = hostTools.get(command);
  if (have === undefined) {
    have = spawnSync("bash", ["--norc", "--noprofile", "-c", `command -v ${shellQuote(command)}`], { stdio: "ignore" }).status === 0;
    hostTools.set(command, have);
  }
  return have;
}

/** Whether this host has GNU bash and GNU coreutils, the baseline of the whole suite. */
export function hostHasGnu(): boolean {
  const ls = spawnSync("bash", ["--norc", "--noprofile", "-c", "ls --version; bash --version"], { encoding: "utf8" });
  return ls.status === 0 && ls.stdout.includes("GNU coreutils") && ls.stdout.includes("GNU bash");
}

/** Whether every command a group needs is on this host. */
export const hostCanRun = (g: ToolGroup): boolean => (g.requires ?? [g.tool]).every(hostHas);

const HOST_ENV = { PATH: process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", LC_ALL: "C", TZ: "UTC", HOME: "/home/user" };

/** A named pipe's two ends, opened without blocking (a third, read-write open stands in for the other end meanwhile). */
function fifoEnds(path: string): { read: number; write: number } {
  const hold = openSync(path, constants.O_RDWR);
  try {
    return { read: openSync(path, constants.O_RDONLY), write: openSync(path, constants.O_WRONLY) };
  } finally {
    closeSync(hold);
  }
}

/** Everything written to the read end `fd` until every writer has closed it. */
function readAll(fd: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket({ fd, readable: true, writable: false });
    const chunks: Buffer[] = [];
    socket.on("data", (b: Buffer) => chunks.push(b));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

/**
 * bash + GNU in `dir`, with stdout and stderr pipes as the VM's exec has them (node's own stdio pipes are
 * sockets, which /dev/stdout cannot reopen): named pipes `fifos.out` and `fifos.err`, and stdin /dev/null.
 * With stdin the case runs as in test/service/stdio.test.ts instead: an anonymous pipe from a process
 * substitution (a named pipe cannot be reopened as /dev/stdin once its writer is gone; a feeder in the
 * pipeline would make pipefail report its SIGPIPE), and stdout and stderr through `cat`.
 */
function onHost(dir: string, fifos: { out: string; err: string }, command: string, stdin: string | undefined): Promise<ExecResult> {
  let child: ChildProcess;
  let stdout: Promise<string>;
  let stderr: Promise<string>;
  if (stdin === undefined) {
    const out = fifoEnds(fifos.out);
    const err = fifoEnds(fifos.err);
    child = spawn("bash", ["--norc", "--noprofile", "-c", command, "sh"], { cwd: dir, stdio: ["ignore", out.write, err.write], env: HOST_ENV });
    closeSync(out.write);
    closeSync(err.write);
    stdout = readAll(out.read);
    stderr = readAll(err.read);
  } else {
    const run = `bash --norc --noprofile -c "$2" sh < <(printf %s "$3") 2>&1 1>&3 3>&- | cat >&2`;
    const script = `set -o pipefail; cd "$1" || exit 99; { ${run}; } 3>&1 | cat`;
    child = spawn("bash", ["--norc", "--noprofile", "-c", script, "bash", dir, command, stdin], { stdio: ["ignore", "pipe", "pipe"], env: HOST_ENV });
    stdout = readStream(child.stdout!);
    stderr = readStream(child.stderr!);
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_DEADLINE_MS);
  const status = new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve(code ?? 128 + (signal === "SIGKILL" ? 9 : 15)));
  });
  return Promise.all([status, stdout, stderr]).then(([exitCode, out, err]) => {
    clearTimeout(timer);
    return { exitCode, stdout: out, stderr: err };
  });
}

function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (b: Buffer) => chunks.push(b));
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}

// ---- both ----

export interface Outcome {
  vm: ExecResult;
  host: ExecResult;
}

export const sameOutcome = (o: Outcome): boolean =>
  o.vm.exitCode === o.host.exitCode && o.vm.stdout === o.host.stdout && o.vm.stderr === o.host.stderr;

/** One VM and a host directory; `run` gives both a pristine fixture tree and runs a case in both. */
export class ToolsDiffer {
  readonly #vm: AgentOs;
  readonly #base: string;
  readonly #fifos: { out: string; err: string };
  readonly #paths = allPaths();
  #caseNo = 0;

  private constructor(vm: AgentOs, base: string) {
    this.#vm = vm;
    this.#base = base;
    this.#fifos = { out: join(base, "stdout.fifo"), err: join(base, "stderr.fifo") };
    for (const fifo of Object.values(this.#fifos)) {
      const r = spawnSync("mkfifo", [fifo], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`mkfifo: ${r.stderr}`);
    }
  }

  static async create(): Promise<ToolsDiffer> {
    const vm = await AgentOs.create();
    // tmpfs, where it is there: see #writeHostTree.
    const shm = existsSync("/dev/shm") && statSync("/dev/shm").isDirectory() ? "/dev/shm" : tmpdir();
    const base = mkdtempSync(join(shm, "agentos-tools-diff-"));
    chmodSync(base, 0o755);
    return new ToolsDiffer(vm, base);
  }

  async dispose(): Promise<void> {
    await this.#vm.dispose();
    rmSync(this.#base, { recursive: true, force: true });
  }

  /**
   * The fixture on the host, each directory's entries created in reverse name order: on tmpfs a directory
   * lists its entries newest first, so readdir, and with it `find`, `grep -r`, `du` and `tar c`, then sees
   * them in name order, as the VM's file system lists them.
   */
  #writeHostTree(root: string): void {
    const children = new Map<string, string[]>();
    for (const p of this.#paths) {
      if (p === "") continue;
      const parent = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "";
      children.set(parent, [...(children.get(parent) ?? []), p]);
    }
    const files: Record<string, string | Uint8Array> = { ...GEN1, ...GEN2 };
    const links = new Map(SYMLINKS);
    const make = (dir: string): void => {
      const entries = (children.get(dir) ?? []).sort((a, b) => Buffer.compare(Buffer.from(b), Buffer.from(a)));
      for (const p of entries) {
        const path = join(root, p);
        if (links.has(p)) symlinkSync(links.get(p)!, path);
        else if (p in files) writeFileSync(path, files[p]!, { mode: 0o644 });
        else {
          mkdirSync(path, { mode: 0o755 });
          make(p);
        }
      }
    };
    mkdirSync(root, { mode: 0o755 });
    make("");
  }

  /**
   * A pristine /workspace in the VM; returns every path's mtime (ms) there. Creating a symlink takes a
   * process (the API has no symlink call), so the fixture's symlinks are kept when a case left them as
   * they were (what they resolve to is checked by inode); everything else is deleted and written again.
   */
  async #resetVm(): Promise<Map<string, number>> {
    const vm = this.#vm;
    const ws = (p: string): string => (p === "" ? "/workspace" : `/workspace/${p}`);
    if (!(await vm.exists("/workspace"))) await vm.mkdir("/workspace");
    const intact = new Set<string>();
    for (const [link, target] of SYMLINKS) {
      const st = await vm.lstat(ws(link)).catch(() => undefined);
      if (st?.isSymbolicLink && st.size === target.length) intact.add(link);
    }
    const inode = async (p: string): Promise<number | undefined> => (await vm.stat(ws(p)).catch(() => undefined))?.ino;
    for (const name of await vm.readdir("/workspace"))
      if (!intact.has(name)) await vm.delete(ws(name), { recursive: true });
    const write = async (files: Record<string, string | Uint8Array>): Promise<void> => {
      const results = await vm.writeFiles(Object.entries(files).map(([p, content]) => ({ path: ws(p), content })));
      for (const r of results) if (!r.success) throw new Error(`fixture ${r.path}: ${r.error}`);
    };
    await write(GEN1);
    for (const d of EMPTY_DIRS) await vm.mkdir(ws(d), { recursive: true });
    // A kept link must resolve to the new target (the same inode), or, if it dangled, still dangle.
    for (const [link, target] of SYMLINKS) if (intact.has(link) && (await inode(link)) !== (await inode(target))) intact.delete(link);
    const missing = SYMLINKS.filter(([l]) => !intact.has(l));
    if (missing.length > 0) {
      const ln = missing.map(([l, t]) => `rm -rf ${shellQuote(l)} && ln -s ${shellQuote(t)} ${shellQuote(l)}`).join(" && ");
      const r = await vm.exec(ln, { cwd: "/workspace" });
      if (r.exitCode !== 0) throw new Error(`fixture symlinks: ${r.stderr}`);
    }
    await sleep(5);
    await write(GEN2);
    const times = new Map<string, number>();
    for (const p of this.#paths) times.set(p, (await vm.lstat(ws(p))).mtimeMs);
    return times;
  }

  /** A pristine copy of the fixture on the host with the VM's mtimes (children before parents). */
  #resetHost(times: Map<string, number>): string {
    const dir = join(this.#base, `case${this.#caseNo++}`, "workspace");
    mkdirSync(dirname(dir), { mode: 0o755 });
    this.#writeHostTree(dir);
    for (const p of [...this.#paths].reverse()) {
      const t = times.get(p)! / 1000;
      const isLink = SYMLINKS.some(([l]) => l === p);
      (isLink ? lutimesSync : utimesSync)(join(dir, p), t, t);
    }
    return dir;
  }

  async run(c: ToolCase): Promise<Outcome> {
    const times = await this.#resetVm();
    const dir = this.#resetHost(times);
    try {
      const [vm, host] = await Promise.all([
        this.#vm.exec(c.cmd, { cwd: "/workspace", env: { LC_ALL: "C", TZ: "UTC" }, timeout: RUN_DEADLINE_MS, ...(c.stdin === undefined ? {} : { stdin: c.stdin }) }),
        onHost(dir, this.#fifos, c.cmd, c.stdin),
      ]);
      return { vm, host };
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  }
}

// ---- reporting ----

/** Lines only in a (-) and only in b (+), in order, from a longest common subsequence (small inputs). */
function lineDiff(a: string, b: string, max = 40): string[] {
  const x = a.split("\n");
  const y = b.split("\n");
  if (x.length * y.length > 4_000_000) return [`- (${x.length} lines)`, `+ (${y.length} lines)`];
  const n = x.length;
  const m = y.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) {
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push(`- ${JSON.stringify(x[i++]).slice(1, -1)}`);
    else out.push(`+ ${JSON.stringify(y[j++]).slice(1, -1)}`);
  }
  return out.length > max ? [...out.slice(0, max), `  … ${out.length - max} more`] : out;
}

/** A compact account of how the VM's result (-) differs from the host's (+). */
export function describeDifference(o: Outcome): string {
  const parts: string[] = [];
  if (o.vm.exitCode !== o.host.exitCode) parts.push(`  exit: vm ${o.vm.exitCode}, host ${o.host.exitCode}`);
  for (const stream of ["stdout", "stderr"] as const) {
    if (o.vm[stream] === o.host[stream]) continue;
    parts.push(`  ${stream}:`, ...lineDiff(o.vm[stream], o.host[stream]).map((l) => `    ${l}`));
  }
  return parts.join("\n");
}

/** Several differs (one VM each) that run cases side by side: `run` waits for a free one. */
export class DifferPool {
  readonly #free: ToolsDiffer[];
  readonly #all: ToolsDiffer[];
  readonly #waiting: Array<(d: ToolsDiffer) => void> = [];

  private constructor(differs: ToolsDiffer[]) {
    this.#all = differs;
    this.#free = [...differs];
  }

  static async create(size: number): Promise<DifferPool> {
    return new DifferPool(await Promise.all(Array.from({ length: size }, () => ToolsDiffer.create())));
  }

  async run(c: ToolCase): Promise<Outcome> {
    const differ = this.#free.pop() ?? (await new Promise<ToolsDiffer>((resolve) => this.#waiting.push(resolve)));
    try {
      return await differ.run(c);
    } finally {
      const next = this.#waiting.shift();
      if (next) next(differ);
      else this.#free.push(differ);
    }
  }

  async dispose(): Promise<void> {
    await Promise.all(this.#all.map((d) => d.dispose()));
  }
}
