// Public pure-JavaScript projects' own test suites, run by the guest `node` and by the host's `node`.
//
// Each project is installed from the npm registry with the dev dependencies its tests need: the package tarball of
// each project here ships its tests. test/fixtures/real-projects/<dir>/ holds a package.json naming the project
// and its test runner (tape, tap, mocha or node's own) and the package-lock.json that pins every version; set-up
// runs `npm ci` from it into a cache directory keyed by the lockfile's hash, so the first run installs and later
// runs (and CI on the same machine) reuse it. Nothing of it is committed. The registry is the only source of
// projects reachable without the internet, so projects whose tarballs ship no tests (express, send, fs-extra,
// js-yaml, debug, webidl-conversions, commander, any jest project) are not here.
//
// A suite may write into its own tree: the host runs in a fresh copy of the installed tree, the VM in an overlay
// mount of it at the same path (the VM's writes stay in the VM). Both run the project's own test command, the
// one its package.json's `test` script runs (less coverage, lint and browser steps), from the project's directory.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ExecResult } from "../../src/index.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures/real-projects", import.meta.url));

export interface Project {
  /** The row's name. */
  name: string;
  /** The fixture directory under test/fixtures/real-projects (its package.json and lockfile). */
  fixture: string;
  /** The npm package whose tests run: the command runs in node_modules/<package>. */
  package: string;
  /** The project's own test command (its package.json's test script, without coverage or lint steps). */
  command: string;
  /** Set where the suite asserts with `assert` and the runner counts no results: the exit code and output judge. */
  uncounted?: true;
}

export const PROJECTS: Project[] = [
  { name: "minimist 1.2.8 (tape)", fixture: "minimist", package: "minimist", command: "../.bin/tape 'test/**/*.js'" },
  { name: "minimist 1.2.8 (node --test)", fixture: "minimist", package: "minimist", command: "node --test --test-reporter=tap" },
  { name: "qs 6.13.0 (tape)", fixture: "qs", package: "qs", command: "../.bin/tape 'test/**/*.js'" },
  { name: "deep-equal 2.2.3 (tape)", fixture: "deep-equal", package: "deep-equal", command: "../.bin/tape 'test/**/*.js'" },
  { name: "side-channel 1.1.0 (tape)", fixture: "side-channel", package: "side-channel", command: "../.bin/tape 'test/**/*.js'" },
  { name: "json-stable-stringify 1.1.1 (tape)", fixture: "json-stable-stringify", package: "json-stable-stringify", command: "../.bin/tape 'test/**/*.js'" },
  { name: "through 2.3.8 (tape 2, streams)", fixture: "through", package: "through", command: "set -e; for t in test/*.js; do node $t; done" },
  { name: "xtend 4.0.2 (tape 1)", fixture: "xtend", package: "xtend", command: "node test" },
  { name: "semver 5.0.3 (tap 1, a child per file)", fixture: "semver", package: "semver", command: "../.bin/tap test/*.js" },
  { name: "events 3.3.0 (tape)", fixture: "events", package: "events", command: "node tests/index.js", uncounted: true },
  { name: "path-browserify 1.0.1 (tape 4)", fixture: "path-browserify", package: "path-browserify", command: "node test" },
  { name: "url 0.11.0 (mocha 10)", fixture: "url", package: "url", command: "../.bin/mocha --ui qunit test.js" },
  { name: "wordwrap 1.0.0 (tape 4)", fixture: "wordwrap", package: "wordwrap", command: "../.bin/tape test/*.js" },
  { name: "duplexify 3.7.1 (tape 4, streams)", fixture: "duplexify", package: "duplexify", command: "../.bin/tape test.js" },
  { name: "bl 1.2.3 (tape 4, buffers and streams)", fixture: "bl", package: "bl", command: "node test/test.js" },
  { name: "rc 1.2.8 (plain node)", fixture: "rc", package: "rc", command: "set -e; node test/test.js; node test/ini.js; node test/nested-env-vars.js", uncounted: true },
];

const CACHE = path.join(os.tmpdir(), "agentos-real-projects");

/** npm's environment of this process without what a package manager running the tests set (npm_config_*, …). */
function npmEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^npm_(?!config_(registry|cache)$)/i.test(key)) delete env[key];
  return env;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_DEADLINE_MS);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? (signal === "SIGKILL" ? 137 : 128), stdout, stderr });
    });
  });
}

