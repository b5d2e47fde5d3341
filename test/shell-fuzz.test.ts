import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";
import { allCases } from "./oils-spec-harness.js";

/**
 * The shell never panics: scripts made from the Oils spec corpus (test/oils-spec/), some cut and spliced at
 * random, some whole with random damage (a character or a line removed, a line repeated, a token of
 * shell syntax inserted), run in the VM. None may print Go's panic text or a goroutine dump, and none may
 * run past its deadline unless bash on this host does too. The scripts come from a fixed seed, so a
 * failure is reproducible: FUZZ_SEED and FUZZ_COUNT choose others (a few thousand for a longer search).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 26);
const COUNT = Number(process.env.FUZZ_COUNT ?? 300);
/** A deadline for a hang, not a measure of speed: a script that bash also does not finish is not a failure. */
const SCRIPT_DEADLINE_MS = 30_000;

/** mulberry32: a small deterministic generator. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = ["(", ")", "{", "}", "((", "))", "$((", "${", "}", "[[", "]]", "[", "]", '"', "'", "`", "$(", "|", "||", "&&", ";", ";;", "&", "<<EOF", "<<-", "<<<", ">&", "<&", "2>&1", "\\", "$", "#", "!", "@(", "*(", "a[", "[@]", "${#", "${!", ":-", ":=", "%%", "##", "//", "=~", "let ", "declare -A ", "local ", "read -r ", "set -e; ", "shopt -s extglob; ", "IFS=: ", "\n", "fi", "done", "esac", "then", "do"];

function scripts(): string[] {
  const rnd = random(SEED);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  // Scripts that wait for input or for time are left out: they would only measure the deadline.
  const corpus = allCases()
    .map((c) => c.code)
    .filter((code) => !/\bsleep\b|\bwait\b|\bkill\b|\btrap\b|\bwhile\b|\buntil\b|\bread\b|\bcat\b\s*($|[|;)])|\$SH|exec|\bfor\b|\brm\b/.test(code));
  const out: string[] = [];
  while (out.length < COUNT) {
    let lines = pick(corpus).split("\n");
    switch (Math.floor(rnd() * 5)) {
      case 0: // splice two scripts
        lines = [...lines.slice(0, Math.floor(rnd() * lines.length)), ...pick(corpus).split("\n").slice(Math.floor(rnd() * 3))];
        break;
      case 1: // drop a line
        lines.splice(Math.floor(rnd() * lines.length), 1);
        break;
      case 2: // repeat a line
        lines.splice(Math.floor(rnd() * lines.length), 0, pick(lines));
        break;
      default: {
        // damage one line: remove a character or insert a token
        const i = Math.floor(rnd() * lines.length);
        const line = lines[i]!;
        const at = Math.floor(rnd() * (line.length + 1));
        lines[i] = rnd() < 0.4 ? line.slice(0, at) + line.slice(at + 1) : line.slice(0, at) + pick(TOKENS) + line.slice(at);
      }
    }
    out.push(lines.join("\n"));
  }
  return out;
}

const PANIC = /panic:|goroutine \d+ \[|runtime error:|fatal error:/;

function bashEnds(script: string): boolean {
  if (!existsSync("/bin/bash")) return false;
  const r = spawnSync("/bin/bash", ["-c", script, "sh"], { cwd: "/tmp", stdio: "ignore", timeout: SCRIPT_DEADLINE_MS, killSignal: "SIGKILL" });
  return r.error === undefined && r.signal === null;
}

describe("the shell on damaged and spliced scripts", () => {
  let vm: AgentOs;
  const results: Array<{ script: string; stdout: string; stderr: string; exitCode: number }> = [];
  beforeAll(async () => {
    vm = await AgentOs.create();
    await vm.mkdir("/tmp/fuzz", { recursive: true });
    const all = scripts();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < all.length) {
        const script = all[next++]!;
        const r = await vm.exec(script, { cwd: "/tmp/fuzz", timeout: SCRIPT_DEADLINE_MS, maxOutputBytes: 1 << 20 });
        results.push({ script, ...r });
      }
    };
    await Promise.all([0, 1, 2, 3].map(worker));
  }, RUN_DEADLINE_MS * 10);
  afterAll(async () => {
    await vm?.dispose();
  });

  it(`runs ${COUNT} scripts (seed ${SEED}) without a panic`, () => {
    expect(results.length).toBe(COUNT);
    const panics = results.filter((r) => PANIC.test(r.stderr) || PANIC.test(r.stdout)).map((r) => `${r.script}\n--- ${r.stderr.slice(0, 500)}`);
    expect(panics).toEqual([]);
  });

  it("ends every script that bash ends", () => {
    const hung = results.filter((r) => r.exitCode === 124 && r.stderr.endsWith(`agentos: timed out after ${SCRIPT_DEADLINE_MS} ms\n`));
    expect(hung.filter((r) => bashEnds(r.script)).map((r) => r.script)).toEqual([]);
  });
});