/**
 * The fixture installed with `npm ci` (scripts off: these are test trees, nothing to build), in a directory of the
 * cache named after the lockfile's hash; a directory is renamed into place only once complete.
 */
export async function install(fixture: string): Promise<string> {
  const lock = fs.readFileSync(path.join(FIXTURES, fixture, "package-lock.json"));
  const hash = createHash("sha256").update(lock).update(fs.readFileSync(path.join(FIXTURES, fixture, "package.json"))).digest("hex").slice(0, 16);
  const dir = path.join(CACHE, `${fixture}-${hash}`);
  if (fs.existsSync(path.join(dir, "node_modules"))) return dir;
  fs.mkdirSync(CACHE, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(CACHE, `.${fixture}-`));
  fs.copyFileSync(path.join(FIXTURES, fixture, "package.json"), path.join(tmp, "package.json"));
  fs.writeFileSync(path.join(tmp, "package-lock.json"), lock);
  const r = await run("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], tmp, npmEnv());
  if (r.exitCode !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`npm ci in ${fixture} failed (exit ${r.exitCode}): ${r.stderr}`);
  }
  try {
    fs.renameSync(tmp, dir);
  } catch (e) {
    // Another run installed it first.
    if (!fs.existsSync(path.join(dir, "node_modules"))) throw e;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

/** What both sides' environment holds: the VM's kind of environment, no colours, no CI variables; HOME is the copy. */
export const envFor = (root: string): Record<string, string> => ({ LANG: "C.UTF-8", HOME: root, NO_COLOR: "1", FORCE_COLOR: "0" });

/**
 * A fresh copy of the installed tree for the host's run, at a path the VM mounts the same tree at: both sides see
 * the same paths (in stack traces, and in how util.inspect breaks lines that hold them). Removed after `fn`.
 */
export async function inCopy<T>(installed: string, fn: (root: string) => Promise<T>): Promise<T> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentos-real-project-"));
  try {
    // Hard links (GNU cp -l), a copy in a second where a real one of a few thousand files takes many on a loaded
    // machine: the suites here add and remove files of their own, none rewrites an installed file in place.
    const cp = spawnSync("cp", ["-al", `${installed}/.`, root], { encoding: "utf8" });
    if (cp.status !== 0) throw new Error(`cp -al ${installed} ${root}: ${cp.stderr}`);
    return await fn(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The project's test command on the host, in the copy at `root`. */
export async function runOnHost(p: Project, root: string): Promise<ExecResult & { ms: number }> {
  const started = performance.now();
  const r = await run("/bin/sh", ["-c", p.command], path.join(root, "node_modules", p.package), {
    PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    ...envFor(root),
  });
  return { ...r, ms: performance.now() - started };
}

/**
 * Counts a test runner printed: TAP's `# pass`/`# fail` (tape, node --test) or mocha's `N passing`/`N failing`
 * (mocha, and tap 1's classic reporter, in colour).
 */
export function counts(coloured: string): { pass: number; fail: number } | undefined {
  const output = coloured.replace(/\x1b\[[0-9;]*m/g, "");
  const num = (re: RegExp): number | undefined => {
    let n: number | undefined;
    for (const m of output.matchAll(re)) n = (n ?? 0) + Number(m[1]);
    return n;
  };
  const pass = num(/^# pass\s+(\d+)$/gm) ?? num(/^\s*(\d+) passing\b/gm);
  const fail = num(/^# fail\s+(\d+)$/gm) ?? num(/^\s*(\d+) failing\b/gm);
  return pass === undefined && fail === undefined ? undefined : { pass: pass ?? 0, fail: fail ?? 0 };
}

/** The output with what differs from run to run set aside: timings, durations, pids, rc's random file names. */
export function normalise(output: string): string {
  return output
    .replace(/\brc0\.\d+/gi, "rc0.*")
    .replace(/duration_ms:? [\d.]+/g, "duration_ms *")
    .replace(/# time=[\d.]+m?s/g, "# time=*")
    // mocha marks a test it found slow with its time, which a loaded machine decides.
    .replace(/ \([\d.]+m?s\)$/gm, "")
    // Any other time in parentheses, tap's summary's too ("1637 passing (972.135ms)", before its colour's end).
    .replace(/\([\d.]+m?s\)/g, "(*ms)")
    .replace(/\(node:\d+\)/g, "(node:*)");
}
